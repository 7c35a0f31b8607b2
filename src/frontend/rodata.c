/* rodata.c — read-only static data, and where the pointers in it point.
 *
 * A pointer loaded from memory may point anywhere, except when it is
 * loaded from a read-only object with static storage (`const T *const
 * table = data;`, `static const char *const names[] = { "a", "b" };`):
 * such an object keeps the value of its initializer for the whole run, so
 * the pointer points where that initializer says. Reading through it reads
 * read-only memory only if every pointer the initializer can hold points
 * to read-only objects (string literals, const arrays); a writable target
 * keeps the read a read of memory (DESIGN.md §2). */
#include "frontend/fe_internal.h"

enum { RO_DEPTH = 16, RO_KIDS = 4, RO_BUDGET = 200000 };   /* past these: assume the worst */

/* One evaluation: a budget of nodes, so a huge table costs bounded time. */
typedef struct { fe_tu *t; long left; } ro_ctx;

int fe_type_readonly(CXType t)
{
  int ro = 0;
  for (t = clang_getCanonicalType(t);; t = clang_getCanonicalType(clang_getArrayElementType(t))) {
    if (clang_isVolatileQualifiedType(t)) return 0;
    ro |= clang_isConstQualifiedType(t);
    if (!fe_type_is_array(t)) return ro;
  }
}

typedef struct { CXCursor v[RO_KIDS]; unsigned n; } ro_kids;

static enum CXChildVisitResult ro_kid(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  ro_kids *k = d;
  if (k->n < RO_KIDS) k->v[k->n] = c;
  k->n++;
  return CXChildVisit_Continue;
}

static unsigned ro_children(CXCursor c, ro_kids *k)
{
  k->n = 0;
  clang_visitChildren(c, ro_kid, k);
  return k->n;
}

static int fe_is_global_var(CXCursor d)
{
  return clang_getCursorKind(d) == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d);
}

CXCursor fe_global_root(fe_tu *t, CXCursor e)
{
  for (int depth = 0; depth < RO_DEPTH; depth++) {
    e = fe_strip(t, e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr) {
      CXCursor d = clang_getCursorReferenced(e);
      return fe_is_global_var(d) ? d : clang_getNullCursor();
    }
    ro_kids kids;
    if (k == CXCursor_MemberRefExpr) {            /* g.f stays in g; p->f does not */
      if (ro_children(e, &kids) != 1 || fe_expr_is_pointer(kids.v[0])) break;
      e = kids.v[0];
      continue;
    }
    if (k != CXCursor_ArraySubscriptExpr || ro_children(e, &kids) != 2) break;
    /* g[i] (or i[g]) stays in the array g; p[i] through a pointer does not. */
    CXCursor a = fe_expr_is_array(kids.v[0]) ? kids.v[0] : kids.v[1];
    if (!fe_expr_is_array(a)) break;
    e = a;
  }
  return clang_getNullCursor();
}

static uint64_t ro_expr(ro_ctx *x, CXCursor e, int depth);

/* A named object's address: read-only static storage or anywhere. */
static uint64_t ro_object(CXCursor decl)
{
  return fe_type_readonly(clang_getCursorType(decl)) ? PROV_RODATA : PROV_UNKNOWN;
}

/* The value a read-only global (or a static nobody writes, staticro.c)
 * holds for the whole run (cached per TU). */
static uint64_t ro_global_value(ro_ctx *x, CXCursor decl, int depth)
{
  if (depth > RO_DEPTH) return PROV_UNKNOWN;
  CXCursor def = clang_getCursorDefinition(decl);
  if (clang_Cursor_isNull(def)) return PROV_UNKNOWN;        /* defined elsewhere: unknown value */
  if (!fe_type_readonly(clang_getCursorType(decl)) && !fe_static_unwritten(x->t, def)) return PROV_UNKNOWN;
  uint64_t key = fe_decl_key(def);
  uint32_t *hit = ptrmap_get(&x->t->ro_values, key);
  if (hit) return *hit;
  ptrmap_put(&x->t->ro_values, key, (uint32_t)PROV_UNKNOWN);   /* a cycle meets the worst */
  CXCursor init = clang_Cursor_getVarDeclInitializer(def);
  uint64_t m = clang_Cursor_isNull(init) ? 0 : ro_expr(x, init, depth + 1);   /* none: zero, null */
  if (x->left < 0) m = PROV_UNKNOWN;
  ptrmap_put(&x->t->ro_values, key, (uint32_t)m);
  return m;
}

static uint64_t ro_declref(ro_ctx *x, CXCursor e, int depth)
{
  CXCursor d = clang_getCursorReferenced(e);
  enum CXCursorKind dk = clang_getCursorKind(d);
  if (dk == CXCursor_FunctionDecl || dk == CXCursor_EnumConstantDecl) return 0;
  if (!fe_is_global_var(d)) return PROV_UNKNOWN;
  if (fe_type_is_array(clang_getCanonicalType(clang_getCursorType(d)))) return ro_object(d);   /* decays */
  return ro_global_value(x, d, depth);                      /* the value it holds */
}

typedef struct { ro_ctx *x; int depth; uint64_t m; } ro_union;

static enum CXChildVisitResult ro_union_kid(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  ro_union *u = d;
  if (clang_isExpression(clang_getCursorKind(c))) u->m |= ro_expr(u->x, c, u->depth + 1);
  /* Once anywhere, always anywhere: stop early (and when out of budget). */
  return (u->m & PROV_UNKNOWN) || u->x->left < 0 ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The union over the expression children (every element of a table). */
static uint64_t ro_kids_union(ro_ctx *x, CXCursor e, int depth)
{
  ro_union u = { x, depth, 0 };
  clang_visitChildren(e, ro_union_kid, &u);
  return u.m;
}

/* A conversion to a pointer from an integer: only the constant 0 is null. */
static uint64_t ro_int_to_ptr(fe_tu *t, CXCursor from)
{
  from = fe_strip(t, from);
  if (clang_getCursorKind(from) != CXCursor_IntegerLiteral) return PROV_UNKNOWN;
  CXEvalResult r = clang_Cursor_Evaluate(from);
  uint64_t m = PROV_UNKNOWN;
  if (r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0) m = 0;
  if (r) clang_EvalResult_dispose(r);
  return m;
}

/* Where the pointers in the value of constant initializer e point. */
static uint64_t ro_expr(ro_ctx *x, CXCursor e, int depth)
{
  if (depth > RO_DEPTH || --x->left < 0) return PROV_UNKNOWN;
  CXType t = fe_canon_type(e);
  enum CXCursorKind k = clang_getCursorKind(e);
  switch (k) {
  case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral: case CXCursor_CharacterLiteral:
  case CXCursor_UnaryExpr: case CXCursor_GNUNullExpr:
    return 0;
  case CXCursor_StringLiteral: return PROV_RODATA;
  case CXCursor_DeclRefExpr: return ro_declref(x, e, depth);
  case CXCursor_InitListExpr: case CXCursor_ParenExpr: case CXCursor_ConditionalOperator:
    return ro_kids_union(x, e, depth);
  case CXCursor_UnaryOperator: {
    if (clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_AddrOf) break;
    ro_kids kids;
    if (ro_children(e, &kids) != 1) break;
    CXCursor root = fe_global_root(x->t, kids.v[0]);
    if (clang_Cursor_isNull(root)) {
      CXCursor inner = fe_strip(x->t, kids.v[0]);   /* &(const T){…} at file scope: static storage */
      if (clang_getCursorKind(inner) == CXCursor_CompoundLiteralExpr && fe_type_readonly(fe_canon_type(inner)))
        return PROV_RODATA;
      return PROV_UNKNOWN;
    }
    return ro_object(root);
  }
  case CXCursor_BinaryOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
    if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub || op == CXBinaryOperator_Comma)
      return ro_kids_union(x, e, depth);        /* pointer arithmetic stays in its object */
    return fe_type_is_pointer(t) ? PROV_UNKNOWN : 0;
  }
  case CXCursor_CStyleCastExpr: case CXCursor_UnexposedExpr: {
    ro_kids kids;
    unsigned n = ro_children(e, &kids);
    if (n == 0 || n > RO_KIDS) break;
    CXCursor from = kids.v[n - 1];            /* (T)e: TypeRefs, then e */
    if (!clang_isExpression(clang_getCursorKind(from))) break;
    if (n > 1 && k == CXCursor_UnexposedExpr) return ro_kids_union(x, e, depth);   /* designated init */
    CXType ft = fe_canon_type(from);
    if (fe_type_is_pointer(t) && !fe_type_is_pointer(ft) && !fe_type_is_array(ft) &&
        ft.kind != CXType_FunctionProto && ft.kind != CXType_FunctionNoProto)
      return ro_int_to_ptr(x->t, from);
    return ro_expr(x, from, depth + 1);
  }
  default: break;
  }
  /* Anything else: a value without pointers is harmless, a pointer unknown. */
  if (!fe_type_is_pointer(t) && !fe_type_is_array(t) && t.kind != CXType_Record) return 0;
  return PROV_UNKNOWN;
}

uint64_t fe_static_prov(fe_tu *t, CXCursor decl)
{
  ro_ctx x = { t, RO_BUDGET };
  return ro_global_value(&x, decl, 0);
}
