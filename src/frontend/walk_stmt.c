/* walk_stmt.c — statements, noreturn paths, and the walk of a whole body.
 *
 * GCC's rule for noreturn calls: effects on a path that ends in a call to a
 * noreturn function do not make the function impure (the optimizer can
 * never observe them returning), but the function may then not return.
 * A statement "ends" when every path through it ends in such a call; the
 * effects it recorded, and those of the statements before it in the same
 * block that cannot leave the block another way, are marked doomed. */
#include "frontend/walk.h"
#include <string.h>

fw_mark fw_mark_now(fw *w)
{
  fw_mark m = { w->t->sum->effs.n, w->t->sum->calls.n };
  return m;
}

void fw_doom_since(fw *w, fw_mark m)
{
  sum_tu *s = w->t->sum;
  for (size_t i = m.eff; i < s->effs.n; i++) s->effs.v[i].flags |= SEF_DOOMED;
  for (size_t i = m.call; i < s->calls.n; i++) s->calls.v[i].flags |= SCF_DOOMED;
}

/* What a branch every path of which returns did: not on any path to what
 * follows the branch (a later call's merge with an earlier one). */
static void fw_leave_since(fw *w, fw_mark m)
{
  sum_tu *s = w->t->sum;
  for (size_t i = m.eff; i < s->effs.n; i++) s->effs.v[i].flags |= SEF_LEAVES;
  for (size_t i = m.call; i < s->calls.n; i++) s->calls.v[i].flags |= SCF_LEAVES;
}

/* A branch: if every path through it ends, all it did is doomed; if every
 * path returns, all it did leaves. */
static int fw_branch(fw *w, CXCursor s)
{
  fw_mark m = fw_mark_now(w);
  int f = fw_stmt(w, s);
  if (f & FS_ENDS) fw_doom_since(w, m);
  if (f & (FS_ENDS | FS_LEAVES)) fw_leave_since(w, m);
  return f;
}

static enum CXChildVisitResult fw_last_kid(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  *(CXCursor *)d = c;
  return CXChildVisit_Continue;
}

/* Does control never fall off the end of statement s (walked with flags
 * f)? A jump, a statement that leaves or ends, a label or block whose
 * last statement is one of those. Syntactic, so only where it is sure:
 * `if (x) break;` may fall through. */
static bool fw_never_falls(CXCursor s, int f)
{
  enum CXCursorKind k = clang_getCursorKind(s);
  if (k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_GotoStmt ||
      k == CXCursor_ReturnStmt || (f & (FS_LEAVES | FS_ENDS)))
    return true;
  if (k != CXCursor_CompoundStmt && k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt && k != CXCursor_LabelStmt)
    return false;
  CXCursor last = clang_getNullCursor();
  clang_visitChildren(s, fw_last_kid, &last);
  return !clang_Cursor_isNull(last) && clang_isStatement(clang_getCursorKind(last)) && fw_never_falls(last, 0);
}

/* Is s a switch over an enum (enumswitch.c) left only by a value no
 * enumerator has: no default, no break of its own, its body's last
 * statement never falling off? */
static bool fw_switch_exhausts(fw *w, CXCursor s)
{
  if (clang_getCursorKind(s) != CXCursor_SwitchStmt) return false;
  size_t k = fw_kids(w, s), n = w->ks.n - k;
  CXCursor cond = n == 2 ? FW_KID(w, k, 0) : clang_getNullCursor(), body = n == 2 ? FW_KID(w, k, 1) : cond;
  w->ks.n = k;
  if (n != 2 || clang_getCursorKind(body) != CXCursor_CompoundStmt || !fw_never_falls(body, 0)) return false;
  return fw_switch_no_exit(cond, body);
}

static int fw_compound(fw *w, CXCursor c)
{
  size_t k = fw_kids(w, c), n = w->ks.n - k;
  VEC(fw_mark) marks = {0};
  VEC(int) flags = {0};
  int acc = 0, ends = 0, last = 0;
  size_t guards0 = w->guards.n, lits0 = w->flow_lits.n;
  int open = w->head_open;   /* hoist.c: each statement passes the run on */
  bool cases = w->sw.active && clang_equalCursors(c, w->sw.body);
  int impossible = 0;   /* after a switch that exhausts its enum: up to a label */
  for (size_t i = 0; i < n; i++) {
    vec_push(&marks, fw_mark_now(w));
    CXCursor st = w->ks.v[k + i];
    enum CXCursorKind sk = clang_getCursorKind(st);
    if (impossible && (sk == CXCursor_LabelStmt || sk == CXCursor_CaseStmt || sk == CXCursor_DefaultStmt)) {
      w->impossible -= impossible;   /* entered from elsewhere too */
      impossible = 0;
    }
    if (cases)   /* only a case label itself: a label nested deeper is entered from elsewhere too */
      w->case_from_switch = (sk == CXCursor_CaseStmt || sk == CXCursor_DefaultStmt) &&
                            (i == 0 || fw_never_falls(w->ks.v[k + i - 1], flags.v[i - 1]));
    w->head_open = open;
    int f = fw_stmt(w, st);
    fw_deadstore_note(w, c, w->ks.v + k, n, i);
    open = w->head_open;
    vec_push(&flags, f);
    /* `if (cached) return cached;` guards the rest of the block. */
    if (clang_getCursorKind(st) == CXCursor_IfStmt && w->last_if_returns && w->last_if_guard)
      vec_push(&w->guards, w->last_if_guard);
    if ((f & FS_ENDS) && !ends) {
      size_t j = i;
      while (j > 0 && !(flags.v[j - 1] & (FS_RET | FS_BRK))) j--;
      fw_doom_since(w, marks.v[j]);
      if (!(acc & (FS_RET | FS_BRK))) ends = 1;
    }
    /* Leaves when its last statement does and nothing before it jumps
     * elsewhere (a break, a continue, or a goto, which FS_RET includes). */
    last = (f & (FS_LEAVES | FS_ENDS)) && !(acc & (FS_RET | FS_BRK)) ? FS_LEAVES : 0;
    acc |= f & (FS_RET | FS_BRK);
    if (!impossible && i + 1 < n && fw_switch_exhausts(w, st)) {
      impossible = 1;
      w->impossible++;
    }
  }
  w->impossible -= impossible;
  w->ks.n = k;
  w->head_open = open;
  w->guards.n = guards0;
  if (w->flow_lits.n > lits0) w->flow_lits.n = lits0;   /* an early return's literals end with the block */
  vec_free(&marks);
  vec_free(&flags);
  return acc | (ends ? FS_ENDS : 0) | last;
}

/* What the condition of an `if` guarded by `guard` did (effects and calls
 * from eff0, call0 on) is the test itself: it runs on every call. */
static void fw_tag_guard_test(fw *w, size_t eff0, size_t call0, uint32_t guard)
{
  sum_tu *s = w->t->sum;
  for (size_t i = eff0; i < s->effs.n; i++)
    if (!s->effs.v[i].guard) { s->effs.v[i].guard = guard; s->effs.v[i].flags |= SEF_GUARD_TEST; }
  for (size_t i = call0; i < s->calls.n; i++)
    if (!s->calls.v[i].guard) { s->calls.v[i].guard = guard; s->calls.v[i].flags |= SCF_GUARD_TEST; }
}

static enum CXChildVisitResult fw_find_entry(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_LabelStmt || k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
    *(int *)d = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* Is statement s, run when cond is `want` (1 true, 0 false), dead: cond a
 * constant of the other value (`if (0)`, `if (false)`, `while (0)`: release
 * builds' assertion macros) or a comparison its operand's type decides or
 * of a local that holds 0 (cmpfold.c), and no label or case inside to jump
 * in by? */
int fw_branch_dead(fw *w, CXCursor cond, int want, CXCursor s)
{
  long long v;
  if (clang_Cursor_isNull(s)) return 0;
  if (!fw_int_literal_value(cond, &v) && !fw_ice_value(w->t, cond, &v))   /* `if (0)`, `if ((1 ? 0 : 0) == 0)` */
    v = fw_cmp_type_decided(w, cond);                                  /* `u > ULONG_MAX` */
  if (v < 0 || (v != 0) == want) return 0;
  int entry = 0;
  clang_visitChildren(s, fw_find_entry, &entry);
  return !entry;
}

/* An if's condition the compiler folds (`sizeof (c) > 1` in glibc's
 * toupper macro): 1 true, 0 false, -1 not a constant. Its live branch
 * runs whenever the if does. */
static int fw_cond_folded(CXCursor cond)
{
  CXEvalResult r = clang_Cursor_Evaluate(cond);
  if (!r) return -1;
  int v = clang_EvalResult_getKind(r) == CXEval_Int ? clang_EvalResult_getAsLongLong(r) != 0 : -1;
  clang_EvalResult_dispose(r);
  return v;
}

/* The last writes of the variables known now (caller frees). */
static uint32_t *fw_writes_save(const fw *w, size_t *n)
{
  *n = w->vars.n;
  uint32_t *lw = xmalloc((*n ? *n : 1) * sizeof *lw);
  for (size_t i = 0; i < *n; i++) lw[i] = w->vars.v[i].last_write;
  return lw;
}

/* After both branches of an if: a variable either wrote is written. The
 * else-branch was walked from the state before the then-branch (lw0: a
 * write there is on no path into it), so a value computed before the if
 * stays the same value in it (jq's jv_set: `if (…) { if (isnull) t =
 * jv_object(); … } else if (jv_get_kind(t) …)` merges with the
 * jv_get_kind(t) before the if). Writes are numbered in walk order: the
 * later of the two is the last. */
static void fw_writes_join(fw *w, const uint32_t *lw0, const uint32_t *lw1, size_t n)
{
  for (size_t i = 0; i < n && i < w->vars.n; i++) {
    uint32_t *lw = &w->vars.v[i].last_write;
    if (lw1[i] != lw0[i] && lw1[i] > *lw) *lw = lw1[i];
  }
}

static int fw_if(fw *w, CXCursor c)
{
  size_t k = fw_kids(w, c), n = w->ks.n - k;
  CXCursor kids[3];
  for (size_t i = 0; i < n && i < 3; i++) kids[i] = w->ks.v[k + i];
  w->ks.n = k;
  int open = w->head_open;   /* hoist.c: this if begins a run of its branch */
  fw_mark run0 = w->head_mark;
  w->head_open = 0;
  if (n < 2) return 0;
  size_t eff0 = w->t->sum->effs.n, call0 = w->t->sum->calls.n, hs0 = w->heads.n, av0 = w->avail.n;
  /* What the if whose else-branch this is hands on (thread.c): for this
   * condition only. */
  fw_threads in = w->threads;
  memset(&w->threads, 0, sizeof w->threads);
  fw_chain ch = { in.n ? &in : NULL, 0, 0, 0, 0, 0, { 0, 0 }, { 0, 0 }, 0, { 0 }, 0 };
  /* `a && b`: b's calls are available in the then-branch only; `a || b`:
   * in the else-branch only (and after the if when the then-branch leaves). */
  enum CXBinaryOperatorKind chain = fw_cond_chain_op(w, kids[0]);
  size_t mark = 0;
  if (chain) {
    mark = fw_cond_chain(w, kids[0], chain, chain == CXBinaryOperator_LAnd ? &ch : NULL);
  } else {
    /* A condition that is the test alone: what an earlier if of the chain
     * put back is for the then-branch only, as a && chain's operands. */
    fw_expr(w, kids[0], ACC_VALUE);
    mark = fw_avail_enter(w);
    fw_thread_leaf(w, kids[0], call0, &ch);
  }
  /* The condition's first operand runs wherever the if does: its calls
   * are heads of what the if begins. */
  if (open) fw_heads_add(w, av0, mark, chain == CXBinaryOperator_LAnd ? ch.first_end : fw_mark_now(w));
  uint32_t guard = fw_guard_of(w, kids[0]);
  if (guard) fw_tag_guard_test(w, eff0, call0, guard);
  if (guard) vec_push(&w->guards, guard);
  size_t all = fw_avail_enter(w), floor = w->avail_floor;
  if (!chain && !ch.joined) mark = all;
  fw_avail_saved extra = fw_avail_save(w, mark, all);
  if (chain == CXBinaryOperator_LOr) fw_avail_leave(w, mark);
  int dead_a = fw_branch_dead(w, kids[0], 1, kids[1]), dead_b = n > 2 && fw_branch_dead(w, kids[0], 0, kids[2]);
  int folded = fw_cond_folded(kids[0]), cond_a = folded != 1, cond_b = folded != 0;
  /* Code hoisting (hoist.c): from the branch on the condition (its first
   * operand, for `a && b`) into the then-side (the then-branch, or b) and
   * the else-branch. */
  bool hoist = n > 2 && !dead_a && !dead_b && folded < 0 && chain != CXBinaryOperator_LOr &&
               (!chain || ch.second_ok);
  size_t t_lo = w->heads.n;
  if (hoist && chain) fw_heads_add(w, ch.second_lo, ch.second, ch.second_end);
  size_t before = fw_flow_save(w), lits0 = w->flow_lits.n;
  fw_u32vec lits_a = {0}, lits_b = {0};   /* what holds in each branch (guardvar.c) */
  fw_guardvar_lits(w, kids[0], 1, &lits_a);
  fw_guardvar_lits(w, kids[0], 0, &lits_b);
  for (size_t i = 0; i < lits_a.n; i++) vec_push(&w->flow_lits, lits_a.v[i]);
  size_t n0 = 0, n1 = 0;
  uint32_t *lw0 = n > 2 ? fw_writes_save(w, &n0) : NULL, *lw1 = NULL;
  w->iter_cond += cond_a;
  fw_mark then0 = fw_mark_now(w);
  uint32_t seq0 = chain ? ch.first_seq : w->seq;
  /* For `a && b` the then-branch's heads join b's: both run on every
   * path from a's branch into the then-side before anything could leave
   * it but b, which lies on the way (GCC 12 hoists `if (m && *m == 3) r =
   * kind(k) + 1; else r = kind(k) * 3;`, not when b calls an impure
   * function: the link weighs the way). Longer chains are left. */
  w->head_open = hoist && (!chain || ch.nleaf == 2);
  w->head_mark = then0;
  size_t excl0 = fw_ptrneq_enter(w, kids[0]);   /* `if (p != q)`: ptrneq.c */
  int decided = lits_a.n || lits_b.n || folded == 0 || folded == 1;
  size_t mw0 = fw_maywrite_enter(w, kids[0], 1, decided);   /* an input test: maywrite.c */
  int a = dead_a ? 0 : fw_branch(w, kids[1]);
  fw_maywrite_leave(w, mw0);
  fw_ptrneq_leave(w, excl0);
  w->head_open = 0;
  size_t t_hi = w->heads.n;
  w->iter_cond -= cond_a;
  w->flow_lits.n = lits0;
  size_t after_a = fw_flow_save(w);
  fw_flow_restore(w, before);
  fw_avail_restore(w, mark, floor);
  if (chain == CXBinaryOperator_LOr) fw_avail_put_back(w, &extra);
  if (lw0) {
    lw1 = fw_writes_save(w, &n1);
    for (size_t i = 0; i < n0; i++) w->vars.v[i].last_write = lw0[i];
  }
  for (size_t i = 0; i < lits_b.n; i++) vec_push(&w->flow_lits, lits_b.v[i]);
  w->iter_cond += cond_b;
  fw_arms outer_arm = fw_arm_enter(w, then0);
  /* An else-if: the chain's tests go on (thread.c). */
  fw_threads pass = {0};
  if (n > 2 && clang_getCursorKind(kids[2]) == CXCursor_IfStmt) pass = fw_thread_pass(&ch);
  w->threads = pass;
  fw_mark else0 = fw_mark_now(w);
  w->head_open = hoist;
  w->head_mark = else0;
  mw0 = fw_maywrite_enter(w, kids[0], 0, decided);
  int b = n > 2 && !dead_b ? fw_branch(w, kids[2]) : 0;
  fw_maywrite_leave(w, mw0);
  w->head_open = 0;
  if (hoist)
    fw_heads_hoist(w, t_lo, t_hi, t_hi, w->heads.n, chain ? ch.first_end : then0, else0, seq0, open,
                   run0);
  else w->heads.n = t_lo;
  if (!open) w->heads.n = hs0;
  memset(&w->threads, 0, sizeof w->threads);
  vec_free(&pass);
  vec_free(&ch.own.b);
  fw_arm_leave(w, outer_arm);
  w->iter_cond -= cond_b;
  w->flow_lits.n = lits0;
  if (lw0) fw_writes_join(w, lw0, lw1, n0);
  free(lw0);
  free(lw1);
  /* Pointers: the values of the branches that get past the if (a dead
   * one, or one that always returns or ends, does not: GMP's
   * TMP_ALLOC_LIMBS_2 is `if (WANT_TMP_DEBUG) … else …`). */
  bool reach_a = !dead_a && !(a & (FS_ENDS | FS_LEAVES));
  bool reach_b = n == 2 || (!dead_b && !(b & (FS_ENDS | FS_LEAVES)));
  if (reach_a && !reach_b) fw_flow_restore(w, after_a);
  else if (reach_a || !reach_b) fw_flow_join_lits(w, after_a, &lits_a, &lits_b);
  fw_flow_drop(w, before);
  /* `if (!copy) return …;`: the rest of the block runs under copy. */
  const fw_u32vec *rest = reach_a && !reach_b ? &lits_a : !reach_a && reach_b ? &lits_b : NULL;
  for (size_t i = 0; rest && i < rest->n; i++) vec_push(&w->flow_lits, rest->v[i]);
  vec_free(&lits_a);
  vec_free(&lits_b);
  /* When the then-branch never falls through (it returns, or ends in a
   * noreturn call), what follows the if is reached through the else-branch
   * only: its calls dominate it (`if (a) return 0; else if (kind(p)) …;
   * return kind(p);` — GCC merges the two calls). */
  bool a_leaves = !dead_a && (a & (FS_ENDS | FS_LEAVES));
  if (!(a_leaves && n > 2 && !dead_b)) {
    fw_avail_restore(w, mark, floor);
    if (chain == CXBinaryOperator_LOr && a_leaves && n == 2) fw_avail_put_back(w, &extra);
  }
  vec_free(&extra);
  if (guard) w->guards.n--;
  int f = (a | b) & (FS_RET | FS_BRK);
  /* Every path that can run ends (`if (1) abort();` has no other path). */
  long long v = 0;
  int no_else = n > 2 ? dead_b : fw_int_literal_value(kids[0], &v) && v != 0;
  if ((dead_a || (a & FS_ENDS)) && (no_else || (n > 2 && (b & FS_ENDS)))) f |= FS_ENDS;
  if ((dead_a || (a & (FS_ENDS | FS_LEAVES))) && (no_else || (n > 2 && (b & (FS_ENDS | FS_LEAVES)))))
    f |= FS_LEAVES;
  w->last_if_guard = guard;
  w->last_if_returns = n == 2 && (a & FS_RET);
  return f;
}

static int fw_while(fw *w, CXCursor c, int is_do)
{
  size_t k = fw_kids(w, c), n = w->ks.n - k;
  if (n != 2) { w->ks.n = k; return 0; }
  CXCursor cond = FW_KID(w, k, is_do ? 1 : 0), body = FW_KID(w, k, is_do ? 0 : 1);
  w->ks.n = k;
  int f;
  fw_mark m0 = fw_mark_now(w);
  uint32_t seq0 = w->seq;
  size_t mark = fw_avail_enter(w), floor = fw_avail_barrier(w);
  int looped = !fw_loop_cond_false(cond);   /* do … while (0) is a block, not a loop */
  fw_iter outer = looped ? fw_iter_enter(w) : (fw_iter){ 0, 0 };
  if (looped) fw_flow_top(w);   /* the back edge arrives here */
  CXCursor loop0 = w->loop_stmt;
  w->loop_stmt = c;
  fw_loop_ctx lc = { w->seq, 0, m0.call, m0.call };
  uint32_t mw0 = w->mem_writes, nc0 = w->ncalls;
  if (is_do) {
    f = fw_stmt(w, body);
    lc.clean = w->mem_writes == mw0 && w->ncalls == nc0;
    lc.call_lo = w->t->sum->calls.n;
    fw_expr(w, cond, ACC_VALUE);
    lc.call_hi = w->t->sum->calls.n;
  } else {
    fw_expr(w, cond, ACC_VALUE);
    size_t body_call0 = w->t->sum->calls.n;
    lc.call_hi = body_call0;
    lc.seq0 = w->seq;
    mw0 = w->mem_writes, nc0 = w->ncalls;
    f = fw_branch_dead(w, cond, 1, body) ? 0 : fw_stmt(w, body);
    lc.clean = w->mem_writes == mw0 && w->ncalls == nc0;
    if (looped) fw_loop_unrotated(w, cond, body, 0, body_call0);
  }
  w->loop_stmt = loop0;
  if (looped || (f & FS_BRK)) fw_flow_top(w);   /* and every break */
  if (looped) fw_iter_leave(w, outer);
  fw_avail_restore(w, mark, floor);
  if (looped) fw_loop_patch(w, m0.call, m0.eff, seq0);
  if (looped) fw_while_settle(w, c, cond, body, is_do, &lc);
  /* A do body runs at least once: if it ends, so does the loop. */
  int ends = (is_do && (f & FS_ENDS) && !(f & FS_BRK)) || fw_loop_endless(w, 1, cond, f);
  return (f & FS_RET) | (ends ? FS_ENDS : 0);
}

/* Does the statement a label marks always end in a noreturn call? The
 * `goto fail; … fail: exit(1);` idiom. Checked from the syntax: an
 * expression statement that ends, or a block with one before any jump. */
static int fw_label_ends(fw *w, CXCursor label)
{
  size_t k = fw_kids(w, label), n = w->ks.n - k;
  CXCursor sub = n ? FW_KID(w, k, n - 1) : clang_getNullCursor();
  w->ks.n = k;
  if (clang_Cursor_isNull(sub)) return 0;
  enum CXCursorKind kind = clang_getCursorKind(sub);
  if (clang_isExpression(kind)) return fw_expr_ends(w, sub);
  if (kind != CXCursor_CompoundStmt) return 0;
  k = fw_kids(w, sub);
  n = w->ks.n - k;
  int ends = 0;
  for (size_t i = 0; i < n && !ends; i++) {
    CXCursor st = w->ks.v[k + i];
    enum CXCursorKind sk = clang_getCursorKind(st);
    if (clang_isExpression(sk)) ends = fw_expr_ends(w, st);
    else if (sk != CXCursor_DeclStmt && sk != CXCursor_NullStmt) break;   /* control flow: stop */
  }
  w->ks.n = k;
  return ends;
}

static int fw_goto(fw *w, CXCursor c)
{
  size_t k = fw_kids(w, c);
  int backward = 1, ends = 0;       /* unknown target: assume the worst */
  if (w->ks.n - k == 1) {
    CXCursor label = clang_getCursorReferenced(FW_KID(w, k, 0));
    w->ks.n = k;
    if (!clang_Cursor_isNull(label)) {
      unsigned at, to;
      clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &at);
      clang_getExpansionLocation(clang_getCursorLocation(label), NULL, NULL, NULL, &to);
      backward = to <= at;
      ends = !backward && clang_getCursorKind(label) == CXCursor_LabelStmt && fw_label_ends(w, label);
    }
  }
  w->ks.n = k;
  if (backward) fw_effect(w, c, SE_GOTO_BACK, 0, 0, 0);
  return ends ? FS_ENDS : FS_RET;
}

/* Does t involve a variable-length array (whose sizes run at the declaration)? */
static int fw_type_variably_modified(CXType t)
{
  for (int depth = 0; depth < 16; depth++) {
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray) return 1;
    if (t.kind == CXType_Pointer) t = clang_getPointeeType(t);
    else if (fe_type_is_array(t)) t = clang_getArrayElementType(t);
    else return 0;
  }
  return 1;
}

static void fw_local_var(fw *w, CXCursor d)
{
  if (!fw_is_local_decl(d)) {            /* static or extern: no code runs here, */
    fe_fnfield_scan_init(w->t, d);       /* but its initializer stores function pointers */
    return;
  }
  uint32_t vi = fw_var_for(w, d);
  CXCursor init = clang_Cursor_getVarDeclInitializer(d);
  /* No initializer: in a loop it may keep an earlier iteration's value. */
  if (clang_Cursor_isNull(init)) fw_flow_assign(w, vi, w->vars.v[vi].mask, init, 1);
  /* Other expressions in a declaration are evaluated only in a variably
   * modified type (VLA sizes); `__typeof__(*p) tmp;` reads nothing. */
  int vla = fw_type_variably_modified(clang_getCursorType(d));
  size_t k = fw_kids(w, d);
  for (size_t i = k; i < w->ks.n; i++) {
    CXCursor e = w->ks.v[i];
    if (clang_getCursorKind(e) == CXCursor_UnexposedAttr) {
      /* __attribute__((cleanup(fn))) calls fn at the end of the scope, with
       * no call in the AST: count it as a call we cannot see into. */
      static const char *const cleanup[] = { "cleanup", "__cleanup__", NULL };
      if (fe_attr_has_word(w->t, e, cleanup)) {
        w->pf_cleanup = 1;   /* it runs at the scope's end, where pfield.c does not see it */
        if (!fw_cleanup_call(w, d, e, vi))
          fw_effect(w, d, SE_CALL_INDIRECT, 0, 0, strtab_intern(w->t->sum->strs, "cleanup"));
      }
      continue;
    }
    if (!clang_isExpression(clang_getCursorKind(e))) continue;
    int is_init = !clang_Cursor_isNull(init) && clang_equalCursors(e, init);
    if (!is_init && !vla) continue;
    uint64_t m = is_init && !w->vars.v[vi].is_ptr ? fw_agg_initializer(w, vi, e)   /* aggfield.c */
                                                  : fw_expr(w, e, ACC_VALUE);   /* initializer, VLA sizes */
    if (is_init) {
      if (w->vars.v[vi].is_ptr) {
        fw_var_grow(w, vi, m, e);
        fw_flow_assign(w, vi, m, e, 1);
      } else {   /* into a local struct or array: kept there, untracked */
        lv_t lv = { .kind = LV_LOCAL, .var = vi };
        fw_scratch_stored(w, &lv, m);
      }
      int ci = fw_last_call_is(w, fe_strip(w->t, e));
      if (ci >= 0) {
        vec_push(&w->dead_cands, (uint32_t)ci);
        vec_push(&w->dead_cands, vi);
      }
    }
  }
  w->ks.n = k;
  w->vars.v[vi].last_write = ++w->seq;
}

static int fw_decl_stmt(fw *w, CXCursor c)
{
  size_t k = fw_kids(w, c);
  for (size_t i = k; i < w->ks.n; i++)
    if (clang_getCursorKind(w->ks.v[i]) == CXCursor_VarDecl) fw_local_var(w, w->ks.v[i]);
  w->ks.n = k;
  return 0;
}

/* What is known where label c begins. Other paths arrive at a label, so
 * nothing earlier is sure to have run (avail floored) — except at a case
 * of the switch being walked that only the switch jumps to (from_switch:
 * the first one, or one after a statement that never falls through):
 * what was available after the switch's condition still is, and the
 * cases before it are on no path from there (the span to an earlier call
 * skips them, as an else-branch's skips its then-branch: json-c's
 * `switch (get_type(o)) { …; default: print(get_type(o)); }`, which GCC
 * merges). A goto's label inside the switch is reached from anywhere:
 * the arm outside the switch again. */
static void fw_case_entry(fw *w, CXCursor c, int from_switch)
{
  enum CXCursorKind k = clang_getCursorKind(c);
  if (!w->sw.active) {
    w->avail_floor = w->avail.n;
    return;
  }
  if (from_switch && k != CXCursor_LabelStmt) {
    fw_avail_leave(w, w->sw.mark);
    w->avail_floor = w->sw.floor;
    fw_arm_enter(w, w->sw.body0);
    return;
  }
  w->avail_floor = w->avail.n;
  w->arm = w->sw.outer;
}

/* Visits the children: the last one as a statement (case/label bodies). */
static int fw_labeled(fw *w, CXCursor c)
{
  int from_switch = w->case_from_switch;
  w->case_from_switch = 0;
  fw_case_entry(w, c, from_switch);
  if (clang_getCursorKind(c) == CXCursor_LabelStmt) w->iter_left = 1;   /* a goto's target */
  size_t k = fw_kids(w, c), n = w->ks.n - k;
  if (n == 0) { w->ks.n = k; return 0; }
  CXCursor body = FW_KID(w, k, n - 1);
  w->ks.n = k;
  enum CXCursorKind bk = clang_getCursorKind(body);
  if (bk == CXCursor_CaseStmt || bk == CXCursor_DefaultStmt) w->case_from_switch = from_switch;   /* case A: case B: */
  int impossible = clang_getCursorKind(c) == CXCursor_DefaultStmt && w->enum_switch;
  /* A case is entered from the switch: literals the body before it set do not hold. */
  if (clang_getCursorKind(c) != CXCursor_LabelStmt && w->flow_lits.n > w->flow_case_lits)
    w->flow_lits.n = w->flow_case_lits;
  w->impossible += impossible;
  fw_flow_top(w);   /* other paths arrive: a goto, the switch, the case before */
  int f = fw_stmt(w, body);
  w->impossible -= impossible;
  return f;
}

static int fw_generic_stmt(fw *w, CXCursor c, int absorb)
{
  size_t k = fw_kids(w, c);
  int f = 0;
  for (size_t i = k; i < w->ks.n; i++) {
    CXCursor e = w->ks.v[i];
    if (clang_isExpression(clang_getCursorKind(e))) fw_expr(w, e, ACC_VALUE);
    else f |= fw_stmt(w, e);
  }
  w->ks.n = k;
  return f & ~absorb & (FS_RET | FS_BRK);
}

/* `(void)x;` on a local only silences "unused" warnings: it reads nothing
 * (unless x is volatile) and does not make a dead store live. Only the
 * explicit cast counts: a bare `x;` may be the value of a statement
 * expression (glibc's toupper macro ends in `__res;`). */
static int fw_is_unused_mark(fw *w, CXCursor s)
{
  if (clang_getCursorKind(s) != CXCursor_CStyleCastExpr || fe_canon_type(s).kind != CXType_Void) return 0;
  CXCursor e = fe_strip(w->t, s);
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return 0;
  CXCursor ref = clang_getCursorReferenced(e);
  return fw_is_local_decl(ref) && !clang_isVolatileQualifiedType(clang_getCanonicalType(clang_getCursorType(ref)));
}

static int fw_stmt_kind(fw *w, CXCursor s)
{
  enum CXCursorKind k = clang_getCursorKind(s);
  switch (k) {
  case CXCursor_CompoundStmt: return fw_compound(w, s);
  case CXCursor_IfStmt: return fw_if(w, s);
  case CXCursor_WhileStmt: return fw_while(w, s, 0);
  case CXCursor_DoStmt: return fw_while(w, s, 1);
  case CXCursor_ForStmt: return fw_for(w, s);
  case CXCursor_SwitchStmt: {
    int outer = w->enum_switch;
    size_t k = fw_kids(w, s), n = w->ks.n - k;
    CXCursor cond = n == 2 ? FW_KID(w, k, 0) : clang_getNullCursor(), body = n == 2 ? FW_KID(w, k, 1) : cond;
    w->enum_switch = n >= 2 && fw_switch_covers_enum(FW_KID(w, k, 0), FW_KID(w, k, n - 1));
    w->ks.n = k;
    w->iter_cond++;   /* the condition too: simpler, and only conservative */
    /* The condition runs first, every time: it reuses what is available
     * before the switch, and what follows the switch reuses it (jq's
     * jvp_cmp: `if (jv_get_kind(a) != jv_get_kind(b)) { …; return r; }
     * switch (jv_get_kind(a))`: GCC merges). The cases are a barrier. */
    bool split = n == 2 && clang_isExpression(clang_getCursorKind(cond)) &&
                 clang_isStatement(clang_getCursorKind(body));
    if (split) fw_expr(w, cond, ACC_VALUE);
    size_t mark = fw_avail_enter(w), floor = fw_avail_barrier(w);
    size_t case_lits = w->flow_case_lits;
    w->flow_case_lits = w->flow_lits.n;
    fw_switch outer_sw = w->sw;
    w->sw = (fw_switch){ body, mark, floor, fw_mark_now(w), w->arm, split };
    int f = split ? fw_stmt(w, body) & (FS_RET | FS_BRK) : fw_generic_stmt(w, s, 0);
    w->arm = w->sw.outer;
    w->sw = outer_sw;
    w->case_from_switch = 0;
    w->flow_case_lits = case_lits;
    w->iter_cond--;
    fw_flow_top(w);   /* its breaks, and a value matching no case */
    w->enum_switch = outer;
    fw_avail_restore(w, mark, floor);
    return f;
  }
  case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_LabelStmt:
    return fw_labeled(w, s);
  case CXCursor_GotoStmt:
    w->iter_left = 1;
    return fw_goto(w, s);
  case CXCursor_IndirectGotoStmt:
    w->iter_left = 1;
    fw_generic_stmt(w, s, 0);
    fw_effect(w, s, SE_GOTO_BACK, 0, 0, 0);
    return FS_RET;
  case CXCursor_ReturnStmt: {
    /* A fresh block returned leaves the function. (A parameter returned
     * is not kept: the caller follows the call's value itself.) */
    size_t k = fw_kids(w, s);
    for (size_t i = k; i < w->ks.n; i++)
      if (clang_isExpression(clang_getCursorKind(w->ks.v[i]))) {
        w->ret_top = fe_strip(w->t, w->ks.v[i]);
        uint64_t m = fw_expr(w, w->ks.v[i], ACC_VALUE);
        w->ret_top = clang_getNullCursor();
        w->ret_mask |= m;
        fw_scratch_returned(w, m);
      }
    w->ks.n = k;
    w->iter_left = 1;
    return FS_RET | FS_LEAVES;
  }
  case CXCursor_BreakStmt: case CXCursor_ContinueStmt:   /* a switch's break too: conservative */
    w->iter_left = 1;
    return FS_BRK;
  case CXCursor_NullStmt: return 0;
  case CXCursor_DeclStmt: return fw_decl_stmt(w, s);
  case CXCursor_GCCAsmStmt: fw_asm(w, s); return 0;
  case CXCursor_MSAsmStmt:
    fw_effect(w, s, SE_ASM, 0, 0, 0);
    return 0;
  default:
    if (clang_isExpression(k)) {
      if (fw_is_unused_mark(w, s)) return 0;
      size_t ncalls = w->t->sum->calls.n;
      CXCursor top0 = w->discard_top;
      w->discard_top = fe_strip(w->t, s);
      w->last_value = fw_expr(w, s, ACC_VALUE);
      w->discard_top = top0;
      /* The outermost call is recorded last: its value is thrown away. (A
       * call recorded by an earlier statement of the same macro expansion
       * has the same place: it must be this statement's.) */
      int ci = fw_last_call_is(w, fe_strip(w->t, s));
      if (ci >= 0 && w->t->sum->calls.n > ncalls) w->t->sum->calls.v[w->call_base + (size_t)ci].use = SCU_DISCARDED;
      return fw_expr_ends(w, s) ? FS_ENDS : 0;
    }
    return fw_generic_stmt(w, s, 0);
  }
}

/* A statement that is straight-line code: walked whole wherever it starts. */
static bool fw_stmt_simple(enum CXCursorKind k)
{
  return k == CXCursor_DeclStmt || k == CXCursor_ReturnStmt || k == CXCursor_NullStmt || clang_isExpression(k);
}

/* Walks statement s. The heads of a branch (hoist.c): when s starts where
 * only straight-line code of the branch came before (w->head_open), the
 * calls it computes wherever it runs are heads, and the run goes on after
 * it if it cannot leave; a block and an if keep track themselves. Any
 * other statement, and everything nested in one, ends the run. */
int fw_stmt(fw *w, CXCursor s)
{
  enum CXCursorKind k = clang_getCursorKind(s);
  int open = w->head_open;
  w->head_open = k == CXCursor_CompoundStmt || k == CXCursor_IfStmt ? open : 0;
  size_t av0 = w->avail.n;
  int f = fw_stmt_kind(w, s);
  if (k == CXCursor_CompoundStmt || k == CXCursor_IfStmt) return f;
  bool simple = fw_stmt_simple(k);
  if (open && simple) fw_heads_add(w, av0, w->avail.n, fw_mark_now(w));
  w->head_open = open && simple && k != CXCursor_ReturnStmt && !(f & (FS_RET | FS_BRK | FS_ENDS | FS_LEAVES));
  return f;
}

/* ---- the whole function ---- */

static void fw_add_params(fw *w, CXCursor fn)
{
  int n = clang_Cursor_getNumArguments(fn);
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i);
    uint32_t vi = fw_var_for(w, p);
    fw_var *v = &w->vars.v[vi];
    v->param = (int16_t)i;
    if (v->is_ptr) { v->mask = prov_param((unsigned)i); v->pointee_n = 2; }
  }
}

static CXCursor fw_body(fw *w, CXCursor fn)
{
  size_t k = fw_kids(w, fn);
  CXCursor body = clang_getNullCursor();
  for (size_t i = k; i < w->ks.n; i++)
    if (clang_getCursorKind(w->ks.v[i]) == CXCursor_CompoundStmt) body = w->ks.v[i];
  w->ks.n = k;
  return body;
}

/* Resets what one pass records, keeping what it learnt about pointers. */
static void fw_restart(fw *w, fw_mark m, size_t argmasks)
{
  sum_tu *s = w->t->sum;
  s->effs.n = m.eff;
  s->calls.n = m.call;
  s->argmasks.n = argmasks;
  s->fnargs.n = w->fnarg_base;
  s->pcalls.n = w->pcall_base;
  fw_fnfield_restart(w);
  fw_flow_top(w);
  for (size_t i = 0; i < w->vars.n; i++) {
    w->vars.v[i].read = w->vars.v[i].topped = w->vars.v[i].agg_read = 0;
    w->vars.v[i].addr_n = w->vars.v[i].addr_lent = 0;
    w->vars.v[i].last_write = 0;
  }
  w->flow.n = w->flow_lits.n = 0;
  w->stale = 0;
  w->doomed = 0;
  w->seq = w->mem_writes = w->ncalls = w->call_enters = 0;
  w->pending.n = w->pending_vars.n = w->pending_calls.n = 0;
  w->cinfo.n = w->cvars.n = w->avail.n = w->snaps.n = 0;
  w->guards.n = w->dead_cands.n = w->dead_stores.n = 0;
  w->fwrites.n = w->fld_cands.n = 0;
  w->loop_stmt = clang_getNullCursor();
  w->avail_floor = 0;
  w->iter_cond = w->iter_left = 0;
  w->captures = w->cap_hard = 0;
  w->pb_into = w->pb_stores = w->pb_ownc = 0;
  w->pb_slot_written = w->pb_slot_late = 0;
  w->pb_lends.n = 0;
  w->sflags = 0;
  w->ret_mask = 0;
  w->cond_depth = 0;
  memset(&w->arm, 0, sizeof w->arm);
  w->leaf_arms.n = 0;
  w->head_open = 0;
  w->heads.n = 0;
  for (size_t i = 0; i < w->vars.n; i++) w->vars.v[i].used = 0;
  w->loop_depth = 0;
  w->slot_back = w->slot_inexact = 0;
  w->slot_stores = w->slot_reads = w->slot_derefs = 0;
  w->rel_params = w->rel_pte = 0;
  w->rel_calls = 0;
  w->cleanups.n = 0;
  w->excl.n = 0;
  w->mw_active.n = 0;
  w->pfields.n = 0;
  w->pf_cleanup = 0;
}

int fw_walk_function(fe_tu *t, uint32_t fi, CXCursor fn)
{
  int flags = 0;
  fw w;
  memset(&w, 0, sizeof w);
  w.t = t;
  w.fi = fi;
  w.fn = fn;
  w.discard_top = clang_getNullCursor();
  w.ret_top = clang_getNullCursor();
  CXCursor body = fw_body(&w, fn);
  fw_add_params(&w, fn);
  if (!clang_Cursor_isNull(body)) fw_errsave_scan(&w, body);
  if (!clang_Cursor_isNull(body)) fw_guardvar_scan(&w, fn, body);
  fw_slot_begin(&w);
  fw_pb_begin(&w);
  fw_mark start = fw_mark_now(&w);
  size_t argstart = t->sum->argmasks.n;
  w.eff_base = start.eff;
  w.call_base = start.call;
  w.fnarg_base = t->sum->fnargs.n;
  w.pcall_base = t->sum->pcalls.n;
  fw_fnfield_begin(&w);
  /* Provenance only grows, so this converges; a few passes at most in
   * practice. Past the limit every local pointer may point anywhere. */
  for (int pass = 0;; pass++) {
    fw_restart(&w, start, argstart);
    if (!clang_Cursor_isNull(body)) flags = fw_stmt(&w, body);
    if (!w.stale || pass > 8) break;
    if (pass == 8) w.flow_off = 1;
    if (pass == 8)
      for (size_t i = 0; i < w.vars.n; i++)
        if (w.vars.v[i].is_ptr) { w.vars.v[i].mask |= PROV_UNKNOWN; w.vars.v[i].pointee_n = 2; }
  }
  fw_pb_lends_finish(&w);
  fw_loops_finish(&w);
  fw_callsite_finish(&w);
  fw_inline_note(&w, body);
  fw_fnptr_finish(&w, w.fnarg_base, w.pcall_base);
  fw_fnfield_finish(&w);
  fw_argdep_mark(&w, body);
  fw_cleanup_finish(&w);
  sum_func *f = &t->sum->funcs.v[fi];
  f->flags |= SFF_BODY;
  f->eff_off = (uint32_t)start.eff;
  f->neff = (uint32_t)(t->sum->effs.n - start.eff);
  f->call_off = (uint32_t)start.call;
  f->ncall = (uint32_t)(t->sum->calls.n - start.call);
  f->fnarg_off = (uint32_t)w.fnarg_base;
  f->nfnarg = (uint32_t)(t->sum->fnargs.n - w.fnarg_base);
  f->pcall_off = (uint32_t)w.pcall_base;
  f->npcall = (uint32_t)(t->sum->pcalls.n - w.pcall_base);
  fw_scratch_finish(&w, f);
  fw_pb_finish(&w, f);
  if (!clang_Cursor_isNull(body) && fw_errsave_kept(&w, body)) f->sflags |= SSF_ERRNO_KEPT;
  fe_retro_note(t, fi, w.ret_mask);
  fw_fnret_lookup(&w, fn, fi);
  fw_slot_finish(&w);
  fw_release_finish(&w);
  vec_free(&w.vars);
  vec_free(&w.pb_lends);
  vec_free(&w.excl);
  vec_free(&w.mw_active);
  vec_free(&w.mw_tests);
  ptrmap_free(&w.varmap);
  vec_free(&w.ks);
  vec_free(&w.flow);
  vec_free(&w.flow_lits);
  vec_free(&w.pending);
  vec_free(&w.pending_vars);
  vec_free(&w.pending_calls);
  vec_free(&w.cinfo);
  vec_free(&w.cvars);
  vec_free(&w.avail);
  vec_free(&w.snaps);
  vec_free(&w.guards);
  vec_free(&w.dead_cands);
  vec_free(&w.dead_stores);
  vec_free(&w.fwrites);
  vec_free(&w.fld_cands);
  vec_free(&w.errno_saved);
  vec_free(&w.errno_once);
  vec_free(&w.leaf_arms);
  vec_free(&w.heads);
  vec_free(&w.cleanups);
  vec_free(&w.pfields);
  free(w.asm_printed);
  return flags & FS_ENDS;
}
