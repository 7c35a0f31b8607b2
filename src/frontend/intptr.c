/* intptr.c — a pointer rounded through an integer (issue 30, item 1).
 *
 * Aligning a block by hand goes through an integer: gnulib's malloca
 * takes a stack block as `(void *) (((uintptr_t) alloca (n + 2a - 1) +
 * 2a - 1) & ~(uintptr_t) (2a - 1))`. Any integer converted to a pointer
 * may point anywhere (fw_int_to_ptr), so the function's writes into its
 * own aligned scratch block were writes to memory anywhere.
 *
 * An integer expression that carries exactly one pointer — `(I) P`, with I
 * an integer type as wide as a pointer, then moved by `+`, `-` (P on the
 * left), `&` or `|` with integers that carry no pointer — converted back
 * to a pointer points where P points, as `P + i` does (walk_expr.c treats
 * pointer arithmetic as staying in its object; rounding moves no further).
 * Only within one expression: an integer variable's mask of 0 means "not
 * a pointer", not "null", so a value kept in one is not followed. */
#include "frontend/walk.h"

/* The operand of conversion e (a cast, or an implicit one of the same
 * extent), or a null cursor. */
static CXCursor ip_operand(fw *w, CXCursor e)
{
  enum CXCursorKind kind = clang_getCursorKind(e);
  if (kind != CXCursor_CStyleCastExpr && kind != CXCursor_UnexposedExpr) return clang_getNullCursor();
  size_t k = fw_kids(w, e);
  size_t n = w->ks.n - k;
  CXCursor in = n ? FW_KID(w, k, n - 1) : clang_getNullCursor();   /* [TypeRef…] expr */
  w->ks.n = k;
  if (clang_Cursor_isNull(in) || !clang_isExpression(clang_getCursorKind(in))) return clang_getNullCursor();
  if (kind == CXCursor_UnexposedExpr && (n != 1 || !fe_same_extent(w->t, e, in))) return clang_getNullCursor();
  return in;
}

/* Is e's type an integer as wide as a pointer (no bits of an address lost)? */
static bool ip_wide(CXCursor e)
{
  CXType t = fe_canon_type(e);
  return t.kind >= CXType_Bool && t.kind <= CXType_Int128 && t.kind != CXType_Float16 &&
         clang_Type_getSizeOf(t) >= (long long)sizeof (void *);
}

static enum CXChildVisitResult ip_any_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  if (fe_expr_is_pointer(c)) {
    /* A pointer inside an integer operand: one converted to an integer, or
     * one compared or subtracted; either way the operand is not clean. */
    *(bool *)d = true;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* Does integer expression e mention a pointer anywhere? */
static bool ip_any(CXCursor e)
{
  bool found = fe_expr_is_pointer(e);
  if (!found) clang_visitChildren(e, ip_any_visit, &found);
  return found;
}

/* The conversion `(I) P` that integer expression e carries as its only
 * pointer, or a null cursor. */
static CXCursor ip_leaf(fw *w, CXCursor e)
{
  e = fw_strip_parens(w, e);
  if (!ip_wide(e)) return clang_getNullCursor();
  CXCursor in = ip_operand(w, e);
  if (!clang_Cursor_isNull(in)) return fe_expr_is_pointer(in) ? e : ip_leaf(w, in);
  if (clang_getCursorKind(e) != CXCursor_BinaryOperator) return clang_getNullCursor();
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
  if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub && op != CXBinaryOperator_And &&
      op != CXBinaryOperator_Or)
    return clang_getNullCursor();
  size_t k = fw_kids(w, e);
  if (w->ks.n - k != 2) { w->ks.n = k; return clang_getNullCursor(); }
  CXCursor l = FW_KID(w, k, 0), r = FW_KID(w, k, 1);
  w->ks.n = k;
  if (!ip_any(r)) return ip_leaf(w, l);
  if (op != CXBinaryOperator_Sub && !ip_any(l)) return ip_leaf(w, r);
  return clang_getNullCursor();
}

void fw_intptr_note(fw *w, CXCursor conv, uint64_t m)
{
  w->intptr_at = clang_getCursorExtent(conv);
  w->intptr_mask = m;
}

bool fw_intptr_origin(fw *w, CXCursor from, uint64_t *m)
{
  CXCursor leaf = ip_leaf(w, from);
  if (clang_Cursor_isNull(leaf) || !clang_equalRanges(clang_getCursorExtent(leaf), w->intptr_at))
    return false;
  *m = w->intptr_mask;
  return true;
}
