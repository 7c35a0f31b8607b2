/* solve.c — the purity of every function, bottom-up over the call graph.
 *
 * A function's state is the join of its own effects and of what each call
 * contributes. Effects through pointer parameters stay per parameter: at a
 * call site they are mapped through the provenance of the argument, so a
 * caller passing the address of its own local gains nothing (DESIGN.md §2).
 * Components of mutually recursive functions start optimistic (const) and
 * rise to a fixpoint; the lattice is finite and every step monotone. */
#include "link/fields.h"
#include "link/solve_int.h"
#include "link/c23.h"
#include "link/scc.h"
#include <string.h>

static purity state_class(const link_state *s)
{
  purity c = (purity)s->own;
  if (s->pr) c = purity_join(c, PURITY_PURE);
  if (s->pw) c = PURITY_NORMAL;
  return c;
}

purity link_state_class(const link_state *s) { return state_class(s); }

void link_state_add_effect(const link_prog *p, link_state *s, const sum_effect *e)
{
  link_solve_effect(s, e, p->strict);
}

void link_call_fold(const link_prog *p, const link_call *c, const link_state *callee, link_state *into)
{
  link_solve_apply_pte(into, callee, c->nargs ? p->argmasks.v + c->arg_off : NULL, c->nargs, link_call_pte(p, c));
}

link_state link_solve_kb(const link_prog *p, const link_func *caller, const kb_entry *e)
{
  (void)p;
  link_state s = { .own = PURITY_NORMAL };
  bool no_errno = caller && (caller->tuflags & STF_NO_MATH_ERRNO);
  s.own = (e->math_errno && !no_errno) ? PURITY_NORMAL : e->cls;
  s.pr = e->reads_all ? ~(uint64_t)0 : e->reads;
  s.pw = e->writes_all ? ~(uint64_t)0 : e->writes;
  s.mnr = e->noreturn;
  return s;
}

/* What a function without a usable body is known to do. Callbacks of a
 * library function are unknown here (indirect.c resolves them per call). */
static link_state solve_external(const link_prog *p, const link_func *caller, const link_func *g)
{
  link_state s = { .own = PURITY_NORMAL };
  const kb_entry *e = link_kb_entry(p, g);
  if (e) {
    s = link_solve_kb(p, caller, e);
    if (e->callbacks) s.own = PURITY_NORMAL;
  } else if ((g->declared & SUM_DECL_CONST) || (g->flags & SFF_BUILTIN_CONST)) {
    s.own = PURITY_CONST;
  } else if ((g->declared & SUM_DECL_PURE) || (g->flags & SFF_BUILTIN_PURE)) {
    s.own = PURITY_PURE;
  }
  if (link_func_exits(g)) s.mnr = 1;
  if (g->flags & SFF_UNREACHABLE) s.mnr = 0;   /* the knowledge base's "noreturn": not a way out */
  return s;
}

link_state link_solve_callee(const link_prog *p, const link_func *caller, const link_func *g)
{
  if (p->weak_pass && link_weak_body(g)) return g->st;   /* solve_weak_bodies */
  return link_solved_body(g) ? g->st : solve_external(p, caller, g);
}

void link_map_params(uint64_t cpr, uint64_t cpw, const uint64_t *masks, uint32_t nargs, uint64_t *pr,
                     uint64_t *pw, bool *rd_unknown, bool *wr_unknown)
{
  link_map_params_pte(cpr, cpw, masks, nargs, NULL, pr, pw, rd_unknown, wr_unknown);
}

void link_map_params_pte(uint64_t cpr, uint64_t cpw, const uint64_t *masks, uint32_t nargs, const uint64_t *pte,
                         uint64_t *pr, uint64_t *pw, bool *rd_unknown, bool *wr_unknown)
{
  const uint64_t all = ~(uint64_t)0;
  *rd_unknown = *wr_unknown = false;
  for (uint64_t bits = cpr | cpw; bits; bits &= bits - 1) {
    unsigned i = (unsigned)__builtin_ctzll(bits);
    uint64_t bit = (uint64_t)1 << i;
    bool rd = cpr & bit, wr = cpw & bit;
    if (i >= nargs) {
      rd = rd && cpr != all;
      wr = wr && cpw != all;
      if (!rd && !wr) continue;
    }
    /* Past the arguments: the callee's virtual parameters (SEF_PTE), what
     * argument i - nargs pointed to, where the call knows it. */
    uint64_t m = i < nargs ? masks[i] : pte && i < 2 * nargs ? pte[i - nargs] : PROV_UNKNOWN;
    if (rd) {
      *rd_unknown |= (m & PROV_ANYWHERE) != 0;
      *pr |= m >> PROV_PARAM0;
    }
    if (wr) {
      *wr_unknown |= (m & (PROV_ANYWHERE | PROV_RODATA)) != 0;
      *pw |= m >> PROV_PARAM0;
    }
  }
}

/* Folds the callee state cs, seen through the argument provenances, into s. */
void link_solve_apply(link_state *s, const link_state *cs, const uint64_t *masks, uint32_t nargs)
{
  link_solve_apply_pte(s, cs, masks, nargs, NULL);
}

void link_solve_apply_pte(link_state *s, const link_state *cs, const uint64_t *masks, uint32_t nargs,
                          const uint64_t *pte)
{
  bool rd_unknown, wr_unknown;
  s->own = purity_join((purity)s->own, (purity)cs->own);
  s->mnr |= cs->mnr;
  link_map_params_pte(cs->pr, cs->pw, masks, nargs, pte, &s->pr, &s->pw, &rd_unknown, &wr_unknown);
  if (rd_unknown) s->own = purity_join((purity)s->own, PURITY_PURE);
  if (wr_unknown) s->own = PURITY_NORMAL;
}

purity link_effect_class(sum_effect_kind k)
{
  switch (k) {
  case SE_READ_GLOBAL: case SE_READ_MEM: case SE_READ_PARAM: return PURITY_PURE;
  case SE_LOOP: case SE_GOTO_BACK: case SE_READ_CONST: case SE_ADDR_GLOBAL: case SE_KIND_COUNT:
    return PURITY_CONST;
  default: return PURITY_NORMAL;
  }
}

/* On a path that ends in a call to a noreturn function, nothing written can
 * be seen by the caller (it never gets control back), but what is read can:
 * the noreturn callee prints, flushes streams, runs handlers, all reading
 * memory the caller may just have stored. (With const, GCC would drop such
 * a store; measured.) So those effects count as reads: at most pure. */
void link_solve_cap_doomed(link_state *s)
{
  if (s->own > PURITY_PURE) s->own = PURITY_PURE;
  s->pr |= s->pw;
  s->pw = 0;
}

void link_solve_effect(link_state *s, const sum_effect *e, bool strict)
{
  if (e->flags & LINK_EF_RESOLVED) return;   /* its table calls speak for it */
  if (e->kind == SE_LOOP || e->kind == SE_GOTO_BACK) {
    if (!(e->flags & SEF_UNLESS_PURE_CALL)) s->mnr = 1;   /* else: solve_loop_mnr */
    return;
  }
  link_state one = { .own = PURITY_CONST };
  if ((e->flags & SEF_ATOMIC) && link_effect_class((sum_effect_kind)e->kind) == PURITY_PURE)
    /* An atomic load is there to see another thread's store: a pure call
     * may be hoisted out of the loop that waits for that store (GLib's
     * g_cancellable_is_cancelled spun on in its tests), and GCC infers
     * nothing pure from one either. */
    one.own = PURITY_NORMAL;
  else if (e->kind == SE_READ_PARAM) one.pr = (uint64_t)1 << e->param;
  else if (e->kind == SE_WRITE_PARAM) one.pw = (uint64_t)1 << e->param;
  else one.own = link_effect_class((sum_effect_kind)e->kind);
  if ((e->flags & SEF_DOOMED) && !strict) link_solve_cap_doomed(&one);
  s->own = purity_join((purity)s->own, (purity)one.own);
  s->pr |= one.pr;
  s->pw |= one.pw;
}

/* The contribution of one call, through the arguments' provenance, with
 * the functions it passes resolved (indirect.c). */
static void solve_call(const link_prog *p, const link_func *f, const link_call *c, link_state *out)
{
  link_ind_call(p, f, c, NULL, out);
}

purity link_call_class(const link_prog *p, const link_func *f, const link_call *c)
{
  link_state cs;
  solve_call(p, f, c, &cs);
  return state_class(&cs);
}

purity link_call_own(const link_prog *p, const link_func *f, const link_call *c)
{
  link_state cs;
  solve_call(p, f, c, &cs);
  return (purity)cs.own;
}

purity link_effect_contrib(const link_prog *p, const sum_effect *e)
{
  link_state s = { .own = PURITY_CONST };
  link_solve_effect(&s, e, p->strict);
  return state_class(&s);
}

/* Does loop effect e make f may-not-return? A conditional one (its bound
 * calls a function whose class the front end could not know) does only if
 * that callee is normal. The callee's own class is asked, not what the
 * call contributes through its arguments: a callee writing the caller's
 * locals contributes nothing, yet may move the bound. Within a component
 * the callee's state starts optimistic and only rises, so this stays
 * monotone. (The callee's own may-not-return comes with the call.) */
bool link_loop_mnr(const link_prog *p, const link_func *f, const sum_effect *e)
{
  if (!(e->flags & SEF_UNLESS_PURE_CALL)) return true;
  if (e->call == 0 || e->call > f->ncall) return true;   /* malformed: assume the worst */
  const link_func *g = &p->funcs.v[p->calls.v[f->call_off + e->call - 1].callee];
  link_state cs = link_solve_callee(p, f, g);
  return state_class(&cs) == PURITY_NORMAL;
}

/* f's state from its effects and calls; remembers what each call gave,
 * for the reasons (the last evaluation is the final one). */
static link_state solve_eval(link_prog *p, const link_func *f)
{
  link_state s = { .own = PURITY_CONST };
  for (uint32_t i = 0; i < f->neff; i++) link_solve_effect(&s, &p->effs.v[f->eff_off + i], p->strict);
  for (uint32_t i = 0; i < f->ncall; i++) {
    link_state cs;
    solve_call(p, f, &p->calls.v[f->call_off + i], &cs);
    p->call_cls[f->call_off + i] = (uint8_t)state_class(&cs);
    s.own = purity_join((purity)s.own, (purity)cs.own);
    s.mnr |= cs.mnr;
    s.pr |= cs.pr;
    s.pw |= cs.pw;
  }
  for (uint32_t i = 0; i < f->neff && !s.mnr; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (e->kind == SE_LOOP && link_loop_mnr(p, f, e)) s.mnr = 1;
  }
  return s;
}

static bool state_join(link_state *into, const link_state *s)
{
  link_state old = *into;
  into->own = purity_join((purity)into->own, (purity)s->own);
  into->mnr |= s->mnr;
  into->pr |= s->pr;
  into->pw |= s->pw;
  return memcmp(&old, into, sizeof old) != 0;
}

static bool solve_calls_self(const link_prog *p, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  for (uint32_t i = 0; i < f->ncall; i++)
    if (p->calls.v[f->call_off + i].callee == fi) return true;
  for (uint32_t i = 0; i < f->nfnarg; i++) {   /* passes itself to be called back */
    const sum_fnarg *a = &p->fnargs.v[f->fnarg_off + i];
    if (a->kind == SFA_FUNC && a->value == fi && link_ind_arg_called(p, f, a)) return true;
  }
  return false;
}

static void solve_component(link_prog *p, const uint32_t *m, uint32_t n)
{
  bool recursive = n > 1 || solve_calls_self(p, m[0]);
  for (uint32_t i = 0; i < n; i++) {
    link_state init = { .own = PURITY_CONST, .mnr = recursive };
    p->funcs.v[m[i]].st = init;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < n; i++) {
      link_state s = solve_eval(p, &p->funcs.v[m[i]]);
      changed |= state_join(&p->funcs.v[m[i]].st, &s);
    }
    if (!recursive) break;
  }
}

/* ---- reasons ---- */

/* How telling a cause is, for a maintainer who has to fix it (issue 14,
 * item 6; issue 22, item 6); lower is better, ties go to source order:
 *   0  an effect on a named object (a global written or read, an atomic's
 *      object), or a definite store (through a parameter or a pointer);
 *   1  any other effect of the function itself (a call through a function
 *      pointer, volatile, asm, memory read through a pointer), or a call of
 *      a function whose body or lack of one is the cause;
 *   2  a call of a library function the knowledge base describes (memcpy,
 *      snprintf: usually a step, rarely the thing to fix), but an allocation
 *      (malloc: the kb says "allocates") is 1; and errno put back as it was
 *      (`errno = saved`, frontend/errsave.c: what happened in between is
 *      the thing, PulseAudio's pa_xfree around free, its logger around
 *      the output);
 *   3  a compiler barrier (asm with no instruction: it orders, does nothing);
 *   4  anything on a path that ends in a noreturn call (an error report). */
static int why_rank_effect(const sum_effect *e)
{
  if (e->flags & SEF_DOOMED) return 4;
  if (e->flags & SEF_ERRNO_RESTORE) return 2;
  /* An atomic read-modify-write: the write says it all (the read is normal too). */
  if ((e->flags & SEF_ATOMIC) && link_effect_class((sum_effect_kind)e->kind) == PURITY_PURE) return 1;
  if (e->kind == SE_READ_GLOBAL || e->kind == SE_WRITE_GLOBAL) return 0;
  if (e->kind == SE_WRITE_PARAM || e->kind == SE_WRITE_MEM) return 0;
  if ((e->flags & SEF_ATOMIC) && e->name) return 0;
  if (e->kind == SE_ASM && e->param == SA_ASM_BARRIER) return 3;
  return 1;
}

static int why_rank_call(const link_prog *p, const link_call *c)
{
  if (c->flags & (SCF_DOOMED | SCF_NORETURN)) return 4;
  const link_func *g = &p->funcs.v[c->callee];
  const kb_entry *e = link_has_body(g) ? NULL : link_kb_entry(p, g);
  /* An allocation is a definite effect, as a store is (xmalloc's malloc,
   * not its out-of-memory branch's message); other library calls are steps. */
  if (e && e->reason && !strncmp(e->reason, "allocates", 9)) return 1;
  if (e) return 2;
  return 1;
}

static bool why_better(int rank, sum_loc loc, int best_rank, sum_loc best_loc)
{
  return rank < best_rank || (rank == best_rank && sum_loc_before(loc, best_loc));
}

/* The most telling thing (why_rank_*), first in source order among
 * equals, that makes f as impure as it is. */
static link_why solve_why(const link_prog *p, const link_func *f)
{
  purity target = (purity)f->cls;
  link_why best = { WHY_NONE, 0 };
  sum_loc best_loc = { 0, UINT32_MAX, UINT32_MAX };
  int best_rank = 5;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    purity c = link_effect_contrib(p, e);
    bool match = target == PURITY_CONST ? e->kind == SE_READ_CONST : c == target;
    int rank = target == PURITY_CONST ? 0 : why_rank_effect(e);
    if (match && why_better(rank, e->loc, best_rank, best_loc)) {
      best.kind = WHY_EFFECT; best.index = f->eff_off + i; best_loc = e->loc; best_rank = rank;
    }
  }
  if (target == PURITY_CONST) return best;
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    if (p->call_cls[f->call_off + i] != target) continue;
    if (&p->funcs.v[c->callee] == f) continue;   /* "calls itself" explains nothing */
    int rank = why_rank_call(p, c);
    if (why_better(rank, c->loc, best_rank, best_loc)) {
      best.kind = WHY_CALL; best.index = f->call_off + i; best_loc = c->loc; best_rank = rank;
    }
  }
  return best;
}

/* Why f may not return, first in source order among equals: a call that
 * does not return (pcre2grep's decode_number exits on a malformed number)
 * before a loop or call only not proven to end. */
static link_why solve_why_mnr(const link_prog *p, const link_func *f, bool recursive)
{
  link_why best = { WHY_NONE, 0 };
  sum_loc best_loc = { 0, UINT32_MAX, UINT32_MAX };
  int best_rank = 2;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    bool mnr = e->kind == SE_GOTO_BACK || (e->kind == SE_LOOP && link_loop_mnr(p, f, e));
    if (mnr && why_better(1, e->loc, best_rank, best_loc)) {
      best.kind = WHY_EFFECT; best.index = f->eff_off + i; best_loc = e->loc; best_rank = 1;
    }
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    const link_func *g = &p->funcs.v[c->callee];
    bool dies = (c->flags & SCF_NORETURN) && link_func_exits(g);
    bool mnr = dies || link_solve_callee(p, f, g).mnr;
    int rank = dies ? 0 : 1;
    if (mnr && g != f && why_better(rank, c->loc, best_rank, best_loc)) {
      best.kind = WHY_CALL; best.index = f->call_off + i; best_loc = c->loc; best_rank = rank;
    }
  }
  if (best.kind == WHY_NONE && recursive) best.kind = WHY_RECURSION;
  return best;
}

/* A library function defined inline in a system header keeps its library
 * meaning: the knowledge base speaks for it, as for its out-of-line copy,
 * so the same call comes out the same with or without the optimisation
 * flags that expose the inline body (glibc's bsearch, atoi). */
static void solve_mark_kb_bodies(link_prog *p)
{
  for (size_t i = 0; i < p->funcs.n; i++) {
    link_func *f = &p->funcs.v[i];
    if ((f->flags & SFF_BODY) && (f->flags & SFF_SYSTEM) && f->linkage == SUM_EXTERNAL &&
        kb_lookup(p->kb, strtab_get(p->strs, f->name)))
      f->lflags |= LF_KB_BODY;
  }
}

/* Weak bodies are checked as they are normally linked (issue 22 item 5),
 * each with the weak bodies it calls as shown too: utf8.h's weak
 * utf8casecmp calls its weak utf8codepoint, which writes only the caller's
 * local through its out-parameter. They are solved together, from
 * optimistic states up to a fixpoint (each step monotone, as for a
 * component). Every other caller still sees only what is declared of a
 * weak function: a strong definition may replace it. */
static void solve_weak_bodies(link_prog *p)
{
  bool any = false;
  for (size_t i = 0; i < p->funcs.n; i++)
    if (link_weak_body(&p->funcs.v[i])) {
      p->funcs.v[i].st = (link_state){ .own = PURITY_CONST };
      any = true;
    }
  if (!any) return;
  p->weak_pass = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < p->funcs.n; i++) {
      link_func *f = &p->funcs.v[i];
      if (!link_weak_body(f)) continue;
      link_state s = solve_eval(p, f);
      changed |= state_join(&f->st, &s);
    }
  }
  for (size_t i = 0; i < p->funcs.n; i++) {
    link_func *f = &p->funcs.v[i];
    if (!link_weak_body(f)) continue;
    (void)solve_eval(p, f);   /* the final calls' classes, for the reason */
    f->cls = (uint8_t)state_class(&f->st);
    f->weak_cls = f->cls;
    f->weak_why = solve_why(p, f);
  }
  p->weak_pass = false;
}

void link_solve(link_prog *p)
{
  link_kb_index(p);
  link_dups_resolve(p);
  link_fields_resolve(p);
  link_resolve_ro_tables(p);
  solve_mark_kb_bodies(p);
  link_ind_prepare(p);
  link_fnret_prepare(p);
  /* What blocks of pointers hold, before any class: a local struct's
   * pointee mask (pte_join) is only what its caller stored until the
   * callees' stores join it. */
  link_pb_solve(p);
  free(p->call_cls);
  p->call_cls = xcalloc(p->calls.n ? p->calls.n : 1, 1);
  link_index_decls(p);
  scc_result scc;
  scc_compute(p, &scc);
  for (size_t c = 0; c + 1 < scc.start.n; c++)
    solve_component(p, scc.members.v + scc.start.v[c], scc.start.v[c + 1] - scc.start.v[c]);
  for (size_t c = 0; c + 1 < scc.start.n; c++) {
    uint32_t n = scc.start.v[c + 1] - scc.start.v[c];
    for (uint32_t i = 0; i < n; i++) {
      uint32_t fi = scc.members.v[scc.start.v[c] + i];
      link_func *f = &p->funcs.v[fi];
      f->cls = (uint8_t)state_class(&f->st);
      f->why = solve_why(p, f);
      if (f->st.mnr) f->why_mnr = solve_why_mnr(p, f, n > 1 || solve_calls_self(p, fi));
    }
  }
  scc_free(&scc);
  solve_weak_bodies(p);
  for (size_t i = 0; i < p->funcs.n; i++) {
    link_func *f = &p->funcs.v[i];
    if (f->lflags & LF_JOIN) f->why.kind = WHY_CONFLICT;   /* solved from its definitions */
    if (link_solved_body(f)) continue;
    f->st = solve_external(p, NULL, f);
    f->cls = (uint8_t)state_class(&f->st);
    f->why.kind = WHY_UNKNOWN_BODY;
    if ((f->flags & SFF_WEAK) && (f->flags & SFF_BODY)) f->why.kind = WHY_WEAK;
    if (f->lflags & LF_CONFLICT) f->why.kind = WHY_CONFLICT;
  }
  link_c23_solve(p);
  link_scratch_solve(p);
}
