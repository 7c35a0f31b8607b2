/* compile.h — one TU through the project's real compiler, in the copy.
 *
 * The compile database's command line is kept as the build ran it, except:
 * wrappers (ccache, distcc) are dropped so the compiler itself runs; what
 * names outputs or dependency files (-o, -c, -S, -E, -M*, -Wp,-M*) and what
 * makes no code (-fsyntax-only) or no assembly (-flto*, -save-temps) goes;
 * paths under the project root point into the copy; -O2 is added when the
 * command has no -O; -w is added, since the attributes may make new
 * warnings and -Werror must not turn them into a failed build. The result
 * is assembly (-S), which is then assembled by the same driver with the
 * command's machine flags (-m*, --target, -Wa,) into an object. */
#ifndef PURIST_COMPILE_H
#define PURIST_COMPILE_H
#include "frontend/cdb.h"
#include "impact/tree.h"

typedef struct {
  char *dir;        /* working directory (in the copy when under the root) */
  char **to_asm;    /* NULL-terminated: compiler … -w -g0 -S -o S_PATH file */
  char **to_obj;    /* NULL-terminated: compiler [machine flags] -c S_PATH -o O_PATH */
} compile_cmd;

/* The compiler a job names (its first word after wrappers), resolved as
 * the shell would from the job's directory: an absolute path, or NULL if
 * there is no such executable. *name receives the word (not owned). */
char *compile_find_compiler(const fe_job *j, const char **name);

/* Fills c for job j compiled in copy t with the absolute compiler cc,
 * writing s_path and o_path. */
void compile_cmd_init(compile_cmd *c, const fe_job *j, const tree_copy *t, const char *cc,
                      const char *s_path, const char *o_path);
void compile_cmd_fini(compile_cmd *c);

/* The job's command in copy t, as to_asm has it, but listing the files
 * the TU reads (-M -MG: make's rule on stdout, a header not found counts
 * as one to be generated) instead of compiling. NULL-terminated; free
 * with compile_argv_free. */
char **compile_deps_argv(const fe_job *j, const tree_copy *t, const char *cc);

/* The job's command as the build ran it, with what names outputs or
 * dependency files dropped (as above) and -fsyntax-only added: does the
 * TU still compile, warnings and -Werror included? NULL-terminated;
 * free with compile_argv_free. */
char **compile_syntax_argv(const fe_job *j, const char *cc);
void compile_argv_free(char **argv);

/* Runs argv in dir, in a process group of its own (killed on a signal, see
 * util/cleanup.h), stdout and stderr into log. Returns 0 on exit status 0, 1 if
 * the command failed (its messages are in log), -1 if it could not be run
 * (*err set, caller frees). */
int compile_run(char *const *argv, const char *dir, const char *log, char **err);

#endif
