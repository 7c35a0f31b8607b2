/* noreturn.h — declared pure/const functions that may not return
 * (issue 14, item 3): a path that calls abort, exit, longjmp or a
 * noreturn function. GCC's manual counts such a function as not pure; once
 * declared, a call whose value is unused is deleted, and the check on that
 * path with it. Internal to src/checks. */
#ifndef PURIST_NORETURN_H
#define PURIST_NORETURN_H
#include <stdbool.h>
#include "checks/checks.h"

typedef struct {
  int32_t call;     /* into p->calls: f's first call that may end in a noreturn call other
                       than a failed assertion, or -1 */
  int32_t acall;    /* … that may end in a failed assertion's, or -1 */
  int32_t loop;     /* into p->effs: f's own first loop no path leaves (SEF_ENDLESS), or -1 */
  int32_t pcall;    /* … that is, or leads to, a precondition guard's call (precond.h), or -1 */
  uint8_t state;    /* 0 not yet known, 1 being computed, 2 known */
} nr_info;

typedef struct {
  const link_prog *p;
  nr_info *info;    /* per function */
  uint8_t *live;    /* per function: 1 + the class of its paths that return, 0 not yet known */
  uint8_t *live_barrier;  /* the same, compiler barriers counted */
  uint8_t *run;     /* the class with noreturn paths counted (--strict), barriers not */
  uint8_t *live_math;  /* live, a math function's errno left out (NULL until asked) */
  link_state *live_st, *live_barrier_st, *run_st, *live_math_st;   /* per function: the state behind
                                                                       each class above (liveclass.c) */
  uint8_t *unused;  /* per function: 1 if some call may drop its value (nr_value_used); NULL until asked */
  uint32_t *drop_call, *drop_caller;   /* per function: 1 + its first call that drops the value, and
                                          its caller (0: none seen, only an address taken) */
  struct nr_comps *comps;  /* the call graph's components (liveclass.c); NULL until asked */
} nr_ctx;

void nr_ctx_init(nr_ctx *c, const link_prog *p);
void nr_ctx_free(nr_ctx *c);

/* May function fi end in a noreturn call, or a loop no path leaves, on
 * some path? */
const nr_info *nr_info_of(nr_ctx *c, uint32_t fi);
/* liveclass.c: the classes below, each solved per component of the call
 * graph from what can run and be seen.
 * The class of fi's paths that return (effects and calls on paths ending
 * in a noreturn call left out, and precondition guards' calls), compiler barriers (asm with no
 * instruction, SA_ASM_BARRIER) left out: what a declared attribute must
 * cover. */
purity nr_live_class(nr_ctx *c, uint32_t fi);
/* The same with the barriers counted. */
purity nr_live_barrier_class(nr_ctx *c, uint32_t fi);
/* nr_live_class without fi's own writes that need two unrelated input
 * tests (SEF_MAY; its callees' count in full). */
purity nr_live_sure_class(nr_ctx *c, uint32_t fi);
/* The class with noreturn paths counted (--strict), barriers left out. */
purity nr_run_class(nr_ctx *c, uint32_t fi);
/* nr_live_class with what the math functions write into errno left out
 * (log10, sqrt, pow: only for arguments out of their domain or range):
 * each such call counts as its knowledge-base class. */
purity nr_live_math_class(nr_ctx *c, uint32_t fi);
bool nr_is_barrier(const sum_effect *e);
void nr_comps_free(struct nr_comps *k);

/* misuse-noreturn for f declared `decl`: a warning, or a note when only a
 * failed assertion ends the path; else a note when a precondition guard
 * is all there is (precond.h). Nothing when no path ends that way. */
void nr_emit(nr_ctx *c, const checks_opts *o, uint32_t fi, purity decl, sum_loc at, diag_list *out);

#endif
