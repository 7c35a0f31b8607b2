/* fnptr.c — function pointers whose target the call site fixes (issue 13,
 * item 4).
 *
 * A helper that calls through its own parameter (`int apply(int x, int
 * (*f)(int)) { return f(x); }`) does whatever the function passed there
 * does: the front end cannot know it, but each call site can. So the walk
 * records two facts and the link puts them together (src/link/indirect.c):
 *   - a call through a parameter (sum_pcall): which parameter, with the
 *     provenance of the arguments it passes (so `f(acc, …)` writing `acc`
 *     maps back to the helper's caller's local, as per-parameter effects do);
 *   - a function passed as an argument of a direct call (sum_fnarg): a named
 *     function (`apply(x, twice)`, `&twice`), or the caller's own parameter
 *     passed on (`apply(x, f)` inside another helper); an argument written
 *     as a conditional (`apply(x, big ? thrice : twice)`, issue 30 item 5)
 *     gets one fact per function it may be, adjacent, and none at all if
 *     an arm is anything else.
 * Both are only sound while the parameter still holds what the caller
 * passed: a parameter the body assigns or takes the address of drops out
 * when the walk finishes (fw_fnptr_finish), leaving the call unknown. */
#include "frontend/walk.h"

static int fp_is_unary(CXCursor e, enum CXUnaryOperatorKind *op)
{
  if (clang_getCursorKind(e) != CXCursor_UnaryOperator) return 0;
  *op = clang_getCursorUnaryOperatorKind(e);
  return 1;
}

/* A function designator or pointer without its parentheses, casts, `*`
 * and `&` (`(*f)`, `&twice`, `(cmp_fn)cmp` all name the same function). */
static CXCursor fp_strip(fw *w, CXCursor e)
{
  for (int depth = 0; depth < 8 && !clang_Cursor_isNull(e); depth++) {
    e = fe_strip(w->t, e);
    enum CXUnaryOperatorKind op;
    if (!fp_is_unary(e, &op) || (op != CXUnaryOperator_Deref && op != CXUnaryOperator_AddrOf)) break;
    size_t k = fw_kids(w, e);
    CXCursor inner = w->ks.n - k == 1 ? FW_KID(w, k, 0) : clang_getNullCursor();
    w->ks.n = k;
    e = inner;
  }
  return e;
}

int fw_is_fn_pointer_type(CXType t)
{
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Pointer) return 0;
  CXType f = clang_getCanonicalType(clang_getPointeeType(t));
  return f.kind == CXType_FunctionProto || f.kind == CXType_FunctionNoProto;
}

static int fp_is_fn_pointer(CXCursor decl) { return fw_is_fn_pointer_type(clang_getCursorType(decl)); }

int fw_fnptr_param_of(fw *w, CXCursor e)
{
  e = fp_strip(w, e);
  if (clang_Cursor_isNull(e) || clang_getCursorKind(e) != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(e);
  if (clang_getCursorKind(ref) != CXCursor_ParmDecl || !fp_is_fn_pointer(ref)) return -1;
  int param = w->vars.v[fw_var_for(w, ref)].param;
  return param >= 0 && param < PROV_MAX_PARAMS ? param : -1;
}

int fw_fnptr_member_param(fw *w, CXCursor callee)
{
  CXCursor e = fp_strip(w, callee);
  if (clang_Cursor_isNull(e) || clang_getCursorKind(e) != CXCursor_MemberRefExpr) return -1;
  size_t k = fw_kids(w, e);
  CXCursor base = w->ks.n - k == 1 ? fe_strip(w->t, FW_KID(w, k, 0)) : clang_getNullCursor();
  w->ks.n = k;
  if (clang_Cursor_isNull(base) || clang_getCursorKind(base) != CXCursor_DeclRefExpr ||
      clang_getCanonicalType(clang_getCursorType(base)).kind != CXType_Pointer)
    return -1;   /* `P->m` only: `s.m` of a struct value is no pointer's */
  CXCursor ref = clang_getCursorReferenced(base);
  if (clang_getCursorKind(ref) != CXCursor_ParmDecl) return -1;
  const fw_var *v = &w->vars.v[fw_var_for(w, ref)];
  return v->param >= 0 && v->param < PROV_MAX_PARAMS && !v->reassigned ? v->param : -1;
}

void fw_fnptr_pcall_at(fw *w, uint32_t param, uint32_t moff, const uint64_t *masks, uint32_t nargs)
{
  sum_tu *s = w->t->sum;
  sum_pcall c = { (uint32_t)(s->effs.n - 1 - w->eff_base), param, (uint32_t)s->argmasks.n, nargs, moff };
  for (uint32_t i = 0; i < nargs; i++) vec_push(&s->argmasks, masks[i]);
  vec_push(&s->pcalls, c);
}

void fw_fnptr_pcall(fw *w, CXCursor callee, const uint64_t *masks, uint32_t nargs)
{
  int param = fw_fnptr_param_of(w, callee);
  if (param >= 0) fw_fnptr_pcall_at(w, (uint32_t)param, 0, masks, nargs);
}

#define FP_MAX_ALTS 8   /* functions one argument may be; more: unknown */

typedef struct { uint8_t n; sum_fnarg alt[FP_MAX_ALTS]; } fp_alts;

/* Adds alternative a unless it is there already; 0 when there is no room. */
static int fp_alt_add(fp_alts *s, sum_fnarg a)
{
  for (unsigned i = 0; i < s->n; i++)
    if (s->alt[i].kind == a.kind && s->alt[i].value == a.value) return 1;
  if (s->n == FP_MAX_ALTS) return 0;
  s->alt[s->n++] = a;
  return 1;
}

/* What argument expression e (a function pointer) may be, into s: a named
 * function, the walked function's parameter, null; `c ? f : g` is either
 * arm, nested, through parentheses and casts (gnulib's
 * `hash_initialize (…, ci ? hasher_ci : hasher, …)`). 0 when any part is
 * something else: the argument is then not known at all. */
static int fp_arg_alts(fw *w, CXCursor e, fp_alts *s, sum_fnarg a, int depth)
{
  CXCursor x = fp_strip(w, e);
  if (clang_Cursor_isNull(x) || depth > 8) return 0;
  long long zero;
  enum CXCursorKind k = clang_getCursorKind(x);
  if (k == CXCursor_ConditionalOperator) {
    CXCursor arm[3];
    return fe_kids(x, arm, 3) == 3 && fp_arg_alts(w, arm[1], s, a, depth + 1) &&
           fp_arg_alts(w, arm[2], s, a, depth + 1);
  }
  if (k == CXCursor_GNUNullExpr || (k == CXCursor_IntegerLiteral && fw_int_literal_value(x, &zero) && zero == 0)) {
    a.kind = SFA_NULL;   /* `NULL` passed for a function pointer */
    a.value = 0;
    return fp_alt_add(s, a);
  }
  if (k != CXCursor_DeclRefExpr) return 0;
  CXCursor ref = clang_getCursorReferenced(x);
  if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) {
    a.kind = SFA_FUNC;
    a.value = fe_func_for(w->t, ref);
    return fp_alt_add(s, a);
  }
  int param = fw_fnptr_param_of(w, x);
  if (param < 0) return 0;
  a.kind = SFA_PARAM;
  a.value = (uint32_t)param;
  return fp_alt_add(s, a);
}

void fw_fnptr_args(fw *w, CXCursor call, uint32_t rel)
{
  int nargs = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < nargs; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    if (!fw_is_fn_pointer_type(clang_getCursorType(arg))) {
      /* Not a function pointer: only a function designator passed to an
       * unprototyped or variadic parameter names one. */
      CXCursor e = fp_strip(w, arg);
      if (clang_Cursor_isNull(e) || clang_getCursorKind(e) != CXCursor_DeclRefExpr) continue;
      CXCursor ref = clang_getCursorReferenced(e);
      if (clang_getCursorKind(ref) != CXCursor_FunctionDecl) continue;
    }
    fp_alts s;
    s.n = 0;
    sum_fnarg a = { rel, (uint32_t)i, SFA_FUNC, 0 };
    if (!fp_arg_alts(w, arg, &s, a, 0)) continue;
    /* Several facts about one argument: it is one of them (link/indirect.c). */
    for (unsigned j = 0; j < s.n; j++) vec_push(&w->t->sum->fnargs, s.alt[j]);
  }
}

int fw_fnptr_param_intact(const fw *w, uint32_t param)
{
  for (size_t i = 0; i < w->vars.n; i++)
    if (w->vars.v[i].param == (int16_t)param) return !w->vars.v[i].last_write && !w->vars.v[i].addr_taken;
  return 0;
}

void fw_fnptr_finish(fw *w, size_t fnarg0, size_t pcall0)
{
  sum_tu *s = w->t->sum;
  /* An argument's facts are adjacent; one of them lost (`c ? f : p` with
   * p reassigned) loses them all: the rest would claim a complete set. */
  size_t n = fnarg0;
  for (size_t i = fnarg0, j; i < s->fnargs.n; i = j) {
    int keep = 1;
    for (j = i; j < s->fnargs.n && s->fnargs.v[j].call == s->fnargs.v[i].call &&
                s->fnargs.v[j].arg == s->fnargs.v[i].arg; j++)
      if (s->fnargs.v[j].kind == SFA_PARAM && !fw_fnptr_param_intact(w, s->fnargs.v[j].value)) keep = 0;
    for (size_t k = i; keep && k < j; k++) s->fnargs.v[n++] = s->fnargs.v[k];
  }
  s->fnargs.n = n;
  n = pcall0;
  for (size_t i = pcall0; i < s->pcalls.n; i++) {
    const sum_pcall *pc = &s->pcalls.v[i];
    if (fw_fnptr_param_intact(w, pc->param)) {
      s->pcalls.v[n++] = *pc;
      continue;
    }
    /* Lost: its arguments are kept as through any pointer (scratch.c). */
    for (uint32_t a = 0; a < pc->nargs; a++) fw_scratch_leaves(w, s->argmasks.v[pc->arg_off + a]);
  }
  s->pcalls.n = n;
}
