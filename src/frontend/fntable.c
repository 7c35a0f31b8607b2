/* fntable.c — calls through read-only tables of function pointers (issue
 * 13, item 5).
 *
 * `static const struct ops *const ops[] = { &a_ops, &b_ops };` then
 * `ops[k]->state(u)`: every object the callee expression reads is const
 * with static storage and its initializer is in this TU, so the call can
 * only reach the functions stored in those initializers (in the member
 * called, where the initializer says which member a value belongs to). The
 * call is then recorded as one call per possible target, flagged SCF_TABLE:
 * the link joins them, with the per-parameter effects mapped through the
 * call's arguments as for any call. Anything writable on the way — a
 * non-const pointer, a writable struct — leaves the call unknown (normal),
 * as before. A read-only object defined in another TU is a slot the link
 * fills from the TU that defines it (fnslot.c).
 *
 * Being read-only is what makes the answer sound: the set found may be
 * larger than the set the program can reach (any index, any member whose
 * position is unclear), never smaller. */
#include "frontend/walk.h"
#include <string.h>

enum { FT_MAX_TARGETS = 64, FT_MAX_NODES = 4096, FT_MAX_DEPTH = 16 };

typedef struct {
  fw *w;
  VEC(uint32_t) funcs;      /* targets found: function indices, no duplicates */
  int nodes;                /* expressions visited: a bound on the work */
  int bad;                  /* something writable or unknown: give up */
} ft_ctx;

typedef VEC(CXCursor) ft_objs;   /* variables whose storage a pointer may point into */

static void ft_rvalue(ft_ctx *x, CXCursor e, ft_objs *objs, int depth);

static int ft_step(ft_ctx *x, int depth)
{
  if (x->bad) return 0;
  if (++x->nodes > FT_MAX_NODES || depth > FT_MAX_DEPTH) { x->bad = 1; return 0; }
  return 1;
}

static void ft_add_index(ft_ctx *x, uint32_t fi)
{
  for (size_t i = 0; i < x->funcs.n; i++) if (x->funcs.v[i] == fi) return;
  if (x->funcs.n >= FT_MAX_TARGETS) { x->bad = 1; return; }
  vec_push(&x->funcs, fi);
}

static void ft_add_func(ft_ctx *x, CXCursor fn) { ft_add_index(x, fe_func_for(x->w->t, fn)); }

/* The children of c, copied (fw_kids' stack is shared). At most n. */
static size_t ft_kids(fw *w, CXCursor c, CXCursor *out, size_t n)
{
  size_t k = fw_kids(w, c), m = w->ks.n - k;
  for (size_t i = 0; i < m && i < n; i++) out[i] = w->ks.v[k + i];
  w->ks.n = k;
  return m;
}

/* Read-only: const at some level of the (array) type, never volatile. */
static int ft_type_readonly(CXType t)
{
  int ro = 0;
  for (t = clang_getCanonicalType(t);; t = clang_getCanonicalType(clang_getArrayElementType(t))) {
    if (clang_isVolatileQualifiedType(t)) return 0;
    ro |= clang_isConstQualifiedType(t);
    if (!fe_type_is_array(t)) return ro;
  }
}

/* ---- initializers ---- */

typedef struct { const char *want; int index, found; } ft_field_find;

static enum CXVisitorResult ft_field_visit(CXCursor c, CXClientData d)
{
  ft_field_find *f = d;
  CXString s = clang_getCursorSpelling(c);
  int hit = strcmp(clang_getCString(s), f->want) == 0;
  clang_disposeString(s);
  if (hit) { f->found = 1; return CXVisit_Break; }
  f->index++;
  return CXVisit_Continue;
}

/* Position of field `name` in record type t, or -1 (not a record, or no such field). */
static int ft_field_index(CXType t, const char *name)
{
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Record) return -1;
  ft_field_find f = { name, 0, 0 };
  clang_Type_visitFields(t, ft_field_visit, &f);
  return f.found ? f.index : -1;
}

static void ft_init(ft_ctx *x, CXCursor init, const char *filter, ft_objs *objs, int depth);

/* One child of a record's initializer list (record type rec): `.f = v`
 * (an UnexposedExpr of type void holding the designators, then the value)
 * or a plain value. *pos is the field the next plain value initializes
 * (-1: unknown). `want` is the member read (-1: all). */
static void ft_init_member(ft_ctx *x, CXCursor kid, CXType rec, const char *filter, int want, int *pos,
                           ft_objs *objs, int depth)
{
  CXCursor kk[8], value = kid;
  size_t n = clang_getCursorType(kid).kind == CXType_Void ? ft_kids(x->w, kid, kk, 8) : 0;
  int at;
  if (n >= 2 && n <= 8) {                                   /* designated */
    value = kk[n - 1];
    at = -1;
    if (n == 2 && clang_getCursorKind(kk[0]) == CXCursor_MemberRef) {
      CXString s = clang_getCursorSpelling(kk[0]);
      at = ft_field_index(rec, clang_getCString(s));
      clang_disposeString(s);
    }
    *pos = at >= 0 ? at + 1 : -1;                           /* `.f.g = v`, `[i] = v`: unsure from here */
  } else {
    at = *pos;
    if (*pos >= 0) (*pos)++;
  }
  if (want < 0 || at < 0) ft_init(x, value, filter, objs, depth + 1);   /* all, or unsure: keep it */
  else if (at == want) ft_init(x, value, NULL, objs, depth + 1);      /* the member read */
}

/* The values an initializer stores, restricted to member `filter` (NULL:
 * all) in records that have it. Values that are not pointers cannot be
 * targets and are skipped. */
static void ft_init(ft_ctx *x, CXCursor init, const char *filter, ft_objs *objs, int depth)
{
  if (!ft_step(x, depth)) return;
  CXCursor e = fe_strip(x->w->t, init);
  if (clang_getCursorKind(e) != CXCursor_InitListExpr) {
    CXType t = clang_getCanonicalType(clang_getCursorType(init));
    if (t.kind == CXType_Pointer) ft_rvalue(x, init, objs, depth + 1);
    else if (t.kind == CXType_Record && clang_getCursorKind(e) != CXCursor_StringLiteral)
      x->bad = 1;   /* a copy of another object: not followed */
    return;
  }
  CXType t = clang_getCanonicalType(clang_getCursorType(e));
  int record = t.kind == CXType_Record;
  int want = record && filter ? ft_field_index(t, filter) : -1, pos = 0;
  size_t k = fw_kids(x->w, e), n = x->w->ks.n - k;
  VEC(CXCursor) kids = {0};
  for (size_t i = 0; i < n; i++) vec_push(&kids, x->w->ks.v[k + i]);
  x->w->ks.n = k;
  for (size_t i = 0; i < kids.n && !x->bad; i++) {
    CXCursor kk[8];
    size_t m;
    if (record) ft_init_member(x, kids.v[i], t, filter, want, &pos, objs, depth);
    else if (clang_getCursorType(kids.v[i]).kind != CXType_Void) ft_init(x, kids.v[i], filter, objs, depth + 1);
    else if ((m = ft_kids(x->w, kids.v[i], kk, 8)) >= 2 && m <= 8) ft_init(x, kk[m - 1], filter, objs, depth + 1);
    else x->bad = 1;                                        /* `[i] = v` we cannot read */
  }
  vec_free(&kids);
}

/* The values stored in read-only variable v (member `filter` of them). */
static void ft_read(ft_ctx *x, CXCursor v, const char *filter, ft_objs *objs, int depth)
{
  if (!ft_step(x, depth)) return;
  if (clang_getCursorKind(v) != CXCursor_VarDecl || !clang_Cursor_hasVarDeclGlobalStorage(v) ||
      !ft_type_readonly(clang_getCursorType(v))) { x->bad = 1; return; }
  CXCursor def = clang_getCursorDefinition(v);
  CXCursor init = clang_Cursor_isNull(def) ? def : clang_Cursor_getVarDeclInitializer(def);
  if (clang_Cursor_isNull(init) && clang_Cursor_isNull(def) && filter) {
    /* Defined in another TU: the slot stands for what that TU stores. */
    uint32_t slot = fw_slot_target(x->w, v, filter);
    if (slot == UINT32_MAX) x->bad = 1;
    else ft_add_index(x, slot);
    return;
  }
  if (clang_Cursor_isNull(init)) { x->bad = 1; return; }   /* zero-filled, or no member named */
  ft_init(x, init, filter, objs, depth + 1);
}

/* ---- expressions ---- */

/* The variables whose storage lvalue e designates (part of); *filter is
 * set to the member it ends in. */
static void ft_lvalue(ft_ctx *x, CXCursor e, ft_objs *roots, const char **filter, int depth)
{
  if (!ft_step(x, depth)) return;
  e = fe_strip(x->w->t, e);
  CXCursor kk[2];
  switch (clang_getCursorKind(e)) {
  case CXCursor_DeclRefExpr: {
    CXCursor ref = clang_getCursorReferenced(e);
    if (clang_getCursorKind(ref) == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(ref)) vec_push(roots, ref);
    else x->bad = 1;
    return;
  }
  case CXCursor_ArraySubscriptExpr:
    if (ft_kids(x->w, e, kk, 2) != 2) { x->bad = 1; return; }
    ft_rvalue(x, kk[0], roots, depth + 1);   /* any element of what the base points into */
    return;
  case CXCursor_MemberRefExpr: {
    if (ft_kids(x->w, e, kk, 1) != 1) { x->bad = 1; return; }
    if (fe_expr_is_pointer(kk[0])) ft_rvalue(x, kk[0], roots, depth + 1);
    else ft_lvalue(x, kk[0], roots, filter, depth + 1);
    CXString s = clang_getCursorSpelling(e);
    *filter = strtab_get(x->w->t->sum->strs, strtab_intern(x->w->t->sum->strs, clang_getCString(s)));
    clang_disposeString(s);
    return;
  }
  case CXCursor_UnaryOperator:
    if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref && ft_kids(x->w, e, kk, 1) == 1) {
      ft_rvalue(x, kk[0], roots, depth + 1);
      return;
    }
    x->bad = 1;
    return;
  default:
    x->bad = 1;
  }
}

/* Reads lvalue e: the values stored where it designates. */
static void ft_load(ft_ctx *x, CXCursor e, ft_objs *objs, int depth)
{
  ft_objs roots = {0};
  const char *filter = NULL;
  ft_lvalue(x, e, &roots, &filter, depth + 1);
  for (size_t i = 0; i < roots.n && !x->bad; i++) ft_read(x, roots.v[i], filter, objs, depth + 1);
  vec_free(&roots);
}

typedef struct { fw *w; VEC(CXCursor) exprs; int bad; } ft_returns;

static enum CXChildVisitResult ft_return_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  ft_returns *r = d;
  if (clang_getCursorKind(c) != CXCursor_ReturnStmt) return CXChildVisit_Recurse;
  CXCursor kk[1];
  if (ft_kids(r->w, c, kk, 1) != 1) { r->bad = 1; return CXChildVisit_Break; }
  vec_push(&r->exprs, kk[0]);
  return CXChildVisit_Continue;
}

/* Into r: the expressions a function defined here returns. A body that
 * is just `return E;` (an accessor) is taken as it is; a longer one (a
 * lookup, xz's `encoder_find`: a loop returning `encoders + i`, then
 * NULL) only when its body is the one every call runs: not weak, not
 * interposable under -fPIC, not noipa (as retro.c). */
static int ft_return_exprs_of(ft_ctx *x, CXCursor fn, int always_whole, ft_returns *r)
{
  CXCursor kk[1];
  if (clang_getCursorKind(fn) != CXCursor_FunctionDecl) return 0;
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) return 0;
  size_t k = fw_kids(x->w, def), n = x->w->ks.n - k;
  CXCursor body = n ? x->w->ks.v[x->w->ks.n - 1] : clang_getNullCursor();
  x->w->ks.n = k;
  if (clang_getCursorKind(body) != CXCursor_CompoundStmt) return 0;
  if (always_whole || ft_kids(x->w, body, kk, 1) != 1 || clang_getCursorKind(kk[0]) != CXCursor_ReturnStmt) {
    const sum_func *f = &x->w->t->sum->funcs.v[fe_func_for(x->w->t, def)];
    if (f->flags & (SFF_WEAK | SFF_INTERPOSABLE | SFF_NOIPA)) return 0;
  }
  clang_visitChildren(body, ft_return_visit, r);
  return !r->bad && r->exprs.n > 0;
}

static int ft_return_exprs(ft_ctx *x, CXCursor call, ft_returns *r)
{
  return ft_return_exprs_of(x, clang_getCursorReferenced(call), 0, r);
}

/* A call of an accessor, systemd's `static inline const UnitVTable
 * *UNIT_VTABLE(const Unit *u) { return unit_vtable[u->type]; }`, or of a
 * lookup: the values of what it returns. Its parameters may only index
 * (an index is not followed: any element); anything else about them is
 * unknown. */
static void ft_returned(ft_ctx *x, CXCursor call, ft_objs *objs, int depth)
{
  ft_returns r = { x->w, {0}, 0 };
  if (!ft_return_exprs(x, call, &r)) x->bad = 1;
  for (size_t i = 0; i < r.exprs.n && !x->bad; i++) ft_rvalue(x, r.exprs.v[i], objs, depth + 1);
  vec_free(&r.exprs);
}

/* A local pointer that is itself const (`const T *const p = E;`) holds
 * E's value all its life: C forbids assigning it. Its initializer, or a
 * null cursor. */
CXCursor fw_const_local_init(CXCursor ref)
{
  CXCursor none = clang_getNullCursor();
  if (clang_getCursorKind(ref) != CXCursor_VarDecl || clang_Cursor_hasVarDeclGlobalStorage(ref)) return none;
  CXType t = clang_getCanonicalType(clang_getCursorType(ref));
  if (t.kind != CXType_Pointer || !clang_isConstQualifiedType(t) || clang_isVolatileQualifiedType(t)) return none;
  return clang_Cursor_getVarDeclInitializer(ref);
}

/* The functions (into x) and variables (into objs) pointer or function
 * value e may point to. */
static void ft_rvalue(ft_ctx *x, CXCursor e, ft_objs *objs, int depth)
{
  if (!ft_step(x, depth)) return;
  e = fe_strip(x->w->t, e);
  CXCursor kk[1];
  const char *no_filter = NULL;   /* the whole object's address */
  switch (clang_getCursorKind(e)) {
  case CXCursor_DeclRefExpr: {
    CXCursor ref = clang_getCursorReferenced(e);
    CXCursor init = fw_const_local_init(ref);
    if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) ft_add_func(x, ref);
    else if (fe_type_is_array(clang_getCanonicalType(clang_getCursorType(ref)))) ft_lvalue(x, e, objs, &no_filter, depth + 1);
    else if (!clang_Cursor_isNull(init)) ft_rvalue(x, init, objs, depth + 1);
    else ft_load(x, e, objs, depth);
    return;
  }
  case CXCursor_BinaryOperator: {
    /* `table + i`, `table - i`: an element of what the pointer points
     * into (pointer arithmetic stays within its array); the index is not
     * followed. */
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
    CXCursor kk2[2];
    if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) || ft_kids(x->w, e, kk2, 2) != 2) { x->bad = 1; return; }
    int lp = fe_expr_is_pointer(kk2[0]), rp = fe_expr_is_pointer(kk2[1]);
    if (lp == rp || (rp && op == CXBinaryOperator_Sub)) { x->bad = 1; return; }
    ft_rvalue(x, lp ? kk2[0] : kk2[1], objs, depth + 1);
    return;
  }
  case CXCursor_MemberRefExpr: case CXCursor_ArraySubscriptExpr:
    if (fe_expr_is_array(e)) x->bad = 1;   /* decayed member array */
    else ft_load(x, e, objs, depth);
    return;
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
    if (ft_kids(x->w, e, kk, 1) != 1) { x->bad = 1; return; }
    CXCursor in = fe_strip(x->w->t, kk[0]);
    if (op == CXUnaryOperator_AddrOf) {
      if (clang_getCursorKind(in) == CXCursor_DeclRefExpr &&
          clang_getCursorKind(clang_getCursorReferenced(in)) == CXCursor_FunctionDecl)
        ft_add_func(x, clang_getCursorReferenced(in));
      else
        ft_lvalue(x, in, objs, &no_filter, depth + 1);
    } else if (op == CXUnaryOperator_Deref) {
      CXType t = clang_getCanonicalType(clang_getCursorType(e));
      if (t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto) ft_rvalue(x, in, objs, depth + 1);
      else ft_load(x, e, objs, depth);
    } else {
      x->bad = 1;
    }
    return;
  }
  case CXCursor_CallExpr:
    ft_returned(x, e, objs, depth);
    return;
  case CXCursor_IntegerLiteral: case CXCursor_GNUNullExpr:
    return;   /* a null pointer: nothing is called through it */
  default:
    x->bad = 1;
  }
}

int fw_fntable_targets(fw *w, CXCursor callee, fw_u32vec *out)
{
  ft_ctx x = { w, {0}, 0, 0 };
  ft_objs objs = {0};
  ft_rvalue(&x, callee, &objs, 0);
  int ok = !x.bad && x.funcs.n > 0 && objs.n == 0;
  if (ok) for (size_t i = 0; i < x.funcs.n; i++) vec_push(out, x.funcs.v[i]);
  vec_free(&x.funcs);
  vec_free(&objs);
  return ok;
}

/* Is e (stripped) a null pointer constant, as ft_rvalue reads one? */
static int ft_is_null(CXCursor e)
{
  enum CXCursorKind k = clang_getCursorKind(e);
  return k == CXCursor_IntegerLiteral || k == CXCursor_GNUNullExpr;
}

/* Do cursor a's and type b's record declarations agree (qualifiers aside)? */
static int ft_same_record(CXType a, CXType b)
{
  a = clang_getCanonicalType(a);
  b = clang_getCanonicalType(b);
  return a.kind == CXType_Record && b.kind == CXType_Record &&
         clang_equalCursors(clang_getTypeDeclaration(a), clang_getTypeDeclaration(b));
}

/* Is pointer expression e (stripped) of type pointer to rec, or an array
 * of rec decaying to one? Then it points to a whole rec, not into one of
 * its members (`&t[i].sub`). */
static int ft_points_to(CXCursor e, CXType rec)
{
  CXType t = clang_getCanonicalType(clang_getCursorType(e));
  if (fe_type_is_array(t)) return ft_same_record(clang_getArrayElementType(t), rec);
  return t.kind == CXType_Pointer && ft_same_record(clang_getPointeeType(t), rec);
}

/* Variable v as a lookup's table: read-only, static storage, its
 * initializer in this TU, its elements (every array level stripped) of
 * type rec. The initializer, or a null cursor. */
static CXCursor ft_table_init(CXCursor v, CXType rec)
{
  CXCursor none = clang_getNullCursor();
  if (clang_getCursorKind(v) != CXCursor_VarDecl || !clang_Cursor_hasVarDeclGlobalStorage(v)) return none;
  CXType t = clang_getCanonicalType(clang_getCursorType(v));
  if (!ft_type_readonly(t)) return none;
  while (fe_type_is_array(t)) t = clang_getCanonicalType(clang_getArrayElementType(t));
  if (!ft_same_record(t, rec)) return none;
  CXCursor def = clang_getCursorDefinition(v);
  return clang_Cursor_isNull(def) ? none : clang_Cursor_getVarDeclInitializer(def);
}

int fw_fntable_lookup_rows(fw *w, CXCursor fn, CXType rec, fw_cursors *inits)
{
  ft_ctx x = { w, {0}, 0, 0 };
  ft_returns r = { w, {0}, 0 };
  ft_objs objs = {0};
  int ok = ft_return_exprs_of(&x, clang_getCursorDefinition(fn), 1, &r);
  for (size_t i = 0; i < r.exprs.n && ok && !x.bad; i++) {
    CXCursor e = fe_strip(w->t, r.exprs.v[i]);
    if (ft_is_null(e)) continue;
    if (!ft_points_to(e, rec)) ok = 0;
    else ft_rvalue(&x, e, &objs, 0);
  }
  ok = ok && !x.bad && x.funcs.n == 0 && objs.n > 0;
  for (size_t i = 0; i < objs.n && ok; i++) {
    CXCursor init = ft_table_init(objs.v[i], rec);
    if (clang_Cursor_isNull(init)) ok = 0;
    else vec_push(inits, init);
  }
  vec_free(&r.exprs);
  vec_free(&x.funcs);
  vec_free(&objs);
  return ok;
}

int fw_fntable_member_targets(fw *w, CXCursor init, const char *member, fw_u32vec *out)
{
  ft_ctx x = { w, {0}, 0, 0 };
  ft_objs objs = {0};
  ft_init(&x, init, member, &objs, 0);
  int ok = !x.bad && objs.n == 0;   /* no function: the member is null, nothing is called */
  if (ok) for (size_t i = 0; i < x.funcs.n; i++) vec_push(out, x.funcs.v[i]);
  vec_free(&x.funcs);
  vec_free(&objs);
  return ok;
}

void fw_fntable_record(fw *w, CXCursor call, const fw_u32vec *targets, const uint64_t *masks, uint32_t nargs)
{
  sum_tu *s = w->t->sum;
  for (size_t i = 0; i < targets->n; i++) {
    sum_call c;
    memset(&c, 0, sizeof c);
    c.callee = targets->v[i];
    c.flags = (uint8_t)(SCF_TABLE | (w->doomed ? SCF_DOOMED : 0));
    c.arg_off = (uint32_t)s->argmasks.n;
    c.nargs = nargs;
    c.guard = w->guards.n ? w->guards.v[w->guards.n - 1] : 0;
    c.eff_pos = (uint32_t)(s->effs.n - w->eff_base);
    c.loc = fe_cursor_loc(w->t, call);
    for (uint32_t a = 0; a < nargs; a++) vec_push(&s->argmasks, masks[a]);
    vec_push(&s->calls, c);
    /* No call-site facts (the compiler sees an indirect call): an entry
     * that never matches keeps the walk's per-call table aligned. */
    fw_callinfo ci = { 0, (uint32_t)w->cvars.n, 0, 0, 0, 0, FW_INL_ARGS + 1, { 0 }, 0, UINT32_MAX };
    vec_push(&w->cinfo, ci);
  }
}
