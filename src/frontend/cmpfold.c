/* cmpfold.c — comparisons that the operand's type decides (issue 30,
 * item 4).
 *
 * `if (b > ULONG_MAX)` for an `unsigned long b`, `c < 0` for an unsigned
 * `c`, `ch > 255` for an `unsigned char ch`: whatever the value, the answer
 * is known, and GCC folds them in its front end ("comparison is always
 * false due to limited range of data type") and deletes the dead branch
 * at every level of optimisation. GMP's `if (UNLIKELY (b > GMP_NUMB_MAX))`
 * guards such branches; an effect inside one is on no path that runs.
 *
 * Only a comparison of one non-constant integer operand with an integer
 * constant is folded, and only where the conversions cannot change the
 * operand's value: a signed operand compared in an unsigned type (`x >
 * 200u`, where -1 becomes UINT_MAX) is left alone. A local that holds 0
 * for the whole call (guardvar.c) folds in `v`, `!v`, `v == 0`, `v != 0`. */
#include "frontend/walk.h"
#include <string.h>

typedef __int128 cf_int;

/* The range of integer type t, if it is one (enums and _BitInt are not). */
static bool cf_range(CXType t, cf_int *lo, cf_int *hi)
{
  t = clang_getCanonicalType(t);
  bool is_signed;
  switch (t.kind) {
  case CXType_Bool: *lo = 0; *hi = 1; return true;
  case CXType_Char_U: case CXType_UChar: case CXType_UShort: case CXType_UInt: case CXType_ULong:
  case CXType_ULongLong: is_signed = false; break;
  case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int: case CXType_Long:
  case CXType_LongLong: is_signed = true; break;
  default: return false;
  }
  long long size = clang_Type_getSizeOf(t);
  if (size <= 0 || size > 8) return false;
  int bits = (int)size * 8;
  *lo = is_signed ? -((cf_int)1 << (bits - 1)) : 0;
  *hi = is_signed ? ((cf_int)1 << (bits - 1)) - 1 : ((cf_int)1 << bits) - 1;
  return true;
}

static bool cf_is_unsigned(CXType t)
{
  cf_int lo, hi;
  return cf_range(t, &lo, &hi) && lo == 0;
}

/* The value of constant integer expression e (with its conversions). */
static bool cf_const(CXCursor e, cf_int *v)
{
  CXEvalResult r = clang_Cursor_Evaluate(e);
  if (!r) return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) *v = clang_EvalResult_isUnsignedInt(r) ? (cf_int)clang_EvalResult_getAsUnsigned(r)
                                                 : (cf_int)clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok;
}

/* x op k for every x in [lo, hi]: 1 always true, 0 always false, -1 it depends. */
static int cf_decide(enum CXBinaryOperatorKind op, cf_int lo, cf_int hi, cf_int k)
{
  switch (op) {
  case CXBinaryOperator_LT: return hi < k ? 1 : lo >= k ? 0 : -1;
  case CXBinaryOperator_LE: return hi <= k ? 1 : lo > k ? 0 : -1;
  case CXBinaryOperator_GT: return lo > k ? 1 : hi <= k ? 0 : -1;
  case CXBinaryOperator_GE: return lo >= k ? 1 : hi < k ? 0 : -1;
  case CXBinaryOperator_EQ: return k < lo || k > hi ? 0 : -1;
  case CXBinaryOperator_NE: return k < lo || k > hi ? 1 : -1;
  default: return -1;
  }
}

/* k op x as x op' k. */
static enum CXBinaryOperatorKind cf_flip(enum CXBinaryOperatorKind op)
{
  switch (op) {
  case CXBinaryOperator_LT: return CXBinaryOperator_GT;
  case CXBinaryOperator_GT: return CXBinaryOperator_LT;
  case CXBinaryOperator_LE: return CXBinaryOperator_GE;
  case CXBinaryOperator_GE: return CXBinaryOperator_LE;
  default: return op;
  }
}

/* `v == 0` or `v != 0` (either order) for a local v that holds 0 for the
 * whole call (guardvar.c): 1, 0, or -1 not such a test. */
static int cf_zero_compare(fw *w, CXCursor kid[2], enum CXBinaryOperatorKind op)
{
  long long z;
  if (!w || (op != CXBinaryOperator_EQ && op != CXBinaryOperator_NE)) return -1;
  int var = fw_int_literal_value(kid[1], &z) && z == 0 ? 0 : fw_int_literal_value(kid[0], &z) && z == 0 ? 1 : -1;
  if (var < 0 || !fw_guardvar_zero(w, kid[var])) return -1;
  return op == CXBinaryOperator_EQ;
}

/* One comparison of a variable operand with a constant: as fw_cmp_type_decided. */
static int cf_compare(fw *w, CXCursor cond, enum CXBinaryOperatorKind op)
{
  CXCursor kid[2];
  if (fe_kids(cond, kid, 2) != 2) return -1;
  int z = cf_zero_compare(w, kid, op);
  if (z >= 0) return z;
  cf_int kval, ignored;
  int var = cf_const(kid[1], &kval) ? 0 : cf_const(kid[0], &kval) ? 1 : -1;
  if (var < 0 || cf_const(kid[var], &ignored)) return -1;
  /* `(u > MAX) != 0`, what a LIKELY/UNLIKELY macro makes of its test. */
  int inner = kval == 0 && (op == CXBinaryOperator_NE || op == CXBinaryOperator_EQ) ? -2 : -1;
  if (inner == -2) {
    CXCursor x = fe_strip_implicit(NULL, kid[var]);
    enum CXCursorKind k = clang_getCursorKind(x);
    if (k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator || k == CXCursor_CallExpr) {
      inner = fw_cmp_type_decided(w, x);
      if (inner >= 0) return op == CXBinaryOperator_NE ? inner : !inner;
    }
  }
  /* The operand's own type (a C cast's, which may change the value, is
   * its own), and the type it is compared in. */
  CXType own = clang_getCursorType(fe_strip_implicit(NULL, kid[var])), common = clang_getCursorType(kid[var]);
  cf_int lo, hi, clo, chi;
  if (!cf_range(own, &lo, &hi) || !cf_range(common, &clo, &chi)) return -1;
  if (lo < 0 && cf_is_unsigned(common)) return -1;   /* -1 would become a large value */
  return cf_decide(var == 0 ? op : cf_flip(op), lo, hi, kval);
}

/* `__builtin_expect (e, c)` is e's value: the argument, or a null cursor. */
static CXCursor cf_expect_arg(CXCursor call)
{
  CXCursor fn = clang_getCursorReferenced(call);
  if (clang_getCursorKind(fn) != CXCursor_FunctionDecl || clang_Cursor_getNumArguments(call) != 2)
    return clang_getNullCursor();
  CXString sp = clang_getCursorSpelling(fn);
  int is = !strcmp(clang_getCString(sp), "__builtin_expect");
  clang_disposeString(sp);
  return is ? clang_Cursor_getArgument(call, 0) : clang_getNullCursor();
}

/* Folds through `!`, `&&`, `||` and __builtin_expect, as GCC does once
 * their operands are folded: `du > ULONG_MAX || cu > ULONG_MAX` is false
 * (GMP's mpz_congruent_ui_p). The right of `||` is not needed when the
 * left is true (it never runs), nor that of `&&` when the left is false. */
int fw_cmp_type_decided(fw *w, CXCursor cond)
{
  cond = fe_strip_implicit(NULL, cond);
  enum CXCursorKind k = clang_getCursorKind(cond);
  CXCursor kid[2];
  if (k == CXCursor_DeclRefExpr) return w && fw_guardvar_zero(w, cond) ? 0 : -1;   /* `if (v)` */
  if (k == CXCursor_CallExpr) {
    CXCursor arg = cf_expect_arg(cond);
    return clang_Cursor_isNull(arg) ? -1 : fw_cmp_type_decided(w, arg);
  }
  if (k == CXCursor_UnaryOperator) {
    if (clang_getCursorUnaryOperatorKind(cond) != CXUnaryOperator_LNot || fe_kids(cond, kid, 2) != 1) return -1;
    int v = fw_cmp_type_decided(w, kid[0]);
    return v < 0 ? -1 : !v;
  }
  if (k != CXCursor_BinaryOperator) return -1;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
  if (op == CXBinaryOperator_LOr || op == CXBinaryOperator_LAnd) {
    if (fe_kids(cond, kid, 2) != 2) return -1;
    int stop = op == CXBinaryOperator_LOr;   /* the value that decides alone */
    int a = fw_cmp_type_decided(w, kid[0]);
    if (a == stop) return stop;
    int b = fw_cmp_type_decided(w, kid[1]);
    if (b == stop) return stop;                /* whatever the left is, the answer is this */
    return a >= 0 && b >= 0 ? !stop : -1;
  }
  if (op < CXBinaryOperator_LT || op > CXBinaryOperator_NE) return -1;
  return cf_compare(w, cond, op);
}
