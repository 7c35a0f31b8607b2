/* loop.c — which loops provably terminate.
 *
 * A call to a function that may loop forever cannot be deleted even when
 * its result is unused (GCC's "looping const/pure"), so every loop that is
 * not provably finite records SE_LOOP. Proven finite is the counted loop
 *     for (i = a; i REL bound; i STEP)
 * with i a local of type int-or-wider (or a pointer) that the body does not
 * write and nobody takes the address of, a step that moves i toward the
 * bound, no unsigned wrap-around (unsigned i needs a strict REL and step 1,
 * or a constant bound the step cannot carry it past; a signed i or a
 * pointer cannot wrap without undefined behaviour),
 * and a bound that does not change in the loop (a condition `c1 && c2` is
 * enough if either part is such a comparison): made of constants, locals
 * the loop does not write, read-only globals, and — when the loop writes no
 * memory and calls nothing — memory reads and side-effect-free calls.
 * A call in the bound to a project function with no declared attribute
 * cannot be judged here (its class is inferred at link): the loop then
 * records one SE_LOOP per such call, flagged SEF_UNLESS_PURE_CALL, which
 * the link ignores if that callee turns out pure or const. Without this,
 * `fix` would make such a callee pure, and only its second run would see
 * the caller's loop as finite. While and do-while loops: see
 * fw_while_settle, at the end. */
#include "frontend/walk.h"

int fw_loop_cond_false(CXCursor cond)
{
  long long v;
  return fw_int_literal_value(cond, &v) && v == 0;
}

/* A loop no path leaves: its condition is absent (has_cond 0) or a
 * non-zero integer constant, and its body has no break, continue, return
 * or goto out (GLib's g_error ends in `for (;;) ;`). It ends like a
 * noreturn call: what led to it is doomed (walk_stmt.c). C11 6.8.5p6 lets
 * a compiler assume only loops with a non-constant condition terminate.
 * A continue is taken for a way out too: simpler, and only conservative. */
int fw_loop_endless(fw *w, int has_cond, CXCursor cond, int body_flags)
{
  long long v = 0;
  if (body_flags & (FS_RET | FS_BRK)) return 0;
  if (has_cond && !(fw_int_literal_value(cond, &v) && v != 0)) return 0;
  sum_tu *s = w->t->sum;   /* the loop's own SE_LOOP, recorded last */
  if (s->effs.n > w->eff_base && s->effs.v[s->effs.n - 1].kind == SE_LOOP)
    s->effs.v[s->effs.n - 1].flags |= SEF_ENDLESS;
  return 1;
}


/* Is e a test GCC can copy before a loop beyond its first: made of locals,
 * constants and arithmetic only (a counter test, `j < q`)? A memory read
 * or a call is not. */
static int fw_counter_test(fw *w, CXCursor e)
{
  e = fe_strip(w->t, e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_IntegerLiteral || k == CXCursor_CharacterLiteral || k == CXCursor_UnaryExpr) return 1;
  if (k == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(e);
    return clang_getCursorKind(ref) == CXCursor_EnumConstantDecl || fw_is_local_decl(ref);
  }
  int ok;
  if (k == CXCursor_BinaryOperator) ok = clang_getCursorBinaryOperatorKind(e) < CXBinaryOperator_Assign;
  else if (k == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);   /* `n--` counts too */
    ok = (op >= CXUnaryOperator_Plus && op <= CXUnaryOperator_LNot) ||
         (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec);
  } else ok = 0;
  size_t kk = fw_kids(w, e), n = w->ks.n - kk;
  for (size_t i = 0; i < n && ok; i++) ok = fw_counter_test(w, FW_KID(w, kk, i));
  w->ks.n = kk;
  return ok;
}

/* Does a test after the first of cond's `&&`/`||` chain read memory or
 * call? (`*a && *b`, `i < n && a[i]`; `a[i] && i < n` is fine: the first
 * test is the loop's own.) */
static int fw_cond_later_reads(fw *w, CXCursor cond)
{
  cond = fe_strip(w->t, cond);
  if (clang_getCursorKind(cond) != CXCursor_BinaryOperator) return 0;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
  if (op != CXBinaryOperator_LAnd && op != CXBinaryOperator_LOr) return 0;
  size_t kk = fw_kids(w, cond);
  int later = 0;
  if (w->ks.n - kk == 2) {
    CXCursor l = FW_KID(w, kk, 0), r = FW_KID(w, kk, 1);
    later = !fw_counter_test(w, r) || fw_cond_later_reads(w, l);
  }
  w->ks.n = kk;
  return later;
}

/* Does s contain a return, goto, break or continue (any: conservative)? */
static int fw_has_jump(fw *w, CXCursor s)
{
  enum CXCursorKind k = clang_getCursorKind(s);
  if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt ||
      k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt)
    return 1;
  if (clang_isExpression(k)) return 0;
  size_t kk = fw_kids(w, s), n = w->ks.n - kk;
  int found = 0;
  for (size_t i = 0; i < n && !found; i++) found = fw_has_jump(w, FW_KID(w, kk, i));
  w->ks.n = kk;
  return found;
}

/* Does the body end in a conditional way out (its last statement an `if`
 * that returns, breaks, continues or jumps)? */
static int fw_body_ends_in_exit(fw *w, CXCursor body)
{
  enum CXCursorKind k = clang_getCursorKind(body);
  if (k == CXCursor_IfStmt) return fw_has_jump(w, body);
  if (k != CXCursor_CompoundStmt) return 0;
  size_t kk = fw_kids(w, body), n = w->ks.n - kk;
  int ends = n > 0 && fw_body_ends_in_exit(w, FW_KID(w, kk, n - 1));
  w->ks.n = kk;
  return ends;
}

/* GCC moves a call out of a loop only if it runs whenever the loop is
 * entered: for a `while` (or a `for` without a step) only after copying the
 * test before the loop. GCC 12 -O2 does not (checked on the assembly) when
 * the body ends in a conditional way out (the loop looks like a do-while
 * to it already), nor past a test of a `&&`/`||` chain after the first
 * that is no counter test; its calls then stay in the loop. Marks the
 * calls recorded since call0 (the body's, and a step's) as not run in
 * every iteration. `rotated_by_step`: a `for` step after the body, which
 * keeps the body's way out from looking like the loop's end. */
void fw_loop_unrotated(fw *w, CXCursor cond, CXCursor body, int rotated_by_step, size_t call0)
{
  int stays = (!clang_Cursor_isNull(cond) && fw_cond_later_reads(w, cond)) ||
              (!rotated_by_step && fw_body_ends_in_exit(w, body));
  if (!stays) return;
  for (size_t i = call0; i < w->t->sum->calls.n && i - w->call_base < w->cinfo.n; i++)
    w->cinfo.v[i - w->call_base].skippable = 1;
}

/* The loop variable an init statement assigns: `i = a` or `T i = a`. */
static int fw_init_var(fw *w, CXCursor init)
{
  enum CXCursorKind k = clang_getCursorKind(init);
  size_t kk = fw_kids(w, init), n = w->ks.n - kk;
  int vi = -1;
  if (k == CXCursor_DeclStmt && n == 1 && clang_getCursorKind(FW_KID(w, kk, 0)) == CXCursor_VarDecl) {
    CXCursor d = FW_KID(w, kk, 0);
    if (fw_is_local_decl(d) && !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(d)))
      vi = (int)fw_var_for(w, d);
  } else if (k == CXCursor_BinaryOperator && n == 2 &&
             clang_getCursorBinaryOperatorKind(init) == CXBinaryOperator_Assign) {
    vi = fw_local_ref(w, FW_KID(w, kk, 0));
  }
  w->ks.n = kk;
  return vi;
}

/* The loop variable a step moves, with no init to name it: `i++`, `--n`,
 * `p += 2`. */
static int fw_step_var(fw *w, CXCursor inc)
{
  enum CXCursorKind k = clang_getCursorKind(inc);
  if (k != CXCursor_UnaryOperator && k != CXCursor_CompoundAssignOperator) return -1;
  size_t kk = fw_kids(w, inc);
  int vi = w->ks.n > kk ? fw_local_ref(w, FW_KID(w, kk, 0)) : -1;
  w->ks.n = kk;
  return vi;
}

/* Integer types that cannot wrap without undefined behaviour (signed,
 * int or wider), unsigned ones of int width or wider, and pointers. */
typedef enum { IV_BAD, IV_SIGNED, IV_UNSIGNED, IV_POINTER } iv_type;

static iv_type fw_iv_type(CXType t)
{
  switch (clang_getCanonicalType(t).kind) {
  case CXType_Int: case CXType_Long: case CXType_LongLong: case CXType_Int128: return IV_SIGNED;
  case CXType_UInt: case CXType_ULong: case CXType_ULongLong: case CXType_UInt128: return IV_UNSIGNED;
  case CXType_Pointer: return IV_POINTER;
  default: return IV_BAD;
  }
}

/* +1 / -1 for ++, --, += c, -= c (c > 0, stored in *step); 0 otherwise. */
static int fw_step(fw *w, CXCursor inc, int iv, long long *step)
{
  enum CXCursorKind k = clang_getCursorKind(inc);
  size_t kk = fw_kids(w, inc), n = w->ks.n - kk;
  int dir = 0;
  *step = 1;
  if (k == CXCursor_UnaryOperator && n == 1 && fw_local_ref(w, FW_KID(w, kk, 0)) == iv) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(inc);
    if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc) dir = 1;
    if (op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec) dir = -1;
  } else if (k == CXCursor_CompoundAssignOperator && n == 2 &&
             fw_local_ref(w, FW_KID(w, kk, 0)) == iv &&
             fw_int_literal_value(FW_KID(w, kk, 1), step) && *step > 0) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(inc);
    if (op == CXBinaryOperator_AddAssign) dir = 1;
    if (op == CXBinaryOperator_SubAssign) dir = -1;
  }
  w->ks.n = kk;
  return dir;
}

/* A call in the bound whose class only the link knows: to a function with
 * no declared attribute that is neither a builtin nor in the knowledge
 * base. Records its relative index (the calls of the condition recorded at
 * its location) in fw.pending_calls; 0 if the call is not such a call. */
static int fw_bound_call_deferred(fw *w, CXCursor call, const fw_loop_ctx *lc)
{
  CXCursor ref = fw_callee_decl(w, call);
  if (clang_Cursor_isNull(ref)) return 0;
  uint32_t fi = fe_func_for(w->t, ref);
  const sum_tu *s = w->t->sum;
  const sum_func *f = &s->funcs.v[fi];
  if ((f->declared & SUM_DECL_GNU) || (f->flags & (SFF_BUILTIN_PURE | SFF_BUILTIN_CONST))) return 0;
  if (kb_lookup(w->t->kb, strtab_get(s->strs, f->name))) return 0;
  sum_loc at = fe_cursor_loc(w->t, call);
  int found = 0;
  for (size_t i = lc->call_lo; i < lc->call_hi; i++) {
    const sum_call *c = &s->calls.v[i];
    if (c->callee != fi || c->loc.file != at.file || c->loc.line != at.line || c->loc.col != at.col) continue;
    vec_push(&w->pending_calls, (uint32_t)(i - w->call_base));
    found = 1;
  }
  return found;
}

/* Is the bound expression unchanged by the loop? Records the locals it
 * relies on as pending (they must never have their address taken). */
static int fw_bound_ok(fw *w, CXCursor e, const fw_loop_ctx *lc)
{
  e = fe_strip(w->t, e);
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_IntegerLiteral || k == CXCursor_CharacterLiteral || k == CXCursor_UnaryExpr)
    return 1;
  if (k == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(e);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_EnumConstantDecl) return 1;
    if (fw_is_local_decl(ref)) {
      uint32_t vi = fw_var_for(w, ref);
      vec_push(&w->pending_vars, vi);
      return w->vars.v[vi].last_write <= lc->seq0;
    }
    if (rk != CXCursor_VarDecl) return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(ref));
    return lc->clean || (clang_isConstQualifiedType(t) && !clang_isVolatileQualifiedType(t));
  }
  size_t kk = fw_kids(w, e), n = w->ks.n - kk;
  int ok = n > 0;
  if (k == CXCursor_CallExpr) {
    ok = lc->clean && (fw_callee_side_effect_free(w, e) || fw_bound_call_deferred(w, e, lc));
    for (size_t i = 1; i < n && ok; i++) ok = fw_bound_ok(w, w->ks.v[kk + i], lc);
  } else if (k == CXCursor_BinaryOperator) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
    ok = ok && op < CXBinaryOperator_Assign;
  } else if (k == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
    ok = ok && op >= CXUnaryOperator_Deref && op <= CXUnaryOperator_LNot &&
         (op != CXUnaryOperator_Deref || lc->clean);
  } else if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) {
    ok = ok && lc->clean;
  } else if (k != CXCursor_ConditionalOperator) {
    ok = 0;
  }
  if (k != CXCursor_CallExpr)
    for (size_t i = 0; i < n && ok; i++) ok = fw_bound_ok(w, w->ks.v[kk + i], lc);
  w->ks.n = kk;
  return ok;
}

/* An unsigned count by more than 1, or tested with `<=` / `>=`, against
 * a constant bound B that keeps it from wrapping: down while i >= B with
 * B >= step (zlib's `while (len >= NMAX) { len -= NMAX; … }`), or
 * i > B with B + 1 >= step; up while i <= B or i < B with i + step
 * still below the smallest unsigned int's maximum. */
static int fw_unsigned_step_safe(CXCursor bound, enum CXBinaryOperatorKind op, long long step)
{
  long long b;
  if (!fw_int_literal_value(bound, &b) || b < 0 || b > 0xffffffffll) return 0;
  switch (op) {
  case CXBinaryOperator_GE: return b >= step;
  case CXBinaryOperator_GT: return b + 1 >= step;
  case CXBinaryOperator_LE: return b + step <= 0xffffffffll;
  case CXBinaryOperator_LT: return b + step - 1 <= 0xffffffffll;
  default: return 0;
  }
}

/* Does `cond` compare iv against an unchanged bound, in the direction the
 * step moves iv, without wrap-around? */
static int fw_cond_ok(fw *w, CXCursor cond, int iv, int dir, long long step, const fw_loop_ctx *lc)
{
  cond = fe_strip(w->t, cond);
  if (fw_local_ref(w, cond) == iv) {   /* `while (len)`: len != 0, reached by steps of 1 */
    iv_type ty = fw_iv_type(clang_getCursorType(cond));
    return (ty == IV_SIGNED || ty == IV_UNSIGNED) && step == 1;
  }
  if (clang_getCursorKind(cond) != CXCursor_BinaryOperator) return 0;
  size_t kk = fw_kids(w, cond);
  if (w->ks.n - kk != 2) { w->ks.n = kk; return 0; }
  CXCursor l = FW_KID(w, kk, 0), r = FW_KID(w, kk, 1);
  w->ks.n = kk;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
  /* `i < n && more`: the loop stops at the latest when i reaches n. */
  if (op == CXBinaryOperator_LAnd) {
    size_t c0 = w->pending_calls.n;
    if (fw_cond_ok(w, l, iv, dir, step, lc)) return 1;
    w->pending_calls.n = c0;   /* the left part's calls bound nothing */
    return fw_cond_ok(w, r, iv, dir, step, lc);
  }
  int iv_left = fw_local_ref(w, l) == iv;
  if (!iv_left && fw_local_ref(w, r) != iv) return 0;
  if (!iv_left) {  /* bound OP i  ==  i OP' bound */
    if (op == CXBinaryOperator_LT) op = CXBinaryOperator_GT;
    else if (op == CXBinaryOperator_GT) op = CXBinaryOperator_LT;
    else if (op == CXBinaryOperator_LE) op = CXBinaryOperator_GE;
    else if (op == CXBinaryOperator_GE) op = CXBinaryOperator_LE;
  }
  iv_type ty = fw_iv_type(clang_getCursorType(fe_strip(w->t, iv_left ? l : r)));   /* as declared */
  int strict = op == CXBinaryOperator_LT || op == CXBinaryOperator_GT || op == CXBinaryOperator_NE;
  int toward = ((op == CXBinaryOperator_LT || op == CXBinaryOperator_LE) && dir > 0) ||
               ((op == CXBinaryOperator_GT || op == CXBinaryOperator_GE) && dir < 0) ||
               (op == CXBinaryOperator_NE && (step == 1 || ty == IV_POINTER));
  if (ty == IV_BAD || !toward) return 0;
  CXCursor bound = iv_left ? r : l;
  /* A pointer wraps no more than a signed integer does: moving it out of
   * its array is undefined, so a pointer stepped by any constant toward
   * (or past) its bound stops, as GCC 12 proves for libpng's `do { p -= 5;
   * … } while (p > p_end);`. */
  if (ty != IV_SIGNED && ty != IV_POINTER && !(strict && step == 1) &&
      !(ty == IV_UNSIGNED && fw_unsigned_step_safe(bound, op, step)))
    return 0;   /* may wrap or step over */
  return fw_bound_ok(w, bound, lc);
}

/* The header parts of a for statement with some missing: 0 init, 1 test,
 * 2 step, 3 body. The header's tokens say which of its three parts are
 * written; the children are those, in order. 0 if the tokens cannot tell
 * (a loop in a macro). */
static int fw_for_roles(fw *w, CXCursor s, const CXCursor *kids, size_t n, int *role)
{
  CXTranslationUnit tu = w->t->tu;
  CXSourceRange r = clang_getRange(clang_getRangeStart(clang_getCursorExtent(s)),
                                   clang_getRangeStart(clang_getCursorExtent(kids[n - 1])));
  CXToken *toks;
  unsigned nt, part = 0, depth = 0;
  int written[3] = { 0, 0, 0 };
  clang_tokenize(tu, r, &toks, &nt);
  for (unsigned i = 0; i < nt && part < 3; i++) {
    CXString sp = clang_getTokenSpelling(tu, toks[i]);
    const char *t = clang_getCString(sp);
    int punct = clang_getTokenKind(toks[i]) == CXToken_Punctuation;
    if (punct && t[0] == ')' && depth == 1) part = 3;   /* the header ends */
    else if (punct && t[0] == ';' && depth == 1) part++;
    else if (depth >= 1) written[part] = 1;
    if (punct && t[0] == '(') depth++;
    if (punct && t[0] == ')' && depth > 0) depth--;
    clang_disposeString(sp);
  }
  clang_disposeTokens(tu, toks, nt);
  size_t k = 0;
  for (int p = 0; p < 3; p++)
    if (written[p] && k + 1 < n) role[k++] = p;
  role[n - 1] = 3;
  return part == 3 && k == n - 1 && (size_t)(written[0] + written[1] + written[2]) == n - 1;
}

/* fw_loop_unrotated for a for statement missing a part of its header. */
static void fw_for_partial_unrotated(fw *w, CXCursor s, const CXCursor *kids, size_t n, size_t call0)
{
  int role[4];
  if (n < 2) return;   /* `for (;;)`: no test to copy, its body is the loop */
  if (!fw_for_roles(w, s, kids, n, role)) {   /* any may be the test, no step: conservative */
    for (size_t i = 0; i + 1 < n; i++)
      if (clang_isExpression(clang_getCursorKind(kids[i]))) fw_loop_unrotated(w, kids[i], kids[n - 1], 0, call0);
    fw_loop_unrotated(w, clang_getNullCursor(), kids[n - 1], 0, call0);
    return;
  }
  CXCursor cond = clang_getNullCursor();
  int step = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    if (role[i] == 1) cond = kids[i];
    if (role[i] == 2) step = 1;
  }
  if (clang_Cursor_isNull(cond)) return;   /* `for (i = 0; ; i++)`: nothing to copy either */
  fw_loop_unrotated(w, cond, kids[n - 1], step, call0);
}

static void fw_loop_unproven(fw *w, CXCursor s)
{
  fw_effect(w, s, SE_LOOP, 0, 0, strtab_intern(w->t->sum->strs, "for"));
}

static int fw_for_counted(fw *w, CXCursor s, CXCursor init, CXCursor cond, CXCursor inc, CXCursor body);

int fw_for(fw *w, CXCursor s)
{
  size_t kk = fw_kids(w, s), n = w->ks.n - kk;
  if (n != 4) {   /* a part of the header is missing */
    CXCursor kids[4];
    for (size_t i = 0; i < n && i < 4; i++) kids[i] = w->ks.v[kk + i];
    w->ks.n = kk;
    int role[4];
    /* `for (; i < n; i++)`: counted all the same, from whatever i holds. */
    if (n == 3 && fw_for_roles(w, s, kids, n, role) && role[0] == 1 && role[1] == 2)
      return fw_for_counted(w, s, clang_getNullCursor(), kids[0], kids[1], kids[2]);
    int f = 0;
    /* Which parts are there is unknown, so the whole statement counts as
     * the loop (an init then looks like part of it: conservative). */
    fw_mark m0 = fw_mark_now(w);
    uint32_t seq_loop = w->seq;
    size_t mark = fw_avail_enter(w), floor = fw_avail_barrier(w);
    fw_iter outer = fw_iter_enter(w);
    fw_flow_top(w);   /* pointers: the back edge arrives (flow.c) */
    CXCursor loop0 = w->loop_stmt;
    w->loop_stmt = s;
    for (size_t i = 0; i < n && i < 4; i++) {
      if (clang_isExpression(clang_getCursorKind(kids[i])) && i + 1 < n) fw_expr(w, kids[i], ACC_VALUE);
      else f |= fw_stmt(w, kids[i]);
    }
    w->loop_stmt = loop0;
    fw_for_partial_unrotated(w, s, kids, n, m0.call);
    fw_flow_top(w);
    fw_iter_leave(w, outer);
    fw_avail_restore(w, mark, floor);
    fw_loop_patch(w, m0.call, m0.eff, seq_loop);
    fw_loop_unproven(w, s);
    /* Only the body: `for (;;) body`. */
    return (f & FS_RET) | (n == 1 && fw_loop_endless(w, 0, s, f) ? FS_ENDS : 0);
  }
  CXCursor init = FW_KID(w, kk, 0), cond = FW_KID(w, kk, 1), inc = FW_KID(w, kk, 2), body = FW_KID(w, kk, 3);
  w->ks.n = kk;
  return fw_for_counted(w, s, init, cond, inc, body);
}

/* A for statement with a test and a step (init may be null): proven finite
 * if it counts (see the top of this file). */
static int fw_for_counted(fw *w, CXCursor s, CXCursor init, CXCursor cond, CXCursor inc, CXCursor body)
{
  if (!clang_Cursor_isNull(init)) fw_stmt(w, init);
  fw_mark m0 = fw_mark_now(w);
  uint32_t seq_loop = w->seq;
  size_t mark = fw_avail_enter(w), floor = fw_avail_barrier(w);
  fw_iter outer = fw_iter_enter(w);
  fw_flow_top(w);   /* pointers: the back edge arrives (flow.c) */
  fw_expr(w, cond, ACC_VALUE);
  size_t body_call0 = w->t->sum->calls.n;
  fw_loop_ctx lc = { w->seq, 0, m0.call, w->t->sum->calls.n };
  uint32_t mw0 = w->mem_writes, nc0 = w->ncalls;
  CXCursor loop0 = w->loop_stmt;
  w->loop_stmt = s;
  int f = fw_stmt(w, body);
  w->loop_stmt = loop0;
  int iv = clang_Cursor_isNull(init) ? fw_step_var(w, inc) : fw_init_var(w, init);
  int iv_clean = iv >= 0 && w->vars.v[iv].last_write <= lc.seq0;
  fw_expr(w, inc, ACC_VALUE);   /* after the body: a continue there makes it skippable (conservative) */
  fw_loop_unrotated(w, cond, body, 1, body_call0);
  fw_flow_top(w);   /* the exit: the condition failing, or a break */
  fw_iter_leave(w, outer);
  fw_avail_restore(w, mark, floor);
  fw_loop_patch(w, m0.call, m0.eff, seq_loop);
  lc.clean = w->mem_writes == mw0 && w->ncalls == nc0;
  long long step;
  int dir = iv >= 0 ? fw_step(w, inc, iv, &step) : 0;
  size_t pend0 = w->pending_vars.n, cpend0 = w->pending_calls.n;
  if (iv >= 0) vec_push(&w->pending_vars, (uint32_t)iv);
  if (iv_clean && dir && fw_cond_ok(w, cond, iv, dir, step, &lc)) {
    fw_pending p = { fe_cursor_loc(w->t, s), 0, pend0, w->pending_vars.n - pend0,
                     cpend0, w->pending_calls.n - cpend0 };
    vec_push(&w->pending, p);
  } else {
    w->pending_vars.n = pend0;
    w->pending_calls.n = cpend0;
    fw_loop_unproven(w, s);
  }
  return (f & FS_RET) | (fw_loop_endless(w, 1, cond, f) ? FS_ENDS : 0);
}

/* Loops proven finite only if their variables never had their address
 * taken: now that the whole body has been seen, settle them. One whose
 * bound calls functions of unknown class records one conditional SE_LOOP
 * per call (see the top of this file). */
void fw_loops_finish(fw *w)
{
  for (size_t i = 0; i < w->pending.n; i++) {
    const fw_pending *p = &w->pending.v[i];
    int ok = 1;
    for (size_t j = 0; j < p->n && ok; j++) ok = !w->vars.v[w->pending_vars.v[p->off + j]].addr_taken;
    sum_effect e = { .kind = SE_LOOP, .loc = p->loc,
                     .name = p->name ? p->name : strtab_intern(w->t->sum->strs, "for") };
    if (!ok) {
      vec_push(&w->t->sum->effs, e);
      continue;
    }
    e.flags = SEF_UNLESS_PURE_CALL;
    for (size_t j = 0; j < p->nc; j++) {
      e.call = w->pending_calls.v[p->coff + j] + 1;
      vec_push(&w->t->sum->effs, e);
    }
  }
}

/* While and do-while loops (zlib's adler32_z: `while (len--)`,
 * `do … while (--n)`, `while (len >= NMAX) { len -= NMAX; … }`, which
 * GCC 12 proves finite). Two shapes are counted:
 *  - the test counts a local down to zero (`n--`, `--n`, `n-- != 0`,
 *    `n-- > 0`, either side of an `&&`), an integer of int width or wider
 *    that nothing else in the loop writes: at most n + 1 rounds (for an
 *    unsigned `--n` from 0, once round its range), or until a signed one
 *    would overflow;
 *  - the body's top level steps the local the test compares (`i++;`,
 *    `len -= 16;`), its only write in the loop, with no continue before
 *    it: then the test and the step are a counted for loop's, same rules.
 * Neither shape may have a label in the loop, nor a goto to a label in it
 * (a jump could skip the step or loop inside the body); a goto to a label
 * outside the loop leaves it, as a break does. The variable must never have its
 * address taken (settled at the end of the walk, as a for loop's). */

/* The local integer (int width or wider) `e` decrements (`n--`, `--n`),
 * or -1. */
static int fw_dec_operand(fw *w, CXCursor e)
{
  e = fe_strip(w->t, e);
  if (clang_getCursorKind(e) != CXCursor_UnaryOperator) return -1;
  enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
  if (op != CXUnaryOperator_PostDec && op != CXUnaryOperator_PreDec) return -1;
  size_t kk = fw_kids(w, e);
  int vi = -1;
  if (w->ks.n - kk == 1) {
    CXCursor x = FW_KID(w, kk, 0);
    iv_type ty = fw_iv_type(clang_getCursorType(fe_strip(w->t, x)));
    if (ty == IV_SIGNED || ty == IV_UNSIGNED) vi = fw_local_ref(w, x);
  }
  w->ks.n = kk;
  return vi;
}

static int fw_is_zero(CXCursor e)
{
  long long v;
  return fw_int_literal_value(e, &v) && v == 0;
}

/* The local a test counts down to zero, or -1 (see above). */
static int fw_cond_countdown(fw *w, CXCursor cond)
{
  cond = fe_strip(w->t, cond);
  if (clang_getCursorKind(cond) != CXCursor_BinaryOperator) return fw_dec_operand(w, cond);
  size_t kk = fw_kids(w, cond);
  if (w->ks.n - kk != 2) { w->ks.n = kk; return -1; }
  CXCursor l = FW_KID(w, kk, 0), r = FW_KID(w, kk, 1);
  w->ks.n = kk;
  switch (clang_getCursorBinaryOperatorKind(cond)) {
  case CXBinaryOperator_LAnd: {
    int vi = fw_cond_countdown(w, l);
    return vi >= 0 ? vi : fw_cond_countdown(w, r);
  }
  case CXBinaryOperator_NE: return fw_is_zero(r) ? fw_dec_operand(w, l) : fw_is_zero(l) ? fw_dec_operand(w, r) : -1;
  case CXBinaryOperator_GT: return fw_is_zero(r) ? fw_dec_operand(w, l) : -1;
  case CXBinaryOperator_LT: return fw_is_zero(l) ? fw_dec_operand(w, r) : -1;
  default: return -1;
  }
}

/* How often e writes local vi (assignments, ++, --), and reads it. */
static void fw_var_uses(fw *w, CXCursor e, int vi, int *writes, int *refs)
{
  enum CXCursorKind k = clang_getCursorKind(e);
  if (k == CXCursor_DeclRefExpr && fw_local_ref(w, e) == vi) (*refs)++;
  size_t kk = fw_kids(w, e), n = w->ks.n - kk;
  int assigns = (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Assign) ||
                k == CXCursor_CompoundAssignOperator;
  if (k == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
    assigns = op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec;
  }
  if (assigns && n >= 1 && fw_local_ref(w, FW_KID(w, kk, 0)) == vi) (*writes)++;
  for (size_t i = 0; i < n; i++) fw_var_uses(w, FW_KID(w, kk, i), vi, writes, refs);
  w->ks.n = kk;
}

/* Does the goto g jump to a label outside `loop`? Such a goto leaves the
 * loop, as a break or a return does (libpng's png_check_fp_number: `default:
 * goto PNG_FP_End;` to the label after its `while (i < size)`); a backward
 * one is its own effect (SE_GOTO_BACK, walk_stmt.c). */
static int fw_goto_leaves(fw *w, CXCursor g, CXCursor loop)
{
  size_t kk = fw_kids(w, g);
  int out = 0;
  if (w->ks.n - kk == 1 && !clang_Cursor_isNull(loop)) {
    CXCursor label = clang_getCursorReferenced(FW_KID(w, kk, 0));
    CXSourceRange r = clang_getCursorExtent(loop);
    CXFile lf, af;
    unsigned at, lo, hi;
    clang_getExpansionLocation(clang_getCursorLocation(label), &lf, NULL, NULL, &at);
    clang_getExpansionLocation(clang_getRangeStart(r), &af, NULL, NULL, &lo);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &hi);
    out = clang_getCursorKind(label) == CXCursor_LabelStmt && lf && af && clang_File_isEqual(lf, af) &&
          (at < lo || at >= hi);
  }
  w->ks.n = kk;
  return out;
}

/* Does s hold a goto within `loop` or a label (anywhere), or, with `cont`,
 * a continue of the enclosing loop (one outside the loops s nests)? */
static int fw_has_skip(fw *w, CXCursor s, int cont, CXCursor loop)
{
  enum CXCursorKind k = clang_getCursorKind(s);
  if (k == CXCursor_GotoStmt) return !fw_goto_leaves(w, s, loop);
  if (k == CXCursor_IndirectGotoStmt || k == CXCursor_LabelStmt) return 1;
  if (cont && k == CXCursor_ContinueStmt) return 1;
  if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) cont = 0;
  size_t kk = fw_kids(w, s), n = w->ks.n - kk;
  int found = 0;
  for (size_t i = 0; i < n && !found; i++) found = fw_has_skip(w, FW_KID(w, kk, i), cont, loop);
  w->ks.n = kk;
  return found;
}

/* The body's top-level step of a local the test reads and nothing else in
 * the loop writes, before any continue; -1 if none (*step: the statement). */
static int fw_body_step(fw *w, CXCursor loop, CXCursor cond, CXCursor body, CXCursor *step)
{
  if (clang_getCursorKind(body) != CXCursor_CompoundStmt) return -1;
  size_t kk = fw_kids(w, body), n = w->ks.n - kk;
  int iv = -1;
  for (size_t i = 0; i < n && iv < 0; i++) {
    CXCursor s = FW_KID(w, kk, i);
    int vi = fw_step_var(w, s);
    int bw = 0, br = 0, cw = 0, cr = 0;
    if (vi >= 0) {
      fw_var_uses(w, body, vi, &bw, &br);
      fw_var_uses(w, cond, vi, &cw, &cr);
    }
    if (vi >= 0 && bw == 1 && cw == 0 && cr > 0) {
      iv = vi;
      *step = s;
    } else if (fw_has_skip(w, s, 1, loop)) {
      break;
    }
  }
  w->ks.n = kk;
  return iv;
}

/* Is the while / do-while loop counted (see above)? Pushes pending vars
 * and calls as fw_cond_ok does. */
static int fw_while_counted(fw *w, CXCursor loop, CXCursor cond, CXCursor body, const fw_loop_ctx *lc)
{
  if (fw_has_skip(w, body, 0, loop) || fw_has_skip(w, cond, 0, loop)) return 0;
  int iv = fw_cond_countdown(w, cond);
  if (iv >= 0) {
    int bw = 0, br = 0, cw = 0, cr = 0;
    fw_var_uses(w, body, iv, &bw, &br);
    fw_var_uses(w, cond, iv, &cw, &cr);
    vec_push(&w->pending_vars, (uint32_t)iv);
    return bw == 0 && cw == 1;
  }
  CXCursor s;
  iv = fw_body_step(w, loop, cond, body, &s);
  long long step;
  int dir = iv >= 0 ? fw_step(w, s, iv, &step) : 0;
  if (!dir) return 0;
  vec_push(&w->pending_vars, (uint32_t)iv);
  return fw_cond_ok(w, cond, iv, dir, step, lc);
}

void fw_while_settle(fw *w, CXCursor s, CXCursor cond, CXCursor body, int is_do, const fw_loop_ctx *lc)
{
  uint32_t name = strtab_intern(w->t->sum->strs, is_do ? "do-while" : "while");
  size_t pend0 = w->pending_vars.n, cpend0 = w->pending_calls.n;
  if (fw_while_counted(w, s, cond, body, lc)) {
    fw_pending p = { fe_cursor_loc(w->t, s), name, pend0, w->pending_vars.n - pend0,
                     cpend0, w->pending_calls.n - cpend0 };
    vec_push(&w->pending, p);
    return;
  }
  w->pending_vars.n = pend0;
  w->pending_calls.n = cpend0;
  fw_effect(w, s, SE_LOOP, 0, 0, name);
}
