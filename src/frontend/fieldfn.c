/* fieldfn.c — function pointers stored in struct fields (issue 30, item 5).
 *
 * gnulib's hash table keeps the user's hash and compare functions in fields
 * (`table->hasher = hasher` in hash_initialize) and calls through them
 * (`table->hasher (entry, table->n_buckets)` in hash_lookup): a call through
 * a pointer, unknown, so a lookup declared pure drew an error although every
 * hasher the program passes is pure. The field's possible values are known
 * to the whole program: whatever any code stores there. So the walk records
 * every store into a function-pointer field of a struct (sum_fstore) and
 * every call through one (sum_fcall), and the link (link/fields.c) turns a
 * call into one call per function ever stored, when it can name them all.
 *
 * A field is named by its USR, the same in every TU. Stored values are a
 * named function, the storing function's own parameter (resolved through
 * its callers by the link), a null pointer, or anything else (unknown:
 * the field stays unresolved). A field whose address is taken (`&t->f`)
 * can be written through that pointer: unknown. Initializers store too
 * (`{ .hasher = h }`, positional values); where an initializer does not
 * say which field a function goes to (brace elision), it may be in any.
 * A function whose address is taken anywhere (SFS_ADDR) may be called
 * from anywhere, so its parameters are no longer known from its calls.
 *
 * A static variable of function-pointer type (a CPU dispatch: `static
 * uint64_t (*crc_fn)(…)` set by a constructor to one of two kernels) is a
 * field of its own: every store into it is in its TU, so its values are
 * known in a library too (link/fields.c). Its key is SUM_STATIC_FNVAR and
 * its USR.
 *
 * A union whose members are all pointers is one field (key
 * SUM_UNION_FNFIELD and its USR): its members overlay, so a call through
 * its function member reaches what any member holds, and a data address
 * stored in its other member (libunistring's `{ mask, 0, { &table } }`)
 * is nothing to call. Other unions are left out (an integer member may
 * hold any address, a struct inside one overlays the rest), and so are
 * structs of system headers (library code writes them). fieldescape.c
 * records where such a union's bytes may come from unseen code. What the model
 * assumes, as type-based alias analysis does: a function pointer reaches
 * a field only through stores of the field's own type (not memcpy from
 * bytes, not through a cast to another struct). */
#include "frontend/walk.h"
#include <string.h>

/* The interned string prefix + the USR of cursor c; 0 without a USR. */
static uint32_t ff_usr_key(fe_tu *t, const char *prefix, CXCursor c)
{
  CXString usr = clang_getCursorUSR(c);
  const char *u = clang_getCString(usr);
  uint32_t id = 0;
  if (u && *u) {
    char *key = xasprintf("%s%s", prefix, u);
    id = strtab_intern(t->sum->strs, key);
    free(key);
  }
  clang_disposeString(usr);
  return id;
}

static enum CXVisitorResult ff_pointer_member(CXCursor c, CXClientData d)
{
  if (clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer) *(bool *)d = false;
  return CXVisit_Continue;
}

/* Union u's key (SUM_UNION_FNFIELD + its USR) when its members are all
 * pointers — what a call through one member may reach is what any of them
 * holds — and no union encloses it (its members would overlay ours); else 0. */
uint32_t fe_fnfield_union_key(fe_tu *t, CXCursor u)
{
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(u))) return 0;
  bool pointers = true;
  clang_Type_visitFields(clang_getCursorType(u), ff_pointer_member, &pointers);
  if (!pointers) return 0;
  CXCursor r = clang_getCursorSemanticParent(u);
  for (int depth = 0; depth < 16; depth++, r = clang_getCursorSemanticParent(r)) {
    enum CXCursorKind k = clang_getCursorKind(r);
    if (k == CXCursor_UnionDecl) return 0;
    if (k != CXCursor_StructDecl) break;
  }
  return ff_usr_key(t, SUM_UNION_FNFIELD, u);
}

/* The string id of field decl fd's USR when it is a function pointer of a
 * struct declared outside system headers; the union's key when fd is a
 * member of a union fe_fnfield_union_key accepts; else 0. */
static uint32_t ff_field_id(fe_tu *t, CXCursor fd)
{
  if (clang_getCursorKind(fd) != CXCursor_FieldDecl) return 0;
  CXCursor r = clang_getCursorSemanticParent(fd);
  if (clang_getCursorKind(r) == CXCursor_UnionDecl) return fe_fnfield_union_key(t, r);
  if (!fw_is_fn_pointer_type(clang_getCursorType(fd))) return 0;
  if (clang_getCursorKind(r) != CXCursor_StructDecl) return 0;
  /* A struct inside a union overlays the union's other members. */
  for (int depth = 0; depth < 16 && clang_getCursorKind(r) == CXCursor_StructDecl; depth++)
    r = clang_getCursorSemanticParent(r);
  if (clang_getCursorKind(r) == CXCursor_UnionDecl) return 0;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(fd))) return 0;
  return ff_usr_key(t, "", fd);
}

/* The key of a static variable (file scope or in a function) of
 * function-pointer type, declared outside system headers; else 0. */
static uint32_t ff_static_var_id(fe_tu *t, CXCursor vd)
{
  if (clang_getCursorKind(vd) != CXCursor_VarDecl || !fw_is_fn_pointer_type(clang_getCursorType(vd))) return 0;
  if (clang_Cursor_getStorageClass(vd) != CX_SC_Static) return 0;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(vd))) return 0;
  return ff_usr_key(t, SUM_STATIC_FNVAR, vd);
}

/* e without parentheses, casts, `*` and `&`: what a function pointer
 * expression names (`(*t->f)`, `&twice`, `(fn_t)g`). */
static CXCursor ff_strip(fe_tu *t, CXCursor e)
{
  for (int depth = 0; depth < 8 && !clang_Cursor_isNull(e); depth++) {
    e = fe_strip(t, e);
    if (clang_getCursorKind(e) != CXCursor_UnaryOperator) break;
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
    CXCursor kid[2];
    if ((op != CXUnaryOperator_Deref && op != CXUnaryOperator_AddrOf) || fe_kids(e, kid, 2) != 1) break;
    e = kid[0];
  }
  return e;
}

/* The field a member expression (parentheses and casts aside) names, as
 * ff_field_id, or the static variable a name refers to, as
 * ff_static_var_id; 0 for anything else. */
static uint32_t ff_member_field(fe_tu *t, CXCursor e)
{
  e = fe_strip(t, e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_MemberRefExpr) return ff_field_id(t, clang_getCursorReferenced(e));
  return k == CXCursor_DeclRefExpr ? ff_static_var_id(t, clang_getCursorReferenced(e)) : 0;
}

uint32_t fe_fnfield_key(fe_tu *t, CXCursor e)
{
  return ff_member_field(t, ff_strip(t, e));
}

static void ff_push(fe_tu *t, uint32_t field, uint32_t func, uint8_t kind, uint32_t value)
{
  sum_fstore s = { field, func, kind, value };
  vec_push(&t->sum->fstores, s);
}

static int ff_is_null(CXCursor e)
{
  long long v;
  enum CXCursorKind k = clang_getCursorKind(e);
  return k == CXCursor_GNUNullExpr || (k == CXCursor_IntegerLiteral && fw_int_literal_value(e, &v) && v == 0);
}

/* Is v (casts aside) the address of a variable or a string: data, never a
 * function? libunistring's `{ mask, 0, { &u_categ_Zs } }` puts a table in
 * the union whose other member is called; calling it would be undefined. */
static bool ff_data_addr(fe_tu *t, CXCursor v)
{
  CXCursor e = fe_strip(t, v), kid[2];
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_StringLiteral) return true;
  bool addr = k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf;
  if (addr) {
    if (fe_kids(e, kid, 2) != 1) return false;
    e = fe_strip(t, kid[0]);
  }
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return false;
  CXCursor ref = clang_getCursorReferenced(e);
  if (clang_getCursorKind(ref) != CXCursor_VarDecl) return false;
  enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(ref)).kind;
  return addr || tk == CXType_ConstantArray || tk == CXType_IncompleteArray;   /* an array decays */
}

/* What value v stores: SFA_FUNC (*out the function), SFA_PARAM (*out the
 * walked function's parameter; w NULL: never), SFA_NULL (also a data
 * address: nothing to call) or SFS_UNKNOWN. */
static uint8_t ff_value(fe_tu *t, fw *w, CXCursor v, uint32_t *out)
{
  CXCursor e = ff_strip(t, v);
  *out = 0;
  if (clang_Cursor_isNull(e)) return SFS_UNKNOWN;
  if (ff_is_null(e) || ff_data_addr(t, v)) return SFA_NULL;
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return SFS_UNKNOWN;
  CXCursor ref = clang_getCursorReferenced(e);
  if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) { *out = fe_func_for(t, ref); return SFA_FUNC; }
  int param = w ? fw_fnptr_param_of(w, v) : -1;
  if (param < 0) return SFS_UNKNOWN;
  *out = (uint32_t)param;
  return SFA_PARAM;
}

/* The storing function as a store names it: 1 + its index, 0 at file scope. */
static uint32_t ff_func(const fw *w) { return w ? w->fi + 1 : 0; }

/* Records value stored into field: `c ? a : b` stores one of its arms
 * (gnulib's `hasher ? hasher : raw_hasher`), each recorded. */
static void ff_store(fe_tu *t, fw *w, uint32_t field, CXCursor value, int depth)
{
  CXCursor e = ff_strip(t, value), arm[3];
  if (clang_getCursorKind(e) == CXCursor_ConditionalOperator && depth < 8 && fe_kids(e, arm, 3) == 3) {
    ff_store(t, w, field, arm[1], depth + 1);
    ff_store(t, w, field, arm[2], depth + 1);
    return;
  }
  /* The same field of another object (`new->hasher = old->hasher`, a
   * rehash): nothing it did not hold already. */
  if (ff_member_field(t, e) == field) return;
  uint32_t v;
  uint8_t kind = ff_value(t, w, value, &v);
  ff_push(t, field, ff_func(w), kind, v);
}

void fw_fnfield_param_assign(fw *w, CXCursor target, CXCursor value)
{
  int param = fw_fnptr_param_of(w, target);
  if (param < 0 || clang_getCursorKind(fe_strip(w->t, target)) != CXCursor_DeclRefExpr) return;
  uint32_t v;
  uint8_t kind = ff_value(w->t, NULL, value, &v);
  sum_fstore a = { 0, (uint32_t)param, kind, v };   /* field unused: the parameter is func */
  vec_push(&w->param_sets, a);
}

void fw_fnfield_store(fw *w, CXCursor target, CXCursor value)
{
  uint32_t field = ff_member_field(w->t, target);
  if (field) ff_store(w->t, w, field, value, 0);
}

void fw_fnfield_addr(fw *w, CXCursor operand)
{
  uint32_t field = ff_member_field(w->t, operand);
  if (field) ff_push(w->t, field, ff_func(w), SFS_UNKNOWN, 0);   /* written through the pointer, maybe */
}

void fe_fnfield_fn_addr(fe_tu *t, const fw *w, CXCursor fn)
{
  ff_push(t, 0, ff_func(w), SFS_ADDR, fe_func_for(t, fn));
}

void fw_fnfield_call(fw *w, CXCursor callee, const uint64_t *masks, uint32_t nargs)
{
  uint32_t field = fe_fnfield_key(w->t, callee);
  if (!field) return;
  sum_tu *s = w->t->sum;
  sum_fcall c = { w->fi, (uint32_t)(s->effs.n - 1 - w->eff_base), field, (uint32_t)s->argmasks.n, nargs };
  for (uint32_t i = 0; i < nargs; i++) vec_push(&s->argmasks, masks[i]);
  vec_push(&s->fcalls, c);
}

/* ---- initializers ---- */

typedef VEC(CXCursor) ff_cursors;

static enum CXVisitorResult ff_field_visit(CXCursor c, CXClientData d)
{
  vec_push((ff_cursors *)d, c);
  return CXVisit_Continue;
}

static enum CXChildVisitResult ff_kid_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  vec_push((ff_cursors *)d, c);
  return CXChildVisit_Continue;
}

static int ff_is_aggregate(CXType t)
{
  t = clang_getCanonicalType(t);
  return t.kind == CXType_Record || t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray;
}

static int ff_field_named(const ff_cursors *fields, CXCursor member_ref)
{
  CXString want = clang_getCursorSpelling(member_ref);
  int at = -1;
  for (size_t i = 0; i < fields->n && at < 0; i++) {
    CXString s = clang_getCursorSpelling(fields->v[i]);
    if (!strcmp(clang_getCString(s), clang_getCString(want))) at = (int)i;
    clang_disposeString(s);
  }
  clang_disposeString(want);
  return at;
}

/* A value whose field is known: recorded if that field is ours. */
static void ff_init_known(fe_tu *t, fw *w, CXCursor field, CXCursor value)
{
  uint32_t id = ff_field_id(t, field);
  if (id && clang_getCursorKind(fe_strip(t, value)) != CXCursor_InitListExpr) ff_store(t, w, id, value, 0);
}

/* A value whose field the initializer does not say. Its type, after the
 * implicit conversion, is the field's: only a pointer matters, a data
 * pointer for the unions whose members are pointers (SUM_UNION_ANY). */
static void ff_init_unclear(fe_tu *t, fw *w, CXCursor value)
{
  bool fn = fw_is_fn_pointer_type(clang_getCursorType(value));
  if (!fn && clang_getCanonicalType(clang_getCursorType(value)).kind != CXType_Pointer) return;
  uint32_t v;
  uint8_t kind = ff_value(t, NULL, value, &v);
  if (kind == SFA_FUNC) ff_push(t, 0, ff_func(w), SFS_ANY, v);
  else if (kind != SFA_NULL) ff_push(t, fn ? 0 : strtab_intern(t->sum->strs, SUM_UNION_ANY), ff_func(w), SFS_UNKNOWN, 0);
}

void fe_fnfield_init(fe_tu *t, fw *w, CXCursor list)
{
  CXType rt = clang_getCanonicalType(clang_getCursorType(list));
  if (rt.kind != CXType_Record) return;   /* arrays: their elements are lists of their own */
  ff_cursors fields = {0}, kids = {0};
  clang_Type_visitFields(rt, ff_field_visit, &fields);
  clang_visitChildren(list, ff_kid_visit, &kids);
  int pos = 0;   /* the field the next positional value initializes; -1: not known */
  for (size_t i = 0; i < kids.n; i++) {
    CXCursor kid = kids.v[i], kk[8];
    if (clang_getCursorType(kid).kind == CXType_Void) {   /* designators, then the value */
      unsigned n = fe_kids(kid, kk, 8);
      int at = n == 2 && clang_getCursorKind(kk[0]) == CXCursor_MemberRef ? ff_field_named(&fields, kk[0]) : -1;
      if (at >= 0) ff_init_known(t, w, fields.v[at], kk[1]);
      else if (n >= 2 && n <= 8) ff_init_unclear(t, w, kk[n - 1]);   /* `.a.b = v`: some field */
      else ff_push(t, 0, ff_func(w), SFS_UNKNOWN, 0);                /* not readable: any field */
      pos = at >= 0 ? at + 1 : -1;
      continue;
    }
    if (pos < 0 || (size_t)pos >= fields.n) { ff_init_unclear(t, w, kid); pos = -1; continue; }
    CXCursor f = fields.v[pos];
    CXType ft = clang_getCanonicalType(clang_getCursorType(f));
    /* An aggregate field given a value of another type: its braces were
     * elided, and the values that follow fill its members. */
    if (ff_is_aggregate(ft) && clang_getCursorKind(fe_strip(t, kid)) != CXCursor_InitListExpr &&
        !clang_equalTypes(ft, clang_getCanonicalType(clang_getCursorType(kid)))) {
      ff_init_unclear(t, w, kid);
      pos = -1;
      continue;
    }
    ff_init_known(t, w, f, kid);
    pos++;
  }
  vec_free(&fields);
  vec_free(&kids);
}

/* ---- file-scope and static initializers: no code runs, values only ---- */

typedef struct { fe_tu *t; } ff_scan;

static enum CXChildVisitResult ff_scan_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  fe_tu *t = ((ff_scan *)d)->t;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_InitListExpr) fe_fnfield_init(t, NULL, c);
  if (k == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) fe_fnfield_fn_addr(t, NULL, ref);
  }
  if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf) {
    CXCursor kid[2];
    uint32_t field = fe_kids(c, kid, 2) == 1 ? ff_member_field(t, kid[0]) : 0;
    if (field) ff_push(t, field, 0, SFS_UNKNOWN, 0);   /* `&s.f` in an initializer */
  }
  return CXChildVisit_Recurse;
}

void fe_fnfield_scan_init(fe_tu *t, CXCursor var)
{
  CXCursor init = clang_Cursor_getVarDeclInitializer(var);
  if (clang_Cursor_isNull(init) || clang_Location_isInSystemHeader(clang_getCursorLocation(var))) return;
  uint32_t self = ff_static_var_id(t, var);
  if (self) ff_store(t, NULL, self, init, 0);   /* `static fn_t pick = &generic;` */
  ff_scan s = { t };
  ff_scan_visit(init, clang_getNullCursor(), &s);
  clang_visitChildren(init, ff_scan_visit, &s);
}

/* ---- one walk of a function ---- */

void fw_fnfield_begin(fw *w)
{
  sum_tu *s = w->t->sum;
  size_t n = 0;
  for (size_t i = 0; i < s->fstores.n; i++)   /* an earlier walk's (noreturn rounds) */
    if (s->fstores.v[i].func != w->fi + 1) s->fstores.v[n++] = s->fstores.v[i];
  s->fstores.n = n;
  n = 0;
  for (size_t i = 0; i < s->fcalls.n; i++)
    if (s->fcalls.v[i].func != w->fi) s->fcalls.v[n++] = s->fcalls.v[i];
  s->fcalls.n = n;
  w->fstore_base = s->fstores.n;
  w->fcall_base = s->fcalls.n;
}

void fw_fnfield_restart(fw *w)
{
  w->t->sum->fstores.n = w->fstore_base;
  w->t->sum->fcalls.n = w->fcall_base;
  w->param_sets.n = 0;
}

/* Is every assignment to parameter `param` a named function or a null
 * pointer (gnulib's `if (hasher == NULL) hasher = raw_hasher;`), with its
 * address never taken? Then it holds what its callers pass or one of them. */
static bool ff_param_known(const fw *w, uint32_t param)
{
  for (size_t i = 0; i < w->vars.n; i++)
    if (w->vars.v[i].param == (int16_t)param && w->vars.v[i].addr_taken) return false;
  for (size_t i = 0; i < w->param_sets.n; i++)
    if (w->param_sets.v[i].func == param && w->param_sets.v[i].kind != SFA_FUNC &&
        w->param_sets.v[i].kind != SFA_NULL)
      return false;
  return true;
}

void fw_fnfield_finish(fw *w)
{
  sum_tu *s = w->t->sum;
  size_t n = s->fstores.n;
  for (size_t i = w->fstore_base; i < n; i++) {
    sum_fstore *f = &s->fstores.v[i];
    if (f->kind != SFA_PARAM || fw_fnptr_param_intact(w, f->value)) continue;
    if (!ff_param_known(w, f->value)) { f->kind = SFS_UNKNOWN; f->value = 0; continue; }
    uint32_t field = f->field, param = f->value;
    for (size_t k = 0; k < w->param_sets.n; k++)   /* the functions assigned to it are stored too */
      if (w->param_sets.v[k].func == param && w->param_sets.v[k].kind == SFA_FUNC)
        ff_push(w->t, field, w->fi + 1, SFA_FUNC, w->param_sets.v[k].value);
  }
  vec_free(&w->param_sets);
}
