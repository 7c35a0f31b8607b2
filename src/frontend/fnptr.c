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
 *     passed on (`apply(x, f)` inside another helper).
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
    e = fe_strip(e);
    enum CXUnaryOperatorKind op;
    if (!fp_is_unary(e, &op) || (op != CXUnaryOperator_Deref && op != CXUnaryOperator_AddrOf)) break;
    size_t k = fw_kids(w, e);
    CXCursor inner = w->ks.n - k == 1 ? FW_KID(w, k, 0) : clang_getNullCursor();
    w->ks.n = k;
    e = inner;
  }
  return e;
}

static int fp_is_fn_pointer_type(CXType t)
{
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Pointer) return 0;
  CXType f = clang_getCanonicalType(clang_getPointeeType(t));
  return f.kind == CXType_FunctionProto || f.kind == CXType_FunctionNoProto;
}

static int fp_is_fn_pointer(CXCursor decl) { return fp_is_fn_pointer_type(clang_getCursorType(decl)); }

int fw_fnptr_param_of(fw *w, CXCursor e)
{
  e = fp_strip(w, e);
  if (clang_Cursor_isNull(e) || clang_getCursorKind(e) != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(e);
  if (clang_getCursorKind(ref) != CXCursor_ParmDecl || !fp_is_fn_pointer(ref)) return -1;
  int param = w->vars.v[fw_var_for(w, ref)].param;
  return param >= 0 && param < PROV_MAX_PARAMS ? param : -1;
}

void fw_fnptr_pcall(fw *w, CXCursor callee, const uint64_t *masks, uint32_t nargs)
{
  int param = fw_fnptr_param_of(w, callee);
  if (param < 0) return;
  sum_tu *s = w->t->sum;
  sum_pcall c = { (uint32_t)(s->effs.n - 1 - w->eff_base), (uint32_t)param, (uint32_t)s->argmasks.n, nargs };
  for (uint32_t i = 0; i < nargs; i++) vec_push(&s->argmasks, masks[i]);
  vec_push(&s->pcalls, c);
}

void fw_fnptr_args(fw *w, CXCursor call, uint32_t rel)
{
  int nargs = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < nargs; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    sum_fnarg a = { rel, (uint32_t)i, SFA_FUNC, 0 };
    CXCursor e = fp_strip(w, arg);
    long long zero;
    if (!clang_Cursor_isNull(e) && fp_is_fn_pointer_type(clang_getCursorType(arg)) &&
        (clang_getCursorKind(e) == CXCursor_GNUNullExpr ||
         (clang_getCursorKind(e) == CXCursor_IntegerLiteral && fw_int_literal_value(e, &zero) && zero == 0))) {
      a.kind = SFA_NULL;   /* `NULL` passed for a function pointer */
      vec_push(&w->t->sum->fnargs, a);
      continue;
    }
    if (clang_Cursor_isNull(e) || clang_getCursorKind(e) != CXCursor_DeclRefExpr) continue;
    CXCursor ref = clang_getCursorReferenced(e);
    if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) {
      a.value = fe_func_for(w->t, ref);
    } else {
      int param = fw_fnptr_param_of(w, arg);
      if (param < 0) continue;
      a.kind = SFA_PARAM;
      a.value = (uint32_t)param;
    }
    vec_push(&w->t->sum->fnargs, a);
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
  size_t n = fnarg0;
  for (size_t i = fnarg0; i < s->fnargs.n; i++) {
    const sum_fnarg *a = &s->fnargs.v[i];
    if (a->kind == SFA_FUNC || fw_fnptr_param_intact(w, a->value)) s->fnargs.v[n++] = *a;
  }
  s->fnargs.n = n;
  n = pcall0;
  for (size_t i = pcall0; i < s->pcalls.n; i++)
    if (fw_fnptr_param_intact(w, s->pcalls.v[i].param)) s->pcalls.v[n++] = s->pcalls.v[i];
  s->pcalls.n = n;
}
