/* cdb.c — reads compile databases (CMake's and bear's shapes) into jobs. */
#include "frontend/cdb.h"
#include "util/fileio.h"
#include "util/ptrmap.h"
#include "util/strtab.h"
#include "util/textenc.h"
#include <errno.h>
#include <stdbool.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    "-fno-tree-loop-distribute-patterns", "-save-temps",
    /* Linux kbuild's GCC-only code generation flags (clang spells the
     * first -mstack-alignment; kbuild gives clang that instead) */
    "-mrecord-mcount", "-fno-partial-inlining", "-fno-ipa-cp-clone", "-femit-struct-debug-baseonly", NULL };
  static const char *const prefix[] = {
    "-o", "-MF", "-MT", "-MQ", "-mindirect-branch=", "-mfunction-return=",
    "-fdump-", "-Werror", "-fplugin", "-fmacro-prefix-map", "--param", "-flto",
    "-mpreferred-stack-boundary=", "-fmin-function-alignment=", "-fasan-shadow-offset=", NULL };
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

/* The language a job's flags force (-x c, -xc++), or NULL. */
static const char *cdb_forced_lang(char *const *argv, int argc)
{
  const char *lang = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-x") && i + 1 < argc) lang = argv[++i];
    else if (!strncmp(argv[i], "-x", 2) && argv[i][2]) lang = argv[i] + 2;
  }
  return lang;
}

/* Is the job C: `-x c` (or c-header, cpp-output) says so whatever the
 * suffix (a build compiling x.cc as C), else the suffix. */
static int cdb_is_c_job(const fe_job *j)
{
  const char *lang = cdb_forced_lang(j->argv, j->argc);
  if (lang && strcmp(lang, "none") != 0)
    return !strcmp(lang, "c") || !strcmp(lang, "c-header") || !strcmp(lang, "cpp-output");
  return cdb_is_c_source(j->file);
}

/* How many arguments from argv[i] spell file once joined by spaces: a
 * "command" with a spaced name written unquoted ("cc -c my file.c") splits
 * it; left in, the pieces reached clang as inputs (error 4). 0 if none. */
static int cdb_spaced_file(const char *dir, char *const *argv, int i, int argc, const char *file)
{
  if (!strchr(file, ' ')) return 0;
  char *joined = xstrdup(argv[i]);
  int n = 0;
  for (int k = i + 1; k < argc && argv[k][0] != '-' && !n; k++) {
    char *longer = xasprintf("%s %s", joined, argv[k]);
    free(joined);
    joined = longer;
    char *abs = cdb_abspath(dir, joined);
    if (!strcmp(abs, file)) n = k - i + 1;
    free(abs);
  }
  free(joined);
  return n;
}

/* Builds a job from a raw compiler command line: drops wrappers, the
 * compiler, the source file and build-only flags. Takes ownership of nothing. */
static fe_job cdb_make_job(const char *dir, const char *file, char *const *cmd, int cmdc)
{
  fe_job j = { xstrdup(dir), cdb_abspath(dir, file), NULL, 0, xcalloc((size_t)cmdc + 1, sizeof(char *)), cmdc, NULL };
  for (int k = 0; k < cmdc; k++) j.cmd[k] = xstrdup(cmd[k]);
  int argc;   /* libclang ignores @FILE: its words are read here (cdb_rsp.c) */
  char **argv = cdb_expand_rsp(dir, cmd, cmdc, &argc, NULL);
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
      int pieces = cdb_spaced_file(dir, argv, i, argc, j.file);
      if (pieces) { i += pieces - 1; continue; }
    }
    vec_push(&out, xstrdup(a));
  }
  j.argv = out.v;
  j.argc = (int)out.n;
  cdb_argv_free(argv, argc);
  return j;
}

void cdb_add_flags(fe_jobs *jobs, char *const *raw, int nraw)
{
  char cwd[4096];   /* the flags' @FILEs are the command line's: relative to it */
  int nflags;
  const char *here = getcwd(cwd, sizeof cwd) ? cwd : "/";
  char **flags = cdb_expand_rsp(here, raw, nraw, &nflags, NULL);
  for (int i = 0; i < nflags; i++)
    if (flags[i][0] == '@' && flags[i][1]) {   /* unreadable: the parse, in the job's directory, says why */
      char *abs = cdb_abspath(here, flags[i] + 1);
      free(flags[i]);
      flags[i] = xasprintf("@%s", abs);
      free(abs);
    }
  for (size_t j = 0; j < jobs->n; j++) {
    fe_job *job = &jobs->v[j];
    VEC(char *) av = { job->argv, (size_t)job->argc, (size_t)job->argc };
    for (int i = 0; i < nflags; i++) {
      if (cdb_drop_with_value(flags[i])) { i++; continue; }
      if (!cdb_drop(flags[i])) vec_push(&av, xstrdup(flags[i]));
    }
    job->argv = av.v;
    job->argc = (int)av.n;
  }
  cdb_argv_free(flags, nflags);
}

void cdb_jobs_free(fe_jobs *jobs);

static void cdb_job_free(fe_job *j)
{
  if (j->alts) {
    cdb_jobs_free(j->alts);
    free(j->alts);
  }
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

/* The files seen, and where each one's job is (strtab id + 1 → index + 1). */
typedef struct {
  strtab *names;
  ptrmap job;
  bool alts;   /* keep later entries of a file as alternatives (a database's) */
} cdb_seen;

#define CDB_MAX_ALTS 4

static bool cdb_same_args(const fe_job *a, const fe_job *b)
{
  if (a->argc != b->argc || strcmp(a->dir, b->dir) != 0) return false;
  for (int i = 0; i < a->argc; i++)
    if (strcmp(a->argv[i], b->argv[i]) != 0) return false;
  return true;
}

/* Keeps a job unless its file already has one: a file built twice (static
 * and shared library, say) would otherwise define its functions twice.
 * A later entry with other flags becomes an alternative of the first,
 * tried if the first fails to parse (issue 23 item 19: the first won even
 * when it failed, a -DFOO it lacked, an -I of another build tree). */
static void cdb_keep(fe_jobs *out, cdb_seen *seen, fe_job j)
{
  uint64_t id = (uint64_t)strtab_intern(seen->names, j.file) + 1;
  if (!cdb_is_c_job(&j)) { cdb_job_free(&j); return; }
  const uint32_t *slot = ptrmap_get(&seen->job, id);
  size_t at = slot ? *slot : 0;
  if (!at) {
    vec_push(out, j);
    ptrmap_put(&seen->job, id, (uint32_t)out->n);
    return;
  }
  fe_job *first = &out->v[at - 1];
  bool dup = !seen->alts || cdb_same_args(first, &j) || (first->alts && first->alts->n >= CDB_MAX_ALTS);
  for (size_t k = 0; !dup && first->alts && k < first->alts->n; k++) dup = cdb_same_args(&first->alts->v[k], &j);
  if (dup) { cdb_job_free(&j); return; }
  if (!first->alts) first->alts = xcalloc(1, sizeof *first->alts);
  vec_push(first->alts, j);
}

static void cdb_seen_free(cdb_seen *seen)
{
  strtab_free(seen->names);
  ptrmap_free(&seen->job);
}

/* A string of the database as the bytes it stands for: the text was read
 * with its non-UTF-8 bytes mapped (cdb_read_json), mapped back here. */
static char *cdb_bytes(json_t *j, bool mapped)
{
  const char *v = json_string_value(j);
  char *b = mapped ? textenc_json_decode(v, json_string_length(j)) : NULL;
  return b ? b : xstrdup(v);
}

/* The entry's "arguments" as a fresh argv; NULL with *err if one is not a
 * string (a number would otherwise become an empty flag unseen). */
static char **cdb_entry_args(json_t *jargs, size_t idx, const char *dbpath, int *argc, char **err, bool mapped)
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
    argv[i] = cdb_bytes(a, mapped);
  }
  return argv;
}

/* One entry of the database; returns 0, or -1 with *err. */
static int cdb_entry(json_t *e, size_t idx, const char *dbdir, const char *dbpath,
                     fe_jobs *out, cdb_seen *seen, char **err, bool mapped)
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
  char **argv, *cmd = json_is_array(jargs) ? NULL : cdb_bytes(jcmd, mapped);
  int argc = 0;
  if (json_is_array(jargs)) {
    if (!(argv = cdb_entry_args(jargs, idx, dbpath, &argc, err, mapped))) return -1;
  } else if (!(argv = cdb_split_command(cmd, &argc))) {
    *err = xasprintf("%s: entry %zu: unterminated quote in \"command\"", dbpath, idx);
    free(cmd);
    return -1;
  }
  free(cmd);
  if (argc == 0) {   /* no compiler, no flags: analysing it without them would be a guess, unsaid */
    *err = xasprintf("%s: entry %zu: \"%s\" is empty (no compiler, no flags)", dbpath, idx,
                     json_is_array(jargs) ? "arguments" : "command");
    cdb_argv_free(argv, argc);
    return -1;
  }
  char *file = cdb_bytes(jfile, mapped), *jd = cdb_bytes(jdir, mapped);
  char *dir = cdb_abspath(dbdir, jd);
  fe_job j = cdb_make_job(dir, file, argv, argc);
  cdb_argv_free(argv, argc);
  free(dir);
  free(jd);
  free(file);
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
                       char **skipped, bool mapped)
{
  int rc = 0;
  cdb_seen seen = { strtab_new(), { 0 }, true };
  for (size_t i = 0; i < json_array_size(root) && rc == 0; i++) {
    char *why = NULL;
    if (cdb_entry(json_array_get(root, i), i, dbdir, dbpath, out, &seen, &why, mapped) == 0) continue;
    if (!skipped) { *err = why; rc = -1; continue; }
    char *all = *skipped ? xasprintf("%s\n%s", *skipped, why) : xstrdup(why);
    free(*skipped);
    free(why);
    *skipped = all;
  }
  cdb_seen_free(&seen);
  return rc;
}

/* The database's JSON. A UTF-8 byte order mark (Windows editors write
 * one) is skipped; text that is not UTF-8 (one file name in Latin-1) is
 * read with each stray byte mapped to a private character (util/textenc.h)
 * and *mapped set, so one such name no longer refuses the whole database:
 * cdb_bytes maps it back. */
static json_t *cdb_read_json(const char *dbpath, bool *mapped, char **err)
{
  size_t len = 0;
  char *text = file_read_all(dbpath, &len);
  if (!text) {
    *err = xasprintf("%s: %s", dbpath, strerror(errno));
    return NULL;
  }
  size_t skip = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  json_error_t je;
  json_t *root = json_loadb(text + skip, len - skip, 0, &je);
  *mapped = false;
  if (!root && memchr(text + skip, '\0', len - skip) == NULL) {
    char *enc = textenc_json(text + skip);
    if (strcmp(enc, text + skip) != 0) {
      json_error_t je2;
      root = json_loads(enc, 0, &je2);
      *mapped = root != NULL;
    }
    free(enc);
  }
  if (!root) *err = xasprintf("%s:%d:%d: malformed compile database: %s", dbpath, je.line, je.column, je.text);
  free(text);
  return root;
}

int cdb_load_lenient(const char *path, fe_jobs *out, char **db_path_out, char **err, char **skipped)
{
  json_t *root = NULL;
  char cwd[4096];
  bool mapped = false;
  char *dbpath = cdb_db_file(path, err);
  if (!dbpath) return -1;
  root = cdb_read_json(dbpath, &mapped, err);
  if (!root) goto fail;
  if (!json_is_array(root)) {
    *err = xasprintf("%s: a compile database is a JSON array of entries", dbpath);
    goto fail;
  }
  if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "/");
  char *absdb = cdb_abspath(cwd, dbpath);
  char *slash = strrchr(absdb, '/');
  char *dbdir = xstrndup(absdb, slash && slash != absdb ? (size_t)(slash - absdb) : 1);
  int rc = cdb_entries(root, dbdir, dbpath, out, err, skipped, mapped);
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
                   fe_jobs *out, char **err, char **skipped)
{
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) { *err = xasprintf("getcwd: %s", strerror(errno)); return -1; }
  cdb_seen seen = { strtab_new(), { 0 }, false };
  int as_c = 0;   /* -x c in the flags: every file is C */
  const char *lang = cdb_forced_lang(flags, nflags);
  if (lang) as_c = !strcmp(lang, "c") || !strcmp(lang, "c-header") || !strcmp(lang, "cpp-output");
  for (int i = 0; i < nfiles; i++) {
    struct stat st;
    if (access(files[i], R_OK) != 0) {
      *err = xasprintf("%s: %s", files[i], strerror(errno));
      cdb_seen_free(&seen);
      return -1;
    }
    const char *why = stat(files[i], &st) == 0 && S_ISDIR(st.st_mode) ? "is a directory"
                    : !as_c && !cdb_is_c_source(files[i]) ? "not a C file (.c, .i, .h): left out; "
                                                            "add -- -x c to analyse it as C"
                    : NULL;
    if (why) {   /* said, never dropped without a word */
      char *line = xasprintf("%s: %s", files[i], why);
      char *all = *skipped ? xasprintf("%s\n%s", *skipped, line) : xstrdup(line);
      free(*skipped);
      free(line);
      *skipped = all;
      continue;
    }
    /* argv[0] stands for the compiler, which cdb_make_job drops. */
    VEC(char *) av = {0};
    vec_push(&av, "cc");
    for (int k = 0; k < nflags; k++) vec_push(&av, flags[k]);
    fe_job j = cdb_make_job(cwd, files[i], av.v, (int)av.n);
    vec_free(&av);
    cdb_keep(out, &seen, j);
  }
  cdb_seen_free(&seen);
  if (out->n == 0 && *skipped) {   /* nothing left: that is the error */
    *err = *skipped;
    *skipped = NULL;
    return -1;
  }
  return 0;
}
