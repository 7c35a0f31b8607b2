/* walk_expr.c — effects of expressions (DESIGN.md §2).
 *
 * Every expression is visited in one of two contexts: ACC_VALUE (its value
 * is used: an lvalue is read, an array or function decays to its address)
 * or ACC_ADDR (only its address is taken: nothing is read). The visit
 * returns the pointer provenance of the result (PROV_* bits), which is how
 * "a pointer that provably points to local storage may be written through"
 * works: a local pointer variable's provenance is the union of everything
 * ever assigned to it (flow-insensitive), narrowed where it is read to what
 * the paths reaching that point assign (flow.c), and a pointer loaded from
 * memory may point anywhere (PROV_UNKNOWN). Writes are visited by the assignment
 * operators through fw_lvalue + fw_access. */
#include "frontend/walk.h"
#include <string.h>
#include "util/strbuf.h"


static enum CXChildVisitResult fw_kid_push(CXCursor c, CXCursor parent, CXClientData d)
{
  fw *w = d;
  vec_push(&w->ks, c);
  return CXChildVisit_Continue;
}

size_t fw_kids(fw *w, CXCursor c)
{
  size_t start = w->ks.n;
  clang_visitChildren(c, fw_kid_push, w);
  return start;
}

uint32_t fw_name(fw *w, CXCursor c)
{
  CXString s = clang_getCursorSpelling(c);
  uint32_t id = strtab_intern(w->t->sum->strs, clang_getCString(s));
  clang_disposeString(s);
  return id;
}

void fw_effect(fw *w, CXCursor at, sum_effect_kind k, uint8_t obj, uint8_t param, uint32_t name)
{
  sum_effect e;
  memset(&e, 0, sizeof e);
  e.kind = (uint8_t)k;
  e.flags = (uint16_t)((w->doomed ? SEF_DOOMED : 0) | w->eff_flags);
  e.obj = obj;
  e.param = param;
  e.name = name;
  e.guard = w->guards.n ? w->guards.v[w->guards.n - 1] : 0;
  e.loc = fe_cursor_loc(w->t, at);
  e.macro = fe_macro_of(w->t, clang_getCursorLocation(at));
  vec_push(&w->t->sum->effs, e);
}

/* A parameter or an automatic local: storage of the function itself. */
int fw_is_local_decl(CXCursor ref)
{
  enum CXCursorKind k = clang_getCursorKind(ref);
  if (k == CXCursor_ParmDecl) return 1;
  return k == CXCursor_VarDecl && !clang_Cursor_hasVarDeclGlobalStorage(ref) &&
         clang_getCursorTLSKind(ref) == CXTLS_None;
}

int fw_local_ref(fw *w, CXCursor e)
{
  e = fe_strip(w->t, e);
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(e);
  return fw_is_local_decl(ref) ? (int)fw_var_for(w, ref) : -1;
}

CXCursor fw_addr_operand(fw *w, CXCursor e)
{
  if (clang_getCursorKind(e) != CXCursor_UnaryOperator || clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_AddrOf)
    return clang_getNullCursor();
  size_t k = fw_kids(w, e);
  CXCursor x = w->ks.n - k == 1 ? FW_KID(w, k, 0) : clang_getNullCursor();
  w->ks.n = k;
  return x;
}

uint32_t fw_var_for(fw *w, CXCursor decl)
{
  uint64_t key = fe_decl_key(decl);
  uint32_t *hit = ptrmap_get(&w->varmap, key);
  if (hit) return *hit;
  fw_var v;
  memset(&v, 0, sizeof v);
  v.name = fw_name(w, decl);
  v.param = -1;
  CXType t = clang_getCanonicalType(clang_getCursorType(decl));
  v.is_ptr = (uint8_t)fe_type_is_pointer(t);
  /* `int a[4]` as a parameter is a pointer, though libclang shows the array. */
  if (clang_getCursorKind(decl) == CXCursor_ParmDecl && fe_type_is_array(t)) v.is_ptr = v.array_param = 1;
  /* A transparent union parameter (FRR's prefix_copy(union prefixptr, …))
   * is the caller's pointer; only parameters, whose value comes whole. */
  if (clang_getCursorKind(decl) == CXCursor_ParmDecl && fe_type_is_pointer_union(t)) v.is_ptr = v.ptr_union = 1;
  fw_agg_var_init(&v, decl);
  vec_push(&w->vars, v);
  ptrmap_put(&w->varmap, key, (uint32_t)w->vars.n - 1);
  return (uint32_t)w->vars.n - 1;
}

/* Does the pointer value e point into one named global? 1 (*obj set): yes;
 * 0: it points nowhere (null); -1: anywhere else or unknown. */
static int fw_points_into(fw *w, CXCursor e, CXCursor *obj)
{
  long long v = 1;
  e = fe_strip(w->t, e);
  switch (clang_getCursorKind(e)) {
  case CXCursor_GNUNullExpr: return 0;
  case CXCursor_IntegerLiteral: return fw_int_literal_value(e, &v) && v == 0 ? 0 : -1;
  case CXCursor_UnaryOperator: {
    CXCursor x = fw_addr_operand(w, e);
    CXCursor root = clang_Cursor_isNull(x) ? x : fe_global_root(w->t, x);
    if (clang_Cursor_isNull(root)) return -1;
    *obj = root;
    return 1;
  }
  case CXCursor_DeclRefExpr: {
    CXCursor ref = clang_getCursorReferenced(e);
    if (!fw_is_local_decl(ref)) {
      if (clang_getCursorKind(ref) != CXCursor_VarDecl || !fe_expr_is_array(e)) return -1;
      *obj = ref;                               /* a global array decays to its address */
      return 1;
    }
    uint32_t *vi = ptrmap_get(&w->varmap, fe_decl_key(ref));
    if (!vi || w->vars.v[*vi].pointee_n != 1) return -1;
    *obj = w->vars.v[*vi].pointee;
    return 1;
  }
  case CXCursor_BinaryOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
    if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) return -1;
    size_t k = fw_kids(w, e);
    CXCursor side = clang_getNullCursor();
    for (size_t i = k; i < w->ks.n; i++)
      if (fe_expr_is_pointer(w->ks.v[i]) || fe_expr_is_array(w->ks.v[i])) side = w->ks.v[i];
    w->ks.n = k;
    return clang_Cursor_isNull(side) ? -1 : fw_points_into(w, side, obj);   /* stays in its object */
  }
  default: return -1;
  }
}

/* Follows which global a local pointer points into, for naming `*p`
 * after the object (an atomic's object behind a macro's temporary). */
static void fw_var_point(fw *w, uint32_t vi, uint64_t m, CXCursor value)
{
  fw_var *v = &w->vars.v[vi];
  if (v->pointee_n == 2 || !m) return;
  CXCursor obj = clang_getNullCursor();
  int into = clang_Cursor_isNull(value) || (m & ~(PROV_UNKNOWN | PROV_RODATA)) ? -1 : fw_points_into(w, value, &obj);
  if (into == 0) return;
  uint8_t n = 2;
  if (into > 0 && (v->pointee_n == 0 || clang_equalCursors(v->pointee, obj))) n = 1;
  if (n != v->pointee_n && v->read) w->stale = 1;
  if (n == 1) v->pointee = obj;
  v->pointee_n = n;
}

/* Adds provenance to a local pointer from the value `value` (a null cursor
 * if not an expression); a use before the growth means the walk saw too
 * small a set and must run again. */
void fw_var_grow(fw *w, uint32_t vi, uint64_t m, CXCursor value)
{
  fw_var_point(w, vi, m, value);
  fw_var *v = &w->vars.v[vi];
  v->inexact |= fw_slot_inexact_of(w, m, value);   /* ptrneq.c */
  fw_maywrite_assign(w, vi, m, value);              /* maywrite.c */
  v = &w->vars.v[vi];
  fw_flow_assign(w, vi, m, clang_getNullCursor(), 0);   /* a strong assignment narrows it after */
  if ((v->mask | m) == v->mask) return;
  v->mask |= m;
  if (v->read || v->topped) w->stale = 1;
}

static void fw_var_written(fw *w, uint32_t vi)
{
  w->vars.v[vi].last_write = ++w->seq;
}

/* ---- globals ---- */

/* Declared by a system header (libc's optind, environ, stdout): the
 * library defines it and its functions write it. */
static int fw_global_is_system(CXCursor decl)
{
  CXSourceLocation at = clang_getCursorLocation(clang_getCanonicalCursor(decl));
  return clang_Location_isInSystemHeader(at);
}

static sum_obj_kind fw_global_kind(CXCursor decl)
{
  if (clang_getCursorTLSKind(decl) != CXTLS_None) return SO_THREAD_LOCAL;
  enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(decl));
  if (pk == CXCursor_FunctionDecl) return SO_STATIC_LOCAL;
  return clang_getCursorLinkage(decl) == CXLinkage_Internal ? SO_FILE_STATIC : SO_GLOBAL;
}

/* ---- lvalues ---- */

static uint64_t lv_address(const lv_t *lv)
{
  switch (lv->kind) {
  case LV_LOCAL: case LV_TEMP: return PROV_LOCAL;
  case LV_GLOBAL: return fe_type_readonly(clang_getCursorType(lv->decl)) ? PROV_RODATA : PROV_UNKNOWN;
  case LV_MEM: return lv->mask;
  }
  return PROV_UNKNOWN;
}

/* A call of the C library's errno accessor, what `errno` expands to
 * (glibc __errno_location, BSD/macOS __error, newlib __errno, Solaris
 * ___errno, Microsoft _errno): the same name with or without the macro
 * (a preprocessed .i has none). */
int fw_is_errno_location(CXCursor e)
{
  static const char *const names[] = { "__errno_location", "__error", "__errno", "___errno", "_errno" };
  if (clang_getCursorKind(e) != CXCursor_CallExpr) return 0;
  CXCursor fn = clang_getCursorReferenced(e);
  if (clang_getCursorKind(fn) != CXCursor_FunctionDecl) return 0;
  CXString s = clang_getCursorSpelling(fn);
  const char *n = clang_getCString(s);
  int hit = 0;
  for (size_t i = 0; i < sizeof names / sizeof *names && !hit; i++) hit = !strcmp(n, names[i]);
  clang_disposeString(s);
  return hit;
}

/* The source text of a pointer expression for reason texts: `p` in `p->x`,
 * `holder->data` in `holder->data[0]`. Tokens are joined without spaces;
 * over-long expressions are not named. */
static uint32_t fw_ptr_name(fw *w, CXCursor e)
{
  e = fe_strip(w->t, e);
  if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) return fw_name(w, e);
  if (fw_is_errno_location(e)) return strtab_intern(w->t->sum->strs, "errno");
  CXTranslationUnit tu = w->t->tu;
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(e), &toks, &n);
  strbuf b = {0};
  for (unsigned i = 0; i < n && b.n <= 40; i++) {
    CXString s = clang_getTokenSpelling(tu, toks[i]);
    sb_puts(&b, clang_getCString(s));
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, toks, n);
  if (w->t->pp && fe_pp_from_library(sb_str(&b))) b.n = 0;   /* as infer, which sees the macro */
  uint32_t id = b.n && b.n <= 40 ? strtab_intern(w->t->sum->strs, sb_str(&b)) : 0;
  sb_free(&b);
  return id;
}

/* Memory through a pointer; `ptr` is the pointer expression, named in a
 * reason only if an effect is recorded (naming it costs a tokenization). */
static void lv_mem(lv_t *lv, uint64_t mask, CXCursor ptr)
{
  memset(lv, 0, sizeof *lv);
  lv->kind = LV_MEM;
  lv->mask = mask;
  lv->ptr = ptr;
}

static int fw_lvalue_declref(fw *w, CXCursor c, lv_t *lv)
{
  CXCursor ref = clang_getCursorReferenced(c);
  enum CXCursorKind k = clang_getCursorKind(ref);
  if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) return 0;
  memset(lv, 0, sizeof *lv);
  lv->whole = 1;
  if (fw_is_local_decl(ref)) {
    lv->kind = LV_LOCAL;
    lv->var = fw_var_for(w, ref);
  } else {
    lv->kind = LV_GLOBAL;
    lv->decl = ref;
  }
  return 1;
}

/* The object *ptr: a named global when ptr is `&g…`, or a local pointer
 * that only ever points into one global (a macro's temporary holding
 * `&cache`); else memory where ptr may point. Visits ptr. */
void fw_deref(fw *w, CXCursor ptr, lv_t *lv)
{
  CXCursor s = fe_strip(w->t, ptr), obj;
  CXCursor inner = fw_addr_operand(w, s);
  if (!clang_Cursor_isNull(inner) && !clang_Cursor_isNull(fe_global_root(w->t, inner)) && fw_lvalue(w, inner, lv)) {
    lv->whole = 0;
    return;
  }
  if (fw_agg_deref(w, ptr, lv)) return;
  int pv = clang_getCursorKind(s) == CXCursor_DeclRefExpr ? fw_local_ref(w, s) : -1;
  if (pv >= 0) fw_slot_note_read(w, (uint32_t)pv, 1);
  uint64_t m = fw_expr(w, ptr, ACC_VALUE);
  if (fw_points_into(w, s, &obj) > 0 && clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
    memset(lv, 0, sizeof *lv);
    lv->kind = LV_GLOBAL;
    lv->decl = obj;
    return;
  }
  lv_mem(lv, m, ptr);
}

static int fw_lvalue_member(fw *w, CXCursor c, lv_t *lv)
{
  size_t k = fw_kids(w, c);
  if (w->ks.n == k) return 0;
  CXCursor base = FW_KID(w, k, 0);
  w->ks.n = k;
  if (fe_expr_is_pointer(base)) {          /* p->f */
    fw_deref(w, base, lv);
    return 1;
  }
  if (!fw_lvalue(w, base, lv)) {                          /* f().x: a temporary */
    fw_expr(w, base, ACC_VALUE);
    memset(lv, 0, sizeof *lv);
    lv->kind = LV_TEMP;
  }
  lv->whole = 0;
  return 1;
}

static int fw_lvalue_subscript(fw *w, CXCursor c, lv_t *lv)
{
  size_t k = fw_kids(w, c);
  if (w->ks.n - k != 2) { w->ks.n = k; return 0; }
  CXCursor a = FW_KID(w, k, 0), b = FW_KID(w, k, 1);
  w->ks.n = k;
  /* i[a] is legal C: the base is whichever side is the pointer. */
  CXType at = fe_canon_type(a);
  if (!fe_type_is_pointer(at) && !fe_type_is_array(at)) { CXCursor t = a; a = b; b = t; }
  fw_expr(w, b, ACC_VALUE);
  CXCursor arr = fe_strip(w->t, a);
  /* An array object (not an array parameter, which is a pointer). */
  if (fe_expr_is_array(arr) && fw_lvalue(w, arr, lv)) {
    lv->whole = 0;                                        /* element of a named array */
    return 1;
  }
  fw_deref(w, a, lv);
  return 1;
}

/* Classifies the lvalue c, visiting (and recording the effects of) the
 * expressions that compute its address. Returns 0 if c is not an lvalue
 * form this walker knows; nothing is visited then. */
int fw_lvalue(fw *w, CXCursor c, lv_t *lv)
{
  switch (clang_getCursorKind(c)) {
  case CXCursor_ParenExpr: {
    size_t k = fw_kids(w, c);
    int n = (int)(w->ks.n - k);
    CXCursor inner = n == 1 ? FW_KID(w, k, 0) : c;
    w->ks.n = k;
    return n == 1 && fw_lvalue(w, inner, lv);
  }
  case CXCursor_DeclRefExpr: return fw_lvalue_declref(w, c, lv);
  case CXCursor_MemberRefExpr: return fw_lvalue_member(w, c, lv);
  case CXCursor_ArraySubscriptExpr: return fw_lvalue_subscript(w, c, lv);
  case CXCursor_StringLiteral: lv_mem(lv, PROV_RODATA, clang_getNullCursor()); return 1;
  case CXCursor_CompoundLiteralExpr: {
    size_t k = fw_kids(w, c);
    for (size_t i = k; i < w->ks.n; i++) fw_expr(w, w->ks.v[i], ACC_VALUE);
    w->ks.n = k;
    lv_mem(lv, PROV_LOCAL, clang_getNullCursor());
    return 1;
  }
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op != CXUnaryOperator_Deref && op != CXUnaryOperator_Real &&
        op != CXUnaryOperator_Imag && op != CXUnaryOperator_Extension) return 0;
    size_t k = fw_kids(w, c);
    if (w->ks.n - k != 1) { w->ks.n = k; return 0; }
    CXCursor e = FW_KID(w, k, 0);
    w->ks.n = k;
    if (op != CXUnaryOperator_Deref) {
      if (fw_lvalue(w, e, lv)) { lv->whole = 0; return 1; }
      /* __extension__ ({ … }) is its operand's value (strndupa's pointer). */
      if (op == CXUnaryOperator_Extension) return 0;
      fw_expr(w, e, ACC_VALUE);
      memset(lv, 0, sizeof *lv);
      lv->kind = LV_TEMP;
      return 1;
    }
    fw_deref(w, e, lv);
    return 1;
  }
  default: return 0;
  }
}

/* "*P" for parameter name pname. */
static uint32_t fw_star_name(fw *w, uint32_t pname)
{
  strbuf b = {0};
  sb_puts(&b, "*");
  sb_puts(&b, strtab_get(w->t->sum->strs, pname));
  uint32_t id = strtab_intern(w->t->sum->strs, sb_str(&b));
  sb_free(&b);
  return id;
}

/* Records a read and/or write of the lvalue lv (expression `at`). */
static void fw_access_plain(fw *w, CXCursor at, const lv_t *lv, int rd, int wr)
{
  if (wr && !(lv->kind == LV_LOCAL && lv->whole)) {
    w->mem_writes++;
    fw_pf_write(w, at, lv);   /* what it may change of parameters' fields (pfield.c) */
  }
  switch (lv->kind) {
  case LV_TEMP: return;
  case LV_LOCAL:
    if (wr) fw_var_written(w, lv->var);
    return;
  case LV_GLOBAL: {
    uint8_t obj = (uint8_t)fw_global_kind(lv->decl);
    uint16_t flags0 = w->eff_flags;
    uint32_t name = fw_name(w, lv->decl);
    if ((obj == SO_GLOBAL || obj == SO_THREAD_LOCAL) && fw_global_is_system(lv->decl)) w->eff_flags |= SEF_SYSTEM_OBJ;
    if (rd) fw_effect(w, at, fe_type_readonly(clang_getCursorType(lv->decl)) ? SE_READ_CONST
                                                                             : SE_READ_GLOBAL, obj, 0, name);
    if (wr) fw_effect(w, at, SE_WRITE_GLOBAL, obj, 0, name);
    w->eff_flags = flags0;
    return;
  }
  case LV_MEM:
    break;
  }
  uint64_t m = lv->mask;
  if (m & PROV_UNKNOWN || (wr && (m & PROV_RODATA))) {
    uint32_t name = clang_Cursor_isNull(lv->ptr) ? 0 : fw_ptr_name(w, lv->ptr);
    if (rd) fw_effect(w, at, SE_READ_MEM, 0, 0, name);
    if (wr) fw_effect(w, at, SE_WRITE_MEM, 0, 0, name);
  } else if (m & PROV_FRESH) {
    /* Into a block this call allocated: memory for inference, scratch
     * work for check (SEF_SCRATCH, scratch.c). */
    uint16_t flags0 = w->eff_flags;
    w->eff_flags |= SEF_SCRATCH;
    w->sflags |= SSF_SCRATCH;
    uint32_t name = clang_Cursor_isNull(lv->ptr) ? 0 : fw_ptr_name(w, lv->ptr);
    if (rd) fw_effect(w, at, SE_READ_MEM, 0, 0, name);
    if (wr) fw_effect(w, at, SE_WRITE_MEM, 0, 0, name);
    w->eff_flags = flags0;
  }
  for (unsigned i = 0; i < PROV_MAX_PARAMS; i++) {
    if (!(m & prov_param(i))) continue;
    uint32_t pname = 0;
    /* The pointer the slot parameter P pointed to on entry: `*P` (slot.c). */
    int slot = fw_slot_virtual_param(w, i);
    int16_t own = (int16_t)(slot >= 0 ? slot : (int)i);
    for (size_t v = 0; v < w->vars.n; v++)
      if (w->vars.v[v].param == own) { pname = w->vars.v[v].name; break; }
    uint16_t flags0 = w->eff_flags;
    if (slot >= 0) {
      /* "*P" through a pointer to a pointer; `s->buf` through a struct's member. */
      pname = fw_pb_param_to_pointer(w, slot) ? fw_star_name(w, pname)
              : clang_Cursor_isNull(lv->ptr) ? 0 : fw_ptr_name(w, lv->ptr);
      w->eff_flags |= SEF_PTE;
    }
    if (rd) fw_effect(w, at, SE_READ_PARAM, 0, (uint8_t)i, pname);
    /* Given the pointer under one input test, written under another
     * (maywrite.c): a write that may not happen on any input. */
    uint32_t cond = 0;
    int pv = clang_Cursor_isNull(lv->ptr) || slot >= 0 ? -1 : fw_local_ref(w, lv->ptr);
    if (wr && pv >= 0 && fw_maywrite_test(w, (uint32_t)pv, i, &cond)) w->eff_flags |= SEF_MAY;
    if (wr) fw_effect(w, at, SE_WRITE_PARAM, 0, (uint8_t)i, pname);
    if (wr) fw_pb_param_written(w, i);
    if (wr && cond) w->t->sum->effs.v[w->t->sum->effs.n - 1].cond = cond;
    w->eff_flags = flags0;
  }
}

/* The same, noting volatile and _Atomic objects. */
void fw_access(fw *w, CXCursor at, const lv_t *lv, int rd, int wr)
{
  CXType t = fe_canon_type(at);
  if (clang_isVolatileQualifiedType(t)) fw_effect(w, at, SE_VOLATILE, 0, 0, 0);
  /* An _Atomic object: a load is a read, a store a write, as for the
   * builtins; the flag names the access atomic. */
  uint16_t flags0 = w->eff_flags;
  if (t.kind == CXType_Atomic) w->eff_flags |= SEF_ATOMIC;
  fw_access_plain(w, at, lv, rd, wr);
  w->eff_flags = flags0;
}

/* The address of a writable global is taken: it may be written through
 * that address anywhere, which `check` needs to know before calling a
 * global "never written". */
static void fw_address_escapes(fw *w, CXCursor at, const lv_t *lv)
{
  if (lv->kind == LV_GLOBAL && !fe_type_readonly(clang_getCursorType(lv->decl)))
    fw_effect(w, at, SE_ADDR_GLOBAL, (uint8_t)fw_global_kind(lv->decl), 0, fw_name(w, lv->decl));
}

/* An lvalue-form expression used for its value or address. */
static uint64_t fw_lvalue_expr(fw *w, CXCursor c, int acc, const lv_t *lv)
{
  CXType t = fe_canon_type(c);
  int array_param = lv->kind == LV_LOCAL && lv->whole && w->vars.v[lv->var].array_param;
  if (array_param && acc != ACC_ADDR) {
    w->vars.v[lv->var].read = 1;
    return w->vars.v[lv->var].mask;
  }
  if (acc == ACC_ADDR || fe_expr_is_array(c) ||
      t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto) {
    fw_address_escapes(w, c, lv);
    if (lv->kind == LV_LOCAL) {
      w->vars.v[lv->var].addr_plain = 1;   /* what it holds may be copied out */
      fw_agg_addressed(w, lv->var);
    }
    return lv_address(lv);
  }
  fw_access(w, c, lv, 1, 0);
  /* A member or element read reads the variable too: `s = f(); … s.lo`
   * uses f's value. */
  if (lv->kind == LV_LOCAL) w->vars.v[lv->var].used = 1;
  int whole = lv->kind == LV_LOCAL && (lv->whole || w->vars.v[lv->var].ptr_union);
  int ptr_union = whole && w->vars.v[lv->var].ptr_union;
  /* A struct's value (an argument by value): where the pointers in it point. */
  if (fe_canon_type(c).kind == CXType_Record && !ptr_union) return fw_agg_value(w, c, lv);
  if (!fe_expr_is_pointer(c) && !ptr_union) return 0;
  if (whole) {
    w->vars.v[lv->var].read = 1;
    fw_slot_note_read(w, lv->var, 0);
    return fw_flow_value(w, lv->var);
  }
  /* Loaded from read-only static data: where its initializer points. */
  if (lv->kind == LV_GLOBAL) return fw_rotable_load(w, c, lv->decl);
  /* From a local struct or array: what the function stored there (aggfield.c). */
  if (lv->kind == LV_LOCAL && !lv->whole) return fw_agg_load(w, lv->var);
  /* A field of a parameter's object stored on every path here (pfield.c). */
  uint64_t stored = fw_pf_load(w, c, lv);
  if (stored) return stored;
  /* `*P` of a slot parameter on entry: the caller's pointer (slot.c). */
  uint64_t entry = fw_slot_entry_load(w, c, lv);
  if (entry) return entry;
  /* From the block a parameter points into: its virtual parameter (ptrblock.c). */
  uint64_t held = fw_pb_load(w, lv);
  if (held) return held;
  return PROV_UNKNOWN;   /* a pointer loaded from memory may point anywhere */
}

/* Assignment, compound assignment, ++ and --: the target is read (unless
 * plain `=`) and written; a local pointer's provenance grows by `m`.
 * Returns the provenance of the target's new value. */
uint64_t fw_store(fw *w, CXCursor target, uint64_t m, CXCursor value, int rd)
{
  lv_t lv;
  if (!fw_lvalue(w, target, &lv)) {
    /* Not an lvalue form we know: assume the worst. */
    fw_scratch_leaves(w, m);
    fw_pb_stored(w, NULL, target, m);
    fw_pf_clobber(w);
    fw_expr(w, target, ACC_VALUE);
    fw_effect(w, target, SE_WRITE_MEM, 0, 0, 0);
    w->mem_writes++;
    return PROV_UNKNOWN;
  }
  /* `errno = saved;` puts back the value errno had: no write (errsave.c). */
  uint16_t flags0 = w->eff_flags;
  if (!rd && fw_errsave_is_restore(w, &lv, value)) w->eff_flags |= SEF_ERRNO_RESTORE;
  size_t e0 = w->t->sum->effs.n;
  fw_access(w, target, &lv, rd, 1);
  fw_fields_note_store(w, target, e0);
  fw_pf_store(w, target, m, rd);
  w->eff_flags = flags0;
  if (rd && lv.kind == LV_LOCAL) w->vars.v[lv.var].used = 1;
  int into_var = lv.kind == LV_LOCAL && (lv.whole || w->vars.v[lv.var].ptr_union) && w->vars.v[lv.var].is_ptr;
  /* `*P = v` hands v back to the caller's pointer (slot.c): what P
   * pointed to on entry goes back where it came from. */
  uint64_t kept = m;
  if (!rd && fw_slot_store(w, &lv, m, value))
    kept &= ~prov_param((unsigned)(clang_Cursor_getNumArguments(w->fn) + w->slot));
  if (!into_var) fw_scratch_stored(w, &lv, kept);   /* beyond the local pointers: untracked from here */
  if (!into_var) fw_pb_stored(w, &lv, target, m);
  if (into_var && rd) w->vars.v[lv.var].inexact = ~(uint64_t)0;   /* p++, p += n: no longer any copy */
  if (!into_var && lv.kind == LV_LOCAL) fw_agg_store(w, lv.var, target, m);
  if (into_var) {
    fw_var_grow(w, lv.var, m, value);
    fw_flow_assign(w, lv.var, m, value, !rd);   /* `p = q` replaces; `p += n` keeps */
    w->vars.v[lv.var].read = 1;
    return fw_flow_value(w, lv.var);
  }
  return fe_expr_is_pointer(target) ? PROV_UNKNOWN : 0;
}

static uint64_t fw_addr_of(fw *w, CXCursor operand)
{
  lv_t lv;
  fw_fnfield_addr(w, operand);
  if (!fw_lvalue(w, operand, &lv)) { fw_expr(w, operand, ACC_ADDR); return 0; }
  fw_address_escapes(w, operand, &lv);
  if (lv.kind == LV_LOCAL) {
    /* Through &v anything may be stored in v, so a pointer v may then
     * point anywhere; a loop counter v may change behind the loop's back. */
    w->vars.v[lv.var].addr_taken = 1;
    w->vars.v[lv.var].addr_plain = 1;
    w->vars.v[lv.var].inexact = ~(uint64_t)0;
    fw_agg_addressed(w, lv.var);
    if (w->vars.v[lv.var].is_ptr) fw_var_grow(w, lv.var, PROV_UNKNOWN, clang_getNullCursor());
  }
  return lv_address(&lv);
}

static uint64_t fw_unary(fw *w, CXCursor c, int acc)
{
  enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
  size_t k = fw_kids(w, c);
  if (w->ks.n - k != 1) {
    for (size_t i = k; i < w->ks.n; i++) fw_expr(w, w->ks.v[i], ACC_VALUE);
    w->ks.n = k;
    return 0;
  }
  CXCursor e = FW_KID(w, k, 0);
  w->ks.n = k;
  switch (op) {
  case CXUnaryOperator_PostInc: case CXUnaryOperator_PostDec:
  case CXUnaryOperator_PreInc: case CXUnaryOperator_PreDec:
    return fw_store(w, e, 0, clang_getNullCursor(), 1);   /* p++ stays within p's object */
  case CXUnaryOperator_AddrOf: return fw_addr_of(w, e);
  case CXUnaryOperator_Deref: case CXUnaryOperator_Real:
  case CXUnaryOperator_Imag: case CXUnaryOperator_Extension: {
    lv_t lv;
    if (fw_lvalue(w, c, &lv)) return fw_lvalue_expr(w, c, acc, &lv);
    return fw_expr(w, e, acc);
  }
  default:
    fw_expr(w, e, ACC_VALUE);
    return 0;
  }
}

/* The recorded call (relative index) that is `call` itself, or -1: the
 * last one recorded, if it is at call's place. (An outer call through a
 * pointer is not recorded; the last one may then be an argument's.) */
int fw_last_call_is(fw *w, CXCursor call)
{
  sum_tu *s = w->t->sum;
  if (clang_getCursorKind(call) != CXCursor_CallExpr || s->calls.n <= w->call_base) return -1;
  if (s->calls.v[s->calls.n - 1].flags & SCF_TABLE) return -1;   /* an indirect call: no call-site facts */
  sum_loc at = fe_cursor_loc(w->t, call), last = s->calls.v[s->calls.n - 1].loc;
  if (at.file != last.file || at.line != last.line || at.col != last.col) return -1;
  /* Inside one macro expansion every call has the expansion's place: an
   * outer call that records nothing (through a function pointer, as in
   * cmark's `OUT(s, …)` = `renderer->out(renderer, s, …)`, or a builtin
   * the walk handles by name) would take the argument's call for its own,
   * and call its used value discarded. The callee must be the same too. */
  CXCursor ref = fw_callee_decl(w, call);
  if (clang_Cursor_isNull(ref)) return -1;
  uint32_t *fi = ptrmap_get(&w->t->funcs, fe_decl_key(clang_getCanonicalCursor(ref)));
  if (!fi || *fi != s->calls.v[s->calls.n - 1].callee) return -1;
  return (int)(s->calls.n - 1 - w->call_base);
}

/* `x = call()` into a whole local: the call's value is dead if x is never
 * read (settled at the end of the walk). */
void fw_note_stored_call(fw *w, CXCursor target, CXCursor value)
{
  CXCursor t = fe_strip(w->t, target);
  int ci = fw_last_call_is(w, fe_strip(w->t, value));
  if (ci < 0 || clang_getCursorKind(t) != CXCursor_DeclRefExpr) return;
  CXCursor ref = clang_getCursorReferenced(t);
  if (!fw_is_local_decl(ref)) return;
  vec_push(&w->dead_cands, (uint32_t)ci);
  vec_push(&w->dead_cands, fw_var_for(w, ref));
}

static uint64_t fw_binary(fw *w, CXCursor c)
{
  size_t k = fw_kids(w, c);
  if (w->ks.n - k != 2) {
    for (size_t i = k; i < w->ks.n; i++) fw_expr(w, w->ks.v[i], ACC_VALUE);
    w->ks.n = k;
    return 0;
  }
  CXCursor l = FW_KID(w, k, 0), r = FW_KID(w, k, 1);
  w->ks.n = k;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
  if (op == CXBinaryOperator_Assign) {
    uint64_t m = fw_expr(w, r, ACC_VALUE);
    /* Only where the assignment's own value is thrown away: in
     * `while (p && (v = next(p)))` the call's value is the test. */
    if (clang_equalCursors(c, w->discard_top)) fw_note_stored_call(w, l, r);
    fw_fnfield_store(w, l, r);
    fw_fnfield_param_assign(w, l, r);
    fw_store(w, l, m, r, 0);
    return m;
  }
  if (op >= CXBinaryOperator_MulAssign && op <= CXBinaryOperator_OrAssign) {
    fw_expr(w, r, ACC_VALUE);
    return fw_store(w, l, 0, clang_getNullCursor(), 1);   /* p += n stays within p's object */
  }
  uint64_t ml = fw_expr(w, l, ACC_VALUE);
  /* The right of && and || runs only after the left: the left's calls
   * dominate it, but nothing computed on the right is sure to run. */
  int lazy = op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr;
  /* `false && (cond)` (Emacs's eassert in a release build, `(void) (false
   * && (cond))`, so that cond still compiles): the right never runs, as
   * the branch of `if (0)` does not, and GCC drops it at every level. */
  if (lazy && fw_branch_dead(w, l, op == CXBinaryOperator_LAnd, r)) return 0;
  size_t mark = fw_avail_enter(w);
  size_t before = fw_flow_save(w);
  w->iter_cond += lazy;
  uint64_t mr = fw_expr(w, r, ACC_VALUE);
  w->iter_cond -= lazy;
  if (lazy) fw_flow_join(w, before);   /* the right may not run */
  fw_flow_drop(w, before);
  if (lazy) fw_avail_leave(w, mark);
  if (op == CXBinaryOperator_Comma) return mr;
  if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) &&
      fe_expr_is_pointer(c))
    return ml | mr;                       /* pointer arithmetic stays in its object */
  return 0;
}

CXCursor fw_strip_parens(fw *w, CXCursor e)
{
  while (clang_getCursorKind(e) == CXCursor_ParenExpr) {
    size_t k = fw_kids(w, e);
    if (w->ks.n - k != 1) { w->ks.n = k; break; }
    e = FW_KID(w, k, 0);
    w->ks.n = k;
  }
  return e;
}

enum CXBinaryOperatorKind fw_cond_chain_op(fw *w, CXCursor c)
{
  CXCursor e = fw_strip_parens(w, c);
  if (clang_getCursorKind(e) != CXCursor_BinaryOperator) return 0;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
  return op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr ? op : 0;
}

/* The branch of an if that `a && b` leads into runs only where b ran (and
 * the else-branch of `a || b` likewise): b's calls dominate it
 * (`if (on && kind(x) != 0) { … kind(x) … }` — GCC merges the calls).
 * The walk is fw_binary's for && and ||, but the right's calls are left
 * available; fw_if keeps them for the branch they dominate only. */
size_t fw_cond_chain(fw *w, CXCursor c, enum CXBinaryOperatorKind op, fw_chain *ch)
{
  CXCursor e = fw_strip_parens(w, c);
  if (clang_getCursorKind(e) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) == op) {
    size_t k = fw_kids(w, e);
    if (w->ks.n - k == 2) {
      CXCursor l = FW_KID(w, k, 0), r = FW_KID(w, k, 1);
      w->ks.n = k;
      size_t both = fw_cond_chain(w, l, op, ch);
      size_t before = fw_flow_save(w), r0 = fw_avail_enter(w);
      w->iter_cond++;
      fw_cond_chain(w, r, op, ch);
      w->iter_cond--;
      /* The second operand runs wherever the first holds: when it is no
       * chain of its own, its calls are what the else-if chain reuses. */
      if (ch && ch->nleaf == 2 && !ch->second_ok) {
        ch->second_ok = 1;
        ch->second_lo = r0;
        ch->second = fw_avail_enter(w);
        ch->second_end = fw_mark_now(w);
        fw_thread_second(w, r0, ch->second, ch);
      }
      fw_flow_join(w, before);   /* the right may not run */
      fw_flow_drop(w, before);
      return both;
    }
    w->ks.n = k;
  }
  size_t call0 = w->t->sum->calls.n;
  fw_expr(w, c, ACC_VALUE);
  size_t mark = fw_avail_enter(w);
  fw_thread_leaf(w, c, call0, ch);
  return mark;
}

int fw_int_literal_value(CXCursor c, long long *v)
{
  c = fe_strip(NULL, c);
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_IntegerLiteral && k != CXCursor_CXXBoolLiteralExpr) return 0;   /* C23 true/false */
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return 0;
  int ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) *v = clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok;
}

/* Is argument a surely not a null pointer: the address of an object
 * (`&st`, `&buf[i]`; not `&*p`, which is p), an array (its first
 * element's address), a string literal? */
static int fw_arg_nonnull(fe_tu *t, CXCursor a)
{
  a = fe_strip(t, a);
  enum CXCursorKind k = clang_getCursorKind(a);
  if (k == CXCursor_StringLiteral) return 1;
  if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(a) == CXUnaryOperator_AddrOf) {
    CXCursor in;
    if (fe_kids(a, &in, 1) != 1) return 0;
    in = fe_strip(t, in);
    return !(clang_getCursorKind(in) == CXCursor_UnaryOperator &&
             clang_getCursorUnaryOperatorKind(in) == CXUnaryOperator_Deref);
  }
  return fe_type_is_array(fe_canon_type(a)) && k != CXCursor_CallExpr;
}

/* A conversion to a pointer type from a non-pointer: the null pointer
 * constant points nowhere; any other integer may point anywhere. */
static uint64_t fw_int_to_ptr(CXCursor from)
{
  long long v = 1;
  return fw_int_literal_value(from, &v) && v == 0 ? 0 : PROV_UNKNOWN;
}

static uint64_t fw_convert(fw *w, CXCursor c, CXCursor from, int acc)
{
  CXType to = fe_canon_type(c), ft = fe_canon_type(from);
  uint64_t m = fw_expr(w, from, acc);
  /* A pointer passed as a transparent union keeps its provenance. */
  if (fe_type_is_pointer_union(to) && fe_expr_is_pointer(from)) return m;
  /* A struct read as a value keeps where its pointers point (fw_agg_value). */
  if (to.kind == CXType_Record && ft.kind == CXType_Record) return m;
  if (!fe_expr_is_pointer(c) && !fe_type_is_array(to)) {
    if (fe_expr_is_pointer(from)) {   /* a pointer made an integer */
      fw_intptr_note(w, c, m);
      if (m) fw_pb_ptr_to_int(w, to);   /* ptrblock.c follows it no further */
    }
    return 0;
  }
  if (fe_expr_is_pointer(from) || fe_type_is_array(ft) ||
      ft.kind == CXType_FunctionProto || ft.kind == CXType_FunctionNoProto)
    return m;
  uint64_t o;
  return fw_intptr_origin(w, from, &o) ? o : fw_int_to_ptr(from);
}

/* va_arg(ap, T) reads and advances the va_list object: the function's own
 * (a local va_list), or its caller's when ap is a parameter — on x86-64
 * va_list is an array, so a parameter `va_list ap` points into the caller,
 * whose next va_arg sees the advance. A pointer read from it may point
 * anywhere. */
static uint64_t fw_va_arg(fw *w, CXCursor c, CXCursor ap)
{
  lv_t lv;
  CXCursor s = fe_strip(w->t, ap);
  if (fe_expr_is_pointer(s) && fe_type_is_array(fe_canon_type(s))) fw_deref(w, s, &lv);
  else if (!fw_lvalue(w, s, &lv)) {
    fw_expr(w, ap, ACC_VALUE);
    lv_mem(&lv, PROV_UNKNOWN, clang_getNullCursor());
  }
  fw_access(w, ap, &lv, 1, 1);
  if (lv.kind == LV_LOCAL) w->vars.v[lv.var].used = 1;
  return fe_expr_is_pointer(c) ? PROV_UNKNOWN : 0;
}

/* UnexposedExpr: mostly implicit casts (one child, same extent); also
 * VAArgExpr, GNU `a ?: b`, and atomic builtins, which the C API does not
 * name, so they are told apart by shape. */
static uint64_t fw_unexposed(fw *w, CXCursor c, int acc)
{
  size_t k = fw_kids(w, c);
  size_t n = w->ks.n - k;
  if (n == 1) {
    CXCursor e = FW_KID(w, k, 0);
    w->ks.n = k;
    if (!fe_same_extent(w->t, c, e)) return fw_va_arg(w, c, e);
    return fw_convert(w, c, e, acc);
  }
  uint64_t m = 0;
  if (n == 4 && clang_equalRanges(clang_getCursorExtent(FW_KID(w, k, 0)),
                                  clang_getCursorExtent(FW_KID(w, k, 1)))) {
    CXCursor common = FW_KID(w, k, 0), alt = FW_KID(w, k, 3);   /* a ?: b */
    w->ks.n = k;
    m = fw_expr(w, common, ACC_VALUE);
    return m | fw_expr(w, alt, ACC_VALUE);
  }
  w->ks.n = k;
  if (fw_atomic_expr(w, c, &m)) return m;
  /* Anything else, such as a designator `.p = 0` (a MemberRef, which is
   * no expression, then the value): the values of its expressions. */
  k = fw_kids(w, c);
  for (size_t i = k; i < w->ks.n; i++)
    if (clang_isExpression(clang_getCursorKind(w->ks.v[i]))) m |= fw_expr(w, w->ks.v[i], ACC_VALUE);
  w->ks.n = k;
  return fe_expr_is_pointer(c) ? (m | PROV_UNKNOWN) : 0;
}

int fw_callee_noreturn(fw *w, CXCursor call)
{
  CXCursor ref = fw_callee_decl(w, call);
  if (clang_Cursor_isNull(ref)) return 0;
  return fe_func_noreturn(w->t, fe_func_for(w->t, ref));
}

/* Known at walk time to have no side effect: declared const or pure, or a
 * library function the knowledge base says writes nothing. */
int fw_callee_side_effect_free(fw *w, CXCursor call)
{
  CXCursor ref = fw_callee_decl(w, call);
  if (clang_Cursor_isNull(ref)) return 0;
  const sum_func *f = &w->t->sum->funcs.v[fe_func_for(w->t, ref)];
  if ((f->declared & SUM_DECL_GNU) || (f->flags & (SFF_BUILTIN_PURE | SFF_BUILTIN_CONST))) return 1;
  const kb_entry *e = kb_lookup(w->t->kb, strtab_get(w->t->sum->strs, f->name));
  return e && e->cls != PURITY_NORMAL && !e->writes && !e->writes_all && !e->math_errno && !e->callbacks;
}

/* The function a call names, looking through `(f)(x)`, `(*f)(x)` and
 * `(&f)(x)`; a null cursor for a call through a pointer. */
CXCursor fw_callee_decl(fw *w, CXCursor call)
{
  CXCursor ref = clang_getCursorReferenced(call);
  if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) return ref;
  size_t k = fw_kids(w, call);
  CXCursor e = w->ks.n > k ? FW_KID(w, k, 0) : clang_getNullCursor();
  w->ks.n = k;
  for (int depth = 0; depth < 8 && !clang_Cursor_isNull(e); depth++) {
    e = fe_strip(w->t, e);
    enum CXCursorKind kind = clang_getCursorKind(e);
    if (kind == CXCursor_DeclRefExpr) {
      ref = clang_getCursorReferenced(e);
      return clang_getCursorKind(ref) == CXCursor_FunctionDecl ? ref : clang_getNullCursor();
    }
    if (kind != CXCursor_UnaryOperator) break;
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
    if (op != CXUnaryOperator_Deref && op != CXUnaryOperator_AddrOf) break;
    size_t k2 = fw_kids(w, e);
    CXCursor inner = w->ks.n - k2 == 1 ? FW_KID(w, k2, 0) : clang_getNullCursor();
    w->ks.n = k2;
    e = inner;
  }
  return clang_getNullCursor();
}

/* Calls the walk understands by name: atomics are accesses of their
 * object, alloca returns local storage, and the argument of
 * __builtin_constant_p is not evaluated (GCC answers from the expression
 * and runs none of it: the kernel's ilog2 (f ()) makes one call of f, not
 * five). Returns 1 if c was one. */
static int fw_call_builtin(fw *w, CXCursor c, CXCursor ref, const char *name, uint64_t *result)
{
  if (!strcmp(name, "__builtin_constant_p")) { *result = 0; return 1; }
  if (fw_atomic_call(w, c, name, result)) return 1;
  if (!fw_is_alloca(ref, name)) return 0;
  int nargs = clang_Cursor_getNumArguments(c);
  for (int i = 0; i < nargs; i++) fw_expr(w, clang_Cursor_getArgument(c, (unsigned)i), ACC_VALUE);
  *result = PROV_LOCAL;
  return 1;
}

static uint64_t fw_call(fw *w, CXCursor c)
{
  CXCursor ref = fw_callee_decl(w, c);
  int direct = !clang_Cursor_isNull(ref);
  int nargs = clang_Cursor_getNumArguments(c);
  int ret_arg0 = 0, ret_into = 0, alloc = 0;
  fw_fnfield_escape(w, c, ref);
  uint64_t frees = 0;
  if (direct) {
    CXString sp = clang_getCursorSpelling(ref);
    const char *name = clang_getCString(sp);
    uint64_t r = 0;
    int handled = fw_call_builtin(w, c, ref, name, &r);
    ret_arg0 = fw_returns_arg0(name);
    ret_into = fw_returns_into_arg(name);
    if (!handled) alloc = fw_scratch_callee(w, ref, name, &frees);
    clang_disposeString(sp);
    if (handled) return r;
  }
  w->ncalls++;
  fw_pf_clobber(w);   /* the callee may store into parameters' fields */
  uint32_t enter = direct ? ++w->call_enters : UINT32_MAX;
  if (!direct) {
    size_t k = fw_kids(w, c);
    CXCursor callee = FW_KID(w, k, 0);
    w->ks.n = k;
    /* An allocation hook (GMP's __gmp_allocate_func): reading it and
     * calling it is the allocation, scratch work if the block stays here. */
    const kb_entry *hook = fw_scratch_hook(w, callee);
    uint16_t flags0 = w->eff_flags;
    if (hook) w->eff_flags |= SEF_SCRATCH;
    fw_expr(w, callee, ACC_VALUE);
    w->eff_flags = flags0;
    VEC(uint64_t) am = {0};
    /* Through the function's own parameter (a pcall fact): what the
     * callee keeps is the link's to say, per call of this function
     * (link/capture.c); a block of its own still leaves. */
    int via_param = !hook && fw_fnptr_param_of(w, callee) >= 0;
    uint64_t held = 0;
    for (int i = 0; i < nargs; i++) {
      CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
      uint64_t m = hook && hook->alloc ? fw_scratch_alloc_arg(w, a) : fw_expr(w, a, ACC_VALUE);
      /* Passed through an unknown pointer: kept who knows where, unless
       * the hook releases it. */
      if (via_param) {
        held |= m;
        fw_scratch_leaves(w, m & ~(~(uint64_t)0 << PROV_PARAM0));
      } else if (!(hook && (hook->frees >> i & 1))) {
        fw_scratch_leaves(w, m);
      }
      vec_push(&am, m);
    }
    fw_u32vec targets = {0};
    if (fw_fntable_targets(w, callee, &targets)) {
      fw_scratch_leaves(w, held);   /* no pcall fact: kept as through any pointer */
      fw_fntable_record(w, c, &targets, am.v, (uint32_t)am.n);
    } else {
      int scratch = hook && fw_scratch_frees_ok(hook->frees, am.v, am.n);
      if (scratch) { w->eff_flags |= SEF_SCRATCH; w->sflags |= SSF_SCRATCH; }
      int mp = hook ? -1 : fw_fnptr_member_param(w, callee);
      fw_effect(w, c, SE_CALL_INDIRECT, 0, (uint8_t)(mp + 1), hook ? strtab_intern(w->t->sum->strs, hook->name)
                                                                : fw_ptr_name(w, callee));
      w->eff_flags = flags0;
      if (!hook) fw_pb_indirect_call(w, am.v, am.n);   /* an allocation hook stores no pointer */
      fw_fnptr_pcall(w, callee, am.v, (uint32_t)am.n);
      fw_fnret_mcall(w, callee, am.v, (uint32_t)am.n);
      fw_fnfield_call(w, callee, am.v, (uint32_t)am.n);
    }
    vec_free(&targets);
    vec_free(&am);
    if (!fe_expr_is_pointer(c)) return 0;
    return hook && hook->alloc ? PROV_FRESH : PROV_UNKNOWN;
  }
  uint32_t fi = fe_func_for(w->t, ref);
  int nr = fe_func_noreturn(w->t, fi);
  /* An allocator by its body, walked above (retro.c): its arguments are
   * plain ones, its value the caller's own block. */
  int body_alloc = !alloc && !frees && fe_retro_returns_fresh(w->t, fi);
  w->doomed += nr;
  sum_tu *s = w->t->sum;
  VEC(uint64_t) masks = {0};
  int slot_vi = -1, slot_arg = -1;
  uint64_t slot_pte = 0, nonnull = 0;
  /* Where each argument's calls and effects begin (hoist.c: fw_args_late). */
  enum { FW_LATE_ARGS = 16 };
  fw_mark arg_at[FW_LATE_ARGS + 1];
  for (int i = 0; i < nargs; i++) {
    CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
    if (i <= FW_LATE_ARGS) arg_at[i] = fw_mark_now(w);
    if (i < 64 && fw_arg_nonnull(w->t, a)) nonnull |= (uint64_t)1 << i;
    /* `&v` handed to a callee that hands a pointer back (slot.c). */
    int sv = alloc || slot_vi >= 0 ? -1 : fw_slot_arg(w, c, fi, i);
    if (sv >= 0) {
      slot_vi = sv;
      slot_arg = i;
      slot_pte = fw_flow_value(w, (uint32_t)sv);
      w->vars.v[sv].read = w->vars.v[sv].used = 1;
      vec_push(&masks, PROV_LOCAL);
      continue;
    }
    vec_push(&masks, alloc ? fw_scratch_alloc_arg(w, a) : fw_agg_arg(w, a, fw_expr(w, a, ACC_VALUE)));
  }
  /* v's value once every argument is evaluated (one may assign it). */
  if (slot_vi >= 0) slot_pte = fw_flow_value(w, (uint32_t)slot_vi);
  int handed_fresh = slot_vi >= 0 && fw_slot_after_call(w, fi, (uint32_t)slot_vi, masks.v, (uint32_t)masks.n, c);
  /* What the call's value may be: a fresh block passed in may come back. */
  uint64_t passed = 0;
  for (size_t i = 0; i < masks.n; i++) passed |= masks.v[i];
  int frees_ok = fw_scratch_frees_ok(frees, masks.v, masks.n);
  fw_release_note_call(w, c, frees);
  sum_call call;
  memset(&call, 0, sizeof call);
  call.callee = fi;
  call.flags = (uint16_t)((w->doomed ? SCF_DOOMED : 0) | (nr ? SCF_NORETURN : 0) | (w->impossible ? SCF_IMPOSSIBLE : 0));
  if ((alloc && frees_ok) || body_alloc) { call.flags |= SCF_ALLOC; w->sflags |= SSF_SCRATCH; }
  else if (frees && frees_ok) call.flags |= SCF_FREE;
  /* A block the callee allocated, handed back into v: the caller's own. */
  if (handed_fresh) { call.flags |= SCF_ALLOC; w->sflags |= SSF_SCRATCH; }
  /* What the arguments point to, where a callee's virtual parameters can
   * use it (ptrblock.c): the slot's `&v`, the function's own blocks, the
   * blocks of its parameters. */
  VEC(uint64_t) ptes = {0};
  /* A block handed back holds what the callee stored into its blocks:
   * pointee masks make the link add that (link/ptrblock.c's pb_call). */
  int pte_useful = slot_vi >= 0 || body_alloc;
  int pb_ok = !alloc && !frees && s->funcs.v[fi].nparams == masks.n && !(s->funcs.v[fi].flags & SFF_VARIADIC);
  int lent_var = -1, lent_arg = -1;
  for (size_t i = 0; i < masks.n; i++) {
    uint64_t pte = (int)i == slot_arg ? slot_pte : pb_ok ? fw_pb_pte(w, masks.v[i]) : PROV_UNKNOWN;
    int lv = (int)i != slot_arg && pb_ok && i < 64 && lent_var < 0
             ? fw_pb_lent_local(w, clang_Cursor_getArgument(c, (unsigned)i)) : -1;
    if (lv >= 0) {   /* one lent local per call; its mask: fw_pb_lends_finish */
      call.pte_join |= (uint64_t)1 << i;
      lent_var = lv;
      lent_arg = (int)i;
      pte_useful = 1;
    }
    pte_useful |= fw_pb_pte_useful(pte);
    vec_push(&ptes, pte);
  }
  if (pte_useful) call.flags |= SCF_PTE;
  call.nonnull = nonnull;
  call.arg_off = (uint32_t)s->argmasks.n;
  call.nargs = (uint32_t)masks.n;
  call.guard = w->guards.n ? w->guards.v[w->guards.n - 1] : 0;
  call.eff_pos = (uint32_t)(s->effs.n - w->eff_base);
  call.loc = fe_cursor_loc(w->t, c);
  call.macro = fe_macro_of(w->t, clang_getCursorLocation(c));
  call.spell_macro = call.macro ? fe_spelling_macro_of(w->t, clang_getCursorLocation(c)) : 0;
  if (call.spell_macro == call.macro) call.spell_macro = 0;
  for (size_t i = 0; i < masks.n; i++) vec_push(&s->argmasks, masks.v[i]);
  /* SCF_PTE: then what each argument points to holds, where known. */
  for (size_t i = 0; pte_useful && i < masks.n; i++) vec_push(&s->argmasks, ptes.v[i]);
  vec_free(&ptes);
  uint64_t arg0 = masks.n ? masks.v[0] : PROV_UNKNOWN;
  uint64_t into = ret_into && (size_t)ret_into <= masks.n ? masks.v[ret_into - 1] : PROV_UNKNOWN;
  vec_free(&masks);
  if (w->t->args_rtl && nargs <= FW_LATE_ARGS) {
    arg_at[nargs] = fw_mark_now(w);
    fw_args_late(w, arg_at, (size_t)nargs);
  }
  vec_push(&s->calls, call);
  if (lent_var >= 0) fw_pb_lend(w, (uint32_t)(s->calls.n - 1), (uint32_t)lent_arg, (uint32_t)lent_var);
  fw_fnptr_args(w, c, (uint32_t)(s->calls.n - 1 - w->call_base));
  fw_callsite_record(w, c, (uint32_t)(s->calls.n - 1 - w->call_base));
  w->cinfo.v[s->calls.n - 1 - w->call_base].enter = enter;
  w->doomed -= nr;
  if (!fe_expr_is_pointer(c)) return 0;
  if (alloc || body_alloc) return PROV_FRESH;
  if (fw_release_returns_null(w, fi)) return 0;   /* `t = mfree (t)` */
  if (fe_retro_returns_rodata(w->t, fi)) return PROV_RODATA;
  if (ret_into) return into;                  /* strchr(s, …) points into s */
  if (ret_arg0) return arg0;                  /* memcpy(d, …) is d */
  /* Anything may come back (read-only data from a lookup another TU
   * vouches for: rotable.c), a fresh block passed in too: the caller
   * follows it (a callee returning its argument does not keep it). */
  return fw_rotable_call(w, c, ref, fi) | (passed & PROV_FRESH);
}

/* c ? a : b — the condition's calls are available in both arms. */
/* Does evaluating e always end in a noreturn call? `die()`, `(log(), abort())`,
 * `c ? abort() : exit(1)` do; assert's `c ? (void)0 : __assert_fail(…)`
 * does not (only one arm). */
int fw_expr_ends(fw *w, CXCursor e)
{
  e = fe_strip(w->t, e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_CallExpr) return fw_callee_noreturn(w, e);
  if (k != CXCursor_BinaryOperator && k != CXCursor_ConditionalOperator) return 0;
  size_t kk = fw_kids(w, e), n = w->ks.n - kk;
  CXCursor kids[3];
  for (size_t i = 0; i < n && i < 3; i++) kids[i] = w->ks.v[kk + i];
  w->ks.n = kk;
  if (k == CXCursor_ConditionalOperator)
    return n == 3 && (fw_expr_ends(w, kids[0]) || (fw_expr_ends(w, kids[1]) && fw_expr_ends(w, kids[2])));
  if (n != 2 || clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Comma) return 0;
  return fw_expr_ends(w, kids[0]) || fw_expr_ends(w, kids[1]);
}

/* One arm of ?: — if it always ends in a noreturn call, what it did is
 * doomed, as for an if branch. */
static uint64_t fw_arm(fw *w, CXCursor arm)
{
  fw_mark m = fw_mark_now(w);
  uint64_t v = fw_expr(w, arm, ACC_VALUE);
  if (fw_expr_ends(w, arm)) fw_doom_since(w, m);
  fw_tail_arm(w, arm, m);
  return v;
}

static uint64_t fw_conditional(fw *w, CXCursor c)
{
  size_t k = fw_kids(w, c), n = w->ks.n - k;
  CXCursor kids[3];
  for (size_t i = 0; i < n && i < 3; i++) kids[i] = w->ks.v[k + i];
  w->ks.n = k;
  if (n != 3) return 0;
  fw_expr(w, kids[0], ACC_VALUE);
  size_t mark = fw_avail_enter(w);
  if (w->cond_depth++ == 0) w->leaf_arms.n = 0;
  w->iter_cond++;
  size_t before = fw_flow_save(w);
  fw_mark then0 = fw_mark_now(w);
  uint64_t m = fw_arm(w, kids[1]);
  fw_avail_leave(w, mark);
  size_t after_a = fw_flow_save(w);
  fw_flow_restore(w, before);
  fw_arms outer_arm = fw_arm_enter(w, then0);
  m |= fw_arm(w, kids[2]);
  fw_arm_leave(w, outer_arm);
  fw_avail_leave(w, mark);
  fw_flow_join(w, after_a);   /* pointers: either arm's values (flow.c) */
  fw_flow_drop(w, before);
  w->iter_cond--;
  w->cond_depth--;
  return m;
}

static uint64_t fw_children(fw *w, CXCursor c, size_t skip)
{
  size_t k = fw_kids(w, c);
  uint64_t m = 0;
  for (size_t i = k + skip; i < w->ks.n; i++) {
    CXCursor e = w->ks.v[i];
    if (clang_isExpression(clang_getCursorKind(e))) m |= fw_expr(w, e, ACC_VALUE);
    else if (clang_isStatement(clang_getCursorKind(e))) fw_stmt(w, e);
  }
  w->ks.n = k;
  return m;
}

/* ({ …; e; }): the value is e's. Its last call's value is used, though
 * fw_stmt took it for a discarded expression statement, whatever the
 * type (an int's was left discarded: the kernel's irqs_disabled ()). */
static uint64_t fw_stmt_expr(fw *w, CXCursor c)
{
  size_t k = fw_kids(w, c);
  CXCursor body = w->ks.n - k == 1 ? FW_KID(w, k, 0) : clang_getNullCursor();
  w->ks.n = k;
  if (clang_Cursor_isNull(body)) return fw_children(w, c, 0) | PROV_UNKNOWN;
  k = fw_kids(w, body);
  CXCursor last = w->ks.n > k ? w->ks.v[w->ks.n - 1] : clang_getNullCursor();
  w->ks.n = k;
  w->last_value = PROV_UNKNOWN;
  fw_stmt(w, body);
  int value = !clang_Cursor_isNull(last) && clang_isExpression(clang_getCursorKind(last));
  int ci = value ? fw_last_call_is(w, fe_strip(w->t, last)) : -1;
  if (ci >= 0) w->t->sum->calls.v[w->call_base + (size_t)ci].use = SCU_USED;
  if (!fe_expr_is_pointer(c)) return 0;
  return value ? w->last_value : PROV_UNKNOWN;
}

/* A pointer passed as a transparent union: clang shows a compound literal
 * of the union around it. The pointer's provenance; walks its parts. */
static uint64_t fw_union_literal(fw *w, CXCursor c)
{
  size_t k = fw_kids(w, c);
  uint64_t m = 0;
  for (size_t i = k; i < w->ks.n; i++) {
    CXCursor e = w->ks.v[i];
    if (clang_getCursorKind(e) == CXCursor_InitListExpr) m |= fw_union_literal(w, e);
    else if (clang_isExpression(clang_getCursorKind(e))) m |= fw_expr(w, e, ACC_VALUE);
  }
  w->ks.n = k;
  return m;
}

uint64_t fw_expr(fw *w, CXCursor c, int acc)
{
  lv_t lv;
  if (clang_getCursorKind(c) == CXCursor_CompoundLiteralExpr && acc == ACC_VALUE &&
      fe_type_is_pointer_union(fe_canon_type(c)))
    return fw_union_literal(w, c);
  switch (clang_getCursorKind(c)) {
  case CXCursor_DeclRefExpr: case CXCursor_MemberRefExpr: case CXCursor_ArraySubscriptExpr:
  case CXCursor_StringLiteral: case CXCursor_CompoundLiteralExpr:
    if (fw_lvalue(w, c, &lv)) return fw_lvalue_expr(w, c, acc, &lv);
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FunctionDecl)
      fe_fnfield_fn_addr(w->t, w, clang_getCursorReferenced(c));   /* a function as a value */
    return 0;                                   /* enum constant, function name */
  case CXCursor_ParenExpr: {
    size_t k = fw_kids(w, c);
    uint64_t m = 0;
    for (size_t i = k; i < w->ks.n; i++) m |= fw_expr(w, w->ks.v[i], acc);
    w->ks.n = k;
    return m;
  }
  case CXCursor_UnaryOperator: return fw_unary(w, c, acc);
  case CXCursor_BinaryOperator: case CXCursor_CompoundAssignOperator: return fw_binary(w, c);
  case CXCursor_ConditionalOperator: return fw_conditional(w, c);
  case CXCursor_CallExpr: return fw_call(w, c);
  case CXCursor_CStyleCastExpr: {
    size_t k = fw_kids(w, c);
    size_t n = w->ks.n - k;
    CXCursor e = n ? FW_KID(w, k, n - 1) : c;   /* children: [TypeRef…] expr */
    w->ks.n = k;
    if (n) fw_fnfield_cast(w, c, e);
    return n ? fw_convert(w, c, e, ACC_VALUE) : 0;
  }
  case CXCursor_UnexposedExpr: return fw_unexposed(w, c, acc);
  case CXCursor_UnaryExpr:                      /* sizeof, _Alignof: not evaluated */
  case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral: case CXCursor_ImaginaryLiteral:
  case CXCursor_CharacterLiteral: case CXCursor_GNUNullExpr: case CXCursor_AddrLabelExpr:
    return 0;
  case CXCursor_StmtExpr: return fw_stmt_expr(w, c);
  case CXCursor_GenericSelectionExpr:           /* the controlling expression is not evaluated */
    return fw_children(w, c, 1);
  case CXCursor_InitListExpr:
    fe_fnfield_init(w->t, w, c);
    fw_children(w, c, 0);
    return 0;
  default: {
    uint64_t m = fw_children(w, c, 0);
    return fe_expr_is_pointer(c) ? (m | PROV_UNKNOWN) : 0;
  }
  }
}
