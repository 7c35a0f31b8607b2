/* tailmerge.c — arms of a `?:` that GCC shares before any attribute
 * (issue 29).
 *
 * Opus's silk_LIMIT(a, limit1, limit2) spells each limit in both halves
 * of its outer `?:`: `l1 > l2 ? (a > l1 ? l1 : …) : (… a < l1 ? l1 : a)`.
 * The innermost arms `l1` are identical blocks that jump to the same
 * join, and GCC's cross-jumping (RTL tail merging) keeps one: with
 * silk_LIMIT_32(x, silk_LSHIFT(silk_lin2log(60), 8), …) GCC 12 -O2 calls
 * silk_lin2log 8 times, not 10, before the attribute. Declared const, the
 * calls merge with the condition's: 2 left, 6 removed, where counting
 * every dominated call says 8. The second of two identical leaf arms (no
 * `?:` themselves) of one outermost `?:` is marked: its calls are no gain.
 * Identical means the same tree: operators, referenced declarations,
 * literal values, callees; an arm that assigns is never identical. */
#include "frontend/walk.h"
#include <string.h>
#include <xxhash.h>

typedef struct { uint64_t h; int bad; } tail_fp;

static void tail_mix(tail_fp *f, uint64_t v)
{
  f->h = XXH64(&v, sizeof v, f->h);
}

/* A literal's value: tokens of a macro argument spelled in another file
 * read as nothing (see callsite.c), so values are compared. */
static void tail_mix_value(tail_fp *f, CXCursor e)
{
  CXEvalResult r = clang_Cursor_Evaluate(e);
  CXEvalResultKind k = r ? clang_EvalResult_getKind(r) : CXEval_UnExposed;
  if (k == CXEval_Int) tail_mix(f, (uint64_t)clang_EvalResult_getAsUnsigned(r));
  else if (k == CXEval_Float) {
    double d = clang_EvalResult_getAsDouble(r);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    tail_mix(f, bits);
  } else {
    f->bad = 1;
  }
  if (r) clang_EvalResult_dispose(r);
}

static enum CXChildVisitResult tail_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  tail_fp *f = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_ParenExpr) return CXChildVisit_Recurse;
  tail_mix(f, (uint64_t)k);
  switch (k) {
  case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral: case CXCursor_CharacterLiteral:
    tail_mix_value(f, c);
    return CXChildVisit_Continue;
  case CXCursor_DeclRefExpr: case CXCursor_MemberRefExpr:
    tail_mix(f, fe_decl_key(clang_getCursorReferenced(c)));
    return CXChildVisit_Recurse;
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec) f->bad = 1;
    tail_mix(f, (uint64_t)op);
    break;
  }
  case CXCursor_BinaryOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    if (op >= CXBinaryOperator_Assign) f->bad = 1;
    tail_mix(f, (uint64_t)op);
    break;
  }
  case CXCursor_CompoundAssignOperator: case CXCursor_StmtExpr: case CXCursor_StringLiteral:
  case CXCursor_CompoundLiteralExpr: case CXCursor_InitListExpr:
    f->bad = 1;
    break;
  case CXCursor_UnexposedExpr: case CXCursor_CStyleCastExpr:
    tail_mix(f, (uint64_t)clang_getCanonicalType(clang_getCursorType(c)).kind);
    break;
  default:
    break;
  }
  return f->bad ? CXChildVisit_Break : CXChildVisit_Recurse;
}

void fw_tail_arm(fw *w, CXCursor arm, fw_mark m)
{
  sum_tu *s = w->t->sum;
  if (s->calls.n == m.call || w->cond_depth == 0) return;
  CXCursor e = fe_strip(w->t, arm);
  if (clang_getCursorKind(e) == CXCursor_ConditionalOperator) return;
  tail_fp f = { 0, 0 };
  tail_visit(e, arm, &f);
  if (!f.bad) clang_visitChildren(e, tail_visit, &f);
  if (f.bad) return;
  bool seen = false;
  for (size_t i = 0; i < w->leaf_arms.n && !seen; i++) seen = w->leaf_arms.v[i] == f.h;
  if (!seen) {
    vec_push(&w->leaf_arms, f.h);
    return;
  }
  for (size_t i = m.call; i < s->calls.n; i++) s->calls.v[i].flags |= SCF_TAIL_SHARED;
}
