/* slot.c — a pointer handed back through a pointer-to-pointer parameter
 * (issue 30, item 7).
 *
 * coreutils' quote_name_buf(char **inbuf, …) starts with `buf = *inbuf`
 * (its caller's `smallbuf`), writes through buf, and ends with `*inbuf =
 * buf` (smallbuf, the caller's name, or a block it allocated); its caller
 * quote_name_width frees that block when it is neither. Read as "a
 * pointer loaded from memory", buf could point anywhere, and the writes
 * through it were writes of unknown memory.
 *
 * The callee. Its slot is the first parameter P of pointer-to-pointer type
 * that the body never assigns nor addresses, in a function that is not
 * variadic and has no label, goto or asm. `*P` read before anything could
 * have changed it (no call, no store beyond whole locals, outside loops:
 * the caller's pointer as it was) has the provenance of a virtual
 * parameter, bit nparams + P: an access through it is an SE_*_PARAM
 * effect of that index (SEF_PTE), which the link maps through the
 * pointee masks a call records (SCF_PTE), or counts as unknown memory
 * where a call has none. What `*P = v` stores is its hand-back (bits in
 * the callee's terms); any other use of P's value (passed to a call,
 * stored, written through otherwise) breaks the slot, and then only the
 * virtual bit's mapping stands.
 *
 * The caller. At a direct call of a static function of this TU walked
 * before, whose slot holds, an argument `&v` at the slot's position — v a
 * local pointer whose address the body takes nowhere else, outside any
 * loop, in a function without jumps — does not make v "addressed": the
 * call records v's value as the slot's pointee mask, and after it v
 * holds its old value or the hand-back seen through the arguments (a
 * block the callee allocated is then a fresh block of the caller's call:
 * the call is an allocation, SCF_ALLOC). Sound because the callee is the
 * body the link uses (static), v changes only through that call, and the
 * callee keeps neither P nor what it points to.
 *
 * Exactness (fw_var.inexact) travels with the hand-back: `*P = name`
 * hands back exactly the argument passed as name, which `buf != name`
 * (ptrneq.c) can then exclude. */
#include "frontend/walk.h"
#include <string.h>

/* Is the parameter a pointer to a pointer? */
static int slot_type_ok(CXCursor p)
{
  CXType t = clang_getCanonicalType(clang_getCursorType(p));
  if (t.kind != CXType_Pointer) return 0;
  CXType to = clang_getCanonicalType(clang_getPointeeType(t));
  return to.kind == CXType_Pointer && !clang_isVolatileQualifiedType(to);
}

void fw_slot_begin(fw *w)
{
  w->slot = -1;
  int n = clang_Cursor_getNumArguments(w->fn);
  if (n <= 0 || w->flow_noguard || clang_isFunctionTypeVariadic(clang_getCursorType(w->fn))) return;
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(w->fn, (unsigned)i);
    if (!slot_type_ok(p) || n + i >= PROV_MAX_PARAMS) continue;
    if (w->vars.v[fw_var_for(w, p)].reassigned) continue;
    w->slot = i;
    return;
  }
}

/* The slot parameter's variable index, or -1. */
static int slot_var(fw *w)
{
  if (w->slot < 0) return -1;
  return (int)fw_var_for(w, clang_Cursor_getArgument(w->fn, (unsigned)w->slot));
}

/* Is lv `*P` (P the slot parameter, nothing added)? */
static int slot_is_star_p(fw *w, const lv_t *lv)
{
  if (w->slot < 0 || lv->kind != LV_MEM || clang_Cursor_isNull(lv->ptr)) return 0;
  CXCursor p = fe_strip(w->t, lv->ptr);
  if (clang_getCursorKind(p) != CXCursor_DeclRefExpr) return 0;
  return fw_local_ref(w, p) == slot_var(w) && lv->mask == prov_param((unsigned)w->slot);
}

int fw_slot_virtual_param(const fw *w, unsigned bit)
{
  int n = clang_Cursor_getNumArguments(w->fn);
  if (n < 0 || bit < (unsigned)n) return -1;
  unsigned p = bit - (unsigned)n;
  if (w->slot >= 0 && p == (unsigned)w->slot) return w->slot;
  return p < 64 && (w->pb_params >> p & 1) ? (int)p : -1;   /* ptrblock.c */
}

void fw_slot_note_read(fw *w, uint32_t vi, int deref)
{
  if (w->slot < 0 || (int)vi != slot_var(w)) return;
  if (deref) w->slot_derefs++;
  else w->slot_reads++;
}

uint64_t fw_slot_entry_load(fw *w, CXCursor c, const lv_t *lv)
{
  CXCursor e = fe_strip(w->t, c);
  if (clang_getCursorKind(e) != CXCursor_UnaryOperator ||
      clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_Deref || !slot_is_star_p(w, lv))
    return 0;
  if (w->mem_writes || w->ncalls || w->loop_depth || w->flow_off) return 0;
  return prov_param((unsigned)(clang_Cursor_getNumArguments(w->fn) + w->slot));
}

uint64_t fw_slot_inexact_of(fw *w, uint64_t m, CXCursor value)
{
  if (clang_Cursor_isNull(value)) return m;
  int vi = fw_local_ref(w, value);
  if (vi < 0) return m;
  const fw_var *u = &w->vars.v[vi];
  if (u->param >= 0 && !u->reassigned) return m & ~prov_param((unsigned)u->param);
  return m & u->inexact;
}

int fw_slot_store(fw *w, const lv_t *lv, uint64_t m, CXCursor value)
{
  if (!slot_is_star_p(w, lv)) return 0;
  w->slot_back |= m;
  w->slot_inexact |= fw_slot_inexact_of(w, m, value);
  w->slot_stores++;
  return 1;
}

void fw_slot_finish(fw *w)
{
  /* Its block read as a block of pointers after a store through P
   * (ptrblock.c): what the callers record would not be all it holds. */
  if (w->slot < 0 || w->flow_off || w->pb_slot_late) return;
  sum_tu *s = w->t->sum;
  unsigned P = (unsigned)w->slot;
  /* P kept, or passed to a call (which may write *P): no hand-back known. */
  if (w->captures >> P & 1) return;
  for (size_t c = w->call_base; c < s->calls.n; c++)
    for (uint32_t a = 0; a < s->calls.v[c].nargs; a++)
      if (s->argmasks.v[s->calls.v[c].arg_off + a] & prov_param(P)) return;
  for (size_t c = w->pcall_base; c < s->pcalls.n; c++)
    for (uint32_t a = 0; a < s->pcalls.v[c].nargs; a++)
      if (s->argmasks.v[s->pcalls.v[c].arg_off + a] & prov_param(P)) return;
  for (size_t c = w->fcall_base; c < s->fcalls.n; c++)
    for (uint32_t a = 0; a < s->fcalls.v[c].nargs; a++)
      if (s->argmasks.v[s->fcalls.v[c].arg_off + a] & prov_param(P)) return;
  /* Every write through P is one of the `*P = v` stores (the caller's v
   * has no other address: nothing else can write it), and P's value is
   * used only to reach *P. */
  uint32_t writes = 0;
  for (size_t e = w->eff_base; e < s->effs.n; e++) {
    const sum_effect *x = &s->effs.v[e];
    if (x->kind == SE_WRITE_PARAM && x->param == P) writes++;
  }
  if (writes != w->slot_stores || w->slot_reads != w->slot_derefs) return;
  /* The caller's pointee kept beyond the call (stored anywhere but back). */
  unsigned virt = (unsigned)clang_Cursor_getNumArguments(w->fn) + P;
  if (w->captures >> virt & 1) return;
  struct fe_slot r = { P, w->slot_back, w->slot_inexact };
  vec_push(&w->t->slots, r);
  ptrmap_put(&w->t->slot_fns, (uint64_t)w->fi + 1, (uint32_t)w->t->slots.n);
}

/* The recorded hand-back of function fi whose slot is argument i, or NULL. */
static const struct fe_slot *slot_of(fw *w, uint32_t fi, int i)
{
  if (fi == w->fi) return NULL;
  const uint32_t *x = ptrmap_get(&w->t->slot_fns, (uint64_t)fi + 1);
  if (!x) return NULL;
  const struct fe_slot *r = &w->t->slots.v[*x - 1];
  if (r->param != (uint32_t)i) return NULL;
  const sum_func *f = &w->t->sum->funcs.v[fi];
  /* Static, so the link uses this very body. */
  if (f->linkage != SUM_INTERNAL || !(f->flags & SFF_BODY) || (f->flags & (SFF_VARIADIC | SFF_WEAK))) return NULL;
  return r;
}

int fw_slot_arg(fw *w, CXCursor call, uint32_t fi, int i)
{
  if (w->flow_noguard || w->flow_off || w->loop_depth) return -1;
  const sum_func *f = &w->t->sum->funcs.v[fi];
  if ((int)f->nparams != clang_Cursor_getNumArguments(call) || !slot_of(w, fi, i)) return -1;
  CXCursor a = fe_strip(w->t, clang_Cursor_getArgument(call, (unsigned)i));
  CXCursor x = fw_addr_operand(w, a);
  if (clang_Cursor_isNull(x) || clang_getCursorKind(x) != CXCursor_DeclRefExpr) return -1;
  int vi = fw_local_ref(w, x);
  if (vi < 0) return -1;
  const fw_var *v = &w->vars.v[vi];
  if (!v->is_ptr || v->ptr_union || v->array_param || v->naddr != 1 || v->addr_taken) return -1;
  return vi;
}

int fw_slot_after_call(fw *w, uint32_t fi, uint32_t vi, const uint64_t *masks, uint32_t nargs, CXCursor call)
{
  const uint32_t *x = ptrmap_get(&w->t->slot_fns, (uint64_t)fi + 1);
  const struct fe_slot *r = x ? &w->t->slots.v[*x - 1] : NULL;
  fw_var *v = &w->vars.v[vi];
  uint64_t old = fw_flow_value(w, vi), post = old, inexact = 0;
  uint64_t back = r ? r->back : PROV_UNKNOWN;
  unsigned virt = nargs + (r ? r->param : 0);
  post |= back & (PROV_FRESH | PROV_RODATA | PROV_UNKNOWN);
  inexact |= back & (PROV_FRESH | PROV_RODATA | PROV_UNKNOWN);
  if (back & PROV_LOCAL) post |= PROV_UNKNOWN, inexact |= PROV_UNKNOWN;   /* the callee's own storage */
  for (uint64_t bits = back >> PROV_PARAM0; bits; bits &= bits - 1) {
    unsigned k = (unsigned)__builtin_ctzll(bits);
    if (k == virt) continue;   /* what v held: old */
    if (k >= nargs) { post |= PROV_UNKNOWN; inexact |= PROV_UNKNOWN; continue; }
    post |= masks[k];
    CXCursor a = clang_Cursor_getArgument(call, k);
    inexact |= (r->inexact & prov_param(k)) ? masks[k] : fw_slot_inexact_of(w, masks[k], a);
  }
  uint64_t keep = v->inexact | inexact;
  fw_var_grow(w, vi, post, clang_getNullCursor());
  v = &w->vars.v[vi];
  v->inexact = keep;   /* fw_var_grow marked every bit of post */
  fw_flow_assign(w, vi, post, clang_getNullCursor(), 1);
  v->last_write = ++w->seq;
  return (back & PROV_FRESH) != 0;
}
