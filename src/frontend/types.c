/* types.c — small questions about types and expression shapes. */
#include "frontend/fe_internal.h"

CXType fe_canon_type(CXCursor c)
{
  return clang_getCanonicalType(clang_getCursorType(c));
}

int fe_type_is_pointer(CXType t)
{
  return t.kind == CXType_Pointer || t.kind == CXType_BlockPointer;
}

typedef struct { int n, ptrs; } fe_union_fields;

static enum CXVisitorResult fe_count_ptr_field(CXCursor f, CXClientData d)
{
  fe_union_fields *u = d;
  u->n++;
  u->ptrs += fe_type_is_pointer(clang_getCanonicalType(clang_getCursorType(f)));
  return CXVisit_Continue;
}

int fe_type_is_pointer_union(CXType t)
{
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Record || clang_getCursorKind(clang_getTypeDeclaration(t)) != CXCursor_UnionDecl) return 0;
  fe_union_fields u = { 0, 0 };
  clang_Type_visitFields(t, fe_count_ptr_field, &u);
  return u.n > 0 && u.n == u.ptrs;
}

int fe_type_is_array(CXType t)
{
  return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
         t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray;
}

/* Counts the children and keeps the last one. */
typedef struct { CXCursor last; int n; } last_kid;

static enum CXChildVisitResult fe_last_kid(CXCursor c, CXCursor parent, CXClientData d)
{
  last_kid *k = d;
  k->n++;
  k->last = c;
  return CXChildVisit_Continue;
}

CXCursor fe_strip(CXCursor c)
{
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
      return c;
    last_kid kid = { clang_getNullCursor(), 0 };
    clang_visitChildren(c, fe_last_kid, &kid);
    if (k == CXCursor_CStyleCastExpr) {
      /* (T)e: the children are references to T's names, then e. */
      if (kid.n == 0 || !clang_isExpression(clang_getCursorKind(kid.last))) return c;
      c = kid.last;
      continue;
    }
    if (kid.n != 1) return c;
    if (k == CXCursor_UnexposedExpr &&
        !clang_equalRanges(clang_getCursorExtent(c), clang_getCursorExtent(kid.last)))
      return c;   /* not an implicit cast (va_arg, …) */
    c = kid.last;
  }
}
