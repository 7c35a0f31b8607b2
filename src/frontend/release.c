/* release.c — a project's wrapper around free (issue 30, item 1).
 *
 * A block a function allocates for itself and releases on every path is
 * scratch work (scratch.c, link/capture.c) when the release is a call of
 * a knowledge-base `fN` function (free). Projects wrap it: systemd's
 * `mfree(p) { free(p); return NULL; }`, a `xfree(p)` that checks for
 * null. Such a call was a call of a body that releases memory, so the
 * function that allocated the block was an error, naming the wrapper.
 *
 * A release wrapper is a static function of this TU (the link uses this
 * very body) whose every call releases one of its parameters, passed
 * unchanged (the parameter never assigned nor addressed), through `fN` or
 * another release wrapper walked before, and which has no effect of its
 * own: it does nothing but release what it is given. A call of it then
 * releases those arguments, as a call of free does (fw_scratch_callee:
 * SCF_FREE where they hold the caller's fresh blocks or null). One that
 * releases what its parameter points to instead (`*(void **) p =
 * mfree (*(void **) p)`, systemd's freep), reading and writing only that
 * pointer, is a pointee release: the handler cleanup.c looks for. */
#include "frontend/walk.h"

/* The parameter an argument expression names, unchanged, or -1. */
static int rel_param_of(fw *w, CXCursor arg)
{
  CXCursor e = fe_strip(w->t, arg);
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(e);
  if (clang_getCursorKind(ref) != CXCursor_ParmDecl) return -1;
  const fw_var *v = &w->vars.v[fw_var_for(w, ref)];
  return v->param >= 0 && v->param < 30 ? v->param : -1;
}

/* The parameter P of an argument `*P` or `*(T **) P`, or -1. */
static int rel_pointee_of(fw *w, CXCursor arg)
{
  CXCursor e = fe_strip(w->t, arg);
  if (clang_getCursorKind(e) != CXCursor_UnaryOperator || clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_Deref)
    return -1;
  size_t k = fw_kids(w, e);
  CXCursor inner = w->ks.n - k == 1 ? FW_KID(w, k, 0) : clang_getNullCursor();
  w->ks.n = k;
  return clang_Cursor_isNull(inner) ? -1 : rel_param_of(w, inner);
}

void fw_release_note_call(fw *w, CXCursor call, uint64_t frees)
{
  if (!frees) return;
  uint64_t params = 0, pte = 0;
  int nargs = clang_Cursor_getNumArguments(call);
  for (uint64_t bits = frees; bits; bits &= bits - 1) {
    unsigned a = (unsigned)__builtin_ctzll(bits);
    CXCursor arg = (int)a < nargs ? clang_Cursor_getArgument(call, a) : clang_getNullCursor();
    int p = clang_Cursor_isNull(arg) ? -1 : rel_param_of(w, arg);
    int q = p < 0 && !clang_Cursor_isNull(arg) ? rel_pointee_of(w, arg) : -1;
    if (p < 0 && q < 0) return;
    if (p >= 0) params |= (uint64_t)1 << p;
    else pte |= (uint64_t)1 << q;
  }
  w->rel_params |= params;
  w->rel_pte |= pte;
  w->rel_calls++;
}

uint64_t fw_release_pointee(const fw *w, uint32_t fi)
{
  const uint32_t *x = fi == w->fi ? NULL : ptrmap_get(&w->t->rel_pte_fns, (uint64_t)fi + 1);
  return x ? *x - 1 : 0;
}

/* Are the walked function's effects only reads and writes through the
 * parameters in pte (`*(void **) p = mfree (*(void **) p)`)? */
static bool rel_effects_through(const fw *w, uint64_t pte)
{
  const sum_tu *s = w->t->sum;
  unsigned n = s->funcs.v[w->fi].nparams;
  for (size_t i = w->eff_base; i < s->effs.n; i++) {
    const sum_effect *e = &s->effs.v[i];
    if ((e->kind != SE_READ_PARAM && e->kind != SE_WRITE_PARAM) || e->param >= n || e->param >= 30 ||
        !(pte >> e->param & 1) || (e->flags & SEF_PTE))
      return false;
  }
  return true;
}

/* A fact's bit 30: every return gives null (`return NULL;`, mfree). */
enum { REL_NULL_RET = 1u << 30 };

uint64_t fw_release_frees(const fw *w, uint32_t fi)
{
  const uint32_t *x = fi == w->fi ? NULL : ptrmap_get(&w->t->rel_fns, (uint64_t)fi + 1);
  return x ? (*x - 1) & ~(uint32_t)REL_NULL_RET : 0;
}

int fw_release_returns_null(const fw *w, uint32_t fi)
{
  const uint32_t *x = fi == w->fi ? NULL : ptrmap_get(&w->t->rel_fns, (uint64_t)fi + 1);
  return x && ((*x - 1) & REL_NULL_RET);
}

void fw_release_finish(fw *w)
{
  const sum_tu *s = w->t->sum;
  const sum_func *f = &s->funcs.v[w->fi];
  uint64_t both = w->rel_params | w->rel_pte;
  if (f->linkage != SUM_INTERNAL || !(f->flags & SFF_BODY) || (f->flags & (SFF_VARIADIC | SFF_WEAK)) ||
      w->flow_off || !both || (w->rel_params && w->rel_pte))
    return;
  /* Nothing but the releases: every call is one, and no effect of its
   * own beyond reading and writing the pointer a pointee release takes. */
  if (s->calls.n - w->call_base != w->rel_calls) return;
  if (w->rel_params ? s->effs.n != w->eff_base : !rel_effects_through(w, w->rel_pte)) return;
  for (size_t i = 0; i < w->vars.n; i++) {
    const fw_var *v = &w->vars.v[i];
    if (v->param >= 0 && v->param < 30 && (both >> v->param & 1) && (v->reassigned || v->addr_taken))
      return;
  }
  /* A pointer-returning wrapper whose returns are all null (its value is
   * stored back: `t = mfree (t)`). */
  bool null_ret = clang_getCanonicalType(clang_getResultType(clang_getCursorType(w->fn))).kind == CXType_Pointer &&
                  w->ret_mask == 0;
  uint32_t fact = (uint32_t)both | (null_ret ? REL_NULL_RET : 0);
  ptrmap_put(w->rel_params ? &w->t->rel_fns : &w->t->rel_pte_fns, (uint64_t)w->fi + 1, fact + 1);
}
