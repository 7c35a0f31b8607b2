/* fnret.c — calls through a member of what a function-pointer parameter
 * returns, resolved per call site (issue 30, item 5; the facts:
 * frontend/fnret.c).
 *
 * xz's `lzma_raw_coder_memusage (coder_find, …)` calls `fc->memusage
 * (o)` with `fc = coder_find (id)`; its callers pass `&encoder_find` or
 * `&decoder_find`, lookups returning an element of a read-only table.
 * When indirect.c specialises the callee for a call site that binds the
 * parameter, the call through the member joins the functions the bound
 * lookup's table holds at the member's byte offset (sum_rmember), as a
 * call through a read-only table does. Here: the records, merged and
 * sorted; the lookup by (lookup, offset); and the call-graph edges that
 * get those functions solved before the call site that reaches them.
 *
 * A lookup is trusted only with the body every call runs: one body (not a
 * union of differing ones), not weak, not interposable, not noipa. */
#include "link/solve_int.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

void link_fnret_add_body(link_prog *p, const sum_tu *tu, uint32_t sfi, uint32_t gi, const uint32_t *map)
{
  for (size_t i = 0; i < tu->rmembers.n; i++) {
    sum_rmember m = tu->rmembers.v[i];
    if (m.func != sfi) continue;
    m.func = gi;
    if (m.kind == SFA_FUNC) m.value = map[m.value];
    vec_push(&p->rmembers, m);
  }
}

static int fnret_cmp(const void *a, const void *b)
{
  const sum_rmember *x = a, *y = b;
  if (x->func != y->func) return x->func < y->func ? -1 : 1;
  if (x->moff != y->moff) return x->moff < y->moff ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  return x->value < y->value ? -1 : x->value > y->value;
}

/* Is fn's body the one every call of it runs (see the header comment)? */
static bool fnret_trusted(const link_func *f)
{
  return link_has_body(f) && !(f->flags & (SFF_INTERPOSABLE | SFF_NOIPA)) &&
         !(f->lflags & (LF_DUPLICATE_BODY | LF_JOIN));
}

/* The first record of fn at or after offset moff (p->rmembers sorted). */
static uint32_t fnret_lower(const link_prog *p, uint32_t fn, uint32_t moff)
{
  uint32_t lo = 0, hi = (uint32_t)p->rmembers.n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const sum_rmember *m = &p->rmembers.v[mid];
    if (m->func < fn || (m->func == fn && m->moff < moff)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

uint32_t link_fnret_members(const link_prog *p, uint32_t fn, uint32_t moff, uint32_t *first)
{
  if (fn >= p->funcs.n || !fnret_trusted(&p->funcs.v[fn])) return 0;
  uint32_t i = fnret_lower(p, fn, moff), j = i;
  while (j < p->rmembers.n && p->rmembers.v[j].func == fn && p->rmembers.v[j].moff == moff) j++;
  *first = i;
  return j - i;
}

/* Does a call of g that binds its parameter `param` reach the member at
 * offset moff of what that parameter returns: g calls through it there,
 * or passes the parameter on to a callee that calls through it (at some
 * offset: all count, which only adds edges)? */
static bool fnret_wanted(const link_prog *p, const link_func *g, uint32_t param, uint32_t moff)
{
  if (!link_solved_body(g)) return false;
  if (g->lflags & LF_JOIN) return true;   /* its definitions' facts are theirs */
  for (uint32_t i = 0; i < g->npcall; i++) {
    const sum_pcall *pc = &p->pcalls.v[g->pcall_off + i];
    if (pc->param == param && pc->moff == moff + 1) return true;
  }
  for (uint32_t i = 0; i < g->nfnarg; i++) {
    const sum_fnarg *a = &p->fnargs.v[g->fnarg_off + i];
    if (a->kind == SFA_PARAM && a->value == param && link_ind_arg_called(p, g, a)) return true;
  }
  return false;
}

/* f's extra successors: for each lookup it passes to a parameter its
 * callee calls through, the functions of the members reached. */
static void fnret_edges_of(link_prog *p, const link_func *f)
{
  size_t start = p->fnret_edges.n;
  for (uint32_t i = 0; i < f->nfnarg; i++) {
    const sum_fnarg *a = &p->fnargs.v[f->fnarg_off + i];
    if (a->kind != SFA_FUNC || !link_ind_arg_called(p, f, a)) continue;
    const link_func *g = &p->funcs.v[p->calls.v[f->call_off + a->call].callee];
    uint32_t k = fnret_lower(p, a->value, 0);
    for (; k < p->rmembers.n && p->rmembers.v[k].func == a->value; k++) {
      const sum_rmember *m = &p->rmembers.v[k];
      if (m->kind != SFA_FUNC || !fnret_wanted(p, g, a->arg, m->moff)) continue;
      bool seen = false;
      for (size_t e = start; e < p->fnret_edges.n && !seen; e++) seen = p->fnret_edges.v[e] == m->value;
      if (!seen) vec_push(&p->fnret_edges, m->value);
    }
  }
}

void link_fnret_prepare(link_prog *p)
{
  if (p->rmembers.n) qsort(p->rmembers.v, p->rmembers.n, sizeof *p->rmembers.v, fnret_cmp);
  size_t n = 0;
  for (size_t i = 0; i < p->rmembers.n; i++)
    if (!n || fnret_cmp(&p->rmembers.v[n - 1], &p->rmembers.v[i])) p->rmembers.v[n++] = p->rmembers.v[i];
  p->rmembers.n = n;
  free(p->fnret_edge_start);
  p->fnret_edge_start = xmalloc((p->funcs.n + 1) * sizeof *p->fnret_edge_start);
  p->fnret_edges.n = 0;
  for (size_t i = 0; i < p->funcs.n; i++) {
    p->fnret_edge_start[i] = (uint32_t)p->fnret_edges.n;
    if (n && link_solved_body(&p->funcs.v[i])) fnret_edges_of(p, &p->funcs.v[i]);
  }
  p->fnret_edge_start[p->funcs.n] = (uint32_t)p->fnret_edges.n;
  p->fnret_nfuncs = p->funcs.n;
}
