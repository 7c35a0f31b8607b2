/* fnret.c — a call through a member of what a function-pointer parameter
 * returns (issue 30, item 5; found on xz-utils).
 *
 * xz's `lzma_raw_coder_memusage (lzma_filter_find coder_find, …)` does
 * `const lzma_filter_coder *const fc = coder_find (id); … fc->memusage
 * (o)`, and its callers pass `&encoder_find` or `&decoder_find`: static
 * lookups returning an element of a `static const` table, or NULL. The
 * call is unknown here (which lookup, which table?), but each call site
 * knows the lookup, and the lookup's TU knows its table. Two facts:
 *
 *  - the caller's (fw_fnret_mcall): the call through the member is a
 *    sum_pcall on the parameter with moff = 1 + the member's byte offset
 *    in the struct type the caller reads it as (the pointer it calls
 *    through is the call's result, directly or through a local that is
 *    itself const);
 *  - the lookup's (fw_fnret_lookup): every value it returns is NULL or a
 *    pointer to a whole element of a read-only table of its TU (fntable.c
 *    checks that); for each function-pointer member of the element type,
 *    at its byte offset, the functions stored there (sum_rmember).
 *
 * The link (link/fnret.c) joins them per call site. The offset, not the
 * name, matches them: a cast between two struct types sharing an initial
 * sequence (xz's `(lzma_filter_find)(&encoder_find)` turns
 * `lzma_filter_encoder` into `lzma_filter_coder`) reads the bytes at the
 * caller's offset in the lookup's element, whatever the member is called
 * there. An offset with no record in the lookup (not a function pointer
 * there, or a member whose values are not all known) stays unknown. */
#include "frontend/walk.h"
#include <string.h>

enum { FR_MAX_HOPS = 8 };

/* The call whose result pointer expression e is: `find (id)` itself, or
 * a const local pointer initialised with it, through parentheses and
 * casts. A null cursor otherwise. */
static CXCursor fr_source_call(fw *w, CXCursor e)
{
  for (int hop = 0; hop < FR_MAX_HOPS; hop++) {
    e = fe_strip(w->t, e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CallExpr) return e;
    if (k != CXCursor_DeclRefExpr) break;
    CXCursor init = fw_const_local_init(clang_getCursorReferenced(e));
    if (clang_Cursor_isNull(init)) break;
    e = init;
  }
  return clang_getNullCursor();
}

/* The byte offset of the member `p->m` reads in *p's own struct type, or
 * -1 (not `->`, a member of a nested anonymous record, a bit-field). */
static long long fr_member_offset(fw *w, CXCursor m, CXCursor *base)
{
  size_t k = fw_kids(w, m);
  *base = w->ks.n - k == 1 ? FW_KID(w, k, 0) : clang_getNullCursor();
  w->ks.n = k;
  if (clang_Cursor_isNull(*base) || !fe_expr_is_pointer(*base)) return -1;
  CXCursor field = clang_getCursorReferenced(m);
  if (clang_getCursorKind(field) != CXCursor_FieldDecl || clang_Cursor_isBitField(field)) return -1;
  CXType rec = clang_getCanonicalType(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(*base))));
  if (rec.kind != CXType_Record ||
      !clang_equalCursors(clang_getCursorSemanticParent(field), clang_getTypeDeclaration(rec)))
    return -1;
  long long bits = clang_Cursor_getOffsetOfField(field);
  return bits >= 0 && bits % 8 == 0 ? bits / 8 : -1;
}

void fw_fnret_mcall(fw *w, CXCursor callee, const uint64_t *masks, uint32_t nargs)
{
  CXCursor m = fe_strip(w->t, callee), base;
  if (clang_getCursorKind(m) != CXCursor_MemberRefExpr) return;
  long long off = fr_member_offset(w, m, &base);
  if (off < 0 || off >= UINT32_MAX - 1) return;
  CXCursor call = fr_source_call(w, base);
  if (clang_Cursor_isNull(call)) return;
  size_t k = fw_kids(w, call);
  CXCursor fp = w->ks.n > k ? FW_KID(w, k, 0) : clang_getNullCursor();
  w->ks.n = k;
  int param = clang_Cursor_isNull(fp) ? -1 : fw_fnptr_param_of(w, fp);
  if (param >= 0) fw_fnptr_pcall_at(w, (uint32_t)param, (uint32_t)off + 1, masks, nargs);
}

/* ---- the lookup's side ---- */

typedef struct {
  fw *w;
  uint32_t fi;
  const fw_cursors *inits;   /* the tables' initializers */
} fr_lookup;

static void fr_push(sum_tu *s, uint32_t fi, uint32_t moff, uint8_t kind, uint32_t value)
{
  sum_rmember r = { fi, moff, kind, value };
  vec_push(&s->rmembers, r);
}

/* One member of the element type: its functions over every table, when
 * all are known (none known: the member holds only null pointers). */
static enum CXVisitorResult fr_member(CXCursor field, CXClientData d)
{
  fr_lookup *x = d;
  if (!fw_is_fn_pointer_type(clang_getCursorType(field)) || clang_Cursor_isBitField(field)) return CXVisit_Continue;
  long long bits = clang_Cursor_getOffsetOfField(field);
  if (bits < 0 || bits % 8 || bits / 8 >= UINT32_MAX) return CXVisit_Continue;
  CXString name = clang_getCursorSpelling(field);
  fw_u32vec fns = {0};
  int ok = 1;
  for (size_t i = 0; i < x->inits->n && ok; i++)
    ok = fw_fntable_member_targets(x->w, x->inits->v[i], clang_getCString(name), &fns);
  clang_disposeString(name);
  sum_tu *s = x->w->t->sum;
  uint32_t moff = (uint32_t)(bits / 8);
  for (size_t i = 0; ok && i < fns.n; i++) {
    int seen = 0;
    for (size_t j = 0; j < i; j++) seen |= fns.v[j] == fns.v[i];
    if (!seen) fr_push(s, x->fi, moff, SFA_FUNC, fns.v[i]);
  }
  if (ok && !fns.n) fr_push(s, x->fi, moff, SFA_NULL, 0);
  vec_free(&fns);
  return CXVisit_Continue;
}

/* Does record type rec have a function-pointer member of its own? */
static enum CXVisitorResult fr_any_fn(CXCursor field, CXClientData d)
{
  if (!fw_is_fn_pointer_type(clang_getCursorType(field))) return CXVisit_Continue;
  *(int *)d = 1;
  return CXVisit_Break;
}

void fw_fnret_lookup(fw *w, CXCursor fn, uint32_t fi)
{
  const sum_func *f = &w->t->sum->funcs.v[fi];
  if (f->flags & (SFF_WEAK | SFF_INTERPOSABLE | SFF_NOIPA)) return;
  CXType rt = clang_getCanonicalType(clang_getResultType(clang_getCursorType(fn)));
  if (rt.kind != CXType_Pointer) return;
  CXType rec = clang_getCanonicalType(clang_getPointeeType(rt));
  int any = 0;
  /* A struct: in a union every member lies at offset 0, and the bytes a
   * member's reader gets are the ones the initializer put in another. */
  if (rec.kind != CXType_Record || clang_getCursorKind(clang_getTypeDeclaration(rec)) != CXCursor_StructDecl) return;
  clang_Type_visitFields(rec, fr_any_fn, &any);
  if (!any) return;
  fw_cursors inits = {0};
  if (fw_fntable_lookup_rows(w, fn, rec, &inits)) {
    fr_lookup x = { w, fi, &inits };
    clang_Type_visitFields(rec, fr_member, &x);
  }
  vec_free(&inits);
}
