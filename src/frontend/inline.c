/* inline.c — the calls GCC copies into a caller by inlining (issue 29).
 *
 * GCC 12 at -O2 inlines a tiny function of the TU into its callers, and
 * the copies' calls of a const function then merge with each other and
 * with the caller's own (jq's gen_op_simple(op) asserts
 * opcode_describe(op)->length == 1; inlined six times into gen_definedor,
 * its calls with the same opcode merge: 6 calls → 3). Which functions
 * GCC inlines follows its size estimates; the model takes only what it
 * inlines everywhere it was measured: a body of at most two statements,
 * the second (if any) the only return, no loop, no switch, no goto, at
 * most three calls that return, not variadic, not noinline/noipa, and not
 * interposable (an external function of a -fPIC TU stays a call). A copied
 * call is one the body makes unconditionally (it dominates the end of the
 * body: still available there) whose arguments are scalar parameters
 * the body never writes. At a call of such a function the copy's fingerprint is
 * the callee's with the call's argument expressions in place of the
 * parameters: the same expressions a direct call would fingerprint. */
#include "frontend/walk.h"
#include <string.h>
#include <strings.h>
#include <xxhash.h>

enum { INL_MAX_STMTS = 2, INL_MAX_CALLS = 3 };

/* Records in ci which parameter of the walked function each argument of
 * call is, or that one is none (npar = FW_INL_ARGS + 1). */
void fw_inline_params(fw *w, CXCursor call, fw_callinfo *ci)
{
  int nargs = clang_Cursor_getNumArguments(call);
  ci->npar = FW_INL_ARGS + 1;
  if (nargs < 0 || nargs > FW_INL_ARGS) return;
  for (int i = 0; i < nargs; i++) {
    CXCursor a = fe_strip(w->t, clang_Cursor_getArgument(call, (unsigned)i));
    if (clang_getCursorKind(a) != CXCursor_DeclRefExpr) return;
    CXCursor ref = clang_getCursorReferenced(a);
    if (clang_getCursorKind(ref) != CXCursor_ParmDecl) return;
    /* A struct or union parameter is a copy in memory once inlined: GCC
     * 12 merges no call of a copy with another (`static int valid(jv x)
     * { return kind(x) != 0; }` inlined twice keeps both kind calls). */
    enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(ref)).kind;
    if (tk == CXType_Record || tk == CXType_Elaborated || tk == CXType_ConstantArray) return;
    const fw_var *v = &w->vars.v[fw_var_for(w, ref)];
    if (v->param < 0) return;
    ci->par[i] = v->param;
  }
  ci->npar = (uint8_t)nargs;
}

typedef struct { int stmts, bad; } inl_shape;

/* Counts what keeps GCC from inlining, or from copying a call
 * unconditionally: returns (other than the last statement), jumps, loops,
 * switches. */
static enum CXChildVisitResult inl_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  inl_shape *s = d;
  switch (clang_getCursorKind(c)) {
  case CXCursor_ReturnStmt: case CXCursor_GotoStmt: case CXCursor_IndirectGotoStmt:
  case CXCursor_LabelStmt: case CXCursor_ForStmt: case CXCursor_WhileStmt: case CXCursor_DoStmt:
  case CXCursor_SwitchStmt: case CXCursor_GCCAsmStmt:
    s->bad = 1;
    return CXChildVisit_Break;
  default:
    return CXChildVisit_Recurse;
  }
}

/* Is body (of the walked function) at most INL_MAX_STMTS statements, the
 * last of which alone may return, with nothing inl_visit rejects? */
static bool inl_small_body(fw *w, CXCursor body)
{
  size_t k = fw_kids(w, body), n = w->ks.n - k;
  CXCursor kids[INL_MAX_STMTS];
  bool ok = n <= INL_MAX_STMTS;
  for (size_t i = 0; ok && i < n; i++) kids[i] = w->ks.v[k + i];
  w->ks.n = k;
  inl_shape s = { 0, 0 };
  for (size_t i = 0; ok && i < n && !s.bad; i++) {
    CXCursor c = kids[i];
    if (i + 1 == n && clang_getCursorKind(c) == CXCursor_ReturnStmt) {
      clang_visitChildren(c, inl_visit, &s);
      continue;
    }
    inl_visit(c, body, &s);
    if (!s.bad) clang_visitChildren(c, inl_visit, &s);
  }
  return ok && !s.bad;
}

/* Does the text of the function's head (from its start to its body) say
 * noinline (any spelling: __attribute__((noinline)), __noinline__,
 * a NOINLINE macro)? */
static bool inl_says_noinline(fw *w, CXCursor body)
{
  CXFile f1, f2;
  unsigned o1, o2;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(w->fn)), &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(body)), &f2, NULL, NULL, &o2);
  if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o2 < o1) return true;
  size_t size = 0;
  const char *text = fe_file_text(w->t->tu, f1, &size);
  if (!text || o2 > size) return true;
  static const char word[] = "noinline";
  for (unsigned i = o1; i + sizeof word - 1 <= o2; i++)
    if (!strncasecmp(text + i, word, sizeof word - 1)) return true;
  return false;
}

/* Does GCC inline the walked function into its callers (see the head)? */
static bool inl_inlined(fw *w, CXCursor body)
{
  const sum_tu *s = w->t->sum;
  const sum_func *f = &s->funcs.v[w->fi];
  if (clang_Cursor_isNull(body) || (f->flags & (SFF_INTERPOSABLE | SFF_NOIPA | SFF_NORETURN))) return false;
  if (clang_isFunctionTypeVariadic(clang_getCursorType(w->fn))) return false;
  uint32_t calls = 0;
  for (size_t i = w->call_base; i < s->calls.n; i++) {
    const sum_call *c = &s->calls.v[i];
    if (c->flags & (SCF_TABLE | SCF_IN_LOOP)) return false;
    if (!(c->flags & (SCF_NORETURN | SCF_DOOMED))) calls++;
  }
  for (size_t i = w->eff_base; i < s->effs.n; i++)
    if (s->effs.v[i].kind == SE_LOOP || s->effs.v[i].kind == SE_CALL_INDIRECT) return false;
  return calls <= INL_MAX_CALLS && inl_small_body(w, body) && !inl_says_noinline(w, body);
}

/* Is parameter i never written, nor its address taken, in this walk? */
static bool inl_param_intact(fw *w, int16_t i)
{
  for (size_t v = 0; v < w->vars.n; v++)
    if (w->vars.v[v].param == i) return w->vars.v[v].last_write == 0 && !w->vars.v[v].addr_taken;
  return false;
}

/* Is the body's call at rel (relative) its first, with nothing before it
 * that stores, jumps back or may stop code hoisting? Then the copy begins
 * the inlined body wherever it is copied (hoist.c). */
static bool inl_head(const fw *w, uint32_t rel)
{
  const sum_tu *s = w->t->sum;
  if (rel != 0) return false;
  const sum_call *c = &s->calls.v[w->call_base];
  for (size_t j = w->eff_base; j < w->eff_base + c->eff_pos && j < s->effs.n; j++) {
    switch ((sum_effect_kind)s->effs.v[j].kind) {
    case SE_WRITE_GLOBAL: case SE_WRITE_MEM: case SE_WRITE_PARAM: case SE_VOLATILE:
    case SE_ATOMIC: case SE_ASM: case SE_CALL_INDIRECT: case SE_GOTO_BACK: case SE_LOOP:
      return false;
    default:
      break;
    }
  }
  return true;
}

void fw_inline_note(fw *w, CXCursor body)
{
  if (!inl_inlined(w, body)) return;
  fe_tu *t = w->t;
  struct fe_inl_span span = { (uint32_t)t->inls.n, 0 };
  for (size_t i = 0; i < w->avail.n; i++) {
    const fw_avail *av = &w->avail.v[i];
    const fw_callinfo *ci = &w->cinfo.v[av->call];
    const sum_call *c = &t->sum->calls.v[w->call_base + av->call];
    /* A call whose value is unused is deleted, not merged. */
    if (av->copy || ci->npar > FW_INL_ARGS || c->callee == w->fi || c->use != SCU_USED ||
        (c->flags & (SCF_DOOMED | SCF_TABLE)))
      continue;
    bool intact = true;
    for (uint8_t a = 0; a < ci->npar; a++) intact = intact && inl_param_intact(w, ci->par[a]);
    if (!intact) continue;
    struct fe_inl in = { c->callee, ci->npar, { 0 }, (uint8_t)inl_head(w, av->call) };
    memcpy(in.par, ci->par, sizeof in.par);
    vec_push(&t->inls, in);
    span.n++;
  }
  if (!span.n) return;
  vec_push(&t->inl_spans, span);
  ptrmap_put(&t->inl_fns, (uint64_t)w->fi + 1, (uint32_t)t->inl_spans.n);
}

/* The copy of template in at call: its fingerprint as a direct call of
 * the same callee with the call's argument expressions would have. */
static bool inl_copy_scan(fw *w, CXCursor call, const struct fe_inl *in, fw_callinfo *ci)
{
  int nargs = clang_Cursor_getNumArguments(call);
  fw_argscan a = { .stable = 1 };
  uint64_t v = (uint64_t)in->callee + 1;
  a.h = XXH64(&v, sizeof v, 0);
  ci->vars_off = (uint32_t)w->cvars.n;
  for (uint8_t i = 0; i < in->npar && a.stable; i++) {
    if (in->par[i] >= nargs) return false;
    fw_arg_fingerprint(w, clang_Cursor_getArgument(call, (unsigned)in->par[i]), &a);
  }
  ci->fp = a.h;
  ci->nvars = (uint32_t)(w->cvars.n - ci->vars_off);
  /* Arguments that read memory may change with any store in between:
   * only the values a const callee computes from values are copied. */
  return a.stable && !a.reads_mem;
}

void fw_inline_copies(fw *w, CXCursor call, uint32_t rel)
{
  fe_tu *t = w->t;
  sum_call *c = &t->sum->calls.v[w->call_base + rel];
  const uint32_t *sp = c->callee != w->fi ? ptrmap_get(&t->inl_fns, (uint64_t)c->callee + 1) : NULL;
  if (!sp) return;
  struct fe_inl_span span = t->inl_spans.v[*sp - 1];
  for (uint32_t k = 0; k < span.n; k++) {
    struct fe_inl in = t->inls.v[span.off + k];
    fw_callinfo ci;
    memset(&ci, 0, sizeof ci);
    if (!inl_copy_scan(w, call, &in, &ci)) continue;
    const fw_avail *hit = NULL;
    size_t lo = w->avail_floor;
    for (size_t i = w->avail.n; i-- > lo && !hit;) {
      const fw_avail *av = &w->avail.v[i];
      if (av->fp == ci.fp && av->callee == in.callee && fw_avail_valid(w, av)) hit = av;
    }
    if (!hit) {
      fw_avail_push_fp(w, rel, &ci, in.callee, in.head ? 2 : 1);
    } else if (!c->inl_callee) {
      c->inl_callee = in.callee + 1;
      c->inl_same = hit->call + 1;
    }
  }
}
