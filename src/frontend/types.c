/* types.c — small questions about types and expression shapes. */
#include "frontend/fe_internal.h"
#include <string.h>
#include <xxhash.h>

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

/* ---- what an expression's value is ----
 *
 * libclang shows a decayed type as the array it came from: in
 * `f(char out[16])`, the expressions `out`, `out + 1`, `v ? out : o2`,
 * `out++` all report `char[16]`, though in C each is a `char *` into the
 * caller's memory (C11 6.7.6.3p7, 6.3.2.1p3). Asking the type alone takes
 * such a pointer for an array object of the function's own; every
 * question about an expression's type goes through these two instead. */

/* c has an array type in libclang's eyes: is its value really a pointer?
 * Only these expressions designate an array object in C: a variable that
 * is not a parameter, a member, an element, `*p`, a string or compound
 * literal (and parentheses or an implicit conversion around one). Any
 * other array-typed expression (arithmetic, ?:, ++, an assignment, a
 * parameter) is a pointer shown with its original type. */
static int fe_expr_decayed(CXCursor c)
{
  switch (clang_getCursorKind(c)) {
  case CXCursor_DeclRefExpr:
    return clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_ParmDecl;
  case CXCursor_MemberRefExpr: case CXCursor_ArraySubscriptExpr: case CXCursor_StringLiteral:
  case CXCursor_CompoundLiteralExpr: case CXCursor_InitListExpr:
    return 0;
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op == CXUnaryOperator_Deref || op == CXUnaryOperator_Real || op == CXUnaryOperator_Imag) return 0;
    if (op != CXUnaryOperator_Extension) return 1;      /* ++, --: a pointer */
  }
    /* fall through - __extension__ e is e */
  case CXCursor_ParenExpr: case CXCursor_UnexposedExpr: {
    last_kid kid = { clang_getNullCursor(), 0 };
    clang_visitChildren(c, fe_last_kid, &kid);
    /* An implicit conversion (one child, same extent) or parentheses:
     * as its operand. Other unexposed forms (an implicit value of an
     * array member in an initializer) are the array. */
    if (kid.n != 1 || !clang_isExpression(clang_getCursorKind(kid.last))) return 0;
    if (clang_getCursorKind(c) == CXCursor_UnexposedExpr &&
        !clang_equalRanges(clang_getCursorExtent(c), clang_getCursorExtent(kid.last)))
      return 0;
    return fe_expr_decayed(kid.last);
  }
  default:
    return 1;
  }
}

int fe_expr_is_pointer(CXCursor c)
{
  CXType t = fe_canon_type(c);
  return fe_type_is_pointer(t) || (fe_type_is_array(t) && fe_expr_decayed(c));
}

int fe_expr_is_array(CXCursor c)
{
  return fe_type_is_array(fe_canon_type(c)) && !fe_expr_decayed(c);
}

bool fe_same_extent(fe_tu *t, CXCursor c, CXCursor kid)
{
  uint64_t key = (uint64_t)(uintptr_t)c.data[1];
  uint32_t *m = t ? ptrmap_get(&t->strip_memo, key) : NULL;
  if (m) return *m == 1;
  bool same = clang_equalRanges(clang_getCursorExtent(c), clang_getCursorExtent(kid));
  if (t) ptrmap_put(&t->strip_memo, key, same ? 1 : 2);
  return same;
}

/* fe_strip, and with casts false fe_strip_implicit. */
static CXCursor fe_strip_walk(fe_tu *t, CXCursor c, bool casts)
{
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && (k != CXCursor_CStyleCastExpr || !casts))
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
    if (k == CXCursor_UnexposedExpr && !fe_same_extent(t, c, kid.last))
      return c;   /* not an implicit cast (va_arg, …) */
    c = kid.last;
  }
}

/* The same, remembered in t by the whole cursor c (its kind, parent,
 * node and TU) and casts: the answer is a function of those, so a cursor
 * found again is the one the walk would find. The passes strip the same
 * expressions about four times each, and each time cost a visit of the
 * children (and two extents for an implicit conversion's first answer). */
static CXCursor fe_strip_to(fe_tu *t, CXCursor c, bool casts)
{
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && (k != CXCursor_CStyleCastExpr || !casts)) return c;
  if (!t) return fe_strip_walk(t, c, casts);
  uint64_t key = XXH3_64bits_withSeed(&c, sizeof c, casts);
  uint32_t *i = ptrmap_get(&t->strip_idx, key);
  if (i) {
    const struct fe_strip_ent *e = &t->strip_v.v[*i - 1];
    if (e->casts == casts && !memcmp(&e->in, &c, sizeof c)) return e->out;
    return fe_strip_walk(t, c, casts);   /* two cursors' hashes collide: not remembered */
  }
  struct fe_strip_ent e = { c, fe_strip_walk(t, c, casts), casts };
  vec_push(&t->strip_v, e);
  ptrmap_put(&t->strip_idx, key, (uint32_t)t->strip_v.n);
  return e.out;
}

CXCursor fe_strip(fe_tu *t, CXCursor c) { return fe_strip_to(t, c, true); }

CXCursor fe_strip_implicit(fe_tu *t, CXCursor c) { return fe_strip_to(t, c, false); }

/* The first max children of c into out; returns how many it has. */
static enum CXChildVisitResult fe_kid_into(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  fe_kids_buf *k = d;
  if (k->n < k->max) k->out[k->n] = c;
  k->n++;
  return CXChildVisit_Continue;
}

unsigned fe_kids(CXCursor c, CXCursor *out, unsigned max)
{
  fe_kids_buf k = { out, max, 0 };
  clang_visitChildren(c, fe_kid_into, &k);
  return k.n;
}
