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
 * C lets an enum object hold any value of its underlying type).
 *
 * A last enumerator that counts the others (coreutils' `time_numtypes`
 * after time_mtime … time_btime, 0 to 3) is no value an object holds:
 * its case is not needed.
 *
 * The same guard written after the switch (Dovecot's
 * http_client_peer_addr_cmp: every case returns, then `i_unreached();`):
 * with no default, no break of its own and a last statement that never
 * falls off, the switch is left only by a value no enumerator has, so
 * what follows it in its block is as impossible (walk_stmt.c). */
#include "frontend/walk.h"
#include <ctype.h>
#include <string.h>

typedef struct { VEC(long long) v; bool last_counts; } es_values;

/* Does the name say it counts (numtypes, COUNT, N_KINDS, kind_max, LAST)? */
static bool es_count_name(const char *name)
{
  char low[64];
  size_t n = 0;
  for (; name[n] && n + 1 < sizeof low; n++) low[n] = (char)tolower((unsigned char)name[n]);
  low[n] = '\0';
  static const char *const words[] = { "num", "count", "max", "last", "limit", "sentinel" };
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strstr(low, words[i])) return true;
  return !strncmp(low, "n_", 2) || (n > 2 && !strcmp(low + n - 2, "_n"));
}

static enum CXChildVisitResult es_enumerator(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl) return CXChildVisit_Continue;
  es_values *s = d;
  long long v = clang_getEnumConstantDeclValue(c);
  /* Counting so far: 0, 1, … in order; this one is the count if it is next
   * and named so (a later enumerator clears it). */
  bool dense = true;
  for (size_t i = 0; i < s->v.n && dense; i++) dense = s->v.v[i] == (long long)i;
  CXString name = clang_getCursorSpelling(c);
  s->last_counts = dense && s->v.n > 0 && v == (long long)s->v.n && es_count_name(clang_getCString(name));
  clang_disposeString(name);
  vec_push(&s->v, v);
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
  CXType t = clang_getCanonicalType(clang_getCursorType(fe_strip(NULL, cond)));
  if (t.kind != CXType_Enum) return 0;
  es_values enums = {0}, cases = {0};
  clang_visitChildren(clang_getTypeDeclaration(t), es_enumerator, &enums);
  clang_visitChildren(body, es_case, &cases);
  size_t need = enums.v.n - (enums.last_counts ? 1 : 0);
  int covers = need > 0;
  for (size_t i = 0; i < need && covers; i++) covers = es_has(&cases, enums.v.v[i]);
  vec_free(&enums.v);
  vec_free(&cases.v);
  return covers;
}

/* Is there a default label, or a break that leaves this switch, in s
 * (nested switches and loops have their own)? */
static enum CXChildVisitResult es_exit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  switch (clang_getCursorKind(c)) {
  case CXCursor_DefaultStmt: case CXCursor_BreakStmt:
    *(bool *)d = true;
    return CXChildVisit_Break;
  case CXCursor_SwitchStmt: case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_DoStmt:
    return CXChildVisit_Continue;   /* their breaks are theirs (a default inside a nested switch too) */
  default:
    return clang_isExpression(clang_getCursorKind(c)) ? CXChildVisit_Continue : CXChildVisit_Recurse;
  }
}

int fw_switch_no_exit(CXCursor cond, CXCursor body)
{
  bool exit = false;
  clang_visitChildren(body, es_exit, &exit);
  return !exit && fw_switch_covers_enum(cond, body);
}
