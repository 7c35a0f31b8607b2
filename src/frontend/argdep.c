/* argdep.c — stores into a whole static object whose value is computed
 * from the function's parameters (issue 14, item 2: a memo whose cache
 * write is not the same on every first call, `if (!c) c = f(x);`).
 *
 * A syntactic, flow-insensitive pass over the body, separate from the
 * effect walk: a local is tainted when an initialiser or assignment that
 * mentions a parameter or a tainted local stores into it (repeated until
 * nothing changes); then every `s = e` / `s op= e` into a whole static or
 * thread-local `s` with e tainted marks the write effect recorded at that
 * place SEF_ARG_VALUE. An element store (`cache[x] = …`) is a cache keyed
 * by the argument, not marked. */
#include "frontend/walk.h"
#include <string.h>

typedef struct {
  ptrmap tainted;          /* local VarDecls (fe_decl_key) whose value depends on a parameter */
  VEC(sum_loc) marks;      /* collect pass: the targets of tainted stores into statics */
  fe_tu *t;
  int changed, collect;
} ad_state;

static enum CXChildVisitResult ad_mentions_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  void **a = d;
  ad_state *s = a[0];
  int *hit = a[1];
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(ref);
    if (k == CXCursor_ParmDecl || (k == CXCursor_VarDecl && ptrmap_get(&s->tainted, fe_decl_key(ref)))) {
      *hit = 1;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

/* Does expression e mention a parameter or a tainted local? */
static int ad_mentions(ad_state *s, CXCursor e)
{
  int hit = 0;
  void *a[2] = { s, &hit };
  if (ad_mentions_visit(e, clang_getNullCursor(), a) == CXChildVisit_Break) return 1;
  clang_visitChildren(e, ad_mentions_visit, a);
  return hit;
}

static void ad_taint(ad_state *s, CXCursor decl)
{
  if (ptrmap_get(&s->tainted, fe_decl_key(decl))) return;
  ptrmap_put(&s->tainted, fe_decl_key(decl), 1);
  s->changed = 1;
}

static void ad_store(ad_state *s, CXCursor lhs, CXCursor rhs)
{
  CXCursor target = fe_strip(s->t, lhs);
  if (clang_getCursorKind(target) != CXCursor_DeclRefExpr || !ad_mentions(s, rhs)) return;
  CXCursor ref = clang_getCursorReferenced(target);
  if (clang_getCursorKind(ref) != CXCursor_VarDecl) return;
  if (fw_is_local_decl(ref)) ad_taint(s, ref);
  else if (s->collect) vec_push(&s->marks, fe_cursor_loc(s->t, lhs));
}

static enum CXChildVisitResult ad_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  ad_state *s = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    if (op == CXBinaryOperator_Assign || (op >= CXBinaryOperator_MulAssign && op <= CXBinaryOperator_OrAssign)) {
      CXCursor kid[2];
      if (fe_kids(c, kid, 2) == 2) ad_store(s, kid[0], kid[1]);
    }
  } else if (k == CXCursor_VarDecl && fw_is_local_decl(c)) {
    CXCursor init = clang_Cursor_getVarDeclInitializer(c);
    if (!clang_Cursor_isNull(init) && ad_mentions(s, init)) ad_taint(s, c);
  }
  return CXChildVisit_Recurse;
}

/* Did the walk record a write of a static object in this function? Only
 * those effects can be marked, so without one the passes are skipped:
 * two or more traversals of every body, ~10 % of the walk on Lua. */
static int ad_has_static_write(const fw *w)
{
  const sum_tu *t = w->t->sum;
  for (size_t i = w->eff_base; i < t->effs.n; i++)
    if (t->effs.v[i].kind == SE_WRITE_GLOBAL) return 1;
  return 0;
}

void fw_argdep_mark(fw *w, CXCursor body)
{
  if (clang_Cursor_isNull(body) || !ad_has_static_write(w)) return;
  ad_state s;
  memset(&s, 0, sizeof s);
  s.t = w->t;
  for (int pass = 0; pass < 8; pass++) {
    s.changed = 0;
    clang_visitChildren(body, ad_visit, &s);
    if (!s.changed) break;
  }
  s.collect = 1;
  clang_visitChildren(body, ad_visit, &s);
  sum_tu *t = w->t->sum;
  for (size_t i = w->eff_base; i < t->effs.n; i++) {
    sum_effect *e = &t->effs.v[i];
    if (e->kind != SE_WRITE_GLOBAL) continue;
    for (size_t j = 0; j < s.marks.n; j++)
      if (s.marks.v[j].file == e->loc.file && s.marks.v[j].line == e->loc.line && s.marks.v[j].col == e->loc.col)
        e->flags |= SEF_ARG_VALUE;
  }
  vec_free(&s.marks);
  ptrmap_free(&s.tainted);
}
