/* liveclass.c — the class a declared attribute must cover (noreturn.h):
 * what a function does on the paths that return, its calls' classes seen
 * the same way; also with compiler barriers counted, and (--strict) with
 * the paths that end in a noreturn call counted.
 *
 * Solved per strongly connected component of the call graph (link/scc.c),
 * callees first, each component from its members' own effects and outside
 * calls up to a fixpoint, as link/solve.c solves the plain class. A call
 * inside the component gives at most its callee's class in this view: it
 * is the callee's state mapped through the arguments, which never raises
 * it (a write through a parameter lands on the caller's local or stays a
 * write), and at most what the link's solved state gives. Asking the
 * solved class alone for a call back into the recursion brought back the
 * effects this view leaves out: a recursive function's failed-assertion
 * message was an error (FFmpeg's av_rescale_rnd under --assert-level=2,
 * and any mutual recursion reaching an assertion). */
#include "checks/noreturn.h"
#include "link/scc.h"
#include <string.h>

struct nr_comps {
  scc_result scc;
  uint32_t *of;   /* per function: its component, UINT32_MAX without a solved body */
};

/* One view of the classes: which paths count, and its memo (per function,
 * 1 + the class, 0 not yet known). */
typedef struct {
  bool skip_doomed, skip_barrier, skip_math_errno;
  uint8_t *memo;
  link_state *st;   /* per function: its state in this view, where memo is set */
} lc_view;

/* A call inside the component being solved: from, to, and what it gives
 * with the callee's solved state. */
typedef struct { uint32_t from, to; purity mapped; } lc_edge;

/* A component whose outside callees are being solved first: the member
 * and call to look at next. */
typedef struct { uint32_t comp, member, call; } lc_frame;
typedef VEC(lc_frame) lc_frames;

static struct nr_comps *lc_comps(nr_ctx *c)
{
  if (c->comps) return c->comps;
  struct nr_comps *k = xcalloc(1, sizeof *k);
  size_t n = c->p->funcs.n;
  scc_compute(c->p, &k->scc);
  k->of = xmalloc((n ? n : 1) * sizeof *k->of);
  memset(k->of, 0xff, n * sizeof *k->of);
  for (uint32_t i = 0; i + 1 < k->scc.start.n; i++)
    for (uint32_t j = k->scc.start.v[i]; j < k->scc.start.v[i + 1]; j++) k->of[k->scc.members.v[j]] = i;
  c->comps = k;
  return k;
}

void nr_comps_free(struct nr_comps *k)
{
  if (!k) return;
  scc_free(&k->scc);
  free(k->of);
  free(k);
}

/* A compiler barrier (no instruction), or a volatile asm that only moves
 * between its operands (their reads and writes are effects of their own):
 * it breaks no declared attribute. */
bool nr_is_barrier(const sum_effect *e)
{
  return e->kind == SE_ASM && (e->param == SA_ASM_BARRIER || e->param == SA_ASM_MOVE);
}

/* A move asm is not even a barrier's note: it orders nothing the
 * attribute speaks of. */
static bool nr_is_move(const sum_effect *e)
{
  return e->kind == SE_ASM && e->param == SA_ASM_MOVE;
}

/* A call no returning path of a correct caller makes: on a path that
 * ends in a noreturn call, or a precondition guard's (precond.h). */
static bool lc_noreturn_path(const link_prog *p, const link_call *cl)
{
  return (cl->flags & (SCF_DOOMED | SCF_NORETURN)) || link_guard_call(p, cl);
}

/* Does call cl of f count in view v? */
static bool lc_counts(const link_prog *p, const link_func *f, const link_call *cl, const lc_view *v)
{
  return !(v->skip_doomed && lc_noreturn_path(p, cl)) && !link_scratch_call(p, f, cl);
}

/* A callee whose class in view v comes from its body. */
static bool lc_inner(const link_prog *p, const link_call *cl)
{
  return link_has_body(&p->funcs.v[cl->callee]);
}

/* f's own effects in view v, scratch memory left out (link/capture.c). */
static link_state lc_own(const link_prog *p, const link_func *f, const lc_view *v)
{
  link_state s = { .own = PURITY_CONST };
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if ((v->skip_doomed && (e->flags & SEF_DOOMED)) || (v->skip_barrier && nr_is_barrier(e)) || nr_is_move(e))
      continue;
    if (link_scratch_effect(p, f, e)) continue;
    link_state_add_effect(p, &s, e);
  }
  return s;
}

static void lc_join(link_state *into, const link_state *s)
{
  into->own = purity_join((purity)into->own, (purity)s->own);
  into->pr |= s->pr;
  into->pw |= s->pw;
}

/* Folds what call cl of f gives into `into`: its solved contribution, no
 * more than its callee's state in view v seen through the arguments when
 * that is known. Through the arguments, not the callee's class alone: a
 * callee reading through a parameter that this call gives read-only data
 * reads nothing here, though its own class is pure (Dovecot's
 * uni_ucs4_to_titlecase hands its static const keys to uint16_find, whose
 * i_assert is a noreturn path: the view leaves that out, and the read
 * through `data` was all that was left, an error). */
static void lc_call(const link_prog *p, const link_func *f, const link_call *cl, const lc_view *v,
                    link_state *into)
{
  purity k = link_call_class_scratch(p, f, cl);
  if (v->skip_math_errno && !lc_inner(p, cl)) {
    const kb_entry *e = link_kb_entry(p, &p->funcs.v[cl->callee]);
    if (e && e->math_errno && e->cls < k) k = e->cls;
  }
  if (lc_inner(p, cl) && v->memo[cl->callee]) {
    link_state m = { .own = PURITY_CONST };
    link_call_fold(p, cl, &v->st[cl->callee], &m);
    if (link_state_class(&m) <= k) {
      lc_join(into, &m);
      return;
    }
  }
  into->own = purity_join((purity)into->own, k);
}

/* Sets f's state in view v, and its class. */
static void lc_set(const lc_view *v, uint32_t fi, const link_state *st)
{
  v->st[fi] = *st;
  v->memo[fi] = (uint8_t)(link_state_class(st) + 1);
}

/* Solves component `comp` in view v (its outside callees known). */
static void lc_solve(nr_ctx *c, const lc_view *v, uint32_t comp)
{
  const link_prog *p = c->p;
  const struct nr_comps *k = c->comps;
  VEC(lc_edge) inner = {0};
  for (uint32_t j = k->scc.start.v[comp]; j < k->scc.start.v[comp + 1]; j++) {
    uint32_t fi = k->scc.members.v[j];
    const link_func *f = &p->funcs.v[fi];
    link_state st = lc_own(p, f, v);
    for (uint32_t i = 0; i < f->ncall; i++) {
      const link_call *cl = &p->calls.v[f->call_off + i];
      if (!lc_counts(p, f, cl, v)) continue;
      if (lc_inner(p, cl) && k->of[cl->callee] == comp) {
        lc_edge e = { fi, cl->callee, link_call_class_scratch(p, f, cl) };
        vec_push(&inner, e);
      } else {
        lc_call(p, f, cl, v, &st);
      }
    }
    lc_set(v, fi, &st);
  }
  /* Classes only rise: at most three rounds a member. An inner call gives
   * its class as the caller's own (its parameters are not mapped here),
   * raised whenever it is more, even where the caller's class is already
   * as high through its own writes through parameters: a caller of the
   * component folds that state through its arguments (lc_call), and a
   * global written below must not hide behind them. */
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < inner.n; i++) {
      const lc_edge *e = &inner.v[i];
      purity to = (purity)(v->memo[e->to] - 1), give = e->mapped < to ? e->mapped : to;
      link_state *st = &v->st[e->from];
      if (give > (purity)st->own) {
        st->own = give;
        v->memo[e->from] = (uint8_t)(link_state_class(st) + 1);
        changed = true;
      }
    }
  }
  vec_free(&inner);
}

/* Pushes the component of the next outside callee of frame fr not yet
 * known in view v; false when there is none left. */
static bool lc_next_callee(nr_ctx *c, const lc_view *v, lc_frame *fr, lc_frames *st)
{
  const link_prog *p = c->p;
  const struct nr_comps *k = c->comps;
  uint32_t first = k->scc.start.v[fr->comp], n = k->scc.start.v[fr->comp + 1] - first;
  for (; fr->member < n; fr->member++, fr->call = 0) {
    const link_func *f = &p->funcs.v[k->scc.members.v[first + fr->member]];
    while (fr->call < f->ncall) {
      const link_call *cl = &p->calls.v[f->call_off + fr->call++];
      uint32_t g = cl->callee;
      if (!lc_counts(p, f, cl, v) || !lc_inner(p, cl) || v->memo[g] || k->of[g] == fr->comp ||
          k->of[g] == UINT32_MAX)
        continue;
      lc_frame next = { k->of[g], 0, 0 };
      vec_push(st, next);
      return true;
    }
  }
  return false;
}

/* The class of fi in view v. A function outside every component (a weak
 * definition) is solved from its own effects and calls. */
static purity lc_class(nr_ctx *c, uint32_t fi, const lc_view *v)
{
  if (v->memo[fi]) return (purity)(v->memo[fi] - 1);
  const link_prog *p = c->p;
  const struct nr_comps *k = lc_comps(c);
  if (k->of[fi] == UINT32_MAX) {
    const link_func *f = &p->funcs.v[fi];
    link_state st = lc_own(p, f, v);
    for (uint32_t i = 0; i < f->ncall; i++) {
      const link_call *cl = &p->calls.v[f->call_off + i];
      if (!lc_counts(p, f, cl, v)) continue;
      if (lc_inner(p, cl) && cl->callee != fi) lc_class(c, cl->callee, v);   /* in a component: no deeper */
      lc_call(p, f, cl, v, &st);
    }
    lc_set(v, fi, &st);
    return link_state_class(&st);
  }
  lc_frames st = {0};
  lc_frame root = { k->of[fi], 0, 0 };
  vec_push(&st, root);
  while (st.n) {
    lc_frame *top = &st.v[st.n - 1];
    if (lc_next_callee(c, v, top, &st)) continue;
    lc_solve(c, v, st.v[st.n - 1].comp);
    st.n--;
  }
  vec_free(&st);
  return (purity)(v->memo[fi] - 1);
}

purity nr_live_class(nr_ctx *c, uint32_t fi)
{
  lc_view v = { .skip_doomed = true, .skip_barrier = true, .memo = c->live, .st = c->live_st };
  return lc_class(c, fi, &v);
}

purity nr_live_barrier_class(nr_ctx *c, uint32_t fi)
{
  lc_view v = { .skip_doomed = true, .memo = c->live_barrier, .st = c->live_barrier_st };
  return lc_class(c, fi, &v);
}

purity nr_run_class(nr_ctx *c, uint32_t fi)
{
  lc_view v = { .skip_barrier = true, .memo = c->run, .st = c->run_st };
  return lc_class(c, fi, &v);
}

purity nr_live_math_class(nr_ctx *c, uint32_t fi)
{
  if (!c->live_math) {
    c->live_math = xcalloc(c->p->funcs.n ? c->p->funcs.n : 1, 1);
    c->live_math_st = xcalloc(c->p->funcs.n ? c->p->funcs.n : 1, sizeof *c->live_math_st);
  }
  lc_view v = { .skip_doomed = true, .skip_barrier = true, .skip_math_errno = true, .memo = c->live_math,
                .st = c->live_math_st };
  return lc_class(c, fi, &v);
}

purity nr_live_sure_class(nr_ctx *c, uint32_t fi)
{
  const link_prog *p = c->p;
  const link_func *f = &p->funcs.v[fi];
  purity cls = PURITY_CONST;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if ((e->flags & (SEF_DOOMED | SEF_MAY)) || nr_is_barrier(e) || link_scratch_effect(p, f, e)) continue;
    cls = purity_join(cls, link_effect_contrib(p, e));
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *cl = &p->calls.v[f->call_off + i];
    /* A call to itself adds nothing to its class (see the top). */
    if (lc_noreturn_path(p, cl) || link_scratch_call(p, f, cl) || cl->callee == fi) continue;
    purity k = link_call_class_scratch(p, f, cl);
    if (lc_inner(p, cl)) {
      purity gl = nr_live_class(c, cl->callee);
      if (gl < k) k = gl;
    }
    cls = purity_join(cls, k);
  }
  return cls;
}
