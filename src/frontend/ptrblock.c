/* ptrblock.c — blocks of pointers (issue 30, items 1 and 3).
 *
 * GMP's mpn_mul_fft keeps in a scratch block `fft_l` pointers into another
 * scratch block of its own (`fft_l[i] = tmp + …`) and hands it to
 * mpn_fft_initl, which writes `l[0][0] = 0`. A pointer loaded from memory
 * may point anywhere, so that write was a write of unknown memory and the
 * function's scratch work an effect.
 *
 * The callee. A pointer loaded from the block a parameter P points into
 * (a pointer to a pointer; the function not variadic) is P's virtual
 * parameter, bit nparams + P (as slot.c's, meaning whatever that block
 * holds at any time during the call; for the slot, what it held on entry
 * when read before anything is stored through it, outside loops, and
 * else the function is no slot function): an
 * access through it is an SE_*_PARAM effect of that index (SEF_PTE),
 * which the link maps through the call's pointee masks, or counts as
 * memory anywhere where a call has none.
 *
 * What is stored. The caller's pointee mask must hold everything the
 * block may hold during the call, whoever stores it. So each function
 * says where it stores pointers beyond its locals and own blocks
 * (sum_func.pinto: parameters, virtual parameters, PROV_UNKNOWN) and what
 * (pstores), and what it stores into its own blocks or through pointers
 * that may point anywhere (ownc); what may store pointers unseen (a
 * pointer made an integer, a call through an unknown function pointer
 * given a pointer) is SSF_PTR_OPAQUE. The link adds the callees' stores
 * (link/ptrblock.c) and keeps a pointee mask naming the caller's own
 * blocks only where everything stored into them is a pointer to its own
 * blocks.
 *
 * The caller. A direct call records pointee masks (SCF_PTE) when an
 * argument points to the function's own blocks (PROV_FRESH: what they
 * hold, checked by the link) or into the blocks of its own eligible
 * parameters (their virtual parameters).
 *
 * A local struct (issue 30 item 3, through calls). xz's
 * `lzma_mf mf = { .buffer = NULL, … }; lz_encoder_prepare (&mf, …)`,
 * whose callee frees `mf->buffer`: freeing null. A struct parameter whose
 * pointer members hold every pointer stored there (no union of other
 * members) is eligible too: a pointer loaded from its members is its
 * virtual parameter. A local struct v every address of which the caller
 * lends whole to direct calls (`&v` arguments; so only its own stores,
 * all seen, and those callees' reach v) gives each of those calls, once
 * the walk is final, what the caller stores into v anywhere in its body
 * (aggfield.c's union) as the pointee mask, with pte_join and a
 * pte_group naming v: the link adds what the group's callees store
 * through that argument, and makes the mask anywhere if one of them lets
 * v's address go. */
#include "frontend/walk.h"

/* Is the parameter a pointer to a pointer, or to a struct whose pointer
 * members hold every pointer stored there (no union of other members)? */
static int pb_type_ok(CXCursor p)
{
  CXType t = clang_getCanonicalType(clang_getCursorType(p));
  if (t.kind != CXType_Pointer) return 0;
  CXType to = clang_getCanonicalType(clang_getPointeeType(t));
  return to.kind == CXType_Pointer || fw_agg_type_followed(to);
}

void fw_pb_begin(fw *w)
{
  w->pb_params = 0;
  int n = clang_Cursor_getNumArguments(w->fn);
  if (n <= 0 || clang_isFunctionTypeVariadic(clang_getCursorType(w->fn))) return;
  for (int i = 0; i < n && n + i < PROV_MAX_PARAMS; i++)
    if (pb_type_ok(clang_Cursor_getArgument(w->fn, (unsigned)i))) w->pb_params |= (uint64_t)1 << i;
}

void fw_pb_param_written(fw *w, unsigned i)
{
  if ((int)i == w->slot) w->pb_slot_written = 1;
}

/* The virtual bits of the parameters in bits (a parameter bit set). */
static uint64_t pb_virtual(const fw *w, uint64_t bits)
{
  return bits << (PROV_PARAM0 + clang_Cursor_getNumArguments(w->fn));
}

uint64_t fw_pb_virtual_bits(const fw *w)
{
  return w->pb_params ? pb_virtual(w, w->pb_params) : 0;
}

uint64_t fw_pb_load(fw *w, const lv_t *lv)
{
  if (lv->kind != LV_MEM || !lv->mask || (lv->mask & ((1ull << PROV_PARAM0) - 1))) return 0;
  uint64_t bits = lv->mask >> PROV_PARAM0;
  if (bits & ~w->pb_params) return 0;
  /* The slot's callers record what `*P` held when they called (slot.c):
   * all the block holds during the call only until something is stored
   * through P, which a load in a loop may follow. Such a load gives up
   * the slot (fw_slot_finish). */
  if (w->slot >= 0 && (bits >> w->slot & 1) && (w->pb_slot_written || w->loop_depth)) w->pb_slot_late = 1;
  return pb_virtual(w, bits);
}

/* Does the stored value hold pointers the mask cannot show (a struct or
 * array copied whole)? */
static int pb_aggregate(CXCursor target)
{
  if (clang_Cursor_isNull(target)) return 1;
  CXType t = fe_canon_type(target);
  return t.kind == CXType_Record || t.kind == CXType_Elaborated || t.kind == CXType_ConstantArray;
}

void fw_pb_stored(fw *w, const lv_t *lv, CXCursor target, uint64_t m)
{
  if (lv && (lv->kind == LV_LOCAL || lv->kind == LV_TEMP)) return;   /* a local object: aggfield.c */
  if (pb_aggregate(target)) m |= PROV_UNKNOWN;
  /* A pointer loaded from memory may be one into the function's own
   * blocks (or its caller's): stored anywhere, those may be reached from
   * elsewhere. (A parameter or a block of its own stored in a global is
   * kept: scratch.c.) */
  if (m & PROV_UNKNOWN) {
    w->pb_ownc |= PROV_UNKNOWN;
    w->pb_into |= PROV_UNKNOWN;
    w->pb_stores |= PROV_UNKNOWN;
  }
  if (lv && lv->kind == LV_GLOBAL) {   /* no block of the caller's, nor of its own: kept */
    fw_pb_kept(w, m);
    return;
  }
  uint64_t to = lv ? lv->mask : PROV_UNKNOWN;
  if (!m || !to) return;
  if (to & (PROV_FRESH | PROV_UNKNOWN)) w->pb_ownc |= m;
  uint64_t out = to & ~(PROV_FRESH | PROV_LOCAL | PROV_RODATA);
  if (out) {
    w->pb_into |= out;
    w->pb_stores |= m;
  }
}

void fw_pb_kept(fw *w, uint64_t m)
{
  if (!m) return;
  w->pb_into |= PROV_UNKNOWN;
  w->pb_stores |= m;
  if (m & PROV_UNKNOWN) w->pb_ownc |= PROV_UNKNOWN;
}

void fw_pb_returned(fw *w, uint64_t m)
{
  if (m & PROV_UNKNOWN) w->pb_ownc |= PROV_UNKNOWN;
}

void fw_pb_ptr_to_int(fw *w, CXType to)
{
  if (to.kind != CXType_Bool) w->sflags |= SSF_PTR_OPAQUE;
}

/* Unknown code given a pointer may store anything (SSF_PTR_OPAQUE: its
 * pstores are anywhere) into what it points to: recorded as stores there,
 * so that a caller whose local struct that is sees them (link/ptrblock.c).
 * Whether it keeps the pointer is the captures' business (resolved per
 * call site where the function is the caller's). */
void fw_pb_indirect_call(fw *w, const uint64_t *masks, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    if (!(masks[i] & ~PROV_RODATA)) continue;
    w->sflags |= SSF_PTR_OPAQUE;
    w->pb_into |= masks[i] & ~(PROV_FRESH | PROV_LOCAL | PROV_RODATA);
  }
}

uint64_t fw_pb_pte(const fw *w, uint64_t m)
{
  uint64_t params = (m >> PROV_PARAM0) & w->pb_params;
  uint64_t out = (m & PROV_FRESH) | (params ? pb_virtual(w, params) : 0);
  if (m & ~(PROV_FRESH | (params << PROV_PARAM0))) out |= PROV_UNKNOWN;
  return out;
}

int fw_pb_lent_local(fw *w, CXCursor arg)
{
  CXCursor x = fw_addr_operand(w, fe_strip(w->t, arg));
  if (clang_Cursor_isNull(x) || w->flow_off) return -1;
  int vi = fw_local_ref(w, x);
  if (vi < 0) return -1;
  fw_var *v = &w->vars.v[vi];
  if (v->param >= 0 || v->agg_off || !fw_agg_type_followed(clang_getCursorType(x))) return -1;
  if (v->addr_lent < UINT16_MAX) v->addr_lent++;
  return vi;
}

void fw_pb_lend(fw *w, uint32_t call, uint32_t arg, uint32_t var)
{
  struct fw_pb_lend l = { call, arg, var };
  vec_push(&w->pb_lends, l);
}

void fw_pb_lends_finish(fw *w)
{
  sum_tu *s = w->t->sum;
  for (size_t i = 0; i < w->pb_lends.n; i++) {
    const struct fw_pb_lend *l = &w->pb_lends.v[i];
    const fw_var *v = &w->vars.v[l->var];
    sum_call *c = &s->calls.v[l->call];
    uint64_t *pte = &s->argmasks.v[c->arg_off + c->nargs + l->arg];
    /* Every address of v (`&v`, `&v.f`, a member array decaying) lent
     * whole to a call: only its own stores, all seen, and those callees'
     * reach it. Its final union, the whole walk's. */
    if (!w->flow_off && v->addr_n == v->addr_lent) {
      *pte = v->agg;
      c->pte_group = l->var + 1;
    } else {
      *pte = PROV_UNKNOWN;
      c->pte_join &= ~((uint64_t)1 << l->arg);
    }
  }
}

int fw_pb_pte_useful(uint64_t pte)
{
  return (pte & ~PROV_UNKNOWN) != 0;
}

int fw_pb_param_to_pointer(const fw *w, int param)
{
  CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(w->fn, (unsigned)param)));
  return clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Pointer;
}

void fw_pb_finish(const fw *w, sum_func *f)
{
  f->pinto = w->pb_into;
  f->pstores = w->pb_stores;
  f->ownc = w->pb_ownc;
}
