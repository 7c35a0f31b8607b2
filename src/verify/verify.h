/* verify.h — `purist verify` and `purist rt-flags` (issue 6): the purist
 * side of the dynamic verifier whose runtime is src/rt (libpurist-rt).
 *
 *   verify_watch.c   which functions are watched, and the watch list file;
 *   verify_proto.c   their prototypes, reduced to what the ABI sees (libclang);
 *   verify_wrap.c    the generated wrappers (-Wl,--wrap=NAME) and their object;
 *   verify_flags.c   the compiler and linker flags, where the runtime is;
 *   verify_run.c     running the user's command under the runtime;
 *   verify_report.c  the runtime's JSON reports turned into diagnostics;
 *   verify_site.c    a call site's source line (addr2line).
 *
 * Nothing here prints: errors come back as -1 and a message (caller frees). */
#ifndef PURIST_VERIFY_H
#define PURIST_VERIFY_H
#include <stdbool.h>
#include "checks/checks.h"
#include "frontend/cdb.h"
#include "link/link.h"
#include "report/diag.h"

/* Message lines (caller frees each and the vector). */
typedef VEC(char *) verify_lines;

/* --- the watch list (verify_watch.c) ----------------------------------- */

typedef struct {
  uint32_t fi;          /* index into link_prog.funcs */
  const char *name;     /* its name, owned by the link_prog */
  purity cls;           /* const or pure: what the function promises */
  bool declared;        /* by an attribute (else only suggested by purist) */
  uint8_t c23;          /* SUM_DECL_UNSEQUENCED / _REPRODUCIBLE when the promise is C23's
                           (checked as const / pure, with the standard's allowances:
                           stores through pointer arguments; a private memo when
                           reproducible); 0 for GNU attributes (issue 15) */
} verify_fn;

typedef VEC(verify_fn) verify_watch;

/* The functions to watch in a solved program: those with a body declared
 * pure or const; with `suggested`, also those purist infers pure or const
 * (what `suggest` would suggest). Sorted by name. */
void verify_watch_collect(const link_prog *p, bool suggested, verify_watch *out);
/* Writes the watch list the runtime reads: `NAME const|pure` a line. */
int verify_watch_write(const verify_watch *w, const char *path, char **err);
/* The watched function called `name`, or NULL. */
const verify_fn *verify_watch_find(const verify_watch *w, const char *name);

/* --- prototypes (verify_proto.c) ---------------------------------------- */

/* A prototype as the calling convention sees it: scalar types spelled in
 * plain C, every pointer as `void *` (all pointers are passed alike). */
typedef struct {
  char *name;
  char *ret;            /* "int", "void *", … */
  VEC(char *) params;
  uint64_t ptr_params;  /* bit i: parameter i is a pointer */
} verify_proto;

typedef VEC(verify_proto) verify_protos;

/* Finds the prototypes of the watched external functions by parsing the
 * TUs that define them (declarations only). Functions that cannot be
 * wrapped (variadic, a struct or union passed or returned by value, a type
 * with no plain spelling) are left out, each with a line in *skipped. */
void verify_protos_find(const link_prog *p, const verify_watch *w, const fe_jobs *jobs,
                        verify_protos *out, verify_lines *skipped);
void verify_protos_free(verify_protos *ps);

/* --- wrappers (verify_wrap.c) ------------------------------------------- */

/* Writes the C file of wrappers for ps and compiles it to `obj` with $CC
 * (default cc). Returns 0, or -1 with *err. */
int verify_wrap_build(const verify_protos *ps, const char *src, const char *obj, char **err);

/* --- flags (verify_flags.c) --------------------------------------------- */

/* The directory holding libpurist-rt.so: next to the purist executable (the
 * build tree) or ../lib from it (an installation). NULL with *err if neither. */
char *verify_rt_dir(char **err);
/* The flags of `rt-flags --cflags`. */
const char *verify_cflags(void);
/* The flags of `rt-flags --ldflags`: the runtime, and with wrappers (obj
 * not NULL) the --wrap options for ps and the object. Caller frees. */
char *verify_ldflags(const char *rt_dir, const verify_protos *ps, const char *obj);

/* --- running the command (verify_run.c) ---------------------------------- */

/* A scratch directory with the watch list and the report directory. */
typedef struct {
  char *dir, *watch, *reports;
} verify_session;

int verify_session_new(verify_session *s, char **err);
/* Removes the scratch directory and its files. */
void verify_session_free(verify_session *s);
/* Runs argv with the runtime configured through the environment and waits
 * for it. Returns the exit status the command would give a shell (128 +
 * signal number if a signal ended it), or -1 with *err if it could not run. */
int verify_run(const verify_session *s, char *const *argv, char **err);
/* Runs argv (found on PATH) with the environment `env` (NULL: ours) and
 * waits: the status as a shell gives it, or -1 with *err if it did not run. */
int verify_spawn_wait(char *const *argv, char *const *env, char **err);

/* --- call sites (verify_site.c) ----------------------------------------- */

/* "file:line" of link-time address addr in object obj (relative to root
 * when under it), from its debug information through addr2line; NULL if
 * not known. Caller frees. */
char *verify_site_line(const char *obj, unsigned long addr, const char *root);

/* --- the reports (verify_report.c) --------------------------------------- */

/* Reads every report in s->reports and appends the diagnostics, at each
 * function's declaration (its definition when only suggested). Notes about
 * the run (a check switched off, a report that cannot be read, how much was
 * seen) are appended to *notes as lines. Returns the number of reports read;
 * *lost gets the number of processes that started the runtime and wrote no
 * report (killed, a raw exit_group, no file descriptor left). */
int verify_report_read(const verify_session *s, const link_prog *p, const verify_watch *w,
                       const checks_opts *o, diag_list *out, verify_lines *notes, int *lost);

#endif
