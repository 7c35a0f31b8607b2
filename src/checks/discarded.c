/* discarded.c — cheat-discarded: where memoisation turns into a bug
 * (issue 14, item 2).
 *
 * A memoising function declared pure or const is safe only while every
 * call's value is used. A call whose value is discarded (GObject code
 * calling `foo_get_type ();` only to register the type) is deleted by the
 * compiler, and the first call's work with it: the registration or
 * initialisation silently never happens. Each such call site is an error. */
#include "checks/checks.h"
#include "checks/cheat.h"
#include "report/reason.h"

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

static purity declared_of(const link_func *g)
{
  return (g->declared & SUM_DECL_CONST) ? PURITY_CONST : (g->declared & SUM_DECL_PURE) ? PURITY_PURE : PURITY_NORMAL;
}

static void dc_emit(const link_prog *p, const checks_opts *o, const link_func *f, const link_call *c,
                    uint32_t gi, purity decl, const cheat_memo *m, diag_list *out)
{
  const link_func *g = &p->funcs.v[gi];
  strbuf msg = {0};
  sb_printf(&msg, "the value of this call to '%s' is %s, and '%s' is declared %s: the compiler deletes "
                  "the call, and with it the work of a first call ('%s' caches its result in '%s'), so "
                  "if this call is here to register or initialise something, that never happens; use "
                  "the value (pass it on, as GLib's g_type_ensure() does with a type), or drop the attribute",
            S(p, g->name), checks_unused_words(c->use),
            S(p, g->name), purity_name(decl), S(p, g->name), S(p, m->cache));
  diag *d = checks_emit(out, p, o, "cheat-discarded", DIAG_ERROR, c->loc, f, sb_str(&msg));
  strbuf n = {0};
  sb_printf(&n, "'%s' is declared %s here", S(p, g->name), purity_name(decl));
  checks_related(d, p, o, checks_attr_loc(p, gi, decl == PURITY_CONST ? SUM_DECL_CONST : SUM_DECL_PURE), sb_str(&n));
  sb_free(&n);
  if (m->cache_loc.line) checks_related(d, p, o, m->cache_loc, "the cache is written here");
  sb_free(&msg);
}

/* Is gi a memoising function declared pure/const? verdict[gi]: 0 not yet
 * known, 1 no, 2 yes. */
static bool dc_memo(const link_prog *p, const cheat_ctx *cx, uint32_t gi, uint8_t *verdict, cheat_memo *m)
{
  const link_func *g = &p->funcs.v[gi];
  purity decl = declared_of(g);
  if (verdict[gi] == 1) return false;
  if (decl == PURITY_NORMAL || !link_has_body(g) || (g->flags & SFF_VOID) || (purity)g->cls <= decl) {
    verdict[gi] = 1;
    return false;
  }
  bool yes = cheat_find_memo(p, cx, gi, decl, m);
  verdict[gi] = yes ? 2 : 1;
  return yes;
}

void checks_discarded(const link_prog *p, const checks_opts *o, diag_list *out)
{
  cheat_ctx cx;
  cheat_ctx_init(&cx, p, o->whole_program);
  uint8_t *verdict = xcalloc(p->funcs.n ? p->funcs.n : 1, 1);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (!(f->flags & SFF_BODY) || (f->flags & SFF_SYSTEM)) continue;
    for (uint32_t i = 0; i < f->ncall; i++) {
      const link_call *c = &p->calls.v[f->call_off + i];
      if (c->use == SCU_USED) continue;
      cheat_memo m = {0};
      if (dc_memo(p, &cx, c->callee, verdict, &m)) dc_emit(p, o, f, c, c->callee, declared_of(&p->funcs.v[c->callee]), &m, out);
      cheat_memo_free(&m);
    }
  }
  free(verdict);
  cheat_ctx_free(&cx);
}
