/* aggfield.c — pointers kept in a local struct or array (issue 30, item 3).
 *
 * A pointer loaded from memory may point anywhere (PROV_UNKNOWN), which
 * made `num z; z.d = limbs; z.d[0] = v;` a write to unknown memory,
 * although limbs is the function's own array. A local aggregate (a struct
 * or an array that is no parameter) whose address never leaves the
 * function's own accesses can only be changed by the function's stores
 * into it, all of which the walk sees: fw_var.agg is the union of the
 * provenance of every value stored anywhere in it (members, elements,
 * its initializer), flow-insensitive like fw_var.mask, and a pointer
 * loaded from it has that provenance.
 *
 * Sound only while nothing else can store into it, so the union is
 * abandoned (PROV_UNKNOWN) when:
 *  - its address is taken or it decays to a pointer anywhere in the body
 *    (passed to a call, kept in a pointer, memcpy'd into) — except `(&z)->f`
 *    and `z->f` of a local array `mpz_t z`, which name a member of z;
 *  - its type has a union anywhere (an integer member written, a pointer
 *    member read: the walk would see only the integer);
 *  - a whole struct or array is stored into it or into a member (the copy's
 *    pointers come from memory the walk does not follow), or an inline asm
 *    writes it.
 * A scalar that is no pointer stored into it adds nothing (it is not read
 * back as a pointer: no union). The union only grows; a load before a
 * growth, or before the address is taken later in the body, walks the
 * function again (fw.stale), as for local pointers. */
#include "frontend/walk.h"
#include <string.h>

static enum CXVisitorResult agg_field_has_union(CXCursor f, CXClientData d);

/* Does t hold a union anywhere (members, elements, nested)? */
static int agg_type_has_union(CXType t)
{
  t = clang_getCanonicalType(t);
  while (fe_type_is_array(t)) t = clang_getCanonicalType(clang_getArrayElementType(t));
  if (t.kind != CXType_Record) return 0;
  if (clang_getCursorKind(clang_getTypeDeclaration(t)) == CXCursor_UnionDecl) return 1;
  int has = 0;
  clang_Type_visitFields(t, agg_field_has_union, &has);
  return has;
}

static enum CXVisitorResult agg_field_has_union(CXCursor f, CXClientData d)
{
  int *has = d;
  if (agg_type_has_union(clang_getCursorType(f))) {
    *has = 1;
    return CXVisit_Break;
  }
  return CXVisit_Continue;
}

void fw_agg_var_init(fw_var *v, CXCursor decl)
{
  CXType t = clang_getCanonicalType(clang_getCursorType(decl));
  int aggregate = t.kind == CXType_Record || fe_type_is_array(t);
  /* A parameter's members hold what the caller put there. */
  v->agg_off = (uint8_t)(clang_getCursorKind(decl) != CXCursor_VarDecl || v->is_ptr || !aggregate ||
                         agg_type_has_union(t));
}

/* Is the union of vi's stores what its members hold? */
static int agg_followed(const fw *w, const fw_var *v)
{
  return !(v->agg_off || v->addr_taken || v->addr_plain || w->flow_off);
}

uint64_t fw_agg_load(fw *w, uint32_t vi)
{
  fw_var *v = &w->vars.v[vi];
  if (!agg_followed(w, v)) return PROV_UNKNOWN;
  v->agg_read = 1;
  return v->agg;
}

/* What a store of a value of provenance m into an object of type t adds. */
static uint64_t agg_stored_prov(CXType t, uint64_t m)
{
  t = clang_getCanonicalType(t);
  if (fe_type_is_pointer(t)) return m;
  int scalar = (t.kind >= CXType_FirstBuiltin && t.kind <= CXType_LastBuiltin && t.kind != CXType_Void) ||
               t.kind == CXType_Enum || t.kind == CXType_Complex;
  return scalar ? 0 : PROV_UNKNOWN;   /* an arithmetic value adds nothing; a copy, anything */
}

void fw_agg_store(fw *w, uint32_t vi, CXCursor target, uint64_t m)
{
  fw_var *v = &w->vars.v[vi];
  if (v->agg_off) return;
  uint64_t add = agg_stored_prov(clang_getCursorType(target), m);
  if ((v->agg | add) == v->agg) return;
  v->agg |= add;
  if (v->agg_read) w->stale = 1;
}

void fw_agg_addressed(fw *w, uint32_t vi)
{
  if (w->vars.v[vi].agg_read) w->stale = 1;
}

/* The provenance of what initializer list `list` stores; walks it (its
 * effects recorded as fw_expr would). */
static uint64_t agg_init_list(fw *w, CXCursor list)
{
  fe_fnfield_init(w->t, w, list);
  size_t k = fw_kids(w, list);
  uint64_t m = 0;
  for (size_t i = k; i < w->ks.n; i++) {
    CXCursor e = w->ks.v[i];
    enum CXCursorKind kind = clang_getCursorKind(e);
    if (kind == CXCursor_InitListExpr) {
      m |= agg_init_list(w, e);
      continue;
    }
    if (!clang_isExpression(kind)) continue;
    uint64_t em = fw_expr(w, e, ACC_VALUE);
    /* A string literal filling a char array holds no pointer (one for a
     * pointer member decays: an unexposed cast around it). A designator
     * (`.d = p`) is a pointer of unknown provenance (fw_unexposed). */
    if (kind == CXCursor_StringLiteral) continue;
    m |= agg_stored_prov(clang_getCursorType(e), em);
  }
  w->ks.n = k;
  return m;
}

uint64_t fw_agg_initializer(fw *w, uint32_t vi, CXCursor init)
{
  if (clang_getCursorKind(init) != CXCursor_InitListExpr) {
    uint64_t m = fw_expr(w, init, ACC_VALUE);
    fw_agg_store(w, vi, init, m);   /* a struct copied whole: anything */
    return m;
  }
  uint64_t m = agg_init_list(w, init);
  fw_var *v = &w->vars.v[vi];
  if (!v->agg_off && (v->agg | m) != v->agg) {
    v->agg |= m;
    if (v->agg_read) w->stale = 1;
  }
  return m;
}

int fw_agg_deref(fw *w, CXCursor ptr, lv_t *lv)
{
  CXCursor s = fe_strip_implicit(w->t, ptr);
  /* (&z)->f: the operand of `&`, parentheses aside. */
  CXCursor operand = fw_addr_operand(w, s);
  if (!clang_Cursor_isNull(operand)) {
    s = fe_strip_implicit(w->t, operand);
  } else if (!fe_type_is_array(fe_canon_type(s))) {
    return 0;   /* z->f of a local array z only; a pointer variable is followed by its mask */
  }
  if (clang_Cursor_isNull(s) || clang_getCursorKind(s) != CXCursor_DeclRefExpr) return 0;
  CXCursor ref = clang_getCursorReferenced(s);
  if (clang_getCursorKind(ref) != CXCursor_VarDecl || !fw_is_local_decl(ref)) return 0;
  uint32_t vi = fw_var_for(w, ref);
  if (w->vars.v[vi].agg_off) return 0;
  memset(lv, 0, sizeof *lv);
  lv->kind = LV_LOCAL;
  lv->var = vi;
  return 1;
}
