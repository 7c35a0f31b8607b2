/* enumswitch.c — a switch whose cases name every enumerator of its enum
 * (issue 30, item 8).
 *
 * `switch (kind) { case A: … case B: … default: abort(); }` over an enum
 * with exactly A and B: the default guards against a value no enumerator
 * has, a corrupted object. A noreturn call there is the same kind of check
 * as a failed assertion (checks/noreturn.c reports it as a note, not as a
 * misuse-noreturn warning whose advice, "drop the attribute", no
 * maintainer would take). The walk marks calls in such a default
 * SCF_IMPOSSIBLE; nothing else changes (the path still may not return:
 * C lets an enum object hold any value of its underlying type). */
#include "frontend/walk.h"

typedef struct { VEC(long long) v; } es_values;

static enum CXChildVisitResult es_enumerator(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_EnumConstantDecl)
    vec_push(&((es_values *)d)->v, clang_getEnumConstantDeclValue(c));
  return CXChildVisit_Continue;
}

/* Case labels directly in the switch's body (nested switches have their own). */
static enum CXChildVisitResult es_case(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_SwitchStmt) return CXChildVisit_Continue;
  if (k == CXCursor_CaseStmt) {
    CXCursor label;
    CXEvalResult r = fe_kids(c, &label, 1) ? clang_Cursor_Evaluate(label) : NULL;
    if (r && clang_EvalResult_getKind(r) == CXEval_Int)
      vec_push(&((es_values *)d)->v, clang_EvalResult_getAsLongLong(r));
    if (r) clang_EvalResult_dispose(r);
  }
  return CXChildVisit_Recurse;
}

static bool es_has(const es_values *s, long long v)
{
  for (size_t i = 0; i < s->v.n; i++)
    if (s->v.v[i] == v) return true;
  return false;
}

int fw_switch_covers_enum(CXCursor cond, CXCursor body)
{
  CXType t = clang_getCanonicalType(clang_getCursorType(fe_strip(cond)));
  if (t.kind != CXType_Enum) return 0;
  es_values enums = {0}, cases = {0};
  clang_visitChildren(clang_getTypeDeclaration(t), es_enumerator, &enums);
  clang_visitChildren(body, es_case, &cases);
  int covers = enums.v.n > 0;
  for (size_t i = 0; i < enums.v.n && covers; i++) covers = es_has(&cases, enums.v.v[i]);
  vec_free(&enums.v);
  vec_free(&cases.v);
  return covers;
}
