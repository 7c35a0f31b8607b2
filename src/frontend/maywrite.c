/* maywrite.c — a write that needs two conditions the analysis cannot
 * relate (issue 30, item 7: "may write … (if …)").
 *
 * `if (text[0] == 'a') buf = text;  …  if (text[1] == 'b') buf[0] = 'A';`
 * writes the caller's text only for an input where both tests hold. The
 * analysis cannot tell whether one exists (the maintainer may know it
 * does not), so `check` reports such a write at warning level, saying
 * "may write … (if …)", when nothing else breaks the attribute.
 *
 * Precisely, a write through a local pointer p is marked SEF_MAY, for a
 * parameter bit b of p, when
 *  - every assignment that gave p bit b ran inside a branch of an if whose
 *    condition reads only the function's parameters (their values, or
 *    memory through them) and no call — an input test — and that is not a
 *    test guardvar.c decides (a flag fixed for the call);
 *  - the write itself runs inside a branch of another input test; and
 *  - no such assignment's test is active at the write, nor has the same
 *    text as an active one (the same test twice holds twice).
 * An assignment anywhere else (unconditional, under a test of a global, of
 * a local, of a call, in `?:`, `&&`, after `if (…) return`, in a loop,
 * whose tests run again after writes of earlier turns) makes b sure, and a
 * write in a loop is never marked:
 * the write stays an error, as before. The record is flow-insensitive and
 * only grows (a bit once sure stays sure), and a variable whose record
 * grows after it was read is walked again, as for its provenance. */
#include "frontend/walk.h"
#include <string.h>
#include "util/strbuf.h"

/* Does the condition read only parameters never assigned (their values,
 * memory through them), literals and operators? */
typedef struct { fw *w; int ok; } mw_scan;

static enum CXChildVisitResult mw_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  mw_scan *s = d;
  switch (clang_getCursorKind(c)) {
  case CXCursor_CallExpr: case CXCursor_StmtExpr: case CXCursor_UnaryExpr:
    s->ok = 0;
    return CXChildVisit_Break;
  case CXCursor_DeclRefExpr: {
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(ref);
    if (k == CXCursor_EnumConstantDecl) break;
    /* A parameter assigned in the body is no longer the input. */
    if (k != CXCursor_ParmDecl || clang_isVolatileQualifiedType(clang_getCursorType(ref)) ||
        s->w->vars.v[fw_var_for(s->w, ref)].reassigned) {
      s->ok = 0;
      return CXChildVisit_Break;
    }
    break;
  }
  case CXCursor_BinaryOperator: case CXCursor_CompoundAssignOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    if (op == CXBinaryOperator_Assign || clang_getCursorKind(c) == CXCursor_CompoundAssignOperator) {
      s->ok = 0;
      return CXChildVisit_Break;
    }
    break;
  }
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
        op == CXUnaryOperator_PreDec) {
      s->ok = 0;
      return CXChildVisit_Break;
    }
    break;
  }
  default:
    break;
  }
  return CXChildVisit_Recurse;
}

/* The condition's text (at most 60 characters) as a string id, 0 if
 * longer: its tokens, a space between two unless one is a bracket. */
static uint32_t mw_text(fw *w, CXCursor cond)
{
  CXTranslationUnit tu = w->t->tu;
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(cond), &toks, &n);
  strbuf b = {0};
  int glue = 1;   /* no space before the next token */
  for (unsigned i = 0; i < n && b.n <= 60; i++) {
    CXString s = clang_getTokenSpelling(tu, toks[i]);
    const char *t = clang_getCString(s);
    int closing = strchr(")].,[", t[0]) != NULL || !strcmp(t, "->");
    sb_printf(&b, "%s%s", glue || closing ? "" : " ", t);
    glue = strchr("([!~.", t[0]) != NULL || !strcmp(t, "->");
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, toks, n);
  uint32_t id = b.n && b.n <= 60 ? strtab_intern(w->t->sum->strs, sb_str(&b)) : 0;
  sb_free(&b);
  return id;
}

size_t fw_maywrite_enter(fw *w, CXCursor cond, int pol, int decided)
{
  size_t mark = w->mw_active.n;
  if (decided || w->flow_off || w->flow_noguard) return mark;
  mw_scan s = { w, 1 };
  CXCursor e = fe_strip(w->t, cond);
  if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) mw_visit(e, e, &s);
  else clang_visitChildren(e, mw_visit, &s);
  if (!s.ok) return mark;
  fw_mwtest t;
  t.lit = fe_expansion_offset(clang_getCursorLocation(cond), NULL) << 1 | (uint32_t)(pol != 0);
  t.text = mw_text(w, cond);
  t.line = fe_cursor_loc(w->t, cond).line;
  t.pol = (uint8_t)(pol != 0);
  if (!t.text) return mark;
  vec_push(&w->mw_active, t);
  return mark;
}

void fw_maywrite_leave(fw *w, size_t mark)
{
  w->mw_active.n = mark;
}

/* Notes the test tested under a branch of: keeps it for message texts. */
static uint32_t mw_keep(fw *w, const fw_mwtest *t)
{
  for (size_t i = 0; i < w->mw_tests.n; i++)
    if (w->mw_tests.v[i].lit == t->lit) return (uint32_t)i;
  vec_push(&w->mw_tests, *t);
  return (uint32_t)w->mw_tests.n - 1;
}

void fw_maywrite_assign(fw *w, uint32_t vi, uint64_t m, CXCursor value)
{
  fw_var *v = &w->vars.v[vi];
  uint64_t sure0 = v->mw_sure, cond0 = v->mw_cond;
  m &= ~(uint64_t)0 << PROV_PARAM0;   /* parameter bits only */
  if (!m) return;
  if (w->mw_active.n && !w->loop_depth) {
    /* Under an input test: the innermost one is what the value needs. */
    uint32_t k = mw_keep(w, &w->mw_active.v[w->mw_active.n - 1]);
    uint8_t i;
    for (i = 0; i < v->mw_n; i++)
      if (v->mw_test[i] == k) break;
    if (i == v->mw_n) {
      if (v->mw_n == FW_MW_TESTS) v->mw_sure |= m;   /* too many: sure */
      else v->mw_test[v->mw_n++] = k;
    }
    v->mw_cond |= m;
  } else {
    int u = clang_Cursor_isNull(value) ? -1 : fw_local_ref(w, value);
    if (u >= 0 && (uint32_t)u != vi) {
      /* A copy: sure where the source's bits are sure, conditional on the
       * source's tests where they are. */
      const fw_var *src = &w->vars.v[u];
      v->mw_sure |= m & (src->mw_sure | ~src->mw_cond);
      v->mw_cond |= m & src->mw_cond;
      for (uint8_t i = 0; i < src->mw_n; i++) {
        uint8_t j;
        for (j = 0; j < v->mw_n; j++)
          if (v->mw_test[j] == src->mw_test[i]) break;
        if (j == v->mw_n && v->mw_n == FW_MW_TESTS) { v->mw_sure |= m & src->mw_cond; continue; }
        if (j == v->mw_n) v->mw_test[v->mw_n++] = src->mw_test[i];
      }
    } else {
      v->mw_sure |= m;
    }
  }
  if ((v->mw_sure != sure0 || v->mw_cond != cond0) && (v->read || v->topped)) w->stale = 1;
}

int fw_maywrite_test(fw *w, uint32_t vi, unsigned param, uint32_t *text)
{
  const fw_var *v = &w->vars.v[vi];
  uint64_t bit = prov_param(param);
  /* In a loop a test runs again, after writes of earlier turns. */
  if (w->flow_off || w->flow_noguard || w->loop_depth || !w->mw_active.n || (v->mw_sure & bit) ||
      !(v->mw_cond & bit))
    return 0;
  /* No test a value needed is known to hold here, nor is tested again. */
  for (uint8_t i = 0; i < v->mw_n; i++) {
    const fw_mwtest *t = &w->mw_tests.v[v->mw_test[i]];
    for (size_t j = 0; j < w->mw_active.n; j++)
      if ((w->mw_active.v[j].lit >> 1) == (t->lit >> 1) || w->mw_active.v[j].text == t->text) return 0;
  }
  const fw_mwtest *at = &w->mw_active.v[w->mw_active.n - 1];
  const fw_mwtest *from = v->mw_n ? &w->mw_tests.v[v->mw_test[0]] : NULL;
  strbuf b = {0};
  sb_printf(&b, "%s%s%s (line %u)", at->pol ? "" : "!(", strtab_get(w->t->sum->strs, at->text), at->pol ? "" : ")",
            at->line);
  if (from)
    sb_printf(&b, " and %s%s%s (line %u), under which '%s' was given it", from->pol ? "" : "!(",
              strtab_get(w->t->sum->strs, from->text), from->pol ? "" : ")", from->line,
              strtab_get(w->t->sum->strs, v->name));
  *text = strtab_intern(w->t->sum->strs, sb_str(&b));
  sb_free(&b);
  return 1;
}
