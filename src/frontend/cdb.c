/* cdb.c — reads compile databases (CMake's and bear's shapes) into jobs. */
#include "frontend/cdb.h"
#include "util/strtab.h"
#include <errno.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *cdb_abspath(const char *dir, const char *path)
{
  char *joined = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", dir, path);
  /* Lexical normalisation in place: segments are copied down over ".." */
  char *out = xmalloc(strlen(joined) + 2);
  size_t n = 0;
  for (char *seg = joined; *seg;) {
    char *slash = strchr(seg, '/');
    size_t len = slash ? (size_t)(slash - seg) : strlen(seg);
    if (len == 0 || (len == 1 && seg[0] == '.')) {
      /* skip */
    } else if (len == 2 && seg[0] == '.' && seg[1] == '.') {
      while (n > 0 && out[n - 1] != '/') n--;
      if (n > 0) n--;
    } else {
      out[n++] = '/';
      memcpy(out + n, seg, len);
      n += len;
    }
    seg += len + (slash ? 1 : 0);
  }
  if (n == 0) out[n++] = '/';
  out[n] = '\0';
  free(joined);
  return out;
}

char **cdb_split_command(const char *cmd, int *argc)
{
  VEC(char *) av = {0};
  VEC(char) w = {0};
  const char *p = cmd;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    if (!*p) break;
    w.n = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
      if (*p == '\'') {
        const char *q = strchr(p + 1, '\'');
        if (!q) goto bad;
        for (p++; p < q; p++) vec_push(&w, *p);
        p++;
      } else if (*p == '"') {
        for (p++; *p && *p != '"'; p++) {
          if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1])) p++;
          vec_push(&w, *p);
        }
        if (*p != '"') goto bad;
        p++;
      } else if (*p == '\\' && p[1]) {
        vec_push(&w, p[1]);
        p += 2;
      } else {
        vec_push(&w, *p++);
      }
    }
    vec_push(&av, xstrndup(w.v ? w.v : "", w.n));
  }
  vec_free(&w);
  vec_push(&av, NULL);
  *argc = (int)av.n - 1;
  return av.v;
bad:
  vec_free(&w);
  for (size_t i = 0; i < av.n; i++) free(av.v[i]);
  vec_free(&av);
  return NULL;
}

void cdb_argv_free(char **argv, int argc)
{
  if (!argv) return;
  for (int i = 0; i < argc; i++) free(argv[i]);
  free(argv);
}

/* Flags that take a separate value which must go with them. */
static int cdb_drop_with_value(const char *a)
{
  static const char *const v[] = { "-o", "-MF", "-MT", "-MQ", "-MJ", NULL };
  for (int i = 0; v[i]; i++) if (strcmp(a, v[i]) == 0) return 1;
  return 0;
}

/* Flags that only make sense to a build (output, dependency files) or that
 * GCC accepts and clang rejects; none of them changes the meaning of C code. */
static int cdb_drop(const char *a)
{
  static const char *const exact[] = {
    "-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP", "-pipe", "-fconserve-stack",
    "-fno-var-tracking-assignments", "-fno-allow-store-data-races", "-fanalyzer",
    "-fno-ipa-sra", "-fipa-pta", "-mindirect-branch-register", "-fsched-pressure",
    "-fno-tree-loop-distribute-patterns", "-save-temps", NULL };
  static const char *const prefix[] = {
    "-o", "-MF", "-MT", "-MQ", "-mindirect-branch=", "-mfunction-return=",
    "-fdump-", "-Werror", "-fplugin", "-fmacro-prefix-map", "--param", "-flto", NULL };
  for (int i = 0; exact[i]; i++) if (strcmp(a, exact[i]) == 0) return 1;
  for (int i = 0; prefix[i]; i++) if (strncmp(a, prefix[i], strlen(prefix[i])) == 0) return 1;
  /* -Wp,-MD,file (Linux kbuild) writes the build's dependency file too. */
  return strncmp(a, "-Wp,", 4) == 0 && strstr(a, ",-M") != NULL;
}

int cdb_is_wrapper(const char *a)
{
  const char *base = strrchr(a, '/');
  base = base ? base + 1 : a;
  return strcmp(base, "ccache") == 0 || strcmp(base, "distcc") == 0 ||
         strcmp(base, "sccache") == 0 || strcmp(base, "icecc") == 0;
}

static int cdb_is_c_source(const char *file)
{
  const char *dot = strrchr(file, '.');
  return dot && (strcmp(dot, ".c") == 0 || strcmp(dot, ".h") == 0 || strcmp(dot, ".i") == 0);
}

/* Builds a job from a raw compiler command line: drops wrappers, the
 * compiler, the source file and build-only flags. Takes ownership of nothing. */
static fe_job cdb_make_job(const char *dir, const char *file, char *const *argv, int argc)
{
  fe_job j = { xstrdup(dir), cdb_abspath(dir, file), NULL, 0, xcalloc((size_t)argc + 1, sizeof(char *)), argc };
  for (int k = 0; k < argc; k++) j.cmd[k] = xstrdup(argv[k]);
  VEC(char *) out = {0};
  int i = 0;
  while (i < argc && cdb_is_wrapper(argv[i])) i++;
  if (i < argc) i++;   /* the compiler itself */
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (cdb_drop_with_value(a)) { i++; continue; }
    if (cdb_drop(a)) continue;
    if (a[0] != '-') {
      char *abs = cdb_abspath(dir, a);
      int same = strcmp(abs, j.file) == 0;
      free(abs);
      if (same) continue;
    }
    vec_push(&out, xstrdup(a));
  }
  j.argv = out.v;
  j.argc = (int)out.n;
  return j;
}

static void cdb_job_free(fe_job *j)
{
  free(j->dir);
  free(j->file);
  cdb_argv_free(j->argv, j->argc);
  cdb_argv_free(j->cmd, j->cmdc);
}

void cdb_jobs_free(fe_jobs *jobs)
{
  for (size_t i = 0; i < jobs->n; i++) cdb_job_free(&jobs->v[i]);
  vec_free(jobs);
}

/* Keeps a job unless its file already has one: a file built twice (static
 * and shared library, say) would otherwise define its functions twice. */
static void cdb_keep(fe_jobs *out, strtab *seen, fe_job j)
{
  uint32_t before = strtab_count(seen);
  strtab_intern(seen, j.file);
  if (!cdb_is_c_source(j.file) || strtab_count(seen) == before) cdb_job_free(&j);
  else vec_push(out, j);
}

/* The entry's "arguments" as a fresh argv; NULL with *err if one is not a
 * string (a number would otherwise become an empty flag unseen). */
static char **cdb_entry_args(json_t *jargs, size_t idx, const char *dbpath, int *argc, char **err)
{
  *argc = (int)json_array_size(jargs);
  char **argv = xcalloc((size_t)*argc + 1, sizeof *argv);
  for (int i = 0; i < *argc; i++) {
    json_t *a = json_array_get(jargs, (size_t)i);
    if (!json_is_string(a)) {
      *err = xasprintf("%s: entry %zu: \"arguments\" must hold strings; element %d is not one", dbpath, idx, i);
      cdb_argv_free(argv, i);
      return NULL;
    }
    argv[i] = xstrdup(json_string_value(a));
  }
  return argv;
}

/* One entry of the database; returns 0, or -1 with *err. */
static int cdb_entry(json_t *e, size_t idx, const char *dbdir, const char *dbpath,
                     fe_jobs *out, strtab *seen, char **err)
{
  if (!json_is_object(e)) {
    *err = xasprintf("%s: entry %zu is not an object", dbpath, idx);
    return -1;
  }
  json_t *jdir = json_object_get(e, "directory"), *jfile = json_object_get(e, "file");
  json_t *jargs = json_object_get(e, "arguments"), *jcmd = json_object_get(e, "command");
  if (!json_is_string(jdir) || !json_is_string(jfile) ||
      !(json_is_array(jargs) || json_is_string(jcmd))) {
    *err = xasprintf("%s: entry %zu needs \"directory\", \"file\" and \"arguments\" or \"command\"",
                     dbpath, idx);
    return -1;
  }
  const char *file = json_string_value(jfile);
  char **argv;
  int argc = 0;
  if (json_is_array(jargs)) {
    if (!(argv = cdb_entry_args(jargs, idx, dbpath, &argc, err))) return -1;
  } else if (!(argv = cdb_split_command(json_string_value(jcmd), &argc))) {
    *err = xasprintf("%s: entry %zu: unterminated quote in \"command\"", dbpath, idx);
    return -1;
  }
  char *dir = cdb_abspath(dbdir, json_string_value(jdir));
  fe_job j = cdb_make_job(dir, file, argv, argc);
  cdb_argv_free(argv, argc);
  free(dir);
  cdb_keep(out, seen, j);
  return 0;
}

/* The database file: PATH, or PATH/compile_commands.json for a directory;
 * NULL with *err if it cannot be read as one (a directory, a FIFO, which
 * would block the JSON reader, missing). */
static char *cdb_db_file(const char *path, char **err)
{
  struct stat st;
  char *dbpath = (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
                     ? xasprintf("%s/compile_commands.json", path) : xstrdup(path);
  if (access(dbpath, R_OK) != 0) {
    *err = xasprintf("%s: %s (generate it with cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON or bear)",
                     dbpath, strerror(errno));
  } else if (stat(dbpath, &st) == 0 && !S_ISREG(st.st_mode)) {
    *err = xasprintf("%s: %s", dbpath, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
  } else {
    return dbpath;
  }
  free(dbpath);
  return NULL;
}

/* Each entry in turn; a bad one stops the load (skipped NULL) or is
 * listed in *skipped and left out. */
static int cdb_entries(json_t *root, const char *dbdir, const char *dbpath, fe_jobs *out, char **err,
                       char **skipped)
{
  int rc = 0;
  strtab *seen = strtab_new();
  for (size_t i = 0; i < json_array_size(root) && rc == 0; i++) {
    char *why = NULL;
    if (cdb_entry(json_array_get(root, i), i, dbdir, dbpath, out, seen, &why) == 0) continue;
    if (!skipped) { *err = why; rc = -1; continue; }
    char *all = *skipped ? xasprintf("%s\n%s", *skipped, why) : xstrdup(why);
    free(*skipped);
    free(why);
    *skipped = all;
  }
  strtab_free(seen);
  return rc;
}

int cdb_load_lenient(const char *path, fe_jobs *out, char **db_path_out, char **err, char **skipped)
{
  json_error_t je;
  json_t *root = NULL;
  char cwd[4096];
  char *dbpath = cdb_db_file(path, err);
  if (!dbpath) return -1;
  root = json_load_file(dbpath, 0, &je);
  if (!root) {
    *err = xasprintf("%s:%d:%d: malformed compile database: %s", dbpath, je.line, je.column, je.text);
    goto fail;
  }
  if (!json_is_array(root)) {
    *err = xasprintf("%s: a compile database is a JSON array of entries", dbpath);
    goto fail;
  }
  if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "/");
  char *absdb = cdb_abspath(cwd, dbpath);
  char *slash = strrchr(absdb, '/');
  char *dbdir = xstrndup(absdb, slash && slash != absdb ? (size_t)(slash - absdb) : 1);
  int rc = cdb_entries(root, dbdir, dbpath, out, err, skipped);
  free(dbdir);
  json_decref(root);
  if (rc == 0 && out->n == 0) {   /* every entry bad: that is the error */
    *err = skipped && *skipped ? *skipped : xasprintf("%s: no C source files in the compile database", dbpath);
    if (skipped) *skipped = NULL;
    rc = -1;
  }
  if (rc == 0 && db_path_out) *db_path_out = absdb; else free(absdb);
  free(dbpath);
  return rc;
fail:
  json_decref(root);
  free(dbpath);
  return -1;
}

int cdb_load(const char *path, fe_jobs *out, char **db_path_out, char **err)
{
  return cdb_load_lenient(path, out, db_path_out, err, NULL);
}

int cdb_from_files(char *const *files, int nfiles, char *const *flags, int nflags,
                   fe_jobs *out, char **err)
{
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) { *err = xasprintf("getcwd: %s", strerror(errno)); return -1; }
  strtab *seen = strtab_new();
  for (int i = 0; i < nfiles; i++) {
    if (access(files[i], R_OK) != 0) {
      *err = xasprintf("%s: %s", files[i], strerror(errno));
      strtab_free(seen);
      return -1;
    }
    /* argv[0] stands for the compiler, which cdb_make_job drops. */
    VEC(char *) av = {0};
    vec_push(&av, "cc");
    for (int k = 0; k < nflags; k++) vec_push(&av, flags[k]);
    fe_job j = cdb_make_job(cwd, files[i], av.v, (int)av.n);
    vec_free(&av);
    cdb_keep(out, seen, j);
  }
  strtab_free(seen);
  return 0;
}
