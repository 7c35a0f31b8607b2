/* callsite.c — facts about call sites, for `explain`.
 *
 * The compiler merges two calls of a pure or const function when the
 * arguments are the same expressions with the same values and the first
 * call dominates the second; it hoists one out of a loop when its arguments
 * do not change in the loop. Which callee is pure is only known after the
 * link, so the walk records the structural part: the arguments' fingerprint
 * and the local variables they read, an earlier dominating call computing
 * the same value (`same_as`), and the effects and calls of the enclosing
 * loop. Dominance follows the structure of the code: a call dominates later
 * statements of its block and both branches of an `if` (or `?:`, `&&`) it is
 * the condition of; nothing from outside a loop is reused inside it, and
 * nothing from before a label is reused after it. */
#include "frontend/walk.h"
#include <string.h>
#include <xxhash.h>

enum { AVAIL_SCAN = 256 };   /* how far back to look for an identical call */

typedef fw_argscan argscan;

static void fp_mix(uint64_t *h, uint64_t v)
{
  *h = XXH64(&v, sizeof v, *h);
}

/* A constant's value. Its tokens will not do: a literal spelled by a
 * macro of another file tokenizes to nothing here, so TRUE and FALSE
 * looked the same (wavpack's WavpackGetAverageBitrate(wpc, TRUE) then
 * (wpc, FALSE) was "called again with the same arguments"). A constant
 * that does not evaluate makes the arguments unknown. */
static void fp_mix_value(CXCursor e, argscan *a)
{
  CXEvalResult r = clang_Cursor_Evaluate(e);
  CXEvalResultKind k = r ? clang_EvalResult_getKind(r) : CXEval_UnExposed;
  fp_mix(&a->h, (uint64_t)k);
  if (k == CXEval_Int) {
    fp_mix(&a->h, (uint64_t)clang_EvalResult_getAsUnsigned(r));
  } else if (k == CXEval_Float) {
    double d = clang_EvalResult_getAsDouble(r);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    fp_mix(&a->h, bits);
  } else {
    a->stable = 0;
  }
  if (r) clang_EvalResult_dispose(r);
}

static void fp_mix_spelling(CXCursor e, uint64_t *h)
{
  CXString s = clang_getCursorSpelling(e);
  const char *c = clang_getCString(s);
  *h = XXH64(c, strlen(c), *h);
  clang_disposeString(s);
}

static void fw_arg_scan(fw *w, CXCursor e, argscan *a);

static void fw_arg_scan_kids(fw *w, CXCursor e, argscan *a, size_t skip)
{
  size_t k = fw_kids(w, e), n = w->ks.n - k;
  CXCursor kids[8];
  if (n > 8) { a->stable = 0; w->ks.n = k; return; }
  for (size_t i = 0; i < n; i++) kids[i] = w->ks.v[k + i];
  w->ks.n = k;
  for (size_t i = skip; i < n && a->stable; i++) fw_arg_scan(w, kids[i], a);
}

/* A variable read by an argument: a local is remembered so a later write
 * to it invalidates the value; a writable global is a read of memory. */
static void fw_arg_var(fw *w, CXCursor ref, argscan *a)
{
  enum CXCursorKind rk = clang_getCursorKind(ref);
  if (rk == CXCursor_EnumConstantDecl || rk == CXCursor_FunctionDecl) return;
  if (rk != CXCursor_VarDecl && rk != CXCursor_ParmDecl) { a->stable = 0; return; }
  if (fw_is_local_decl(ref)) {
    vec_push(&w->cvars, fw_var_for(w, ref));
    return;
  }
  CXType t = clang_getCanonicalType(clang_getCursorType(ref));
  if (!fe_type_is_array(t) && !(clang_isConstQualifiedType(t) && !clang_isVolatileQualifiedType(t)))
    a->reads_mem = a->fbad = 1;
  if (clang_isVolatileQualifiedType(t)) a->stable = 0;
}

/* A read through a pointer: fine if the pointer comes from a parameter or
 * a global (the caller's memory: writes show as effects); not if it may
 * point to the function's own locals (writes to those are not effects). */
static void fw_arg_deref(fw *w, CXCursor ptr, argscan *a)
{
  CXCursor p = fe_strip(w->t, ptr);
  if (clang_getCursorKind(p) == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(p);
    if (fw_is_local_decl(ref) && (w->vars.v[fw_var_for(w, ref)].mask & PROV_LOCAL)) {
      a->stable = 0;
      return;
    }
  }
  a->reads_mem = 1;
  fw_arg_scan(w, ptr, a);
}

static void fw_arg_scan(fw *w, CXCursor e, argscan *a)
{
  if (!a->stable) return;
  enum CXCursorKind k = clang_getCursorKind(e);
  /* Parentheses are spelling, not value: a macro's `(i)` is the caller's
   * `i` (Lua's luaL_typename(L, arg) calls lua_type(L, (arg)), which GCC
   * merges with the lua_type(L, arg) before it). */
  if (k == CXCursor_ParenExpr) { fw_arg_scan_kids(w, e, a, 0); return; }
  fp_mix(&a->h, (uint64_t)k);
  switch (k) {
  case CXCursor_UnexposedExpr: case CXCursor_CStyleCastExpr:
  case CXCursor_ConditionalOperator:
    fp_mix(&a->h, (uint64_t)fe_canon_type(e).kind);
    fw_arg_scan_kids(w, e, a, 0);
    return;
  case CXCursor_TypeRef: {
    CXString ts = clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(e)));
    const char *c = clang_getCString(ts);
    a->h = XXH64(c, strlen(c), a->h);
    clang_disposeString(ts);
    return;
  }
  case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral: case CXCursor_CharacterLiteral:
  case CXCursor_UnaryExpr:
    fp_mix_value(e, a);
    return;
  case CXCursor_StringLiteral:
    fp_mix_spelling(e, &a->h);
    return;
  case CXCursor_DeclRefExpr: {
    CXCursor ref = clang_getCursorReferenced(e);
    fp_mix(&a->h, fe_decl_key(ref));
    fw_arg_var(w, ref, a);
    return;
  }
  case CXCursor_MemberRefExpr: {
    size_t kk = fw_kids(w, e);
    CXCursor base = w->ks.n > kk ? FW_KID(w, kk, 0) : clang_getNullCursor();
    w->ks.n = kk;
    fp_mix(&a->h, fe_decl_key(clang_getCursorReferenced(e)));
    if (clang_Cursor_isNull(base)) { a->stable = 0; return; }
    if (fe_expr_is_pointer(base)) {
      fw_fields_note_read(w, e, a);
      fw_arg_deref(w, base, a);
    } else {
      fw_arg_scan(w, base, a);
    }
    return;
  }
  case CXCursor_ArraySubscriptExpr: {
    size_t kk = fw_kids(w, e);
    if (w->ks.n - kk != 2) { w->ks.n = kk; a->stable = 0; return; }
    CXCursor base = FW_KID(w, kk, 0), idx = FW_KID(w, kk, 1);
    w->ks.n = kk;
    if (fe_expr_is_pointer(base) && !fe_expr_is_array(fe_strip(w->t, base))) {
      a->fbad = 1;
      fw_arg_deref(w, base, a);
    }
    else
      fw_arg_scan(w, base, a);
    fw_arg_scan(w, idx, a);
    return;
  }
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
    fp_mix(&a->h, (uint64_t)op);
    if (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec) { a->stable = 0; return; }
    if (op == CXUnaryOperator_Deref) {
      size_t kk = fw_kids(w, e);
      CXCursor p = w->ks.n - kk == 1 ? FW_KID(w, kk, 0) : clang_getNullCursor();
      w->ks.n = kk;
      a->fbad = 1;
      if (clang_Cursor_isNull(p)) a->stable = 0; else fw_arg_deref(w, p, a);
      return;
    }
    fw_arg_scan_kids(w, e, a, 0);
    return;
  }
  case CXCursor_BinaryOperator: {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
    fp_mix(&a->h, (uint64_t)op);
    if (op >= CXBinaryOperator_Assign) { a->stable = 0; return; }   /* assignments, comma */
    fw_arg_scan_kids(w, e, a, 0);
    return;
  }
  default:
    a->stable = 0;   /* calls, statement expressions, compound literals, … */
  }
}

void fw_arg_fingerprint(fw *w, CXCursor e, fw_argscan *a)
{
  fw_arg_scan(w, e, a);
}

/* Has nothing since the call at `av` (other than the call being recorded
 * now) been able to write a local whose address was taken: no call, no
 * write other than to a whole local by name, no effect that writes? */
static int fw_avail_untouched(fw *w, const fw_avail *av)
{
  if (w->mem_writes != av->mem_writes || w->ncalls != av->ncalls + 1) return 0;
  const sum_tu *s = w->t->sum;
  for (size_t i = av->neff; i < s->effs.n; i++) {
    switch ((sum_effect_kind)s->effs.v[i].kind) {
    case SE_WRITE_GLOBAL: case SE_WRITE_MEM: case SE_WRITE_PARAM: case SE_VOLATILE:
    case SE_ATOMIC: case SE_ASM: case SE_CALL_INDIRECT:
      return 0;
    default:
      break;
    }
  }
  return 1;
}

/* Is the value of the call at `av` still what a new identical call gives?
 * A local whose address was taken may change through a pointer: only
 * when nothing in between can write (Opus's silk_max(0, x +
 * silk_lin2log(g + gain)), with &gain passed to a call before: GCC merges
 * the two calls the macro spells). */
int fw_avail_valid(fw *w, const fw_avail *av)
{
  for (uint32_t i = 0; i < av->nsnap; i++) {
    uint32_t var = w->snaps.v[av->snap_off + 2 * i], lw = w->snaps.v[av->snap_off + 2 * i + 1];
    if (w->vars.v[var].last_write != lw) return 0;
    if (w->vars.v[var].addr_taken && !fw_avail_untouched(w, av)) return 0;
  }
  return 1;
}

void fw_avail_push_fp(fw *w, uint32_t rel, const fw_callinfo *ci, uint32_t callee, uint8_t copy)
{
  fw_avail av = { ci->fp, callee, copy, rel, (uint32_t)w->snaps.n, ci->nvars, w->mem_writes, w->ncalls,
                  w->t->sum->effs.n };
  for (uint32_t i = 0; i < ci->nvars; i++) {
    uint32_t var = w->cvars.v[ci->vars_off + i];
    vec_push(&w->snaps, var);
    vec_push(&w->snaps, w->vars.v[var].last_write);
  }
  vec_push(&w->avail, av);
}

static void fw_avail_push(fw *w, uint32_t rel, const fw_callinfo *ci)
{
  fw_avail_push_fp(w, rel, ci, w->t->sum->calls.v[w->call_base + rel].callee, 0);
}

/* Does an argument do something of its own: a call, an assignment,
 * ++/--, a statement expression? Deleting a dead call keeps that. */
static enum CXChildVisitResult fw_side_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  int *found = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CallExpr || k == CXCursor_StmtExpr || k == CXCursor_CompoundAssignOperator)
    *found = 1;
  else if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign)
    *found = 1;
  else if (k == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec) *found = 1;
  }
  return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int fw_args_side(CXCursor call)
{
  int found = 0, nargs = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < nargs && !found; i++) {
    CXCursor a = clang_Cursor_getArgument(call, (unsigned)i);
    fw_side_visit(a, call, &found);
    if (!found) clang_visitChildren(a, fw_side_visit, &found);
  }
  return found;
}

/* Called by fw_call once the call (relative index rel) is recorded. */
void fw_callsite_record(fw *w, CXCursor call, uint32_t rel)
{
  sum_tu *s = w->t->sum;
  sum_call *c = &s->calls.v[w->call_base + rel];
  if (w->arm.eff_hi > w->arm.eff_lo || w->arm.call_hi > w->arm.call_lo) {
    c->arm_eff_lo = w->arm.eff_lo; c->arm_eff_hi = w->arm.eff_hi;
    c->arm_call_lo = w->arm.call_lo; c->arm_call_hi = w->arm.call_hi;
  }
  argscan a = { .stable = 1 };
  fp_mix(&a.h, (uint64_t)c->callee + 1);
  fw_callinfo ci = { 0, (uint32_t)w->cvars.n, 0, 0, 0, 0, 0, { 0 }, 0, UINT32_MAX };
  int nargs = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < nargs && a.stable; i++) fw_arg_scan(w, clang_Cursor_getArgument(call, (unsigned)i), &a);
  for (int i = 0; i < nargs; i++)
    if (clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i))).kind == CXType_Record)
      ci.agg_args = 1;
  fw_inline_params(w, call, &ci);
  ci.fp = a.h;
  ci.nvars = (uint32_t)(w->cvars.n - ci.vars_off);
  ci.stable = (uint8_t)a.stable;
  ci.reads_mem = (uint8_t)a.reads_mem;
  ci.skippable = (uint8_t)(w->iter_cond > 0 || w->iter_left);
  vec_push(&w->cinfo, ci);
  fw_inline_copies(w, call, rel);
  if (ci.reads_mem) c->flags |= SCF_ARGS_READ_MEM;
  /* Only arguments the scan found unstable can do anything of their own. */
  if (!ci.stable && fw_args_side(call)) c->flags |= SCF_ARGS_SIDE;
  if (!ci.stable) return;
  size_t lo = w->avail.n > AVAIL_SCAN ? w->avail.n - AVAIL_SCAN : 0;
  if (lo < w->avail_floor) lo = w->avail_floor;
  for (size_t i = w->avail.n; i-- > lo;) {
    const fw_avail *av = &w->avail.v[i];
    if (!av->copy && av->fp == ci.fp && av->callee == c->callee && fw_avail_valid(w, av)) {
      c->same_as = av->call + 1;
      fw_fields_judge(w, &a, av->call, rel);
      break;
    }
  }
  /* A call that repeats an earlier one is available too, and the later of
   * the two is found first: a third call merges with it over the stretch
   * between them only (what lies between the first two may block their
   * merge, not the third's: GCC gives all three one value). */
  fw_avail_push(w, rel, &ci);
}

fw_avail_saved fw_avail_save(fw *w, size_t lo, size_t hi)
{
  fw_avail_saved sv = {0};
  for (size_t i = lo; i < hi && i < w->avail.n; i++) vec_push(&sv, w->avail.v[i]);
  return sv;
}

/* The snapshots the entries point to stay in w->snaps (never truncated
 * within a function), so each entry is as valid as it was. */
void fw_avail_put_back(fw *w, const fw_avail_saved *sv)
{
  for (size_t i = 0; i < sv->n; i++) vec_push(&w->avail, sv->v[i]);
}

size_t fw_avail_enter(fw *w)
{
  return w->avail.n;
}

void fw_avail_leave(fw *w, size_t mark)
{
  if (w->avail.n > mark) w->avail.n = mark;
}

size_t fw_avail_barrier(fw *w)
{
  size_t floor = w->avail_floor;
  w->avail_floor = w->avail.n;
  return floor;
}

void fw_avail_restore(fw *w, size_t mark, size_t floor)
{
  fw_avail_leave(w, mark);
  w->avail_floor = floor;
}

/* The then-branch just walked (from m) is on no path from before its if
 * into the else-branch: the else-branch's calls carry its extent
 * (sum_call.arm_*), and the span to an earlier identical call skips it
 * (Mbed TLS's `if (type(key) == RSA) { write_rsa(…); } else if
 * (type(key) == EC)`: GCC merges the two calls). Only the innermost
 * then-branch is kept; an outer one stays in such a span (a miss, never
 * a wrong claim). */
fw_arms fw_arm_enter(fw *w, fw_mark m)
{
  const sum_tu *s = w->t->sum;
  fw_arms outer = w->arm;
  w->arm.eff_lo = (uint32_t)(m.eff - w->eff_base);
  w->arm.eff_hi = (uint32_t)(s->effs.n - w->eff_base);
  w->arm.call_lo = (uint32_t)(m.call - w->call_base);
  w->arm.call_hi = (uint32_t)(s->calls.n - w->call_base);
  return outer;
}

void fw_arm_leave(fw *w, fw_arms outer)
{
  w->arm = outer;
}

/* Entering a loop's iteration: nothing walked so far is a branch of it.
 * Returns the enclosing loop's state, for fw_iter_leave. */
fw_iter fw_iter_enter(fw *w)
{
  fw_iter outer = { w->iter_cond, w->iter_left };
  w->iter_cond = w->iter_left = 0;
  w->loop_depth++;
  return outer;
}

/* Leaving it: back in the enclosing loop, whose iteration may not get past
 * this one (GCC stops at a loop it cannot prove finite: only conservative
 * where it can). */
void fw_iter_leave(fw *w, fw_iter outer)
{
  w->iter_cond = outer.cond;
  w->iter_left = 1;
  w->loop_depth--;
}

/* Marks the calls of a loop just walked (those not already in an inner
 * loop) with the loop's extent, and whether they can be hoisted: their
 * arguments stay the same in every iteration and they run in every
 * iteration. GCC moves a call out of a loop only then (LIM keeps a call
 * that is not always executed: `if (p) n = strlen(p);` must not become a
 * strlen(NULL) before the loop), and "compute it once before the loop"
 * would break such a program. */
void fw_loop_patch(fw *w, size_t call0, size_t eff0, uint32_t seq0)
{
  sum_tu *s = w->t->sum;
  for (size_t i = call0; i < s->calls.n; i++) {
    sum_call *c = &s->calls.v[i];
    if (c->flags & SCF_IN_LOOP) continue;
    c->flags |= SCF_IN_LOOP;
    c->loop_eff_lo = (uint32_t)(eff0 - w->eff_base);
    c->loop_eff_hi = (uint32_t)(s->effs.n - w->eff_base);
    c->loop_call_lo = (uint32_t)(call0 - w->call_base);
    c->loop_call_hi = (uint32_t)(s->calls.n - w->call_base);
    const fw_callinfo *ci = &w->cinfo.v[i - w->call_base];
    int inv = ci->stable && !ci->skippable;
    for (uint32_t v = 0; v < ci->nvars && inv; v++) {
      const fw_var *var = &w->vars.v[w->cvars.v[ci->vars_off + v]];
      inv = var->last_write <= seq0 && !var->addr_taken;
    }
    if (inv) c->flags |= SCF_INVARIANT_ARGS;
    if (ci->reads_mem) c->flags |= SCF_ARGS_READ_MEM;
  }
}

/* A value stored only into a local that is never read is as good as
 * discarded. */
void fw_callsite_finish(fw *w)
{
  sum_tu *s = w->t->sum;
  for (size_t i = 0; i + 1 < w->dead_cands.n; i += 2) {
    sum_call *c = &s->calls.v[w->call_base + w->dead_cands.v[i]];
    const fw_var *v = &w->vars.v[w->dead_cands.v[i + 1]];
    if (!v->used && !v->addr_taken && c->use == SCU_USED) c->use = SCU_DEAD_LOCAL;
  }
  for (size_t i = 0; i + 1 < w->dead_stores.n; i += 2) {
    sum_call *c = &s->calls.v[w->call_base + w->dead_stores.v[i]];
    if (!w->vars.v[w->dead_stores.v[i + 1]].addr_taken && c->use == SCU_USED) c->use = SCU_DEAD_STORE;
  }
  fw_fields_finish(w);
}

/* The first writable static or global a condition reads: the "already
 * computed?" test of a memoising function. */
uint32_t fw_guard_of(fw *w, CXCursor cond)
{
  cond = fe_strip(w->t, cond);
  enum CXCursorKind k = clang_getCursorKind(cond);
  if (k == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(cond);
    if (clang_getCursorKind(ref) == CXCursor_VarDecl && !fw_is_local_decl(ref)) return fw_name(w, ref);
    return 0;
  }
  if (k != CXCursor_UnaryOperator && k != CXCursor_BinaryOperator && k != CXCursor_MemberRefExpr &&
      k != CXCursor_ArraySubscriptExpr && k != CXCursor_CallExpr && k != CXCursor_StmtExpr &&
      k != CXCursor_CompoundStmt)
    return 0;
  size_t kk = fw_kids(w, cond), n = w->ks.n - kk;
  if (k == CXCursor_StmtExpr || k == CXCursor_CompoundStmt) {
    /* `({ …; test; })`, GLib's g_once_init_enter: the value is the last
     * statement's. */
    CXCursor last = n ? w->ks.v[kk + n - 1] : clang_getNullCursor();
    w->ks.n = kk;
    return n ? fw_guard_of(w, last) : 0;
  }
  CXCursor kids[4];
  for (size_t i = 0; i < n && i < 4; i++) kids[i] = w->ks.v[kk + i];
  w->ks.n = kk;
  /* A call tests what it returns, not the pointer it is made through:
   * `if (ops.exists (id))` nested in a cache's test keeps that test's
   * guard (GnuTLS's gnutls_ecc_curve_list). Its arguments may be the
   * guard (`if (once_enter (&ctl))`). */
  for (size_t i = k == CXCursor_CallExpr ? 1 : 0; i < n && i < 4; i++) {
    uint32_t g = fw_guard_of(w, kids[i]);
    if (g) return g;
  }
  return 0;
}
