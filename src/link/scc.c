/* scc.c — strongly connected components of the call graph, iteratively.
 *
 * Tarjan's algorithm with an explicit stack, so a call chain a million
 * functions long needs no deep C recursion. Components come out callees
 * first (reverse topological order), which is the order the solver wants. */
#include "link/scc.h"
#include "link/solve_int.h"
#include <string.h>

typedef struct { uint32_t node, edge; } frame;

/* Next successor of `node` with a body, from edge position *e on: its
 * callees, then the functions it passes to parameters its callees call
 * through (the call is resolved to them, link/indirect.c, so they are
 * solved first too), then the functions of tables reached through lookups
 * it passes (link/fnret.c). */
static int scc_next(const link_prog *p, uint32_t node, uint32_t *e, uint32_t *succ)
{
  const link_func *f = &p->funcs.v[node];
  while (*e < f->ncall) {
    uint32_t c = p->calls.v[f->call_off + (*e)++].callee;
    if (link_solved_body(&p->funcs.v[c])) { *succ = c; return 1; }
  }
  while (*e < f->ncall + f->nfnarg) {
    const sum_fnarg *a = &p->fnargs.v[f->fnarg_off + (*e)++ - f->ncall];
    if (a->kind == SFA_FUNC && link_solved_body(&p->funcs.v[a->value]) && link_ind_arg_called(p, f, a)) {
      *succ = a->value;
      return 1;
    }
  }
  /* The functions a table holds that the callee reaches through a lookup
   * passed here (link/fnret.c). */
  bool has = p->fnret_edge_start && node < p->fnret_nfuncs;
  uint32_t x0 = has ? p->fnret_edge_start[node] : 0;
  uint32_t nx = has ? p->fnret_edge_start[node + 1] - x0 : 0;
  while (*e < f->ncall + f->nfnarg + nx) {
    uint32_t g = p->fnret_edges.v[x0 + (*e)++ - f->ncall - f->nfnarg];
    if (link_solved_body(&p->funcs.v[g])) { *succ = g; return 1; }
  }
  return 0;
}

void scc_compute(const link_prog *p, scc_result *out)
{
  size_t n = p->funcs.n;
  uint32_t *index = xmalloc((n ? n : 1) * sizeof *index);
  uint32_t *low = xmalloc((n ? n : 1) * sizeof *low);
  unsigned char *on = xcalloc(n ? n : 1, 1);
  memset(index, 0xff, n * sizeof *index);
  VEC(uint32_t) stack = {0};
  VEC(frame) calls = {0};
  uint32_t next = 0;
  memset(out, 0, sizeof *out);
  for (uint32_t root = 0; root < n; root++) {
    if (index[root] != UINT32_MAX || !link_solved_body(&p->funcs.v[root])) continue;
    frame fr = { root, 0 };
    vec_push(&calls, fr);
    index[root] = low[root] = next++;
    vec_push(&stack, root);
    on[root] = 1;
    while (calls.n) {
      frame *top = &calls.v[calls.n - 1];
      uint32_t v = top->node, w;
      if (scc_next(p, v, &top->edge, &w)) {
        if (index[w] == UINT32_MAX) {
          index[w] = low[w] = next++;
          vec_push(&stack, w);
          on[w] = 1;
          frame f2 = { w, 0 };
          vec_push(&calls, f2);
        } else if (on[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      calls.n--;
      if (calls.n) {
        uint32_t parent = calls.v[calls.n - 1].node;
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] == index[v]) {          /* v roots a component: pop it */
        vec_push(&out->start, (uint32_t)out->members.n);
        uint32_t x;
        do {
          x = stack.v[--stack.n];
          on[x] = 0;
          vec_push(&out->members, x);
        } while (x != v);
      }
    }
  }
  vec_push(&out->start, (uint32_t)out->members.n);
  free(index);
  free(low);
  free(on);
  vec_free(&stack);
  vec_free(&calls);
}

void scc_free(scc_result *r)
{
  vec_free(&r->members);
  vec_free(&r->start);
}
