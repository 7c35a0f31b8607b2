/* thread.c — the else-if chains GCC's jump threading joins (issue 29).
 *
 * `if (kind(t) == A && kind(k) == B) … else if (kind(t) == A && kind(k) == C)`:
 * the second condition's right operand runs only where kind(t) == A, and
 * there the first condition's right operand ran too (and was false). GCC
 * threads the jump out of the first test straight to the second one's right
 * operand (the test `kind(t) == A` is known there), which the first
 * kind(k) then dominates: the two calls merge (jq's jv_get: `t == ARRAY &&
 * k == NUMBER`, then `t == ARRAY && k == OBJECT`, then, past `t == STRING
 * && …`, `t == ARRAY && k == ARRAY`). Measured with GCC 12 -O2: merged
 * with tests of other constants, of unrelated variables or of impure calls
 * between the two conditions; not merged for a call in the first
 * condition's third operand (it does not run wherever the test holds).
 *
 * So an if whose condition is an && chain whose first operand is a test of
 * one call (`f(x)`, `!f(x)`, `f(x) OP constant`) or of a local variable
 * whose address is never taken (`t == ARRAY`, measured too) hands to the ifs of its
 * else-if chain the value of that call and the calls of its second operand
 * (fw.threads); an if of the chain whose condition begins with the same
 * test of a call with the same value gets those calls back, available in
 * its then-branch and its condition's later operands (fw_if). Same value:
 * the same callee and arguments, no variable they read written since (for
 * a variable: not written since). For a call, the
 * second operand's calls are taken only where they have the test's callee
 * (then the class that makes them merge also makes the test's calls the
 * same value, and what lies between the two tests lies between the two
 * calls too, where checks_callsite weighs it) and read memory if the test's
 * call does. */
#include "frontend/walk.h"
#include <string.h>
#include <xxhash.h>

static void thread_mix(uint64_t *h, uint64_t v)
{
  *h = XXH64(&v, sizeof v, *h);
}

/* The integer value of constant expression e, or 0 if it has none. */
static int thread_const(CXCursor e, long long *v)
{
  CXEvalResult r = clang_Cursor_Evaluate(e);
  int ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) *v = clang_EvalResult_getAsLongLong(r);
  if (r) clang_EvalResult_dispose(r);
  return ok;
}

static int thread_is_call(fe_tu *t, CXCursor e)
{
  return clang_getCursorKind(fe_strip(t, e)) == CXCursor_CallExpr;
}

/* A test of a local variable (`t == ARRAY`, `!t`, `t`) that nothing can
 * write behind the walk's back (its address is never taken): 1 + the
 * variable, its shape mixed into *h; 0 if a is none. */
static uint32_t thread_var_test(fw *w, CXCursor a, uint64_t *h)
{
  CXCursor e = fe_strip(w->t, a);
  int v = fw_local_ref(w, e);
  long long c = 0;
  int shape = 4, side = 0;
  enum CXBinaryOperatorKind op = 0;
  if (v < 0) {
    size_t kk = fw_kids(w, e), n = w->ks.n - kk;
    CXCursor kids[2] = { clang_getNullCursor(), clang_getNullCursor() };
    for (size_t i = 0; i < n && i < 2; i++) kids[i] = FW_KID(w, kk, i);
    w->ks.n = kk;
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_UnaryOperator && n == 1 && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_LNot) {
      v = fw_local_ref(w, kids[0]);
      shape = 5;
    } else if (k == CXCursor_BinaryOperator && n == 2) {
      op = clang_getCursorBinaryOperatorKind(e);
      if (op < CXBinaryOperator_LT || op > CXBinaryOperator_NE) return 0;
      side = fw_local_ref(w, kids[0]) >= 0 ? 0 : 1;
      v = fw_local_ref(w, kids[side]);
      if (v < 0 || !thread_const(kids[1 - side], &c)) return 0;
      shape = 6;
    }
  }
  if (v < 0 || w->vars.v[v].addr_taken) return 0;
  thread_mix(h, (uint64_t)shape);
  thread_mix(h, (uint64_t)op);
  thread_mix(h, (uint64_t)side);
  thread_mix(h, (uint64_t)c);
  thread_mix(h, (uint64_t)v);
  return (uint32_t)v + 1;
}

/* The shape of test a (its one call aside) into *h: `f(x)`, `!f(x)`, or
 * a comparison of f(x) with a constant. 0 if a is none of these. */
static int thread_shape(fw *w, CXCursor a, uint64_t *h)
{
  CXCursor e = fe_strip(w->t, a);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_CallExpr) { thread_mix(h, 1); return 1; }
  size_t kk = fw_kids(w, e), n = w->ks.n - kk;
  CXCursor kids[2] = { clang_getNullCursor(), clang_getNullCursor() };
  for (size_t i = 0; i < n && i < 2; i++) kids[i] = FW_KID(w, kk, i);
  w->ks.n = kk;
  if (k == CXCursor_UnaryOperator && n == 1 && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_LNot &&
      thread_is_call(w->t, kids[0])) {
    thread_mix(h, 2);
    return 1;
  }
  if (k != CXCursor_BinaryOperator || n != 2) return 0;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
  if (op < CXBinaryOperator_LT || op > CXBinaryOperator_NE) return 0;
  long long v;
  int side = thread_is_call(w->t, kids[0]) ? 0 : thread_is_call(w->t, kids[1]) ? 1 : -1;
  if (side < 0 || !thread_const(kids[1 - side], &v)) return 0;
  thread_mix(h, 3);
  thread_mix(h, (uint64_t)op);
  thread_mix(h, (uint64_t)side);
  thread_mix(h, (uint64_t)v);
  return 1;
}

/* The test a, just walked (the function's calls from call0 on are its):
 * fills out's key, call value and callee; 0 if a is no such test. */
static int thread_key(fw *w, CXCursor a, size_t call0, fw_thread *out)
{
  const sum_tu *s = w->t->sum;
  if (s->calls.n == call0) {
    uint64_t h = 0;
    uint32_t v = thread_var_test(w, a, &h);
    if (!v) return 0;
    memset(out, 0, sizeof *out);
    out->key = h;
    out->var = v;
    out->var_write = w->vars.v[v - 1].last_write;
    return 1;
  }
  if (s->calls.n != call0 + 1) return 0;
  uint32_t rel = (uint32_t)(call0 - w->call_base);
  const fw_callinfo *ci = &w->cinfo.v[rel];
  if (!ci->stable || !w->avail.n || w->avail.v[w->avail.n - 1].call != rel) return 0;
  uint64_t h = ci->fp;
  if (!thread_shape(w, a, &h)) return 0;
  out->key = h;
  out->a = w->avail.v[w->avail.n - 1];
  out->callee = s->calls.v[call0].callee;
  out->a_mem = ci->reads_mem;
  out->var = out->var_write = 0;
  return 1;
}

void fw_thread_leaf(fw *w, CXCursor a, size_t call0, fw_chain *ch)
{
  if (!ch || ch->nleaf++ != 0) return;
  ch->first_end = fw_mark_now(w);
  ch->first_seq = w->seq;
  ch->own_ok = thread_key(w, a, call0, &ch->own);
  if (!ch->own_ok || !ch->in) return;
  for (size_t i = ch->in->n; i-- > 0;) {
    const fw_thread *t = &ch->in->v[i];
    if (t->key != ch->own.key || t->var != ch->own.var) continue;
    if (t->var ? w->vars.v[t->var - 1].last_write != t->var_write
               : t->callee != ch->own.callee || !fw_avail_valid(w, &t->a))
      continue;
    fw_avail_put_back(w, &t->b);
    ch->joined = 1;
    return;
  }
}

void fw_thread_second(fw *w, size_t lo, size_t hi, fw_chain *ch)
{
  if (!ch || !ch->own_ok) return;
  for (size_t i = lo; i < hi && i < w->avail.n; i++) {
    const fw_avail *av = &w->avail.v[i];
    if (av->copy) continue;
    if (!ch->own.var && (av->callee != ch->own.callee || (ch->own.a_mem && !w->cinfo.v[av->call].reads_mem)))
      continue;
    vec_push(&ch->own.b, *av);
  }
}

fw_threads fw_thread_pass(const fw_chain *ch)
{
  fw_threads out = {0};
  for (size_t i = 0; ch->in && i < ch->in->n; i++) vec_push(&out, ch->in->v[i]);
  if (ch->own_ok && ch->own.b.n) vec_push(&out, ch->own);
  return out;
}
