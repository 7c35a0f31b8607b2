/* fnptr_why.c — which function passed at a call makes the call impure.
 *
 * `apply(x, counted)` is normal because apply calls back `counted`, which
 * writes a global; the witness of a misuse should lead there, not stop at
 * apply's "calls through function pointer 'f'" (issue 13, item 4). */
#include "checks/checks.h"

/* A function of lookup h's table that g's own calls through a member of
 * what its parameter `param` returns reach, of class cls at least
 * (link/fnret.c); NULL if none. */
static const link_func *passed_member_culprit(const link_prog *p, const link_func *g, uint32_t param,
                                              uint32_t h, purity cls)
{
  if (!link_has_body(g)) return NULL;
  for (uint32_t i = 0; i < g->npcall; i++) {
    const sum_pcall *pc = &p->pcalls.v[g->pcall_off + i];
    uint32_t first, n = pc->moff && pc->param == param ? link_fnret_members(p, h, pc->moff - 1, &first) : 0;
    for (uint32_t k = 0; k < n; k++) {
      const sum_rmember *m = &p->rmembers.v[first + k];
      const link_func *t = m->kind == SFA_FUNC ? &p->funcs.v[m->value] : NULL;
      if (t && link_has_body(t) && (purity)t->cls >= cls) return t;
    }
  }
  return NULL;
}

const link_func *checks_passed_culprit(const link_prog *p, const link_func *f, const link_call *c, purity cls,
                                       const link_func **lookup)
{
  *lookup = NULL;
  if (!f->nfnarg || cls == PURITY_CONST) return NULL;
  const link_func *g = &p->funcs.v[c->callee];
  uint64_t through = link_calls_through(p, g);
  uint32_t rel = (uint32_t)(c - p->calls.v) - f->call_off;
  for (uint32_t i = 0; i < f->nfnarg; i++) {
    const sum_fnarg *a = &p->fnargs.v[f->fnarg_off + i];
    if (a->call != rel || a->kind != SFA_FUNC || a->arg >= 64 || !(through >> a->arg & 1)) continue;
    const link_func *h = &p->funcs.v[a->value];
    if (link_has_body(h) && (purity)h->cls >= cls && h != f) return h;
    const link_func *t = passed_member_culprit(p, g, a->arg, a->value, cls);
    if (t && t != f) {
      *lookup = h;
      return t;
    }
  }
  return NULL;
}
