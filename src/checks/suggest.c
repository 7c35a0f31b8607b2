/* suggest.c — where attributes belong, ranked by what they buy.
 *
 * A returning function whose body is const or pure, and whose declarations
 * say less, gets a suggestion at every prototype a caller sees (external
 * functions) or at its definition (static ones). Its gain is the number of
 * call sites in the whole program where, with the attribute, the compiler
 * could delete, merge or hoist the call (the judgement of `explain`). */
#include "checks/checks.h"
#include "link/c23.h"
#include "report/reason.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

typedef struct { uint32_t dead, merged, hoisted; } gain;

static uint32_t gain_total(const gain *g) { return g->dead + g->merged + g->hoisted; }

/* Per callee: the call sites its inferred class would improve. */
static gain *suggest_gains(const link_prog *p)
{
  gain *gains = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *gains);
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (!link_has_body(f)) continue;
    for (uint32_t i = 0; i < f->ncall; i++) {
      uint32_t ci = f->call_off + i;
      const link_func *g = &p->funcs.v[p->calls.v[ci].callee];
      if (!link_has_body(g) || g->cls == PURITY_NORMAL) continue;
      cs_fact fact, today;
      checks_callsite(p, f, ci, (purity)g->cls, &fact);
      checks_callsite(p, f, ci, checks_known_class(p, g), &today);
      if (fact.kind == CS_NONE || fact.blocked || (today.kind == fact.kind && !today.blocked))
        continue;   /* nothing to gain here, or the compiler does it already */
      gain *gg = &gains[p->calls.v[ci].callee];
      if (fact.kind == CS_DEAD) gg->dead++;
      else if (fact.kind == CS_REDUNDANT) gg->merged++;
      else gg->hoisted++;
    }
  }
  return gains;
}

/* Never a function that never returns (every path ends in abort, exit or
 * a loop no path leaves): "pure if it returns normally" says nothing
 * there, and the attribute would let a call be deleted with its end. */
bool checks_suggestable(const link_func *f)
{
  if (!link_has_body(f) || (f->flags & (SFF_SYSTEM | SFF_VOID | SFF_NORETURN)) || f->cls == PURITY_NORMAL)
    return false;
  purity decl = (f->declared & SUM_DECL_CONST) ? PURITY_CONST
              : (f->declared & SUM_DECL_PURE) ? PURITY_PURE : PURITY_NORMAL;
  return (purity)f->cls < decl;
}

typedef struct { const link_prog *p; const gain *gains; } order_ctx;

static int suggest_cmp(const void *a, const void *b, void *ctx)
{
  const order_ctx *c = ctx;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  uint32_t gx = gain_total(&c->gains[x]), gy = gain_total(&c->gains[y]);
  if (gx != gy) return gx > gy ? -1 : 1;
  const link_func *fx = &c->p->funcs.v[x], *fy = &c->p->funcs.v[y];
  int n = strcmp(S(c->p, fx->name), S(c->p, fy->name));
  /* Same name (static functions of several TUs): by place, so the order
   * does not depend on the order the summaries came in (a compile
   * database's order versus a link line's: found on redis). */
  if (!n) n = strcmp(S(c->p, fx->loc.file), S(c->p, fy->loc.file));
  if (!n && fx->loc.line != fy->loc.line) n = fx->loc.line < fy->loc.line ? -1 : 1;
  if (!n && fx->loc.col != fy->loc.col) n = fx->loc.col < fy->loc.col ? -1 : 1;
  return n ? n : (x < y ? -1 : 1);
}

static void suggest_message(strbuf *m, const link_prog *p, const link_func *f, const gain *g, const char *root)
{
  const char *cls = purity_name((purity)f->cls);
  sb_printf(m, "'%s' can be declared %s: it ", S(p, f->name), cls);
  reason_head(m, p, f, root);
  if (f->st.mnr) {
    sb_printf(m, "; it is %s only if it is known to return normally (may not return: ", cls);
    reason_mnr(m, p, f, root);
    sb_puts(m, ")");
  }
  uint32_t total = gain_total(g);
  sb_printf(m, "; %u call site%s gain", total, total == 1 ? "" : "s");
  if (total) {
    const char *sep = " (";
    if (g->dead) { sb_printf(m, "%s%u deleted", sep, g->dead); sep = ", "; }
    if (g->merged) { sb_printf(m, "%s%u merged", sep, g->merged); sep = ", "; }
    if (g->hoisted) sb_printf(m, "%s%u hoisted out of loops", sep, g->hoisted);
    sb_puts(m, ")");
  }
}

/* Every place the attribute should go: the prototypes of an external
 * function (else its definition), the definition of a static one. */
static void suggest_emit(const link_prog *p, const checks_opts *o, uint32_t fi, const gain *g, diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  strbuf msg = {0};
  suggest_message(&msg, p, f, g, o->root);
  const char *check = f->cls == PURITY_CONST ? "suggest-const" : "suggest-pure";
  const sum_decl *gen = NULL, *def = f->linkage == SUM_INTERNAL ? NULL : checks_generated_target(p, fi, &gen);
  if (def) {   /* every prototype is in a generated header: the definition, and why */
    checks_generated_advice(&msg, p, o, gen, def, (purity)f->cls);
    checks_emit(out, p, o, check, DIAG_WARNING, def->loc, f, sb_str(&msg));
    sb_free(&msg);
    return;
  }
  sb_printf(&msg, "; add __attribute__((%s)) %s", purity_name((purity)f->cls),
            f->linkage == SUM_INTERNAL ? "to the definition" : "to the prototype");
  int emitted = 0;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (d->is_def != (f->linkage == SUM_INTERNAL)) continue;
    if (!d->is_def && checks_file_generated(p, d->loc.file)) continue;   /* another prototype takes it */
    strbuf here = {0};
    sb_puts(&here, sb_str(&msg));
    checks_generated_where(&here, p, d);   /* a generated definition: nowhere better */
    checks_emit(out, p, o, check, DIAG_WARNING, d->loc, f, sb_str(&here));
    sb_free(&here);
    emitted++;
  }
  if (!emitted) checks_emit(out, p, o, check, DIAG_WARNING, f->loc, f, sb_str(&msg));
  sb_free(&msg);
}

void checks_suggest(const link_prog *p, const checks_opts *o, diag_list *out)
{
  gain *gains = suggest_gains(p);
  VEC(uint32_t) list = {0};
  bool project_std = c23_project_writes_std(p);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++)
    if (checks_suggestable(&p->funcs.v[fi]) && !c23_std_for(&p->funcs.v[fi], o->std_attrs, project_std))
      vec_push(&list, fi);
  order_ctx ctx = { p, gains };
  if (list.n) qsort_r(list.v, list.n, sizeof *list.v, suggest_cmp, &ctx);
  for (size_t i = 0; i < list.n; i++) suggest_emit(p, o, list.v[i], &gains[list.v[i]], out);
  vec_free(&list);
  free(gains);
  checks_suggest_c23(p, o, out);
}
