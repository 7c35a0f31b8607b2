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
 *    member read: the walk would see only the integer) — except a union
 *    whose members are all pointers (any member read is a pointer stored);
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

static enum CXVisitorResult agg_member_not_pointer(CXCursor f, CXClientData d)
{
  if (!fe_type_is_pointer(clang_getCanonicalType(clang_getCursorType(f)))) *(int *)d = 1;
  return CXVisit_Continue;
}

/* Does t hold a union anywhere (members, elements, nested) other than one
 * whose members are all pointers? Whatever member a load of such a union
 * names, it reads a pointer some store put there. */
static int agg_type_has_union(CXType t)
{
  t = clang_getCanonicalType(t);
  while (fe_type_is_array(t)) t = clang_getCanonicalType(clang_getArrayElementType(t));
  if (t.kind != CXType_Record) return 0;
  int has = 0;
  if (clang_getCursorKind(clang_getTypeDeclaration(t)) == CXCursor_UnionDecl)
    clang_Type_visitFields(t, agg_member_not_pointer, &has);
  else
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
  /* A struct parameter's members hold what the caller put there: the
   * pointers in them point where the argument's did (its virtual
   * parameter bit, mapped at each call by the argument's provenance:
   * fw_agg_value), and what the function stores adds to that. */
  v->agg_param = (uint8_t)(clang_getCursorKind(decl) == CXCursor_ParmDecl && !v->is_ptr && t.kind == CXType_Record &&
                           !agg_type_has_union(t));
  v->agg_off = (uint8_t)(!v->agg_param && (clang_getCursorKind(decl) != CXCursor_VarDecl || v->is_ptr || !aggregate ||
                                           agg_type_has_union(t)));
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
  uint64_t entry = 0;
  if (v->agg_param) {
    if (v->param < 0 || v->param >= PROV_MAX_PARAMS) return PROV_UNKNOWN;
    entry = prov_param((unsigned)v->param);
  }
  v->agg_read = 1;
  return v->agg | entry;
}

static enum CXVisitorResult agg_field_has_pointer(CXCursor f, CXClientData d);

/* Does a value of type t hold a pointer anywhere? */
static int agg_type_has_pointer(CXType t)
{
  t = clang_getCanonicalType(t);
  while (fe_type_is_array(t)) t = clang_getCanonicalType(clang_getArrayElementType(t));
  if (fe_type_is_pointer(t)) return 1;
  if (t.kind != CXType_Record) return 0;
  int has = 0;
  clang_Type_visitFields(t, agg_field_has_pointer, &has);
  return has;
}

static enum CXVisitorResult agg_field_has_pointer(CXCursor f, CXClientData d)
{
  if (!agg_type_has_pointer(clang_getCursorType(f))) return CXVisit_Continue;
  *(int *)d = 1;
  return CXVisit_Break;
}

int fw_agg_type_followed(CXType t)
{
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Record || clang_isVolatileQualifiedType(t) ||
      clang_getCursorKind(clang_getTypeDeclaration(t)) != CXCursor_StructDecl)
    return 0;
  return agg_type_has_pointer(t) && !agg_type_has_union(t);
}

uint64_t fw_agg_value(fw *w, CXCursor c, const lv_t *lv)
{
  if (fe_canon_type(c).kind != CXType_Record || !agg_type_has_pointer(fe_canon_type(c))) return 0;
  if (lv->kind == LV_LOCAL) return fw_agg_load(w, lv->var);
  if (lv->kind == LV_GLOBAL) return fe_static_prov(w->t, lv->decl);
  return PROV_UNKNOWN;
}

uint64_t fw_agg_arg(fw *w, CXCursor arg, uint64_t m)
{
  if (!(m & PROV_UNKNOWN) || fe_canon_type(arg).kind != CXType_Record) return m;
  CXCursor e = fe_strip(w->t, arg);
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return m;
  CXCursor decl = clang_getCursorReferenced(e);
  if (clang_getCursorKind(decl) != CXCursor_VarDecl || !clang_Cursor_hasVarDeclGlobalStorage(decl)) return m;
  return fw_rotable_load(w, arg, decl);
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
  fw_var *v = &w->vars.v[vi];
  if (v->addr_n < UINT16_MAX) v->addr_n++;
  if (v->agg_read) w->stale = 1;
}

/* The value of a designated initializer `.d = v` or `[i] = v` (libclang:
 * an unexposed expression of type void holding the designators, then the
 * value), else kid itself. The designators are constants or member
 * names: nothing to walk. */
static CXCursor agg_designated_value(CXCursor kid)
{
  if (clang_getCursorKind(kid) != CXCursor_UnexposedExpr || clang_getCursorType(kid).kind != CXType_Void) return kid;
  CXCursor kk[8];
  unsigned n = fe_kids(kid, kk, 8);
  return n >= 2 && n <= 8 ? kk[n - 1] : kid;
}

/* The provenance of what initializer list `list` stores; walks it (its
 * effects recorded as fw_expr would). */
static uint64_t agg_init_list(fw *w, CXCursor list)
{
  fe_fnfield_init(w->t, w, list);
  size_t k = fw_kids(w, list);
  uint64_t m = 0;
  for (size_t i = k; i < w->ks.n; i++) {
    CXCursor e = agg_designated_value(w->ks.v[i]);
    enum CXCursorKind kind = clang_getCursorKind(e);
    if (kind == CXCursor_InitListExpr) {
      m |= agg_init_list(w, e);
      continue;
    }
    if (!clang_isExpression(kind)) continue;
    uint64_t em = fw_expr(w, e, ACC_VALUE);
    /* A string literal filling a char array holds no pointer (one for a
     * pointer member decays: an unexposed cast around it). */
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
