/* deadstore.c — a call's value stored into a local that nothing reads
 * afterwards (issue 29).
 *
 * `if (!valid(path)) { err = path; path = nil(); continue; }` (jq's
 * build_lib_search_chain, where path is the variable of a foreach macro:
 * `for (jv x; i < n ? (x = get(a, i), 1) : 0; i++)`): the store is dead —
 * every way on from it writes path again before reading it, or leaves
 * its scope — so GCC deletes it, and with it the call of a pure or const
 * function whose value it was. Measured with GCC 12 -O2: deleted when the
 * store is followed by `continue` (or ends the loop's body) and the local
 * is declared inside the loop (its lifetime ends with the iteration), or
 * in the for's init when the increment does not read it and the
 * condition writes it before reading it wherever it lets the body run;
 * when followed by `return` that does not read it; for a scalar, a 16-
 * and a 32-byte struct alike. Kept where the local lives on and is read:
 * declared outside the loop and read after it, read by the increment.
 *
 * The rule is syntactic and local: the statement right after the store
 * (a store followed by anything else is not taken: a miss, never a wrong
 * claim), and only for a local whose address is never taken (settled
 * when the walk ends, with sum_call.use SCU_DEAD_STORE), that is neither
 * volatile nor carries an attribute (cleanup() reads it at the scope's
 * end). */
#include "frontend/walk.h"

/* How an expression treats the local: rd, it may read it before writing
 * it on some path; wr, it writes it on every path; wt, it writes it
 * before any read wherever its value is nonzero (vacuously so for the
 * constant 0). */
typedef struct { unsigned rd : 1, wr : 1, wt : 1; } ds_flow;

typedef struct { CXCursor var; int decl; int hit; } ds_find;

static enum CXChildVisitResult ds_find_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  ds_find *f = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (f->decl ? k == CXCursor_VarDecl && clang_equalCursors(c, f->var)
              : k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), f->var)) {
    f->hit = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* Does the tree at c name var (decl = 0: a reference to it; decl = 1:
 * its declaration)? */
static int ds_holds(CXCursor c, CXCursor var, int decl)
{
  ds_find f = { var, decl, 0 };
  if (ds_find_visit(c, clang_getNullCursor(), &f) == CXChildVisit_Break) return 1;
  clang_visitChildren(c, ds_find_visit, &f);
  return f.hit;
}

static int ds_is_ref(CXCursor e, CXCursor var)
{
  e = fe_strip(NULL, e);
  return clang_getCursorKind(e) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(e), var);
}

/* What evaluating e does to var (see ds_flow); anything that names var
 * other than the shapes below counts as a read. */
static ds_flow ds_expr(CXCursor e, CXCursor var)
{
  ds_flow r = { 0, 0, 0 };
  e = fe_strip(NULL, e);
  long long lit;
  if (!ds_holds(e, var, 0)) {
    r.wt = fw_int_literal_value(e, &lit) && lit == 0;
    return r;
  }
  CXCursor k[3];
  unsigned n = fe_kids(e, k, 3);
  enum CXCursorKind kind = clang_getCursorKind(e);
  r.rd = 1;
  if (kind == CXCursor_ConditionalOperator && n == 3) {
    ds_flow a = ds_expr(k[0], var), b = ds_expr(k[1], var), c = ds_expr(k[2], var);
    r.rd = a.rd || (!a.wr && (b.rd || c.rd));
    r.wr = a.wr || (b.wr && c.wr);
    r.wt = a.wr || ((b.wt || b.wr) && (c.wt || c.wr));
    return r;
  }
  if (kind != CXCursor_BinaryOperator || n != 2) return r;
  ds_flow b, a;
  switch (clang_getCursorBinaryOperatorKind(e)) {
  case CXBinaryOperator_Assign:
    if (!ds_is_ref(k[0], var)) return r;
    b = ds_expr(k[1], var);
    r.rd = b.rd;
    r.wr = r.wt = 1;
    return r;
  case CXBinaryOperator_Comma:
    a = ds_expr(k[0], var), b = ds_expr(k[1], var);
    r.rd = a.rd || (!a.wr && b.rd);
    r.wr = a.wr || b.wr;
    r.wt = a.wr || b.wr || b.wt;
    return r;
  case CXBinaryOperator_LAnd:   /* true: both ran, both true */
    a = ds_expr(k[0], var), b = ds_expr(k[1], var);
    r.rd = a.rd || (!a.wr && b.rd);
    r.wr = a.wr;
    r.wt = a.wr || a.wt || b.wr || b.wt;
    return r;
  case CXBinaryOperator_LOr:    /* true: the left one, or the left false and the right true */
    a = ds_expr(k[0], var), b = ds_expr(k[1], var);
    r.rd = a.rd || (!a.wr && b.rd);
    r.wr = a.wr;
    r.wt = a.wr || (a.wt && (b.wr || b.wt));
    return r;
  default:
    return r;
  }
}

/* After a `continue` of loop L (or the end of its body), is var written
 * before it is read, or out of scope, on every way on? */
static int ds_dead_on_continue(CXCursor loop, CXCursor var)
{
  CXCursor k[4];
  unsigned n = fe_kids(loop, k, 4);
  enum CXCursorKind kind = clang_getCursorKind(loop);
  if (n < 1 || n > 4) return 0;
  CXCursor body = kind == CXCursor_DoStmt ? k[0] : k[n - 1];
  /* Declared in the body: its lifetime ends with the iteration. */
  if (ds_holds(body, var, 1)) return 1;
  if (kind != CXCursor_ForStmt || n != 4 || !ds_holds(k[0], var, 1)) return 0;
  /* Declared in the for's init: the increment, then the condition; where
   * the condition fails the loop (and var's scope) ends. */
  ds_flow inc = ds_expr(k[2], var), cond = ds_expr(k[1], var);
  return !inc.rd && (inc.wr || (!cond.rd && cond.wt));
}

/* Is the local var one whose stores the rule may judge: automatic, not
 * volatile, no attribute on its declaration (cleanup reads it)? */
static int ds_plain_local(CXCursor var)
{
  if (clang_getCursorKind(var) != CXCursor_VarDecl && clang_getCursorKind(var) != CXCursor_ParmDecl) return 0;
  if (!fw_is_local_decl(var) || clang_getCursorLinkage(var) != CXLinkage_NoLinkage) return 0;
  if (clang_Cursor_getStorageClass(var) == CX_SC_Static || clang_Cursor_getStorageClass(var) == CX_SC_Register)
    return 0;
  if (clang_isVolatileQualifiedType(clang_getCursorType(var))) return 0;
  CXCursor k[8];
  unsigned n = fe_kids(var, k, 8);
  for (unsigned i = 0; i < n && i < 8; i++)
    if (clang_getCursorKind(k[i]) >= CXCursor_FirstAttr && clang_getCursorKind(k[i]) <= CXCursor_LastAttr) return 0;
  return 1;
}

void fw_deadstore_note(fw *w, CXCursor block, const CXCursor *kids, size_t n, size_t i)
{
  CXCursor st = fe_strip(w->t, kids[i]), lr[2];
  if (clang_getCursorKind(st) != CXCursor_BinaryOperator ||
      clang_getCursorBinaryOperatorKind(st) != CXBinaryOperator_Assign || fe_kids(st, lr, 2) != 2)
    return;
  CXCursor l = fe_strip(w->t, lr[0]);
  if (clang_getCursorKind(l) != CXCursor_DeclRefExpr) return;
  CXCursor var = clang_getCursorReferenced(l);
  if (!ds_plain_local(var)) return;
  int ci = fw_last_call_is(w, fe_strip(w->t, lr[1]));
  if (ci < 0) return;
  int dead = 0;
  if (i + 1 == n) {
    /* The end of the innermost loop's body: on to its increment. */
    CXCursor k[4];
    unsigned nk = clang_Cursor_isNull(w->loop_stmt) ? 0 : fe_kids(w->loop_stmt, k, 4);
    if (nk >= 1 && nk <= 4) {
      CXCursor body = clang_getCursorKind(w->loop_stmt) == CXCursor_DoStmt ? k[0] : k[nk - 1];
      dead = clang_equalCursors(body, block) && ds_dead_on_continue(w->loop_stmt, var);
    }
  } else {
    CXCursor next = kids[i + 1];
    enum CXCursorKind nk = clang_getCursorKind(next);
    if (nk == CXCursor_ContinueStmt)
      dead = !clang_Cursor_isNull(w->loop_stmt) && ds_dead_on_continue(w->loop_stmt, var);
    else if (nk == CXCursor_ReturnStmt)
      dead = !ds_holds(next, var, 0);
  }
  if (!dead) return;
  vec_push(&w->dead_stores, (uint32_t)ci);
  vec_push(&w->dead_stores, fw_var_for(w, var));
}
