/* hoist.c — the calls GCC's code hoisting computes once before an if
 * (issue 29).
 *
 * When both ways out of a branch begin with the same call of a const
 * function, before anything that may not return, GCC (PRE's hoisting,
 * -fcode-hoisting, on at -O2) computes it once before the branch and the
 * two calls become one: `if (c) return kind(k) + 1; else return kind(k) *
 * 3;`, `if (c && kind(k) == 2) … else return name(kind(k));`, `if (c)
 * return kind(k); else if (d) return kind(k) + 1; else return kind(k) + 2;`
 * (three calls, one left). Measured with GCC 12 -O2: hoisted from the two
 * branches of an if and from the second operand of `a && b` and the
 * else-branch, whatever is stored before or on the ways; not when either
 * way first calls a function that may not return (an impure one). Only a
 * const callee whose arguments are values (no memory read, no struct or
 * union passed whole): GCC's call then reads no memory. One that does
 * (pure, or an argument in memory) is hoisted only when no store precedes
 * the branch in its block — not when the condition copies a struct (jq's
 * parse_token: `if (jv_is_valid(p->next)) { if (jv_get_kind(p->stack[…])
 * …} else { if (jv_get_kind(p->stack[…]) …`, where the inlined
 * jv_is_valid copies p->next: GCC keeps both calls), which the summary
 * does not see; so such calls are no heads (a miss, never a wrong claim).
 *
 * The walk keeps each branch's heads: the calls it computes on every path
 * from its beginning before anything could leave it — the unconditional
 * calls of its straight-line statements up to the first one that is not
 * (an if contributes its condition's first operand and what it hoists
 * itself, then ends the run). The ways to the two calls are recorded on the
 * else-branch's call (sum_call.hoist_*); whether anything on them may not
 * return is known only at the link (checks/callsite.c). */
#include "frontend/walk.h"

/* Does entry av read no variable written after write number seq, nor one
 * whose address is taken (a store through a pointer may change it)? */
static int hoist_unchanged(const fw *w, const fw_avail *av, uint32_t seq)
{
  for (uint32_t i = 0; i < av->nsnap; i++) {
    uint32_t var = w->snaps.v[av->snap_off + 2 * i], lw = w->snaps.v[av->snap_off + 2 * i + 1];
    if (lw > seq || w->vars.v[var].addr_taken) return 0;
  }
  return 1;
}

/* Could the compiler run something of the statement (whose calls and
 * effects end at `end`) that may stop the hoisting before call rel? The
 * walk records a call after its arguments, left to right; GCC may
 * evaluate a later argument first. So a call recorded after rel that is
 * not one whose arguments hold rel (its walk began before rel's: jq's
 * `BLOCK(top, gen_op_simple(DUP))`, where block_join and gen_op_simple
 * have the macro's place alike), or a store or other barrier recorded
 * after it, may run first: such a call is no head (a miss, never a wrong
 * claim). */
static int hoist_later_sibling(const fw *w, uint32_t rel, fw_mark end)
{
  const sum_tu *s = w->t->sum;
  const sum_call *c = &s->calls.v[w->call_base + rel];
  uint32_t enter = w->cinfo.v[rel].enter;
  for (size_t j = w->call_base + rel + 1; j < end.call && j < s->calls.n; j++) {
    uint32_t je = w->cinfo.v[j - w->call_base].enter;
    if (enter == UINT32_MAX || je == UINT32_MAX || je > enter) return 1;
  }
  for (size_t j = w->eff_base + c->eff_pos; j < end.eff && j < s->effs.n; j++) {
    switch ((sum_effect_kind)s->effs.v[j].kind) {
    case SE_WRITE_GLOBAL: case SE_WRITE_MEM: case SE_WRITE_PARAM: case SE_VOLATILE:
    case SE_ATOMIC: case SE_ASM: case SE_CALL_INDIRECT: case SE_GOTO_BACK:
      return 1;
    default:
      break;
    }
  }
  return 0;
}

void fw_heads_add(fw *w, size_t lo, size_t hi, fw_mark end)
{
  for (size_t i = lo; i < hi && i < w->avail.n; i++) {
    const fw_callinfo *ci = &w->cinfo.v[w->avail.v[i].call];
    uint8_t copy = w->avail.v[i].copy;
    /* A copy that begins its inlined body runs where the call does, with
     * values for arguments (inline.c copies no others). */
    if (copy == 1 || (!copy && ci->reads_mem) || hoist_later_sibling(w, w->avail.v[i].call, end))
      continue;
    fw_head h = { w->avail.v[i], 0, (uint8_t)(copy ? 0 : ci->agg_args) };
    vec_push(&w->heads, h);
  }
}

/* Is any of the effects [lo, hi) (absolute) a store or something else
 * that stops code hoisting of a call reading memory? */
static int hoist_effs_store(const fw *w, size_t lo, size_t hi)
{
  const sum_tu *s = w->t->sum;
  for (size_t j = lo; j < hi && j < s->effs.n; j++) {
    switch ((sum_effect_kind)s->effs.v[j].kind) {
    case SE_WRITE_GLOBAL: case SE_WRITE_MEM: case SE_WRITE_PARAM: case SE_VOLATILE:
    case SE_ATOMIC: case SE_ASM: case SE_CALL_INDIRECT: case SE_GOTO_BACK: case SE_LOOP:
      return 1;
    default:
      break;
    }
  }
  return 0;
}

/* A head whose arguments are memory (a struct passed whole, from whole
 * local variables: reads_mem heads are none) is hoisted by GCC 12 only
 * when nothing before the branch in its block stores (jq's jv_has; `g =
 * 3; if (kind(t) == 6 && kind(k) == 4) … else … kind(k) …` keeps both
 * calls of kind(k), g unrelated): the if must be in the run of its
 * branch (`open`), and from the branch's start c0 (w->head_mark) to the
 * if's branch tm nothing may store nor call anything but the head's
 * callee (an inlined callee may copy a struct: parse_token's
 * jv_is_valid(p->next)). The ways are checked at the link
 * (sum_call.hoist_mem). */
static int hoist_block_clean(const fw *w, const fw_head *h, fw_mark c0, fw_mark tm, int open)
{
  if (!open || hoist_effs_store(w, c0.eff, tm.eff)) return 0;
  const sum_tu *s = w->t->sum;
  for (size_t j = c0.call; j < tm.call && j < s->calls.n; j++)
    if (s->calls.v[j].callee != h->av.callee) return 0;
  return 1;
}

void fw_args_late(fw *w, const fw_mark *at, size_t nargs)
{
  sum_tu *s = w->t->sum;
  for (size_t i = 1; i < nargs; i++) {
    /* Argument i runs before arguments 0 .. i-1: their calls, when they
     * store nothing, are after each call of argument i. A call whose
     * late calls begin where argument i does has them extended; one with
     * others (an argument's calls that run before it lie between) keeps
     * its own. */
    if (at[i].call == at[0].call || hoist_effs_store(w, at[0].eff, at[i].eff)) continue;
    uint32_t lo = (uint32_t)(at[0].call - w->call_base), hi = (uint32_t)(at[i].call - w->call_base);
    for (size_t j = at[i].call; j < at[i + 1].call && j < s->calls.n; j++) {
      sum_call *c = &s->calls.v[j];
      if (!c->late_hi) { c->late_lo = lo; c->late_hi = hi; }
      else if (c->late_lo == hi) c->late_lo = lo;
    }
  }
}

/* Is h's call the first with its value: no earlier call it merges with
 * anyway (then nothing is hoisted)? */
static int hoist_first(const fw *w, const fw_head *h)
{
  /* A copy is made available only where no earlier value was (inline.c). */
  return h->av.copy || !w->t->sum->calls.v[w->call_base + h->av.call].same_as;
}

/* Two copies begin the two ways (heads th, eh): the copied call is
 * hoisted, noted on eh's call (SCF_INL_HOISTED) if that call notes no
 * other copy's merge. No head stands for the pair: a copy hoisted
 * further out is not followed (a miss, never a wrong claim). */
static void hoist_copy(fw *w, const fw_head *th, const fw_head *eh, fw_mark tm, fw_mark em)
{
  sum_call *c = &w->t->sum->calls.v[w->call_base + eh->av.call];
  if (c->inl_callee || c->hoist_same || (c->flags & SCF_INL_HOISTED)) return;
  c->flags |= SCF_INL_HOISTED;
  c->inl_callee = eh->av.callee + 1;
  c->inl_same = th->av.call + 1;
  c->hoist_t_eff = (uint32_t)(tm.eff - w->eff_base);
  c->hoist_t_call = (uint32_t)(tm.call - w->call_base);
  c->hoist_e_eff = (uint32_t)(em.eff - w->eff_base);
  c->hoist_e_call = (uint32_t)(em.call - w->call_base);
}

void fw_heads_hoist(fw *w, size_t t_lo, size_t t_hi, size_t e_lo, size_t e_hi, fw_mark tm, fw_mark em,
                    uint32_t seq, int open, fw_mark c0)
{
  VEC(fw_head) reps = {0};
  for (size_t e = e_lo; e < e_hi && e < w->heads.n; e++) {
    const fw_head *eh = &w->heads.v[e];
    if (!hoist_first(w, eh) || !hoist_unchanged(w, &eh->av, seq)) continue;
    for (size_t t = t_lo; t < t_hi; t++) {
      const fw_head *th = &w->heads.v[t];
      if (th->av.fp != eh->av.fp || th->av.callee != eh->av.callee || th->av.call >= eh->av.call) continue;
      if (!th->av.copy != !eh->av.copy) continue;
      if (!hoist_first(w, th) || !hoist_unchanged(w, &th->av, seq)) continue;
      if (eh->av.copy) {
        hoist_copy(w, th, eh, tm, em);
        break;
      }
      int mem = th->mem || eh->mem;
      if (mem && !hoist_block_clean(w, th, c0, tm, open)) continue;
      sum_call *c = &w->t->sum->calls.v[w->call_base + eh->av.call];
      if (c->hoist_same) break;
      c->hoist_same = th->av.call + 1;
      c->hoist_t_eff = (uint32_t)(tm.eff - w->eff_base);
      c->hoist_t_call = (uint32_t)(tm.call - w->call_base);
      c->hoist_e_eff = (uint32_t)(em.eff - w->eff_base);
      c->hoist_e_call = (uint32_t)(em.call - w->call_base);
      c->hoist_dep_t = th->dep;
      c->hoist_dep_e = eh->dep;
      c->hoist_mem = (uint32_t)mem;
      fw_head rep = { th->av, eh->av.call + 1, (uint8_t)mem };
      vec_push(&reps, rep);
      break;
    }
  }
  w->heads.n = t_lo;
  for (size_t i = 0; open && i < reps.n; i++) vec_push(&w->heads, reps.v[i]);
  vec_free(&reps);
}
