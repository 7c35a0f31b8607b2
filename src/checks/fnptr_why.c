/* fnptr_why.c — which function passed at a call makes the call impure.
 *
 * `apply(x, counted)` is normal because apply calls back `counted`, which
 * writes a global; the witness of a misuse should lead there, not stop at
 * apply's "calls through function pointer 'f'" (issue 13, item 4). */
#include "checks/checks.h"

const link_func *checks_passed_culprit(const link_prog *p, const link_func *f, const link_call *c, purity cls)
{
  if (!f->nfnarg || cls == PURITY_CONST) return NULL;
  const link_func *g = &p->funcs.v[c->callee];
  uint64_t through = link_calls_through(p, g);
  uint32_t rel = (uint32_t)(c - p->calls.v) - f->call_off;
  for (uint32_t i = 0; i < f->nfnarg; i++) {
    const sum_fnarg *a = &p->fnargs.v[f->fnarg_off + i];
    if (a->call != rel || a->kind != SFA_FUNC || a->arg >= 64 || !(through >> a->arg & 1)) continue;
    const link_func *h = &p->funcs.v[a->value];
    if (link_has_body(h) && (purity)h->cls >= cls && h != f) return h;
  }
  return NULL;
}
