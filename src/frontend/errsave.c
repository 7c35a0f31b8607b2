/* errsave.c — errno saved and put back (issue 30, item 2).
 *
 * gnulib's quotearg_buffer keeps errno for its caller: `int e = errno;
 * … errno = e; return r;`. The store puts back a value errno already had
 * in this call, so it changes nothing a caller sees by itself: `check`
 * does not count it (SEF_ERRNO_RESTORE). What set errno in between (a
 * write of its own, a callee) is judged as before, so errno set and left
 * changed on some path stays an error. Only a local that never holds
 * anything else qualifies: initialised or assigned from errno and nothing
 * else, never incremented, its address never taken.
 *
 * Beyond that one store, the function as a whole may keep errno for its
 * caller (SSF_ERRNO_KEPT): saved on entry, put back right before every
 * return. Then nothing it or its callees do to errno in between reaches a
 * caller, and `check` leaves those writes out too (link/capture.c). The
 * shape is what gnulib writes, checked on the syntax tree:
 *  - the save (`int e = errno;` or `e = errno;`) is a statement of the
 *    body's outermost block, of a local saved exactly once, and nothing
 *    before it calls, jumps or has a label (errno is still the caller's);
 *  - every return after it is a statement of a block whose previous
 *    statement (a label on it allowed) is `errno = e;`, and its value
 *    calls nothing (a call there would run after the restore);
 *  - the body ends in a return or in that restore (falling off the end).
 * Anything else (a bare `if (x) return 0;`, a labelled return, a restore
 * inside a condition) is not recognised: the writes count as before. */
#include "frontend/walk.h"
#include <string.h>

/* Is e (parentheses and casts stripped) a read of errno, `*__errno_location()`? */
static int errsave_is_errno_read(fw *w, CXCursor e)
{
  e = fe_strip(w->t, e);
  if (clang_getCursorKind(e) != CXCursor_UnaryOperator ||
      clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_Deref) return 0;
  size_t k = fw_kids(w, e);
  CXCursor inner = w->ks.n - k == 1 ? fe_strip(w->t, FW_KID(w, k, 0)) : clang_getNullCursor();
  w->ks.n = k;
  return !clang_Cursor_isNull(inner) && fw_is_errno_location(inner);
}

/* The local variable e names (stripped), or a null cursor. */
static CXCursor errsave_local(fe_tu *t, CXCursor e)
{
  e = fe_strip(t, e);
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
  CXCursor d = clang_getCursorReferenced(e);
  if (clang_getCursorKind(d) != CXCursor_VarDecl || !fw_is_local_decl(d)) return clang_getNullCursor();
  return d;
}

typedef struct {
  fw *w;
  VEC(uint64_t) good;   /* declared or assigned from errno */
  VEC(uint64_t) bad;    /* given anything else, or addressed */
} errsave_scan;

static void errsave_note(errsave_scan *s, CXCursor var, int good)
{
  uint64_t key = fe_decl_key(var);
  if (good) vec_push(&s->good, key);
  else vec_push(&s->bad, key);
}

static enum CXChildVisitResult errsave_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  errsave_scan *s = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_VarDecl && fw_is_local_decl(c)) {
    CXCursor init = clang_Cursor_getVarDeclInitializer(c);
    if (!clang_Cursor_isNull(init)) errsave_note(s, c, errsave_is_errno_read(s->w, init));
  } else if (k == CXCursor_CompoundAssignOperator ||
             (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign)) {
    /* Only an assignment's operands are looked at (not every operator's:
     * they cost libclang calls, ~5 % of the walk). */
    size_t kk = fw_kids(s->w, c);
    CXCursor lhs = s->w->ks.n - kk == 2 ? FW_KID(s->w, kk, 0) : clang_getNullCursor();
    CXCursor rhs = s->w->ks.n - kk == 2 ? FW_KID(s->w, kk, 1) : clang_getNullCursor();
    s->w->ks.n = kk;
    CXCursor var = clang_Cursor_isNull(lhs) ? lhs : errsave_local(s->w->t, lhs);
    if (!clang_Cursor_isNull(var))
      errsave_note(s, var, k == CXCursor_BinaryOperator && errsave_is_errno_read(s->w, rhs));
  } else if (k == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op == CXUnaryOperator_AddrOf || op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
        op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec) {
      size_t kk = fw_kids(s->w, c);
      CXCursor var = s->w->ks.n - kk == 1 ? errsave_local(s->w->t, FW_KID(s->w, kk, 0)) : clang_getNullCursor();
      s->w->ks.n = kk;
      if (!clang_Cursor_isNull(var)) errsave_note(s, var, 0);
    }
  }
  return CXChildVisit_Recurse;
}

void fw_errsave_scan(fw *w, CXCursor body)
{
  errsave_scan s = { w, {0}, {0} };
  clang_visitChildren(body, errsave_visit, &s);
  for (size_t i = 0; i < s.good.n; i++) {
    int bad = 0;
    size_t times = 0;
    for (size_t j = 0; j < s.bad.n && !bad; j++) bad = s.bad.v[j] == s.good.v[i];
    for (size_t j = 0; j < s.good.n; j++) times += s.good.v[j] == s.good.v[i];
    if (bad) continue;
    vec_push(&w->errno_saved, s.good.v[i]);
    if (times == 1) vec_push(&w->errno_once, s.good.v[i]);
  }
  vec_free(&s.good);
  vec_free(&s.bad);
}

int fw_errsave_is_restore(fw *w, const lv_t *lv, CXCursor value)
{
  if (!w->errno_saved.n || lv->kind != LV_MEM || clang_Cursor_isNull(lv->ptr) || clang_Cursor_isNull(value))
    return 0;
  if (!fw_is_errno_location(fe_strip(w->t, lv->ptr))) return 0;
  CXCursor var = errsave_local(w->t, value);
  if (clang_Cursor_isNull(var)) return 0;
  uint64_t key = fe_decl_key(var);
  for (size_t i = 0; i < w->errno_saved.n; i++)
    if (w->errno_saved.v[i] == key) return 1;
  return 0;
}

/* ---- errno kept for the caller (SSF_ERRNO_KEPT) ---- */

static int errsave_in(const uint64_t *v, size_t n, uint64_t key)
{
  for (size_t i = 0; i < n; i++)
    if (v[i] == key) return 1;
  return 0;
}

/* The local saved once from errno by statement c (`int e = errno;`, one
 * variable only, or `e = errno;`), or 0. */
static uint64_t errsave_save_of(fw *w, CXCursor c)
{
  c = fe_strip(w->t, c);
  enum CXCursorKind k = clang_getCursorKind(c);
  uint64_t key = 0;
  if (k == CXCursor_DeclStmt) {
    size_t kk = fw_kids(w, c);
    CXCursor d = w->ks.n - kk == 1 ? FW_KID(w, kk, 0) : clang_getNullCursor();
    w->ks.n = kk;
    if (clang_Cursor_isNull(d) || clang_getCursorKind(d) != CXCursor_VarDecl) return 0;
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (!clang_Cursor_isNull(init) && errsave_is_errno_read(w, init)) key = fe_decl_key(d);
  } else if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign) {
    size_t kk = fw_kids(w, c);
    CXCursor lhs = w->ks.n - kk == 2 ? FW_KID(w, kk, 0) : clang_getNullCursor();
    CXCursor rhs = w->ks.n - kk == 2 ? FW_KID(w, kk, 1) : clang_getNullCursor();
    w->ks.n = kk;
    CXCursor var = clang_Cursor_isNull(lhs) ? lhs : errsave_local(w->t, lhs);
    if (!clang_Cursor_isNull(var) && errsave_is_errno_read(w, rhs)) key = fe_decl_key(var);
  }
  return key && errsave_in(w->errno_once.v, w->errno_once.n, key) ? key : 0;
}

/* Is statement c (a label on it looked through) `errno = var;`? */
static int errsave_is_put_back(fw *w, CXCursor c, uint64_t var)
{
  while (clang_getCursorKind(c) == CXCursor_LabelStmt) {
    size_t kk = fw_kids(w, c);
    CXCursor in = w->ks.n - kk == 1 ? FW_KID(w, kk, 0) : clang_getNullCursor();
    w->ks.n = kk;
    if (clang_Cursor_isNull(in)) return 0;
    c = in;
  }
  c = fe_strip(w->t, c);
  if (clang_getCursorKind(c) != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(c) != CXBinaryOperator_Assign)
    return 0;
  size_t kk = fw_kids(w, c);
  CXCursor lhs = w->ks.n - kk == 2 ? FW_KID(w, kk, 0) : clang_getNullCursor();
  CXCursor rhs = w->ks.n - kk == 2 ? FW_KID(w, kk, 1) : clang_getNullCursor();
  w->ks.n = kk;
  if (clang_Cursor_isNull(lhs) || !errsave_is_errno_read(w, lhs)) return 0;
  CXCursor v = errsave_local(w->t, rhs);
  return !clang_Cursor_isNull(v) && fe_decl_key(v) == var;
}

typedef struct {
  fw *w;
  uint64_t var;
  unsigned returns, kept;   /* return statements; those put back right before */
  int calls, jumps;         /* seen a call; a goto or a label */
} errsave_keep;

static enum CXChildVisitResult errsave_keep_visit(CXCursor c, CXCursor parent, CXClientData d);

/* Does c call anything, jump or carry a label (counting its returns)? */
static void errsave_keep_scan(errsave_keep *k, CXCursor c)
{
  clang_visitChildren(c, errsave_keep_visit, k);
  errsave_keep_visit(c, clang_getNullCursor(), k);
}

static int errsave_calls(fw *w, CXCursor c)
{
  errsave_keep k = { w, 0, 0, 0, 0, 0 };
  errsave_keep_scan(&k, c);
  return k.calls;
}

/* A block's statements: a return must follow the put-back and call
 * nothing in its value. */
static void errsave_keep_block(errsave_keep *k, CXCursor block)
{
  fw *w = k->w;
  size_t kk = fw_kids(w, block), n = w->ks.n - kk;
  for (size_t i = 0; i < n; i++) {
    CXCursor s = FW_KID(w, kk, i);
    if (clang_getCursorKind(s) != CXCursor_ReturnStmt || i == 0) continue;
    if (errsave_is_put_back(w, FW_KID(w, kk, i - 1), k->var) && !errsave_calls(w, s)) k->kept++;
  }
  w->ks.n = kk;
}

static enum CXChildVisitResult errsave_keep_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  errsave_keep *k = d;
  switch (clang_getCursorKind(c)) {
  case CXCursor_CallExpr: k->calls = 1; break;
  case CXCursor_GotoStmt: case CXCursor_IndirectGotoStmt: case CXCursor_LabelStmt: k->jumps = 1; break;
  case CXCursor_ReturnStmt: k->returns++; break;
  case CXCursor_CompoundStmt: if (k->var) errsave_keep_block(k, c); break;
  default: break;
  }
  return CXChildVisit_Recurse;
}

int fw_errsave_kept(fw *w, CXCursor body)
{
  if (!w->errno_once.n || clang_getCursorKind(body) != CXCursor_CompoundStmt) return 0;
  size_t kk = fw_kids(w, body), n = w->ks.n - kk;
  int ok = 0;
  for (size_t i = 0; i < n && !ok; i++) {
    CXCursor s = FW_KID(w, kk, i);
    uint64_t var = errsave_save_of(w, s);
    if (!var) {
      /* Before the save errno is the caller's: nothing may change it. */
      errsave_keep pre = { w, 0, 0, 0, 0, 0 };
      errsave_keep_scan(&pre, s);
      if (pre.calls || pre.jumps) break;
      continue;
    }
    /* Every return after the save puts errno back first; so does the end. */
    errsave_keep k = { w, var, 0, 0, 0, 0 };
    for (size_t j = i + 1; j < n; j++) errsave_keep_scan(&k, FW_KID(w, kk, j));
    errsave_keep_block(&k, body);
    CXCursor last = FW_KID(w, kk, n - 1);
    int ends = i + 1 < n && (clang_getCursorKind(last) == CXCursor_ReturnStmt || errsave_is_put_back(w, last, var));
    ok = ends && k.kept == k.returns;
    break;
  }
  w->ks.n = kk;
  return ok;
}
