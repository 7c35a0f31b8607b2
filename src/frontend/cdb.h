/* cdb.h — compilation jobs: from compile_commands.json or from the command line.
 *
 * A job is one TU as libclang should parse it: an absolute main file, the
 * directory the build ran in, and the build's own flags, cleaned of what
 * makes libclang fail or write files (see cdb_clean_args). */
#ifndef PURIST_CDB_H
#define PURIST_CDB_H
#include "util/vec.h"

typedef struct {
  char *dir;     /* absolute working directory of the compile */
  char *file;    /* absolute path of the main source file */
  char **argv;   /* cleaned compiler flags, without compiler and source file */
  int argc;
  char **cmd;    /* the entry's whole command line as the build ran it (purist impact) */
  int cmdc;
  struct fe_jobs_s *alts;   /* the database's later entries for the same file, tried in
                               turn if this one fails to parse; NULL if none */
} fe_job;

typedef struct fe_jobs_s { fe_job *v; size_t n, cap; } fe_jobs;

/* Loads DIR/compile_commands.json (or the file itself if path names one).
 * Entries for the same source file make one job (the first), the later
 * ones its alternatives (fe_job.alts: a command that fails to parse is
 * not the last word); C++ and other non-C sources are skipped. Returns 0, or -1 with *err (caller frees). */
int cdb_load(const char *path, fe_jobs *out, char **db_path_out, char **err);
/* The same, but an entry that is not a valid one ([null, {…}], "arguments"
 * holding a number) is left out and described in *skipped (one line each,
 * "DB: entry N: why"; caller frees; NULL if none) instead of failing the
 * whole load: the rest is analysed, and the caller reports the run as an
 * input error. */
int cdb_load_lenient(const char *path, fe_jobs *out, char **db_path_out, char **err, char **skipped);
/* Jobs for the given files, each compiled with `flags`, relative to cwd.
 * A directory, or a file that is not C (no .c/.i/.h suffix and no -x c in
 * the flags), is left out and said in *skipped (lines "F: why",
 * caller frees); if nothing is left that is *err. */
int cdb_from_files(char *const *files, int nfiles, char *const *flags, int nflags,
                   fe_jobs *out, char **err, char **skipped);
void cdb_jobs_free(fe_jobs *jobs);
/* Appends flags to every job's compiler flags, cleaned as an entry's are
 * (clang-tidy's --extra-arg: `purist infer -p build -- -DNDEBUG`). */
void cdb_add_flags(fe_jobs *jobs, char *const *flags, int nflags);
/* True for a compiler wrapper that comes before the compiler (ccache, distcc, …). */
int cdb_is_wrapper(const char *a);

/* ---- cdb_words.c ---- */

/* Splits a shell command line as a POSIX shell would (quotes and
 * backslashes; no expansion). Returns a NULL-terminated argv the caller frees
 * with cdb_argv_free, or NULL on an unterminated quote. */
char **cdb_split_command(const char *cmd, int *argc);
void cdb_argv_free(char **argv, int argc);

/* Makes `path` absolute against `dir` and removes "." and ".." segments
 * lexically (symlinks are left alone). Caller frees. */
char *cdb_abspath(const char *dir, const char *path);

/* ---- cdb_rsp.c ---- */

/* argv with each @FILE response file replaced by its words, read
 * relative to dir (recursively; limits in cdb_rsp.c). One that cannot be
 * read stays as written, and *why (if why; caller frees) says why the
 * first did not: "response file @F: it names itself". A NULL-terminated
 * argv, freed with cdb_argv_free. */
char **cdb_expand_rsp(const char *dir, char *const *argv, int argc, int *out_argc, char **why);

#endif
