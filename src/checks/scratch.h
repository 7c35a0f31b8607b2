/* scratch.h — scratch memory in `check` (issue 30, item 1): a declared
 * pure/const function whose only effects beyond the attribute are on
 * blocks it allocates for itself and never lets leave (link/capture.c).
 * Internal to src/checks. */
#ifndef PURIST_CHECKS_SCRATCH_H
#define PURIST_CHECKS_SCRATCH_H
#include "checks/checks.h"

/* The witness of cur breaking decl, given the solver's first cause w: not
 * a write into a block cur allocated (its own memory) when something else
 * breaks decl; for a block that leaves the function, the allocation; not
 * an access through a parameter in local_params (bit i: it points to
 * memory no caller of the checked function sees, checks_scratch_step);
 * not a write into errno where the chain (ch, or NULL) keeps errno. */
link_why checks_scratch_why(const link_prog *p, const link_func *cur, link_why w, purity decl,
                            uint64_t local_params, const link_chain *ch);
/* Is effect e only on memory no caller of the checked function sees:
 * through a parameter in local_params (bit i: parameter i)? */
bool checks_param_local(const sum_effect *e, uint64_t local_params);
/* The local_params of via's callee, reached from `from` whose own are
 * local_params: the arguments pointing only to locals, fresh blocks of a
 * LF_SCRATCH_OK caller, or such parameters. */
uint64_t checks_scratch_step(const link_prog *p, const link_func *from, const link_call *via, uint64_t local_params);
/* The note for f, declared decl, when its attribute holds only because
 * scratch work is left out (nothing emitted otherwise). */
void checks_scratch_note(const link_prog *p, const checks_opts *o, uint32_t fi, purity decl, sum_loc at,
                         diag_list *out);

#endif
