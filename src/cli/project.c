/* project.c — see project.h. */
#include "cli/project.h"
#include "cli/cli_table.h"
#include "cli/clobber.h"
#include "cli/inputs.h"
#include "cli/skip.h"
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *project_cwd(void)
{
  char buf[4096];
  if (!getcwd(buf, sizeof buf)) strcpy(buf, "/");
  char *real = realpath(buf, NULL);
  return real ? real : xstrdup(buf);
}

/* Absolute, with symlinks resolved when the path exists: file names from
 * libclang are real paths, and the root must be comparable with them. */
static char *project_abs(const char *path)
{
  char *real = realpath(path, NULL);
  if (real) return real;
  char *cwd = project_cwd();
  char *abs = cdb_abspath(cwd, path);
  free(cwd);
  return abs;
}

char *project_root_default(const cli_opts *o)
{
  return o->root ? project_abs(o->root) : project_cwd();
}

static int file_exists(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A CMake build tree names the source tree it was configured from: that,
 * not the build directory, is the project root users think in. */
static char *project_cmake_source(const char *dbdir)
{
  char *cache = xasprintf("%s/CMakeCache.txt", dbdir);
  FILE *f = fopen(cache, "r");
  free(cache);
  if (!f) return NULL;
  char line[4096], *src = NULL;
  static const char key[] = "CMAKE_HOME_DIRECTORY:INTERNAL=";
  while (!src && fgets(line, sizeof line, f))
    if (!strncmp(line, key, sizeof key - 1)) {
      line[strcspn(line, "\r\n")] = '\0';
      src = xstrdup(line + sizeof key - 1);
    }
  fclose(f);
  struct stat st;
  if (src && (stat(src, &st) != 0 || !S_ISDIR(st.st_mode))) { free(src); src = NULL; }
  return src;
}

/* A Meson build directory records its source directory in
 * meson-info/meson-info.json ("directories": {"source": …}). */
static char *project_meson_source(const char *dbdir)
{
  char *info = xasprintf("%s/meson-info/meson-info.json", dbdir);
  json_t *root = json_load_file(info, 0, NULL);
  free(info);
  const char *dir = json_string_value(json_object_get(json_object_get(root, "directories"), "source"));
  struct stat st;
  char *src = dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? xstrdup(dir) : NULL;
  json_decref(root);
  return src;
}

/* The source tree a build directory was configured from (CMake, Meson),
 * or NULL: that, not the build directory, is the project root. */
static char *project_build_source(const char *dbdir)
{
  char *src = project_cmake_source(dbdir);
  return src ? src : project_meson_source(dbdir);
}

static const char *project_find_db(const cli_opts *o)
{
  if (o->db) return o->db;
  if (file_exists("compile_commands.json")) return ".";
  if (file_exists("build/compile_commands.json")) return "build";
  return NULL;
}

char *project_root_for_link(const cli_opts *o)
{
  if (o->root || !o->db) return project_root_default(o);
  char *dbdir = project_abs(o->db);
  char *src = project_build_source(dbdir);
  char *root = project_abs(src ? src : dbdir);
  free(src);
  free(dbdir);
  return root;
}

static char *project_db_root(const cli_opts *o, const char *dbpath);

/* -o and --write-baseline must not name the database or a source it
 * lists (cli/clobber.h). */
static int project_check_output(const cli_opts *o, const char *dbpath, const fe_jobs *jobs, char **err)
{
  clobber_outs c;
  clobber_outs_init(&c, o);
  if (clobber_outs_check(&c, dbpath, err) < 0) return -1;
  for (size_t i = 0; i < jobs->n; i++)
    if (clobber_outs_check(&c, jobs->v[i].file, err) < 0) return -1;
  return 0;
}

/* Is `file` (as named on the command line) one of the jobs' main files? */
static bool project_has_file(const fe_jobs *jobs, const char *file)
{
  char *abs = project_abs(file);
  bool found = false;
  for (size_t i = 0; i < jobs->n && !found; i++) {
    char *real = realpath(jobs->v[i].file, NULL);
    found = !strcmp(real ? real : jobs->v[i].file, abs);
    free(real);
  }
  free(abs);
  return found;
}

/* A file named as the project root sees it, from somewhere else
 * (`purist explain -p proj lib/a.c` run outside proj): that path, which
 * the database compiles, or NULL. Files are named from the current
 * directory, as clang-tidy's; this only says so. */
static char *project_db_relative(const cli_opts *o, const char *dbpath, const fe_jobs *jobs, const char *file)
{
  if (file[0] == '/') return NULL;
  char *root = project_db_root(o, dbpath);
  char *there = xasprintf("%s/%s", root, file);
  free(root);
  if (access(there, R_OK) == 0 && project_has_file(jobs, there)) return there;
  free(there);
  return NULL;
}

/* -p DIR FILE...: every file named must be one the database compiles. */
static int project_check_named(const cli_opts *o, const char *dbpath, const fe_jobs *jobs, char **err)
{
  for (size_t i = 0; i < o->files.n; i++) {
    const char *file = o->files.v[i];
    if (project_has_file(jobs, file)) continue;
    int gone = access(file, R_OK) != 0 ? errno : 0;
    char *there = gone ? project_db_relative(o, dbpath, jobs, file) : NULL;
    if (there)
      *err = xasprintf("%s: %s (files are named from the current directory; the database "
                       "compiles %s)", file, strerror(gone), there);
    else if (gone)
      *err = xasprintf("%s: %s", file, strerror(gone));
    else
      *err = xasprintf("%s is not compiled by %s: name a file it lists, or analyse it alone "
                       "with its flags after -- (purist %s %s -- -Iinclude)",
                       file, dbpath, cli_cmd_def(o->cmd)->name, file);
    free(there);
    return -1;
  }
  return 0;
}

/* summarize -p DIR FILE...: only the files named are summarised (a
 * summary is one file's own; the rest of the database adds nothing to it). */
static void project_keep_named(const cli_opts *o, fe_jobs *jobs)
{
  fe_jobs drop = {0};
  size_t k = 0;
  for (size_t i = 0; i < jobs->n; i++) {
    fe_jobs one = { &jobs->v[i], 1, 1 };
    bool named = false;
    for (size_t f = 0; f < o->files.n && !named; f++) named = project_has_file(&one, o->files.v[f]);
    if (named) jobs->v[k++] = jobs->v[i];
    else vec_push(&drop, jobs->v[i]);
  }
  jobs->n = k;
  cdb_jobs_free(&drop);
}

/* The project root of a database at dbpath: --root, else the source
 * directory of its CMake or Meson build tree, else its directory. */
static char *project_db_root(const cli_opts *o, const char *dbpath)
{
  if (o->root) return project_abs(o->root);
  char *slash = strrchr(dbpath, '/');
  char *dbdir = xstrndup(dbpath, slash && slash != dbpath ? (size_t)(slash - dbpath) : 1);
  char *src = project_build_source(dbdir);
  char *root = project_abs(src ? src : dbdir);
  free(src);
  free(dbdir);
  return root;
}

int project_jobs_skip(const cli_opts *o, fe_jobs *jobs, char **root, char **err, char **skipped, skip_list *left)
{
  if (o->files.n && !o->db) {   /* FILE... -- FLAGS: no database */
    *root = project_root_default(o);
    return cdb_from_files(o->files.v, (int)o->files.n, o->flags.v, (int)o->flags.n, jobs, err, skipped);
  }
  const char *db = project_find_db(o);
  if (!db) {
    *err = xstrdup("no compile_commands.json in . or build/: name its directory with -p DIR "
                   "(purist infer -p build), or name files with their flags (purist infer a.c b.c -- -Iinclude)");
    return -1;
  }
  char *dbpath = NULL;
  if (cdb_load_lenient(db, jobs, &dbpath, err, skipped) < 0) return -1;
  if (project_check_named(o, dbpath, jobs, err) < 0 || project_check_output(o, dbpath, jobs, err) < 0) {
    free(dbpath);
    return -1;
  }
  if (o->files.n && o->cmd == CMD_SUMMARIZE) project_keep_named(o, jobs);
  if (o->flags.n && o->cmd != CMD_VERIFY)   /* verify: the command to run */
    cdb_add_flags(jobs, o->flags.v, (int)o->flags.n);
  *root = project_db_root(o, dbpath);
  free(dbpath);
  skip_jobs(o, *root, jobs, left);
  if (jobs->n == 0) {   /* nothing left to analyse: say so rather than analyse nothing */
    char *what = skip_describe(left, *root);
    *err = xasprintf("every entry of the compile database is left out: %s", what);
    free(what);
    cdb_jobs_free(jobs);
    free(*root);
    *root = NULL;
    if (skipped) { free(*skipped); *skipped = NULL; }
    return -1;
  }
  return 0;
}

int project_jobs(const cli_opts *o, fe_jobs *jobs, char **root, char **err, char **skipped)
{
  skip_list left = {0};   /* said by cmd_parse_project, which every caller runs first */
  int rc = project_jobs_skip(o, jobs, root, err, skipped, &left);
  skip_list_free(&left);
  return rc;
}

char *project_config_start(const cli_opts *o)
{
  if (o->root) return project_abs(o->root);
  const char *db = o->files.n && !o->db ? NULL : project_find_db(o);
  if (!db) return project_cwd();
  char *abs = project_abs(db);
  struct stat st;
  if (stat(abs, &st) == 0 && !S_ISDIR(st.st_mode)) {   /* -p names the file itself */
    char *slash = strrchr(abs, '/');
    slash[slash == abs] = '\0';
  }
  char *src = project_build_source(abs);
  if (src) {
    free(abs);
    abs = project_abs(src);
    free(src);
  }
  return abs;
}

bool project_narrows(const cli_opts *o)
{
  return o->db && o->files.n && o->cmd != CMD_LINK && !inputs_is_summary_file(o->files.v[0]);
}

/* Does the database at db compile every file named? */
static bool project_db_lists(const cli_opts *o, const char *db)
{
  fe_jobs jobs = {0};
  char *dbpath = NULL, *err = NULL, *skipped = NULL;
  bool all = cdb_load_lenient(db, &jobs, &dbpath, &err, &skipped) == 0;
  for (size_t i = 0; all && i < o->files.n; i++) all = project_has_file(&jobs, o->files.v[i]);
  cdb_jobs_free(&jobs);
  free(dbpath);
  free(err);
  free(skipped);
  return all;
}

void project_resolve(cli_opts *o)
{
  if (!o->files.n || o->db || o->dashdash || o->cmd == CMD_LINK || o->cmd == CMD_CACHE ||
      o->cmd == CMD_RT_FLAGS)
    return;
  for (size_t i = 0; i < o->files.n; i++)
    if (inputs_is_summary_file(o->files.v[i])) return;
  const char *db = project_find_db(o);
  if (!db || !project_db_lists(o, db)) return;   /* files it does not build: analysed alone */
  o->db = db;
  if (!o->quiet)
    fprintf(stderr, "purist: note: using %s%scompile_commands.json for the flags of the files named "
                    "(as -p %s); to analyse them alone, give their flags after --\n",
            strcmp(db, ".") ? db : "", strcmp(db, ".") ? "/" : "", db);
}

/* $XDG_CACHE_HOME/purist, else $HOME/.cache/purist (the XDG base
 * directory rule, as ccache 4 and clangd); NULL without either. */
static char *project_user_cache(void)
{
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (xdg && xdg[0] == '/') return xasprintf("%s/purist", xdg);   /* relative: invalid, ignored */
  if (home && *home) return xasprintf("%s/.cache/purist", home);
  return NULL;
}

char *project_cache_dir(const cli_opts *o)
{
  const char *env = getenv("PURIST_CACHE_DIR");
  if (o->cache_dir && *o->cache_dir) return project_abs(o->cache_dir);
  if (env && *env) return project_abs(env);
  return project_user_cache();
}

char *project_old_cache_dir(const cli_opts *o)
{
  const char *db = project_find_db(o);
  if (!db) return NULL;
  /* -p names the database's directory, or the file itself. */
  char *abs = project_abs(db);
  struct stat st;
  if (stat(abs, &st) == 0 && !S_ISDIR(st.st_mode)) {
    char *slash = strrchr(abs, '/');
    slash[slash == abs] = '\0';   /* "/x/compile_commands.json" → "/x"; "/c.json" → "/" */
  }
  char *dir = xasprintf("%s%s.purist-cache", abs, abs[strlen(abs) - 1] == '/' ? "" : "/");
  free(abs);
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) { free(dir); return NULL; }
  return dir;
}
