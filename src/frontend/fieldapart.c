/* fieldapart.c — stores to other fields of the object a call's
 * arguments read (issue 29).
 *
 * jq's compile(): `int length = describe(curr->op)->length; … pos +=
 * length; curr->bytecode_pos = pos; curr->compiled = bc; … if
 * (describe(curr->op)->flags & …)`. The stores go through the same
 * pointer, unchanged, to fields that do not overlap `op`: GCC's alias
 * oracle compares the two accesses' offsets from the same base pointer
 * and finds them apart, so the second load of curr->op is the first's
 * value and the calls of the const function merge. Measured with GCC 12
 * -O2, with and without -fno-strict-aliasing (the offsets decide, not
 * the types): merged across a store to another field, a conditional
 * store, stores in a loop, through a parameter or a local pointer; kept
 * for a store to the same field, through another pointer under
 * -fno-strict-aliasing, for a field of a field (`c->bound->op`), with an
 * impure call or a store to a global in between.
 *
 * The rule: a call whose arguments read memory only as `V->f`, V one
 * local pointer (or parameter) named directly, f a field that is no bit-
 * field, repeats an earlier call (sum_call.same_as), and every write the
 * function records between the two is a store `V->g` (=, op=, ++, --;
 * neither volatile nor atomic) with g a field of the same record whose
 * bits do not overlap any f's. V's own value is the same at both calls
 * and at the stores (the arguments' variables are unchanged since the
 * earlier call, or same_as would not be set), and its address is never
 * taken (settled when the walk ends). Such a call gets SCF_FIELDS_APART
 * (summary format 16): at the link, for a const callee, those stores are
 * no longer in the way; an impure call between still is (it may write
 * V->f), and for a pure callee every store still is (it may read V->g). */
#include "frontend/walk.h"

/* The field a member expression `b->f` or `b.f` names: its record (the
 * field's semantic parent) and its bits [lo, hi) from that record's
 * start. 0 for a bit-field or a field whose layout libclang cannot give
 * (an incomplete type, a flexible array member). */
static int fa_field_bits(CXCursor member, uint64_t *rec, int64_t *lo, int64_t *hi)
{
  CXCursor f = clang_getCursorReferenced(member);
  if (clang_getCursorKind(f) != CXCursor_FieldDecl || clang_Cursor_isBitField(f)) return 0;
  long long off = clang_Cursor_getOffsetOfField(f);
  long long size = clang_Type_getSizeOf(clang_getCursorType(f));
  if (off < 0 || size <= 0) return 0;
  *rec = fe_decl_key(clang_getCursorSemanticParent(f));
  *lo = off;
  *hi = off + size * 8;
  return 1;
}

/* The local pointer (or parameter) V of a member expression `V->f`, V
 * named directly (parentheses and implicit conversions aside, no cast:
 * a cast would lay another record over the object), or -1. */
static int fa_base_var(fw *w, CXCursor member)
{
  size_t k = fw_kids(w, member);
  CXCursor base = w->ks.n > k ? FW_KID(w, k, 0) : clang_getNullCursor();
  w->ks.n = k;
  if (clang_Cursor_isNull(base) || !fe_expr_is_pointer(base)) return -1;
  base = fe_strip_implicit(w->t, base);
  if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(base);
  if (!fw_is_local_decl(ref) || clang_isVolatileQualifiedType(clang_getCursorType(ref))) return -1;
  uint32_t vi = fw_var_for(w, ref);
  return w->vars.v[vi].is_ptr ? (int)vi : -1;
}

/* A field read as a value GCC loads once and numbers: a scalar, neither
 * volatile nor atomic (a struct passed whole is memory to the call). */
static int fa_scalar_read(CXCursor member)
{
  CXType t = clang_getCursorType(member), ct = clang_getCanonicalType(t);
  if (clang_isVolatileQualifiedType(t) || clang_isVolatileQualifiedType(ct)) return 0;
  switch (ct.kind) {
  case CXType_Record: case CXType_ConstantArray: case CXType_IncompleteArray:
  case CXType_VariableArray: case CXType_Atomic: case CXType_Vector:
    return 0;
  default:
    return 1;
  }
}

void fw_fields_note_read(fw *w, CXCursor member, fw_argscan *a)
{
  uint64_t rec;
  int64_t lo, hi;
  int v = fa_base_var(w, member);
  if (v < 0 || !fa_scalar_read(member) || !fa_field_bits(member, &rec, &lo, &hi) || a->fn >= FW_FIELD_READS ||
      (a->fn && (a->fvar != (uint32_t)v || a->frec != rec))) {
    a->fbad = 1;
    return;
  }
  a->fvar = (uint32_t)v;
  a->frec = rec;
  a->flo[a->fn] = lo;
  a->fhi[a->fn] = hi;
  a->fn++;
}

void fw_fields_note_store(fw *w, CXCursor target, size_t e0)
{
  const sum_tu *s = w->t->sum;
  CXCursor t = fe_strip_implicit(w->t, target);
  if (e0 >= s->effs.n || clang_getCursorKind(t) != CXCursor_MemberRefExpr) return;
  CXType ty = fe_canon_type(t);
  if (clang_isVolatileQualifiedType(ty) || ty.kind == CXType_Atomic) return;
  fw_fieldw r;
  int v = fa_base_var(w, t);
  if (v < 0 || !fa_field_bits(t, &r.rec, &r.lo, &r.hi)) return;
  r.var = (uint32_t)v;
  for (size_t i = e0; i < s->effs.n; i++) {
    const sum_effect *e = &s->effs.v[i];
    if ((e->kind != SE_WRITE_MEM && e->kind != SE_WRITE_PARAM) || (e->flags & SEF_ATOMIC)) continue;
    r.eff = (uint32_t)i;
    vec_push(&w->fwrites, r);
  }
}

/* The store recorded for the function's effect eff (absolute), or NULL.
 * fw.fwrites is in effect order. */
static const fw_fieldw *fa_store_of(const fw *w, size_t eff)
{
  size_t lo = 0, hi = w->fwrites.n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (w->fwrites.v[mid].eff < eff) lo = mid + 1; else hi = mid;
  }
  return lo < w->fwrites.n && w->fwrites.v[lo].eff == eff ? &w->fwrites.v[lo] : NULL;
}

static int fa_apart(const fw_argscan *a, const fw_fieldw *r)
{
  if (r->var != a->fvar || r->rec != a->frec) return 0;
  for (uint8_t i = 0; i < a->fn; i++)
    if (r->lo < a->fhi[i] && a->flo[i] < r->hi) return 0;
  return 1;
}

void fw_fields_judge(fw *w, const fw_argscan *a, uint32_t first, uint32_t rel)
{
  const sum_tu *s = w->t->sum;
  if (!a->reads_mem || a->fbad || !a->fn) return;
  size_t lo = w->eff_base + s->calls.v[w->call_base + first].eff_pos;
  size_t hi = w->eff_base + s->calls.v[w->call_base + rel].eff_pos;
  int stores = 0;
  for (size_t i = lo; i < hi && i < s->effs.n; i++) {
    switch ((sum_effect_kind)s->effs.v[i].kind) {
    case SE_WRITE_GLOBAL: case SE_WRITE_MEM: case SE_WRITE_PARAM: case SE_VOLATILE:
    case SE_ATOMIC: case SE_ASM: case SE_CALL_INDIRECT: {
      const fw_fieldw *r = fa_store_of(w, i);
      if (!r || !fa_apart(a, r)) return;
      stores++;
      break;
    }
    default:
      break;
    }
  }
  if (!stores) return;
  vec_push(&w->fld_cands, rel);
  vec_push(&w->fld_cands, a->fvar);
}

void fw_fields_finish(fw *w)
{
  sum_tu *s = w->t->sum;
  for (size_t i = 0; i + 1 < w->fld_cands.n; i += 2)
    if (!w->vars.v[w->fld_cands.v[i + 1]].addr_taken)
      s->calls.v[w->call_base + w->fld_cands.v[i]].flags |= SCF_FIELDS_APART;
}
