/* guardvar.c — conditions whose value a call fixes (issue 30, item 7).
 *
 * coreutils' quote_name_buf points `buf` at its caller's string only when
 * `needs_further_quoting` is false, and writes through `buf` only when it
 * is true: no path does both. A condition that names a variable holding
 * one value for the whole call (a parameter never assigned, a local
 * initialised once outside any loop or switch and never assigned after,
 * neither ever addressed, in a function without labels) is the same at the
 * assignment and at the write, so a value assigned under `!v` never
 * reaches code run under `v` (flow.c). Only scalar variables, and only the
 * plain forms `v`, `!v`, `v != 0`, `v == 0`, joined by && (both hold) or,
 * where the condition is false, by || (neither holds).
 *
 * The same scan finds locals that hold 0 for the whole call: every write
 * the literal 0, none addressed or incremented. GMP's TMP_MARK sets its
 * marker to null and only TMP_BALLOC links blocks into it (by address);
 * a function that takes only stack blocks then spells `if (marker != 0)
 * release (marker)` in its TMP_FREE, a branch GCC's constant propagation
 * deletes, and whose release is no effect of the function. */
#include "frontend/walk.h"

typedef struct {
  fw *w;
  int jumps;                /* a label, goto or asm in the function */
  int asm_seen;             /* an asm, whose outputs may write any local */
  VEC(unsigned) loops;      /* [start, end) offsets of loops and switches */
  VEC(unsigned) decls;      /* (offset, variable) of initialised scalar locals */
} gv_scan;

/* The local variable or parameter e names (stripped), or a null cursor. */
static CXCursor gv_local(fe_tu *t, CXCursor e)
{
  e = fe_strip(t, e);
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
  CXCursor d = clang_getCursorReferenced(e);
  return fw_is_local_decl(d) ? d : clang_getNullCursor();
}

/* v is written with the value of rhs (a null cursor: some other value):
 * does it still hold 0 only? */
static void gv_zero_write(fw_var *v, CXCursor rhs)
{
  long long z;
  if (!clang_Cursor_isNull(rhs) && fw_int_literal_value(rhs, &z) && z == 0) v->zero_seen = 1;
  else v->zero_off = 1;
}

/* e is written: with the value of rhs (a null cursor: some other value). */
static void gv_spoil(gv_scan *s, CXCursor e, CXCursor rhs)
{
  CXCursor d = gv_local(s->w->t, e);
  if (clang_Cursor_isNull(d)) return;
  uint32_t vi = fw_var_for(s->w, d);   /* first: it may grow the vector */
  fw_var *v = &s->w->vars.v[vi];
  v->guard_bad = v->reassigned = 1;
  gv_zero_write(v, rhs);
}

/* Is the variable not volatile and of a scalar type (with pointers: or a
 * pointer)? */
static int gv_value_type(CXCursor d, bool pointers)
{
  CXType t = clang_getCursorType(d);
  if (clang_isVolatileQualifiedType(t)) return 0;
  t = clang_getCanonicalType(t);
  return (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum ||
         (pointers && t.kind == CXType_Pointer);
}

/* Is the variable's type one a condition tests by value (not a pointer,
 * whose provenance changes, nor volatile)? */
static int gv_scalar(CXCursor d) { return gv_value_type(d, false); }

static unsigned gv_offset(CXSourceLocation at)
{
  unsigned off;
  clang_getExpansionLocation(at, NULL, NULL, NULL, &off);
  return off;
}

/* A local's declaration: its initialiser is its first write. */
static void gv_decl(gv_scan *s, CXCursor c)
{
  uint32_t vi = fw_var_for(s->w, c);   /* first: it may grow the vector */
  fw_var *v = &s->w->vars.v[vi];
  CXCursor init = clang_Cursor_getVarDeclInitializer(c);
  if (!gv_value_type(c, true)) v->zero_off = 1;   /* a scalar or a pointer can hold 0 throughout */
  else if (!clang_Cursor_isNull(init)) gv_zero_write(v, init);
  if (clang_Cursor_isNull(init) || !gv_scalar(c)) v->guard_bad = 1;
  else { vec_push(&s->decls, gv_offset(clang_getCursorLocation(c))); vec_push(&s->decls, vi); }
}

/* One node of the body (the visit recurses: an AST can be deep). */
static enum CXChildVisitResult gv_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  gv_scan *s = d;
  fw *w = s->w;
  enum CXCursorKind k = clang_getCursorKind(c);
  switch (k) {
  case CXCursor_GCCAsmStmt: case CXCursor_MSAsmStmt:   /* asm outputs assign unseen */
    s->asm_seen = 1;
    /* fall through */
  case CXCursor_LabelStmt: case CXCursor_GotoStmt: case CXCursor_IndirectGotoStmt:
    s->jumps = 1;
    break;
  case CXCursor_VarDecl:
    if (fw_is_local_decl(c)) gv_decl(s, c);
    break;
  /* The operator first, the operands only for an assignment, & or ++/--:
   * asking libclang for every operator's operands was ~5 % of the walk. */
  case CXCursor_BinaryOperator: case CXCursor_CompoundAssignOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    CXCursor kids[2];
    if ((k == CXCursor_CompoundAssignOperator || op == CXBinaryOperator_Assign) &&
        fe_kids(c, kids, 2) == 2)
      gv_spoil(s, kids[0], k == CXCursor_CompoundAssignOperator ? clang_getNullCursor() : kids[1]);
    break;
  }
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    CXCursor kid[1];
    if ((op == CXUnaryOperator_AddrOf || op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
         op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec) &&
        fe_kids(c, kid, 1) == 1) {
      gv_spoil(s, kid[0], clang_getNullCursor());
      CXCursor d = op == CXUnaryOperator_AddrOf ? gv_local(w->t, kid[0]) : clang_getNullCursor();
      if (!clang_Cursor_isNull(d)) w->vars.v[fw_var_for(w, d)].naddr++;   /* slot.c */
    }
    break;
  }
  case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_DoStmt: case CXCursor_SwitchStmt: {
    CXSourceRange r = clang_getCursorExtent(c);
    vec_push(&s->loops, gv_offset(clang_getRangeStart(r)));
    vec_push(&s->loops, gv_offset(clang_getRangeEnd(r)));
    break;
  }
  default:
    break;
  }
  return CXChildVisit_Recurse;
}

void fw_guardvar_scan(fw *w, CXCursor fn, CXCursor body)
{
  gv_scan s = { w, 0, 0, {0}, {0} };
  int n = clang_Cursor_getNumArguments(fn);
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i);
    uint32_t vi = fw_var_for(w, p);
    fw_var *v = &w->vars.v[vi];
    v->zero_off = 1;   /* the caller's value */
    if (!gv_scalar(p)) v->guard_bad = 1;
  }
  clang_visitChildren(body, gv_visit, &s);
  if (s.asm_seen)
    for (size_t i = 0; i < w->vars.n; i++) w->vars.v[i].zero_off = 1;
  /* Declared in a loop or a switch: initialised again, or jumped over. */
  for (size_t i = 0; i < s.decls.n; i += 2)
    for (size_t j = 0; j < s.loops.n; j += 2)
      if (s.decls.v[i] >= s.loops.v[j] && s.decls.v[i] < s.loops.v[j + 1]) w->vars.v[s.decls.v[i + 1]].guard_bad = 1;
  w->flow_noguard = s.jumps;
  vec_free(&s.loops);
  vec_free(&s.decls);
}

/* Pushes the literals cond being `pol` implies. */
static void gv_lits(fw *w, CXCursor cond, int pol, fw_u32vec *out, int depth)
{
  CXCursor e = fe_strip(w->t, cond);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (depth > 8) return;
  if (k == CXCursor_DeclRefExpr) {
    CXCursor d = gv_local(w->t, e);
    if (clang_Cursor_isNull(d)) return;
    uint32_t vi = fw_var_for(w, d);
    if (!w->vars.v[vi].guard_bad) vec_push(out, vi << 1 | (uint32_t)pol);
    return;
  }
  CXCursor kids[2];
  if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_LNot &&
      fe_kids(e, kids, 1) == 1) {
    gv_lits(w, kids[0], !pol, out, depth + 1);
    return;
  }
  if (k != CXCursor_BinaryOperator || fe_kids(e, kids, 2) != 2) return;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
  long long v;
  if (op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) {
    int side = fw_int_literal_value(kids[1], &v) && v == 0 ? 0 : fw_int_literal_value(kids[0], &v) && v == 0 ? 1 : -1;
    if (side >= 0) gv_lits(w, kids[side], op == CXBinaryOperator_NE ? pol : !pol, out, depth + 1);
  } else if ((op == CXBinaryOperator_LAnd && pol) || (op == CXBinaryOperator_LOr && !pol)) {
    gv_lits(w, kids[0], pol, out, depth + 1);
    gv_lits(w, kids[1], pol, out, depth + 1);
  }
}

void fw_guardvar_lits(fw *w, CXCursor cond, int pol, fw_u32vec *out)
{
  out->n = 0;
  if (w->flow_noguard || w->flow_off) return;
  gv_lits(w, cond, pol, out, 0);
}

int fw_guardvar_zero(fw *w, CXCursor e)
{
  CXCursor d = gv_local(w->t, e);
  if (clang_Cursor_isNull(d)) return 0;
  uint32_t vi = fw_var_for(w, d);
  const fw_var *v = &w->vars.v[vi];
  return v->zero_seen && !v->zero_off;
}
