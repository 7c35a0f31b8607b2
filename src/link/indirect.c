/* indirect.c — calls through function pointers that the call site fixes
 * (issue 13, item 4; frontend/fnptr.c records the facts).
 *
 * A helper calling through its own parameter is normal on its own: anything
 * may be passed there. At a call that passes known functions, the helper's
 * body is evaluated again with those parameters bound — a specialisation,
 * as GCC's inliner or IPA-CP would clone it. Each call through a bound
 * parameter then contributes the bound function's state seen through that
 * call's arguments: a step function writing `acc[]` through its first
 * parameter writes the helper's parameter, and at the helper's caller that
 * is its own local (DESIGN.md §2). Bindings flow on through calls that pass
 * the parameter again. Library functions with callbacks (bsearch) are
 * resolved from their knowledge-base entry (`cN`). Depth and work are
 * bounded; past the bound a call counts as unknown (normal), which is the
 * conservative answer. */
#include "link/solve_int.h"
#include <string.h>

#define IND_MAX_DEPTH 8
#define IND_BUDGET 4096   /* specialised bodies evaluated for one call of the solver */

/* check: states for `check` (scratch work left out: link_func.sst) where
 * a callee's body is known, as link/capture.c's scratch_eval wants. */
typedef struct { const link_prog *p; uint32_t budget; bool check; } ind_ctx;

/* What calling g from f gives: its solved state, or its check state. */
static link_state ind_callee(const ind_ctx *x, const link_func *f, const link_func *g)
{
  if (x->check && link_solved_body(g)) return g->sst;
  return link_solve_callee(x->p, f, g);
}

static void ind_call(ind_ctx *x, const link_func *f, const link_call *c, const link_bind *fb, int depth,
                     link_state *out);

static void ind_join(link_state *s, const link_state *o)
{
  s->own = purity_join((purity)s->own, (purity)o->own);
  s->mnr |= o->mnr;
  s->pr |= o->pr;
  s->pw |= o->pw;
}

/* The first function-pointer fact of f about call rel: facts are recorded
 * in call order (several bodies of one symbol append in order too). */
static uint32_t ind_first_fnarg(const link_prog *p, const link_func *f, uint32_t rel)
{
  uint32_t lo = 0, hi = f->nfnarg;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (p->fnargs.v[f->fnarg_off + mid].call < rel) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* One argument that may be any of several functions (`c ? f : g`): the
 * callee is specialised once per function and the states joined. */
#define IND_MAX_ALTS 8
typedef struct { uint32_t arg, n, fn[IND_MAX_ALTS]; } ind_alts;

/* Binds c's callee's parameters to the functions c passes (f's own
 * parameters through fb). Returns the bound parameters as bits. An
 * argument with several facts may be any of them: the first such argument
 * is bound to its first and the rest go to *alts; a second one, or an
 * alternative not known, leaves that argument unbound (unknown). */
static uint64_t ind_bind_args(const link_prog *p, const link_func *f, const link_call *c, const link_bind *fb,
                              link_bind *gb, ind_alts *alts)
{
  alts->n = 0;
  if (!f->nfnarg) return 0;
  uint32_t rel = (uint32_t)(c - p->calls.v) - f->call_off;
  uint64_t bound = 0;
  for (uint32_t i = ind_first_fnarg(p, f, rel), j; i < f->nfnarg; i = j) {
    const sum_fnarg *a = &p->fnargs.v[f->fnarg_off + i];
    if (a->call != rel) break;
    uint32_t arg = a->arg, fns[IND_MAX_ALTS], n = 0;
    bool known = arg < PROV_MAX_PARAMS;
    for (j = i; j < f->nfnarg && p->fnargs.v[f->fnarg_off + j].call == rel &&
                p->fnargs.v[f->fnarg_off + j].arg == arg; j++) {
      const sum_fnarg *b = &p->fnargs.v[f->fnarg_off + j];
      uint32_t fn = b->kind == SFA_FUNC ? b->value + 1 : b->kind == SFA_NULL ? LINK_BIND_NULL
                  : (fb && b->value < PROV_MAX_PARAMS ? fb->fn[b->value] : 0);
      bool seen = false;
      for (uint32_t k = 0; k < n; k++) seen |= fns[k] == fn;
      if (!fn || (!seen && n == IND_MAX_ALTS)) known = false;
      else if (!seen) fns[n++] = fn;
    }
    if (!known || !n || (n > 1 && alts->n)) continue;
    if (!bound) memset(gb, 0, sizeof *gb);
    gb->fn[arg] = fns[0];
    bound |= (uint64_t)1 << arg;
    if (n > 1) {
      alts->arg = arg;
      alts->n = n;
      memcpy(alts->fn, fns, n * sizeof *fns);
    }
  }
  return bound;
}

/* g's call through parameter, for its effect rel_eff, or NULL. */
static const sum_pcall *ind_pcall_of(const link_prog *p, const link_func *g, uint32_t rel_eff)
{
  for (uint32_t i = 0; i < g->npcall; i++)
    if (p->pcalls.v[g->pcall_off + i].eff == rel_eff) return &p->pcalls.v[g->pcall_off + i];
  return NULL;
}

/* Into s: a call of g through pointer effect e (its pcall fact pc)
 * reaching function h, seen through the call's arguments. */
static void ind_target(const ind_ctx *x, const link_func *g, const sum_effect *e, const sum_pcall *pc, uint32_t h,
                       link_state *s)
{
  const link_prog *p = x->p;
  link_state hs = ind_callee(x, g, &p->funcs.v[h]), one = { .own = PURITY_CONST };
  link_solve_apply(&one, &hs, pc->nargs ? p->argmasks.v + pc->arg_off : NULL, pc->nargs);
  if ((e->flags & SEF_DOOMED) && !p->strict) link_solve_cap_doomed(&one);
  ind_join(s, &one);
}

/* A call through a member of what the parameter returns, the parameter
 * bound to lookup fn: the functions fn's table holds there (link/fnret.c),
 * joined; unknown when the lookup's table does not say. */
static void ind_member(const ind_ctx *x, const link_func *g, const sum_effect *e, const sum_pcall *pc, uint32_t fn,
                       link_state *s)
{
  const link_prog *p = x->p;
  uint32_t first, n = link_fnret_members(p, fn, pc->moff - 1, &first);
  if (!n) { link_solve_effect(s, e, p->strict); return; }
  for (uint32_t i = 0; i < n; i++) {
    const sum_rmember *m = &p->rmembers.v[first + i];
    if (m->kind == SFA_FUNC) ind_target(x, g, e, pc, m->value, s);   /* a null member is never called */
  }
}

/* g's state with its function-pointer parameters bound by gb. */
static link_state ind_spec(ind_ctx *x, const link_func *g, const link_bind *gb, int depth)
{
  const link_prog *p = x->p;
  link_state s = { .own = PURITY_CONST };
  for (uint32_t i = 0; i < g->neff; i++) {
    const sum_effect *e = &p->effs.v[g->eff_off + i];
    const sum_pcall *pc = e->kind == SE_CALL_INDIRECT ? ind_pcall_of(p, g, i) : NULL;
    uint32_t fn = pc ? gb->fn[pc->param] : 0;
    if (!fn) { link_solve_effect(&s, e, p->strict); continue; }
    if (fn == LINK_BIND_NULL) continue;   /* calling a null pointer is undefined: not on any path */
    if (pc->moff) { ind_member(x, g, e, pc, fn - 1, &s); continue; }
    ind_target(x, g, e, pc, fn - 1, &s);
  }
  for (uint32_t i = 0; i < g->ncall; i++) {
    link_state cs;
    ind_call(x, g, &p->calls.v[g->call_off + i], gb, depth, &cs);
    ind_join(&s, &cs);
  }
  for (uint32_t i = 0; i < g->neff && !s.mnr; i++) {
    const sum_effect *e = &p->effs.v[g->eff_off + i];
    if (e->kind == SE_LOOP && link_loop_mnr(p, g, e)) s.mnr = 1;
  }
  return s;
}

/* A library function's callbacks at call c: each known function passed
 * joins in, its pointer parameters pointing wherever any other argument
 * points (the key, the array), or where the entry's map says (cN:AB…);
 * an unknown one makes the call normal. */
static void ind_kb_callbacks(const ind_ctx *x, const link_func *f, const link_call *c, const kb_entry *e,
                             uint64_t bound, const link_bind *gb, link_state *out)
{
  const link_prog *p = x->p;
  const uint64_t *masks = c->nargs ? p->argmasks.v + c->arg_off : NULL;
  for (uint64_t bits = e->callbacks; bits; bits &= bits - 1) {
    unsigned j = (unsigned)__builtin_ctzll(bits);
    if (j >= c->nargs || !(bound >> j & 1)) { out->own = PURITY_NORMAL; continue; }
    if (gb->fn[j] == LINK_BIND_NULL) continue;   /* undefined with a null function: not done */
    const link_func *h = &p->funcs.v[gb->fn[j] - 1];
    uint64_t any = 0;
    for (uint32_t k = 0; k < c->nargs; k++) if (k != j) any |= masks[k];
    uint64_t hm[PROV_MAX_PARAMS];
    uint32_t n = h->nparams < PROV_MAX_PARAMS ? h->nparams : PROV_MAX_PARAMS;
    for (uint32_t k = 0; k < n; k++) hm[k] = any;
    /* The entry says where each parameter points (bsearch: the key, then
     * an element of the array), when it says so. */
    if (e->cb_nmap && e->cb_arg == j)
      for (uint32_t k = 0; k < n && k < e->cb_nmap; k++)
        hm[k] = e->cb_map[k] < c->nargs ? masks[e->cb_map[k]] : PROV_UNKNOWN;
    link_state hs = ind_callee(x, f, h);
    link_solve_apply(out, &hs, hm, n);
  }
}

static void ind_call(ind_ctx *x, const link_func *f, const link_call *c, const link_bind *fb, int depth,
                     link_state *out)
{
  const link_prog *p = x->p;
  const link_func *g = &p->funcs.v[c->callee];
  /* A program none of whose calls takes an argument has no argmasks (NULL). */
  const uint64_t *masks = c->nargs ? p->argmasks.v + c->arg_off : NULL;
  memset(out, 0, sizeof *out);
  link_bind gb;
  ind_alts alts;
  uint64_t bound = ind_bind_args(p, f, c, fb, &gb, &alts);
  const kb_entry *e = link_kb_entry(p, g);
  link_state cs;
  if (e) {   /* a library function (one lookup: link_solve_callee would repeat it) */
    cs = link_solve_kb(p, f, e);
    if (link_func_exits(g)) cs.mnr = 1;
    if (g->flags & SFF_UNREACHABLE) cs.mnr = 0;   /* as solve_external */
    link_solve_apply_pte(out, &cs, masks, c->nargs, link_call_pte(p, c));
    for (uint32_t k = 0; e->callbacks && k < (alts.n ? alts.n : 1); k++) {
      if (alts.n) gb.fn[alts.arg] = alts.fn[k];
      ind_kb_callbacks(x, f, c, e, bound, &gb, out);
    }
  } else if (bound && link_solved_body(g) && (g->pc & bound) && depth < IND_MAX_DEPTH && x->budget) {
    /* One specialisation per function the argument may be, joined. */
    for (uint32_t k = 0; k < (alts.n ? alts.n : 1); k++) {
      if (alts.n) gb.fn[alts.arg] = alts.fn[k];
      if (x->budget) {
        x->budget--;
        cs = ind_spec(x, g, &gb, depth + 1);
      } else {
        cs = ind_callee(x, f, g);   /* out of budget: unknown, as unbound */
      }
      link_solve_apply_pte(out, &cs, masks, c->nargs, link_call_pte(p, c));
    }
  } else {
    cs = ind_callee(x, f, g);
    link_solve_apply_pte(out, &cs, masks, c->nargs, link_call_pte(p, c));
  }
  /* A check state's questions to the caller (null or not: link/capture.c)
   * are not mapped here: normal, as unknown. */
  if (x->check && (cs.pn || cs.pm)) out->own = PURITY_NORMAL;
  if ((c->flags & SCF_NORETURN) && link_func_exits(g)) out->mnr = 1;
  if ((c->flags & (SCF_NORETURN | SCF_DOOMED)) && !p->strict) link_solve_cap_doomed(out);
}

void link_ind_call(const link_prog *p, const link_func *f, const link_call *c, const link_bind *fb,
                   link_state *out)
{
  ind_ctx x = { p, IND_BUDGET, false };
  ind_call(&x, f, c, fb, 0, out);
}

void link_ind_call_check(const link_prog *p, const link_func *f, const link_call *c, link_state *out)
{
  ind_ctx x = { p, IND_BUDGET, true };
  ind_call(&x, f, c, NULL, 0, out);
}

uint64_t link_calls_through(const link_prog *p, const link_func *g)
{
  if (link_solved_body(g)) return g->pc;
  const kb_entry *e = link_kb_entry(p, g);
  return e ? e->callbacks : 0;
}

bool link_ind_arg_called(const link_prog *p, const link_func *f, const sum_fnarg *a)
{
  if (a->call >= f->ncall || a->arg >= 64) return false;
  return link_calls_through(p, &p->funcs.v[p->calls.v[f->call_off + a->call].callee]) >> a->arg & 1;
}

/* pc, structurally: a function calls through parameter i if it calls it
 * (a pcall) or passes it on to a callee that calls through that argument.
 * Bits only grow, so passes repeat until none changes; a cap leaves bits
 * out, which is safe: without its bit a call is not specialised and the
 * call through the pointer stays unknown (normal). These bits also choose
 * which functions passed as arguments are call-graph edges (scc.c), so a
 * callback merely registered (stored, not called) adds no cycle. */
void link_ind_prepare(link_prog *p)
{
  for (size_t i = 0; i < p->funcs.n; i++) {
    link_func *f = &p->funcs.v[i];
    f->pc = 0;
    for (uint32_t k = 0; k < f->npcall; k++) {
      uint32_t param = p->pcalls.v[f->pcall_off + k].param;
      if (param < PROV_MAX_PARAMS) f->pc |= (uint64_t)1 << param;
    }
  }
  bool changed = true;
  for (int pass = 0; changed && pass < 64; pass++) {
    changed = false;
    for (size_t i = 0; i < p->funcs.n; i++) {
      link_func *f = &p->funcs.v[i];
      if (!link_solved_body(f)) continue;
      for (uint32_t k = 0; k < f->nfnarg; k++) {
        const sum_fnarg *a = &p->fnargs.v[f->fnarg_off + k];
        if (a->kind != SFA_PARAM || a->value >= PROV_MAX_PARAMS || (f->pc >> a->value & 1)) continue;
        if (link_ind_arg_called(p, f, a)) { f->pc |= (uint64_t)1 << a->value; changed = true; }
      }
    }
  }
}
