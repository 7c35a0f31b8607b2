/* pfield.c — a pointer a function stores into a field of its parameter's
 * object, read back (issue 30, item 3, in the callee).
 *
 * GMP's mpn_hgcd_matrix_init (M, n, p) stores `M->p[0][0] = p`, …,
 * `M->p[1][1] = p + 3 * s` and then writes `M->p[0][0][0] = M->p[1][1][0]
 * = 1`. A pointer loaded from memory may point anywhere, so those writes
 * were writes of unknown memory, and every caller handing in its own
 * scratch (mpn_jacobi_n's TMP block) wrote "memory".
 *
 * The rule. P a parameter never assigned nor addressed (guardvar.c), in a
 * function without labels, gotos or asm. A field path from P — `P->f`,
 * then `.g` of struct members and `[k]` of array members with k a literal
 * within bounds, no union on the way, nothing volatile — is followed like
 * a local pointer variable: `P->path = v` makes it hold v's provenance,
 * and a load of the same path holds that while nothing may have changed
 * the field since, on every path to the load:
 * - any call (its callee may store there) and any store that may alias
 *   the field forget every path: a store of a pointer, of a character
 *   type, of a struct, union or array, or of anything through an lvalue
 *   this file does not recognise; a pointer stored into another path of
 *   the same P does not touch this one (distinct fields at constant
 *   offsets of one object), into a path of another parameter does (it may
 *   be the same object);
 * - a store of an arithmetic type other than a character type cannot
 *   change a pointer object under C's effective-type rule, which GCC's
 *   -fstrict-aliasing relies on: it forgets nothing, unless the TU is
 *   built with -fno-strict-aliasing;
 * - stores into the function's own locals cannot reach P's object (P
 *   holds the caller's value);
 * - branches are joined like local pointers (flow.c): a path stored on one
 *   branch only holds anything after the join; where other paths arrive
 *   unseen (a loop's head and exit, a case) every path holds anything.
 * Anything else keeps today's answer: the load may point anywhere. */
#include "frontend/walk.h"
#include <stdio.h>
#include <string.h>

/* Can P's object be followed: a parameter never assigned nor addressed? */
static int pf_param(fw *w, CXCursor base)
{
  if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(base);
  if (clang_getCursorKind(ref) != CXCursor_ParmDecl) return -1;
  const fw_var *v = &w->vars.v[fw_var_for(w, ref)];
  if (v->param < 0 || v->param >= PROV_MAX_PARAMS || v->reassigned || v->addr_taken) return -1;
  return v->param;
}

/* Appends to key (of size n, used *len) the text s; 0 if it does not fit. */
static int pf_append(char *key, size_t n, size_t *len, const char *s)
{
  size_t l = strlen(s);
  if (*len + l + 1 > n) return 0;
  memcpy(key + *len, s, l + 1);
  *len += l;
  return 1;
}

static int pf_path_rec(fw *w, CXCursor e, char *key, size_t n, size_t *len, int depth);

/* Is field f a member of the struct (no union) of type t itself, not of
 * an anonymous member nested in it (which may be a union's)? */
static int pf_own_field(CXCursor f, CXType t)
{
  CXCursor rec = clang_getCursorSemanticParent(f);
  CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
  return clang_getCursorKind(rec) == CXCursor_StructDecl &&
         clang_equalCursors(clang_getCanonicalCursor(rec), clang_getCanonicalCursor(decl));
}

/* `b->f` or `b.f`: the field's step of the path. */
static int pf_member(fw *w, CXCursor e, char *key, size_t n, size_t *len, int depth)
{
  CXCursor f = clang_getCursorReferenced(e);
  if (clang_getCursorKind(f) != CXCursor_FieldDecl || clang_Cursor_isBitField(f)) return -1;
  CXCursor kid[1];
  if (fe_kids(e, kid, 1) != 1) return -1;
  CXCursor base = fe_strip_implicit(w->t, kid[0]);
  CXType bt = fe_canon_type(base);
  int arrow = fe_type_is_pointer(bt);
  if (!pf_own_field(f, arrow ? clang_getPointeeType(bt) : bt)) return -1;
  int p;
  if (arrow) {                                      /* P->f */
    p = pf_param(w, base);
    char head[16];
    snprintf(head, sizeof head, "%d>", p);
    if (p < 0 || !pf_append(key, n, len, head)) return -1;
  } else {                                          /* path.f */
    p = pf_path_rec(w, base, key, n, len, depth + 1);
    if (p < 0) return -1;
  }
  CXString s = clang_getCursorSpelling(f);
  int ok = pf_append(key, n, len, ".") && pf_append(key, n, len, clang_getCString(s));
  clang_disposeString(s);
  return ok ? p : -1;
}

/* `a[k]` of an array member a, k a literal within a's bounds. */
static int pf_element(fw *w, CXCursor e, char *key, size_t n, size_t *len, int depth)
{
  CXCursor kid[2];
  if (fe_kids(e, kid, 2) != 2) return -1;
  CXCursor arr = fe_strip_implicit(w->t, kid[0]), idx = fe_strip_implicit(w->t, kid[1]);
  CXType at = fe_canon_type(arr);
  long long k, whole = clang_Type_getSizeOf(at), one = clang_Type_getSizeOf(clang_getArrayElementType(at));
  if (at.kind != CXType_ConstantArray || clang_getCursorKind(idx) != CXCursor_IntegerLiteral ||
      !fw_int_literal_value(idx, &k) || one <= 0 || whole <= 0 || k < 0 || k >= whole / one)
    return -1;
  int p = pf_path_rec(w, arr, key, n, len, depth + 1);
  char step[32];
  snprintf(step, sizeof step, "[%lld]", k);
  return p >= 0 && pf_append(key, n, len, step) ? p : -1;
}

static int pf_path_rec(fw *w, CXCursor e, char *key, size_t n, size_t *len, int depth)
{
  if (depth > 8) return -1;
  e = fe_strip_implicit(w->t, e);
  if (clang_isVolatileQualifiedType(clang_getCursorType(e))) return -1;
  switch (clang_getCursorKind(e)) {
  case CXCursor_MemberRefExpr: return pf_member(w, e, key, n, len, depth);
  case CXCursor_ArraySubscriptExpr: return pf_element(w, e, key, n, len, depth);
  default: return -1;
  }
}

/* The followed path lvalue e names from a parameter, into key: the
 * parameter, or -1. */
static int pf_path(fw *w, CXCursor e, char key[FW_PF_KEY])
{
  size_t len = 0;
  key[0] = 0;
  return pf_path_rec(w, e, key, FW_PF_KEY, &len, 0);
}

/* Is anything followed here? */
static int pf_live(const fw *w)
{
  return w->pfields.n && !w->flow_noguard && !w->flow_off && !w->pf_cleanup;
}

void fw_pf_clobber(fw *w)
{
  for (size_t i = 0; i < w->pfields.n; i++) w->pfields.v[i].cur = PROV_UNKNOWN;
}

/* Can a store of type t not change a pointer object (C's effective-type
 * rule: an arithmetic type that is no character type)? */
static int pf_type_inert(const fw *w, CXType t)
{
  if (w->t->no_strict_alias || clang_isVolatileQualifiedType(t)) return 0;
  switch (t.kind) {
  case CXType_Char_U: case CXType_UChar: case CXType_Char_S: case CXType_SChar:
    return 0;
  default:
    return (t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) || t.kind == CXType_Enum;
  }
}

void fw_pf_write(fw *w, CXCursor at, const lv_t *lv)
{
  if (!w->pfields.n || lv->kind == LV_LOCAL || lv->kind == LV_TEMP) return;
  if (clang_getCursorKind(at) == CXCursor_CallExpr) { fw_pf_clobber(w); return; }   /* an atomic */
  CXType t = fe_canon_type(at);
  if (pf_type_inert(w, t)) return;
  char key[FW_PF_KEY];
  int p = t.kind == CXType_Pointer ? pf_path(w, at, key) : -1;
  for (size_t i = 0; i < w->pfields.n; i++) {
    fw_pfield *f = &w->pfields.v[i];
    if (p >= 0 && f->param == p && strcmp(f->key, key)) continue;   /* another field of P's object */
    f->cur = PROV_UNKNOWN;
  }
}

void fw_pf_store(fw *w, CXCursor target, uint64_t m, int rd)
{
  if (rd || w->flow_noguard || fe_canon_type(target).kind != CXType_Pointer) return;
  char key[FW_PF_KEY];
  int p = pf_path(w, target, key);
  if (p < 0) return;
  for (size_t i = 0; i < w->pfields.n; i++)
    if (w->pfields.v[i].param == p && !strcmp(w->pfields.v[i].key, key)) {
      w->pfields.v[i].cur = m;
      return;
    }
  fw_pfield f;
  memset(&f, 0, sizeof f);
  f.param = (int16_t)p;
  memcpy(f.key, key, sizeof f.key);
  f.cur = m;
  vec_push(&w->pfields, f);
}

uint64_t fw_pf_load(fw *w, CXCursor c, const lv_t *lv)
{
  if (!pf_live(w) || lv->kind != LV_MEM) return 0;
  char key[FW_PF_KEY];
  int p = pf_path(w, c, key);
  if (p < 0 || lv->mask != prov_param((unsigned)p)) return 0;
  for (size_t i = 0; i < w->pfields.n; i++) {
    const fw_pfield *f = &w->pfields.v[i];
    if (f->param == p && !strcmp(f->key, key)) return f->cur && !(f->cur & PROV_UNKNOWN) ? f->cur : 0;
  }
  return 0;
}

/* flow.c's states: each path's value after the variables'. */
void fw_pf_save(fw *w)
{
  for (size_t i = 0; i < w->pfields.n; i++) {
    fw_fstate s;
    memset(&s, 0, sizeof s);
    s.base = w->pfields.v[i].cur;
    vec_push(&w->flow, s);
  }
}

void fw_pf_restore(fw *w, const fw_fstate *saved, size_t n)
{
  for (size_t i = 0; i < w->pfields.n; i++)
    w->pfields.v[i].cur = i < n ? saved[i].base : PROV_UNKNOWN;   /* stored after the save: not there */
}

void fw_pf_join(fw *w, const fw_fstate *saved, size_t n)
{
  for (size_t i = 0; i < w->pfields.n; i++)
    w->pfields.v[i].cur |= i < n ? saved[i].base : PROV_UNKNOWN;
}
