/* errsave.c — errno saved and put back (issue 30, item 2).
 *
 * gnulib's quotearg_buffer keeps errno for its caller: `int e = errno;
 * … errno = e; return r;`. The store puts back a value errno already had
 * in this call, so it changes nothing a caller sees by itself: `check`
 * does not count it (SEF_ERRNO_RESTORE). What set errno in between (a
 * write of its own, a callee) is judged as before, so errno set and left
 * changed on some path stays an error. Only a local that never holds
 * anything else qualifies: initialised or assigned from errno and nothing
 * else, never incremented, its address never taken. */
#include "frontend/walk.h"
#include <string.h>

/* Is e (parentheses and casts stripped) a read of errno, `*__errno_location()`? */
static int errsave_is_errno_read(fw *w, CXCursor e)
{
  e = fe_strip(e);
  if (clang_getCursorKind(e) != CXCursor_UnaryOperator ||
      clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_Deref) return 0;
  size_t k = fw_kids(w, e);
  CXCursor inner = w->ks.n - k == 1 ? fe_strip(FW_KID(w, k, 0)) : clang_getNullCursor();
  w->ks.n = k;
  return !clang_Cursor_isNull(inner) && fw_is_errno_location(inner);
}

/* The local variable e names (stripped), or a null cursor. */
static CXCursor errsave_local(CXCursor e)
{
  e = fe_strip(e);
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
  } else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
    size_t kk = fw_kids(s->w, c);
    CXCursor lhs = s->w->ks.n - kk == 2 ? FW_KID(s->w, kk, 0) : clang_getNullCursor();
    CXCursor rhs = s->w->ks.n - kk == 2 ? FW_KID(s->w, kk, 1) : clang_getNullCursor();
    s->w->ks.n = kk;
    CXCursor var = clang_Cursor_isNull(lhs) ? lhs : errsave_local(lhs);
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    if (!clang_Cursor_isNull(var) && (k == CXCursor_CompoundAssignOperator || op == CXBinaryOperator_Assign))
      errsave_note(s, var, k == CXCursor_BinaryOperator && errsave_is_errno_read(s->w, rhs));
  } else if (k == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op == CXUnaryOperator_AddrOf || op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
        op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec) {
      size_t kk = fw_kids(s->w, c);
      CXCursor var = s->w->ks.n - kk == 1 ? errsave_local(FW_KID(s->w, kk, 0)) : clang_getNullCursor();
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
    for (size_t j = 0; j < s.bad.n && !bad; j++) bad = s.bad.v[j] == s.good.v[i];
    if (!bad) vec_push(&w->errno_saved, s.good.v[i]);
  }
  vec_free(&s.good);
  vec_free(&s.bad);
}

int fw_errsave_is_restore(fw *w, const lv_t *lv, CXCursor value)
{
  if (!w->errno_saved.n || lv->kind != LV_MEM || clang_Cursor_isNull(lv->ptr) || clang_Cursor_isNull(value))
    return 0;
  if (!fw_is_errno_location(fe_strip(lv->ptr))) return 0;
  CXCursor var = errsave_local(value);
  if (clang_Cursor_isNull(var)) return 0;
  uint64_t key = fe_decl_key(var);
  for (size_t i = 0; i < w->errno_saved.n; i++)
    if (w->errno_saved.v[i] == key) return 1;
  return 0;
}
