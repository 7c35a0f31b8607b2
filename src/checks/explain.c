/* explain.c — what the compiler does with calls of pure and const functions.
 *
 * For each call of a callee that is pure or const (declared, known, or
 * inferred): a discarded value means the call is deleted; the same call
 * again, unchanged, means the calls are merged; a call with unchanging
 * arguments in a loop means it is hoisted — unless a store or an impure call
 * in between (in the loop) stops it, which is said with its location. Each
 * finding says whether the compiler does it today (the attribute is there,
 * the library is known, or the static body is visible) or would once the
 * callee is declared. */
#include "checks/checks.h"
#include "report/reason.h"

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* "today" or "once 'f' is declared pure". */
static void explain_when(strbuf *m, const link_prog *p, const link_func *g, purity cls)
{
  purity known = checks_known_class(p, g);
  bool visible = g->linkage == SUM_INTERNAL && link_has_body(g);
  if (known <= cls) sb_puts(m, known == PURITY_NORMAL ? "" : " (it is declared so)");
  else if (visible) sb_puts(m, " (its static body is visible to the compiler)");
  else sb_printf(m, " once '%s' is declared %s", S(p, g->name), purity_name(cls));
}

static void explain_blocker(strbuf *m, diag *d, const link_prog *p, const checks_opts *o, const cs_fact *f)
{
  if (f->blocker_eff >= 0) {
    const sum_effect *e = &p->effs.v[f->blocker_eff];
    strbuf what = {0};
    link_func tmp = { 0 };
    tmp.why.kind = WHY_EFFECT;
    tmp.why.index = (uint32_t)f->blocker_eff;
    reason_head(&what, p, &tmp, o->root);
    sb_printf(m, "the store (%s) at line %u", sb_str(&what), e->loc.line);
    checks_related(d, p, o, e->loc, "this store is in the way");
    sb_free(&what);
  } else {
    const link_call *c = &p->calls.v[f->blocker_call];
    sb_printf(m, "the call to '%s' at line %u, which may write memory", S(p, p->funcs.v[c->callee].name), c->loc.line);
    checks_related(d, p, o, c->loc, "this call is in the way");
  }
}

static void explain_dead(const link_prog *p, const checks_opts *o, const link_func *f, const link_call *c,
                         const link_func *g, purity cls, diag_list *out)
{
  strbuf m = {0};
  sb_printf(&m, "the value of this call to %s '%s' is %s: the compiler deletes the call",
            purity_name(cls), S(p, g->name),
            c->use == SCU_DISCARDED ? "discarded" : "only stored into a local that is never read");
  explain_when(&m, p, g, cls);
  checks_emit(out, p, o, "dead-call", DIAG_WARNING, c->loc, f, sb_str(&m));
  sb_free(&m);
}

static void explain_redundant(const link_prog *p, const checks_opts *o, const link_func *f, const link_call *c,
                              const link_func *g, purity cls, const cs_fact *fact, diag_list *out)
{
  const link_call *first = &p->calls.v[fact->first_call];
  strbuf m = {0};
  sb_printf(&m, "'%s' is called again with the same arguments as at line %u", S(p, g->name), first->loc.line);
  diag *d = checks_emit(out, p, o, "redundant-call", DIAG_NOTE, c->loc, f, "");
  checks_related(d, p, o, first->loc, "the first call");
  if (!fact->blocked) {
    sb_printf(&m, "; %s, the compiler merges the two calls", purity_name(cls));
    explain_when(&m, p, g, cls);
  } else {
    sb_puts(&m, "; ");
    explain_blocker(&m, d, p, o, fact);
    sb_printf(&m, " blocks the merge for a %s callee", purity_name(cls));
    if (fact->blocked_for_pure) sb_printf(&m, "; were '%s' const, the calls would merge", S(p, g->name));
  }
  free(d->message);
  d->message = xstrdup(sb_str(&m));
  sb_free(&m);
}

static void explain_hoist(const link_prog *p, const checks_opts *o, const link_func *f, const link_call *c,
                          const link_func *g, purity cls, const cs_fact *fact, diag_list *out)
{
  strbuf m = {0};
  sb_printf(&m, "%s '%s' is called in every iteration of a loop with arguments the loop does not change",
            purity_name(cls), S(p, g->name));
  diag *d = checks_emit(out, p, o, "loop-invariant-call", fact->blocked ? DIAG_WARNING : DIAG_NOTE,
                        c->loc, f, "");
  if (!fact->blocked) {
    sb_puts(&m, ": the compiler hoists it out of the loop");
    explain_when(&m, p, g, cls);
  } else {
    sb_puts(&m, "; ");
    explain_blocker(&m, d, p, o, fact);
    sb_puts(&m, " keeps the compiler from hoisting it, so it runs every iteration: compute it once before the loop");
  }
  free(d->message);
  d->message = xstrdup(sb_str(&m));
  sb_free(&m);
}

void checks_explain(const link_prog *p, const checks_opts *o, diag_list *out)
{
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (!link_has_body(f) || (f->flags & SFF_SYSTEM)) continue;
    for (uint32_t i = 0; i < f->ncall; i++) {
      uint32_t ci = f->call_off + i;
      const link_call *c = &p->calls.v[ci];
      const link_func *g = &p->funcs.v[c->callee];
      purity cls = checks_callee_class(p, g);
      cs_fact fact;
      checks_callsite(p, f, ci, cls, &fact);
      if (fact.kind == CS_DEAD) explain_dead(p, o, f, c, g, cls, out);
      else if (fact.kind == CS_REDUNDANT) explain_redundant(p, o, f, c, g, cls, &fact, out);
      else if (fact.kind == CS_HOIST) explain_hoist(p, o, f, c, g, cls, &fact, out);
    }
  }
}
