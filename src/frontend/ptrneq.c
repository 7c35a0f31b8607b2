/* ptrneq.c — `if (p != q)`: p is not q's value (issue 30, item 7).
 *
 * coreutils' quote_name_width frees its buffer only when it is neither its
 * own smallbuf nor the name it was given: `if (buf != smallbuf && buf !=
 * name) free (buf);`. buf may hold the name (handed back by the callee,
 * slot.c), a fresh block, or smallbuf; under the test it holds no longer
 * the name, and the release frees only the fresh block.
 *
 * A local pointer p's bit for parameter j is exact when every value p ever
 * held with that bit was the parameter's value itself, unchanged (a plain
 * copy `p = q`, through other exact copies, or handed back so: fw_var.inexact
 * says which bits are not). Where `p != q` holds (the then-branch of an if
 * whose condition is it, or a conjunct of it joined by &&), q being
 * parameter j never assigned nor addressed, p cannot hold a value that
 * carries only bit j, until p is assigned again. Other bits are kept:
 * memory anywhere (PROV_UNKNOWN) may still be q's. */
#include "frontend/walk.h"

/* The parameter e names, never assigned nor addressed in the body: its
 * variable index, or -1. */
static int ptrneq_fixed_param(fw *w, CXCursor e)
{
  int vi = fw_local_ref(w, e);
  if (vi < 0) return -1;
  const fw_var *v = &w->vars.v[vi];
  return v->param >= 0 && v->param < PROV_MAX_PARAMS && !v->reassigned ? vi : -1;
}

/* The local pointer variable e names, followed by the walk: index or -1. */
static int ptrneq_pointer(fw *w, CXCursor e)
{
  int vi = fw_local_ref(w, e);
  if (vi < 0) return -1;
  const fw_var *v = &w->vars.v[vi];
  return v->is_ptr && !v->ptr_union && !v->array_param ? vi : -1;
}

static void ptrneq_pair(fw *w, CXCursor a, CXCursor b)
{
  int p = ptrneq_pointer(w, a), q = ptrneq_fixed_param(w, b);
  if (p < 0 || q < 0 || p == q) return;
  const fw_var *v = &w->vars.v[p];
  uint64_t bits = prov_param((unsigned)w->vars.v[q].param) & ~v->inexact & ~PROV_UNKNOWN;
  if (!bits) return;
  fw_excl x = { (uint32_t)p, v->last_write, w->loop_depth, bits };
  vec_push(&w->excl, x);
}

static void ptrneq_scan(fw *w, CXCursor cond, int depth)
{
  CXCursor e = fe_strip(w->t, cond), kids[2];
  if (depth > 8 || clang_getCursorKind(e) != CXCursor_BinaryOperator || fe_kids(e, kids, 2) != 2) return;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
  if (op == CXBinaryOperator_LAnd) {
    ptrneq_scan(w, kids[0], depth + 1);
    ptrneq_scan(w, kids[1], depth + 1);
  } else if (op == CXBinaryOperator_NE) {
    ptrneq_pair(w, kids[0], kids[1]);
    ptrneq_pair(w, kids[1], kids[0]);
  }
}

size_t fw_ptrneq_enter(fw *w, CXCursor cond)
{
  size_t mark = w->excl.n;
  /* A label or asm: the branch may be entered past the test. */
  if (!w->flow_off && !w->flow_noguard) ptrneq_scan(w, cond, 0);
  return mark;
}

void fw_ptrneq_leave(fw *w, size_t mark)
{
  w->excl.n = mark;
}

uint64_t fw_ptrneq_excluded(const fw *w, uint32_t vi)
{
  uint64_t m = 0;
  for (size_t i = 0; i < w->excl.n; i++)
    if (w->excl.v[i].var == vi && w->excl.v[i].seq == w->vars.v[vi].last_write && w->excl.v[i].depth == w->loop_depth)
      m |= w->excl.v[i].bits;
  return m;
}
