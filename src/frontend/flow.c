/* flow.c — where a local pointer points here, not anywhere in the call
 * (issue 30, item 7).
 *
 * fw_var.mask is the union of everything a local pointer is ever assigned
 * in the function (flow-insensitive): sound everywhere, and what every
 * other fact of the walk uses. Its value at a point of the walk, fw_var.cur,
 * is narrower: a plain assignment replaces it (`p = alloc(); *p = 0;`
 * writes the block only, even if p held a parameter before), the two
 * branches of an if or ?: are walked from the same state and joined
 * after, the right of && and || is joined with the state before it. Where
 * other paths arrive without this walk following them (a loop's head and
 * exit, a label, a case, a do … while (0) left by break) the value falls
 * back to the union, which covers every path. A variable whose address is
 * taken may change through it (a call, a store): it is always its union.
 *
 * GMP's mpq_cmp uses one pointer for the caller's limbs on one branch and
 * for TMP limbs on the other, and writes it only on the second: with the
 * union, the write seemed to hit the caller's limbs. */
#include "frontend/walk.h"

uint64_t fw_flow_value(const fw *w, uint32_t vi)
{
  const fw_var *v = &w->vars.v[vi];
  if (w->flow_off || v->addr_taken || v->ptr_union || v->array_param) return v->mask;
  return v->cur & v->mask;
}

void fw_flow_assign(fw *w, uint32_t vi, uint64_t m, int strong)
{
  fw_var *v = &w->vars.v[vi];
  v->cur = strong ? m : (v->cur | m);
}

void fw_flow_top(fw *w)
{
  for (size_t i = 0; i < w->vars.n; i++) w->vars.v[i].cur = w->vars.v[i].mask;
}

size_t fw_flow_save(fw *w)
{
  size_t at = w->flow.n;
  vec_push(&w->flow, (uint64_t)w->vars.n);
  for (size_t i = 0; i < w->vars.n; i++) vec_push(&w->flow, w->vars.v[i].cur);
  return at;
}

void fw_flow_restore(fw *w, size_t at)
{
  size_t n = (size_t)w->flow.v[at];
  for (size_t i = 0; i < n && i < w->vars.n; i++) w->vars.v[i].cur = w->flow.v[at + 1 + i];
}

void fw_flow_join(fw *w, size_t at)
{
  size_t n = (size_t)w->flow.v[at];
  for (size_t i = 0; i < n && i < w->vars.n; i++) w->vars.v[i].cur |= w->flow.v[at + 1 + i];
}

void fw_flow_drop(fw *w, size_t at)
{
  w->flow.n = at;
}
