/* c23.c — the C23 class of every function (issue 15): which of the
 * standard's promises, [[unsequenced]] or [[reproducible]], its body keeps.
 * The rules and their citations are in docs/c23-attributes.md; in short
 * (N3220 §6.7.13.8.1):
 *   reproducible = effectless + idempotent,
 *   unsequenced  = effectless + idempotent + stateless + independent.
 * Effectless allows stores to objects local to the call and observable
 * stores only through a pointer parameter; an unobservable store (a
 * private memo whose later readers see the same results) is allowed too,
 * but a function holding such state is not stateless. Independent allows
 * reading, besides what is based on a parameter, only objects whose value
 * never changes during the execution.
 *
 * Like the GNU solve (solve.c) it goes bottom-up over the call graph with
 * per-parameter effects mapped through the argument provenance at each
 * call, so a caller passing its own local's address to an out-parameter
 * writer gains nothing. Where the standard asks what purist cannot prove
 * it is conservative:
 *   - idempotence of writes through a parameter: proven only when nothing
 *     reads through that same parameter (`*out = x` is; `*acc += x` is not);
 *   - independence: any read of a writable global, static or memory not
 *     based on a parameter counts against it (reproducible at best);
 *   - errno-setting library calls are stores (none) unless the TU says
 *     -fno-math-errno; the floating-point status flags are treated as GCC
 *     treats them for const (ignored outside FENV_ACCESS). */
#include "link/c23.h"
#include "link/solve_int.h"
#include "link/scc.h"
#include "util/ptrmap.h"
#include <string.h>

const char *c23_class_name(c23_class c)
{
  return c == C23_UNSEQUENCED ? "unsequenced" : c == C23_REPRODUCIBLE ? "reproducible" : "none";
}

c23_class c23_declared(uint8_t d)
{
  if (d & SUM_DECL_UNSEQUENCED) return C23_UNSEQUENCED;
  if (d & SUM_DECL_REPRODUCIBLE) return C23_REPRODUCIBLE;
  return C23_NONE;
}

const char *declared_c23_name(uint8_t d)
{
  return c23_class_name(c23_declared(d));
}

static c23_class c23_join(c23_class a, c23_class b) { return a > b ? a : b; }

c23_class c23_state_class(const c23_state *s)
{
  if ((s->pr & s->pw) || s->own == C23_NONE) return C23_NONE;   /* pr & pw: idempotence unproven */
  return (c23_class)s->own;
}

static c23_class c23_of_purity(purity c)
{
  return c == PURITY_CONST ? C23_UNSEQUENCED : c == PURITY_PURE ? C23_REPRODUCIBLE : C23_NONE;
}

/* ---- private statics: written by one function only ---- */

/* name id + 1 → 1 + the one function writing it, or UINT32_MAX for several. */
/* A store that no caller can observe: a static or thread-local object,
 * private to the function (no other function writes it or takes its
 * address), written under an "already computed?" test — a memo. */
bool c23_is_memo_store(const ptrmap *writers, uint32_t fi, const sum_effect *e)
{
  if (e->kind != SE_WRITE_GLOBAL || !e->guard) return false;
  /* A cache filled from the arguments (`if (!c) c = f(x);`) makes later
   * calls with other arguments see the first one's: observable. */
  if (e->flags & SEF_ARG_VALUE) return false;
  if (e->obj != SO_STATIC_LOCAL && e->obj != SO_FILE_STATIC && e->obj != SO_THREAD_LOCAL) return false;
  const uint32_t *w = ptrmap_get(writers, link_obj_key(fi, e));
  return w && *w == fi + 1;
}

bool c23_project_writes_std(const link_prog *p)
{
  for (size_t i = 0; i < p->attrs.n; i++)
    if (p->attrs.v[i].form == SA_STD) return true;
  return false;
}

bool c23_std_for(const link_func *f, bool asked, bool project_std)
{
  return asked || (project_std && (f->tuflags & STF_STD_C23));
}

bool c23_useful(const link_prog *p, uint32_t fi)
{
  return !(p->funcs.v[fi].flags & SFF_VOID) || (p->c23 && p->c23[fi].st.pw);
}

/* ---- one effect, one call ---- */

static void c23_effect(const link_prog *p, const ptrmap *writers, uint32_t fi, const sum_effect *e,
                       c23_state *s)
{
  memset(s, 0, sizeof *s);
  if (e->flags & LINK_EF_RESOLVED) return;   /* its table calls speak for it */
  bool doomed = (e->flags & SEF_DOOMED) && !p->strict;
  sum_effect_kind k = (sum_effect_kind)e->kind;
  /* Through the pointer a parameter pointed to on entry (frontend/slot.c):
   * no parameter of C23's rules, memory anywhere as before. */
  if (e->flags & SEF_PTE) k = k == SE_READ_PARAM ? SE_READ_MEM : SE_WRITE_MEM;
  switch (k) {
  case SE_READ_PARAM: s->pr = (uint64_t)1 << e->param; break;
  case SE_WRITE_PARAM:
    if (doomed) s->pr = (uint64_t)1 << e->param; else s->pw = (uint64_t)1 << e->param;
    break;
  case SE_READ_GLOBAL: case SE_READ_MEM: s->own = C23_REPRODUCIBLE; break;
  case SE_WRITE_GLOBAL:
    if (c23_is_memo_store(writers, fi, e)) { s->own = C23_REPRODUCIBLE; s->memo = 1; }
    else s->own = doomed ? C23_REPRODUCIBLE : C23_NONE;
    break;
  default:
    if (link_effect_class((sum_effect_kind)e->kind) != PURITY_CONST)
      s->own = doomed ? C23_REPRODUCIBLE : C23_NONE;
    break;
  }
}

/* What a function without a usable body promises: the knowledge base, a
 * declared C23 attribute (which may read and write through its pointer
 * parameters), a GNU attribute (no writes), else nothing. */
static c23_state c23_external(const link_prog *p, const link_func *caller, const link_func *g)
{
  c23_state s = { C23_NONE, 0, 0, 0 };
  const kb_entry *e = link_kb_entry(p, g);
  if (e) {
    bool no_errno = caller && (caller->tuflags & STF_NO_MATH_ERRNO);
    s.own = (e->math_errno && !no_errno) ? C23_NONE : c23_of_purity(e->cls);
    s.pr = e->reads_all ? ~(uint64_t)0 : e->reads;
    s.pw = e->writes_all ? ~(uint64_t)0 : e->writes;
  } else if (g->declared & SUM_DECL_C23) {
    s.own = c23_declared(g->declared);
    s.pr = s.pw = ~(uint64_t)0;
  } else if ((g->declared & SUM_DECL_CONST) || (g->flags & SFF_BUILTIN_CONST)) {
    s.own = C23_UNSEQUENCED;
  } else if ((g->declared & SUM_DECL_PURE) || (g->flags & SFF_BUILTIN_PURE)) {
    s.own = C23_REPRODUCIBLE;
  }
  return s;
}

/* The callee's state seen through the arguments' provenance (as
 * solve_apply does for the GNU class). */
static void c23_apply(c23_state *s, const c23_state *cs, const uint64_t *masks, uint32_t nargs)
{
  bool rd_unknown, wr_unknown;
  s->own = c23_join((c23_class)s->own, (c23_class)cs->own);
  s->memo |= cs->memo;
  link_map_params(cs->pr, cs->pw, masks, nargs, &s->pr, &s->pw, &rd_unknown, &wr_unknown);
  if (rd_unknown) s->own = c23_join((c23_class)s->own, C23_REPRODUCIBLE);
  if (wr_unknown) s->own = C23_NONE;
}

static void c23_call(const link_prog *p, const link_func *f, const link_call *c, c23_state *out)
{
  memset(out, 0, sizeof *out);
  const link_func *g = &p->funcs.v[c->callee];
  c23_state cs = link_solved_body(g) ? p->c23[c->callee].st : c23_external(p, f, g);
  /* A program none of whose calls takes an argument has no argmasks (NULL). */
  c23_apply(out, &cs, c->nargs ? p->argmasks.v + c->arg_off : NULL, c->nargs);
  /* The caller's virtual parameters (past its own, frontend/slot.c): for
   * C23, memory anywhere. */
  uint64_t virt = f->nparams < 64 ? ~(uint64_t)0 << f->nparams : 0;
  if (out->pr & virt) { out->own = c23_join((c23_class)out->own, C23_REPRODUCIBLE); out->pr &= ~virt; }
  if (out->pw & virt) { out->own = C23_NONE; out->pw &= ~virt; }
  if ((c->flags & (SCF_NORETURN | SCF_DOOMED)) && !p->strict) {   /* as solve_cap_doomed */
    if (out->own > C23_REPRODUCIBLE) out->own = C23_REPRODUCIBLE;
    out->pr |= out->pw;
    out->pw = 0;
  }
}

static bool c23_state_join(c23_state *into, const c23_state *s)
{
  c23_state old = *into;
  into->own = (uint8_t)c23_join((c23_class)into->own, (c23_class)s->own);
  into->memo |= s->memo;
  into->pr |= s->pr;
  into->pw |= s->pw;
  return memcmp(&old, into, sizeof old) != 0;
}

static c23_state c23_eval(const link_prog *p, const ptrmap *writers, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  c23_state s = { C23_UNSEQUENCED, 0, 0, 0 }, one;
  for (uint32_t i = 0; i < f->neff; i++) {
    c23_effect(p, writers, fi, &p->effs.v[f->eff_off + i], &one);
    c23_state_join(&s, &one);
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    c23_call(p, f, &p->calls.v[f->call_off + i], &one);
    c23_state_join(&s, &one);
  }
  return s;
}

/* ---- reasons ---- */

/* The first effect or call, in source order, that keeps f from the class
 * above its own: one whose own contribution is already that bad, else a
 * write through a parameter that f also reads through (idempotence). */
static void c23_why(const link_prog *p, const ptrmap *writers, uint32_t fi, link_c23 *r)
{
  const link_func *f = &p->funcs.v[fi];
  r->why.kind = WHY_NONE;
  r->idem = 0;
  if (r->cls == C23_UNSEQUENCED) return;
  sum_loc best = { 0, UINT32_MAX, UINT32_MAX };
  for (int pass = 0; pass < 2 && r->why.kind == WHY_NONE; pass++) {
    for (uint32_t i = 0; i < f->neff; i++) {
      c23_state one;
      const sum_effect *e = &p->effs.v[f->eff_off + i];
      c23_effect(p, writers, fi, e, &one);
      bool hit = pass == 0 ? one.own >= r->cls : (one.pw & r->st.pr) != 0;
      if (hit && sum_loc_before(e->loc, best)) { r->why.kind = WHY_EFFECT; r->why.index = f->eff_off + i; best = e->loc; }
    }
    for (uint32_t i = 0; i < f->ncall; i++) {
      c23_state one;
      const link_call *c = &p->calls.v[f->call_off + i];
      if (c->callee == fi) continue;
      c23_call(p, f, c, &one);
      bool hit = pass == 0 ? one.own >= r->cls : (one.pw & r->st.pr) != 0;
      if (hit && sum_loc_before(c->loc, best)) { r->why.kind = WHY_CALL; r->why.index = f->call_off + i; best = c->loc; }
    }
    if (pass == 1 && r->why.kind != WHY_NONE) r->idem = 1;
  }
}

/* ---- the solve ---- */

static bool c23_calls_self(const link_prog *p, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  for (uint32_t i = 0; i < f->ncall; i++)
    if (p->calls.v[f->call_off + i].callee == fi) return true;
  return false;
}

static void c23_component(link_prog *p, const ptrmap *writers, const uint32_t *m, uint32_t n)
{
  bool recursive = n > 1 || c23_calls_self(p, m[0]);
  for (uint32_t i = 0; i < n; i++) {
    c23_state init = { C23_UNSEQUENCED, 0, 0, 0 };
    p->c23[m[i]].st = init;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < n; i++) {
      c23_state s = c23_eval(p, writers, m[i]);
      changed |= c23_state_join(&p->c23[m[i]].st, &s);
    }
    if (!recursive) break;
  }
}

void link_c23_solve(link_prog *p)
{
  free(p->c23);
  p->c23 = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *p->c23);
  ptrmap writers = {0};
  link_obj_writers(p, &writers);
  scc_result scc;
  scc_compute(p, &scc);
  for (size_t c = 0; c + 1 < scc.start.n; c++)
    c23_component(p, &writers, scc.members.v + scc.start.v[c], scc.start.v[c + 1] - scc.start.v[c]);
  scc_free(&scc);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    link_c23 *r = &p->c23[fi];
    const link_func *f = &p->funcs.v[fi];
    if (!link_solved_body(f)) r->st = c23_external(p, NULL, f);
    r->cls = (uint8_t)c23_state_class(&r->st);
    if (link_solved_body(f)) c23_why(p, &writers, fi, r);
    else r->why.kind = WHY_UNKNOWN_BODY;
  }
  ptrmap_free(&writers);
}

ptrmap *c23_writers_new(const link_prog *p)
{
  ptrmap *w = xcalloc(1, sizeof *w);
  link_obj_writers(p, w);
  return w;
}

void c23_writers_free(ptrmap *w)
{
  if (!w) return;
  ptrmap_free(w);
  free(w);
}
