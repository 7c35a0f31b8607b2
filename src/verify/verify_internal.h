/* verify_internal.h — the merged account of the runtime's reports, shared by
 * verify_report.c (reading) and verify_diag.c (diagnostics). */
#ifndef PURIST_VERIFY_INTERNAL_H
#define PURIST_VERIFY_INTERNAL_H
#include "verify/verify.h"

typedef enum { VR_NONE, VR_WRITE, VR_READ, VR_HEAP, VR_NONDET, VR_SYSCALL } vr_kind;

/* A watched function, over all processes. */
typedef struct {
  char *name;
  bool found;                 /* resolved in at least one process */
  unsigned long calls, checked;
} vr_fn;

/* One finding (kind, function, symbol or argument), over all processes. */
typedef struct {
  vr_kind kind;
  char *fn;
  char *sym;                  /* as in the source (GCC's ".N" suffix removed); VR_SYSCALL: the
                                 system call's name; NULL if none */
  long arg;                   /* VR_HEAP: 0-based argument; VR_SYSCALL: 1 if it breaks const
                                 only, 0 if pure too; else -1 */
  bool is_static;
  bool vdso;                  /* VR_SYSCALL: a vDSO call (no system call made) */
  char *site_obj;             /* VR_SYSCALL: where the first was called from, or NULL */
  unsigned long site_addr;    /* … a link-time address in site_obj */
  unsigned long count, checked;
  bool every, memo, single;   /* VR_WRITE: how the processes saw it (verify_report.c) */
} vr_finding;

typedef struct {
  VEC(vr_fn) fns;
  VEC(vr_finding) finds;
  verify_lines notes;
  size_t lost;                /* processes that ran the runtime but left no report (killed) */
  bool said_nosys, said_raced; /* notes said once per run, not once per process */
} vr_account;

/* Reads every purist-rt.*.json in dir; returns how many were reports.
 * A process's mark (purist-rt.<pid>.alive) without its report is counted
 * in `lost`, with a note naming the process. */
int vr_account_read(vr_account *a, const char *dir);
void vr_account_free(vr_account *a);

#endif
