/* scratch.c — blocks a call allocates for itself (issue 30, item 1).
 *
 * A block allocated during the call (malloc, an allocator the knowledge
 * base names `alloc`, a function declared with GCC's `malloc` attribute,
 * an allocation hook such as GMP's __gmp_allocate_func) has provenance
 * PROV_FRESH. For inference it may point anywhere, as before: GCC counts
 * malloc as not pure. For `check`, what is done to it (writes and reads
 * through it, its allocation and release) is scratch work that no caller
 * sees, as long as the block never leaves the function: this file notes
 * where a fresh value leaves (returned, stored anywhere but a local
 * pointer variable, passed through an unknown function pointer, the
 * address of a local holding it taken) and which parameters a body keeps
 * beyond its call (sum_func.captures). Passing a block to a direct call is
 * judged by the link, which knows whether the callee keeps it
 * (link/capture.c). */
#include "frontend/walk.h"
#include <string.h>

/* Does a declaration of function `fn` carry GCC's `malloc` attribute (the
 * function returns a block no other pointer points to)? */
static int scratch_has_malloc_attr(fw *w, CXCursor fn);

typedef struct { fw *w; int found; } attr_scan;

static enum CXChildVisitResult scratch_attr(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  static const char *const words[] = { "malloc", "__malloc__", NULL };
  attr_scan *a = d;
  if (clang_getCursorKind(c) == CXCursor_UnexposedAttr && fe_attr_has_word(a->w->t, c, words)) {
    a->found = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

static int scratch_has_malloc_attr(fw *w, CXCursor fn)
{
  attr_scan a = { w, 0 };
  clang_visitChildren(fn, scratch_attr, &a);
  CXCursor canon = clang_getCanonicalCursor(fn);
  if (!a.found && !clang_equalCursors(canon, fn)) clang_visitChildren(canon, scratch_attr, &a);
  return a.found;
}

int fw_scratch_callee(fw *w, CXCursor ref, const char *name, uint64_t *frees)
{
  *frees = 0;
  const kb_entry *e = kb_lookup(w->t->kb, name);
  if (e && !e->hook) {
    *frees = e->frees;
    return e->alloc;
  }
  *frees = fw_release_frees(w, fe_func_for(w->t, ref));   /* a project's wrapper of free */
  return scratch_has_malloc_attr(w, ref);
}

const kb_entry *fw_scratch_hook(fw *w, CXCursor callee)
{
  CXCursor e = fe_strip(w->t, callee);
  if (clang_getCursorKind(e) == CXCursor_UnaryOperator &&
      clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref) {
    size_t k = fw_kids(w, e);
    CXCursor inner = w->ks.n - k == 1 ? FW_KID(w, k, 0) : clang_getNullCursor();
    w->ks.n = k;
    if (clang_Cursor_isNull(inner)) return NULL;
    e = fe_strip(w->t, inner);
  }
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return NULL;
  CXCursor var = clang_getCursorReferenced(e);
  if (clang_getCursorKind(var) != CXCursor_VarDecl || fw_is_local_decl(var)) return NULL;
  CXString sp = clang_getCursorSpelling(var);
  const kb_entry *k = kb_lookup(w->t->kb, clang_getCString(sp));
  clang_disposeString(sp);
  return k && k->hook ? k : NULL;
}

uint64_t fw_scratch_alloc_arg(fw *w, CXCursor arg)
{
  /* `&marker`, a local variable (not a parameter) holding a pointer. */
  CXCursor inner = fw_addr_operand(w, fe_strip(w->t, arg));
  int vi = clang_Cursor_isNull(inner) ? -1 : fw_local_ref(w, inner);
  if (vi >= 0 && clang_getCursorKind(clang_getCursorReferenced(fe_strip(w->t, inner))) == CXCursor_VarDecl &&
      w->vars.v[vi].is_ptr && !w->vars.v[vi].ptr_union) {
    /* The marker: the allocator links its block into it. The address
     * goes nowhere else, so the variable holds fresh blocks only. */
    w->vars.v[vi].addr_taken = 1;   /* changed by the call: loops must not count on it */
    fw_var_grow(w, (uint32_t)vi, PROV_FRESH, clang_getNullCursor());
    w->vars.v[vi].last_write = ++w->seq;
    return PROV_LOCAL;
  }
  return fw_expr(w, arg, ACC_VALUE);
}

int fw_scratch_frees_ok(uint64_t frees, const uint64_t *masks, size_t n)
{
  for (uint64_t bits = frees; bits; bits &= bits - 1) {
    unsigned i = (unsigned)__builtin_ctzll(bits);
    if (i >= n || (masks[i] & ~(PROV_FRESH | PROV_LOCAL))) return 0;
  }
  return 1;
}

/* m leaves by a store, which ptrblock.c records as such. */
static void scratch_leave(fw *w, uint64_t m)
{
  if (m & PROV_FRESH) w->sflags |= SSF_FRESH_ESCAPES | SSF_FRESH_OUT;
  w->captures |= m >> PROV_PARAM0;
  w->cap_hard |= m >> PROV_PARAM0;
}

void fw_scratch_leaves(fw *w, uint64_t m)
{
  scratch_leave(w, m);
  fw_pb_kept(w, m);
}

void fw_scratch_returned(fw *w, uint64_t m)
{
  if (m & PROV_FRESH) w->sflags |= SSF_FRESH_RETURNED;
  fw_pb_returned(w, m);
}

void fw_scratch_stored(fw *w, const lv_t *lv, uint64_t m)
{
  if (lv->kind == LV_LOCAL && !w->vars.v[lv->var].is_ptr) {
    /* GMP's mpn_remove keeps its scratch powers in a local array. A
     * pointer loaded back may point anywhere (writes through it count),
     * so only the array's own fate matters: fw_scratch_finish. */
    if (m & PROV_FRESH) w->vars.v[lv->var].holds_fresh = 1;
    m &= ~PROV_FRESH;
  }
  /* Through a parameter only: handed to the caller, as if returned (GMP's
   * TMP allocator links its block into the caller's marker, `*markp = P`). */
  /* Into a local object through a pointer to it (`__x->_mp_d = TMP_ALLOC
   * (…)` with `__x` pointing to a local mpz_t): untracked from here, an
   * escape, but not one that reaches beyond the locals by itself. */
  if (lv->kind == LV_MEM && lv->mask && !(lv->mask & ~PROV_LOCAL) && (m & PROV_FRESH)) {
    w->sflags |= SSF_FRESH_ESCAPES;
    m &= ~PROV_FRESH;
  }
  /* Into its own blocks only: judged by what they hold (ptrblock.c). */
  if (lv->kind == LV_MEM && lv->mask == PROV_FRESH && (m & PROV_FRESH)) {
    w->sflags |= SSF_FRESH_IN_OWN;
    m &= ~PROV_FRESH;
  }
  uint64_t params = ~(uint64_t)0 << PROV_PARAM0;
  int into_caller = lv->kind == LV_MEM && lv->mask && !(lv->mask & ~params);
  /* Into the block of a parameter's block (ptrblock.c): as anywhere. */
  if (into_caller && !(lv->mask & fw_pb_virtual_bits(w)) && (m & PROV_FRESH)) {
    w->sflags |= SSF_FRESH_RETURNED;
    m &= ~PROV_FRESH;
  }
  /* A parameter's pointer stored into the caller's blocks: kept there
   * (sum_func.pstores), which the link judges per call (link/ptrblock.c). */
  if (into_caller) {
    w->captures |= (m & params) >> PROV_PARAM0;
    m &= ~params;
  }
  scratch_leave(w, m);
}

/* Does fn return a struct or union (which may carry a block out)? */
static int scratch_returns_aggregate(CXCursor fn)
{
  CXType t = clang_getCanonicalType(clang_getResultType(clang_getCursorType(fn)));
  return t.kind == CXType_Record || t.kind == CXType_Elaborated;
}

void fw_scratch_finish(fw *w, sum_func *f)
{
  int aggregate = scratch_returns_aggregate(w->fn);
  /* Through &v, whatever v holds may be copied anywhere. */
  for (size_t i = 0; i < w->vars.n; i++) {
    const fw_var *v = &w->vars.v[i];
    if (v->addr_plain) fw_scratch_leaves(w, v->mask);
    /* A local array or struct holding a block: returned by value, the block
     * goes out; its address passed on, the analysis loses it (an escape)
     * but it reaches no further by this function's own doing. */
    if (v->holds_fresh && aggregate) w->sflags |= SSF_FRESH_ESCAPES | SSF_FRESH_OUT;
    else if (v->holds_fresh && v->addr_plain) w->sflags |= SSF_FRESH_ESCAPES;
  }
  f->captures = w->cap_hard;
  f->sflags = w->sflags;
}
