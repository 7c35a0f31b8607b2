/* flow.c — where a local pointer points here, not anywhere in the call
 * (issue 30, item 7).
 *
 * fw_var.mask is the union of everything a local pointer is ever assigned
 * in the function (flow-insensitive): sound everywhere, and what every
 * other fact of the walk uses. Its value at a point of the walk, fw_var.fs,
 * is narrower: a plain assignment replaces it (`p = alloc(); *p = 0;`
 * writes the block only, even if p held a parameter before), the two
 * branches of an if or ?: are walked from the same state and joined
 * after, the right of && and || is joined with the state before it. Where
 * other paths arrive without this walk following them (a loop's head and
 * exit, a label, a case, a do … while (0) left by break) the value falls
 * back to the union, which covers every path. A variable whose address is
 * taken may change through it (a call, a store): it is always its union.
 *
 * A value that one branch of `if (v)` gave, v a variable fixed for the
 * call (guardvar.c), is kept as a part that holds only under that literal:
 * code run under the opposite literal does not see it (coreutils'
 * quote_name_buf). GMP's mpq_cmp uses one pointer for the caller's limbs
 * on one branch and for TMP limbs on the other, and writes it only on the
 * second: with the union, the write seemed to hit the caller's limbs. */
#include "frontend/walk.h"
#include <string.h>

/* Does part p hold nowhere the active literals reach (one of its literals
 * is negated there)? */
static int flow_part_dead(const fw *w, const fw_part *p)
{
  for (uint8_t i = 0; i < p->nlit; i++)
    for (size_t j = 0; j < w->flow_lits.n; j++)
      if (w->flow_lits.v[j] == (p->lit[i] ^ 1u)) return 1;
  return 0;
}

/* What a state may hold where the walk is: its base and the parts whose
 * literals are not contradicted here. */
static uint64_t flow_state_value(const fw *w, const fw_fstate *s)
{
  uint64_t m = s->base;
  for (uint8_t i = 0; i < s->n; i++)
    if (!flow_part_dead(w, &s->part[i])) m |= s->part[i].bits;
  return m;
}

/* Is the variable followed by this file, or always its union? */
static int flow_followed(const fw *w, const fw_var *v)
{
  return !(w->flow_off || v->addr_taken || v->ptr_union || v->array_param);
}

uint64_t fw_flow_value(const fw *w, uint32_t vi)
{
  const fw_var *v = &w->vars.v[vi];
  uint64_t out = w->excl.n ? fw_ptrneq_excluded(w, vi) : 0;   /* under `p != q` (ptrneq.c) */
  if (!flow_followed(w, v)) return v->mask & ~out;
  return flow_state_value(w, &v->fs) & v->mask & ~out;
}

/* The local pointer variable e names (stripped), or -1. */
static int flow_var_of(fw *w, CXCursor e)
{
  int vi = clang_Cursor_isNull(e) ? -1 : fw_local_ref(w, e);
  return vi >= 0 && w->vars.v[vi].is_ptr && flow_followed(w, &w->vars.v[vi]) ? vi : -1;
}

void fw_flow_assign(fw *w, uint32_t vi, uint64_t m, CXCursor value, int strong)
{
  fw_var *v = &w->vars.v[vi];
  if (!strong) { v->fs.base |= m; return; }
  int src = flow_var_of(w, value);
  /* Stripping casts also strips a round trip through an integer, `(T *)
   * (uintptr_t) q`: not a copy of q when its value m is not within what q
   * holds here (an integer made a pointer may point anywhere). */
  if (src >= 0 && (m & ~flow_state_value(w, &w->vars.v[src].fs))) src = -1;
  if (src >= 0 && (uint32_t)src != vi) {
    /* `q = buf`: q holds buf's parts, under the same literals, less
     * those that cannot hold here. */
    fw_fstate s = w->vars.v[src].fs;
    uint8_t n = 0;
    for (uint8_t i = 0; i < s.n; i++)
      if (!flow_part_dead(w, &s.part[i])) s.part[n++] = s.part[i];
    s.n = n;
    v->fs = s;
    return;
  }
  memset(&v->fs, 0, sizeof v->fs);
  v->fs.base = m;
}

void fw_flow_top(fw *w)
{
  for (size_t i = 0; i < w->vars.n; i++) {
    memset(&w->vars.v[i].fs, 0, sizeof w->vars.v[i].fs);
    w->vars.v[i].fs.base = w->vars.v[i].mask;
    w->vars.v[i].topped = 1;
  }
  fw_pf_clobber(w);   /* fields of parameters' objects (pfield.c) */
}

size_t fw_flow_save(fw *w)
{
  size_t at = w->flow.n;
  fw_fstate head;
  memset(&head, 0, sizeof head);
  head.base = w->vars.n;
  head.part[0].bits = w->pfields.n;   /* pfield.c's paths follow the variables */
  vec_push(&w->flow, head);
  for (size_t i = 0; i < w->vars.n; i++) vec_push(&w->flow, w->vars.v[i].fs);
  fw_pf_save(w);
  return at;
}

void fw_flow_restore(fw *w, size_t at)
{
  size_t n = (size_t)w->flow.v[at].base;
  for (size_t i = 0; i < n && i < w->vars.n; i++) w->vars.v[i].fs = w->flow.v[at + 1 + i];
  fw_pf_restore(w, &w->flow.v[at + 1 + n], (size_t)w->flow.v[at].part[0].bits);
}

/* Adds part {bits, lits of s's part or none, plus lit} to out; on
 * overflow the bits go to out's base (holding everywhere: conservative). */
static void flow_add_part(fw_fstate *out, uint64_t bits, const fw_part *from, const fw_u32vec *lits)
{
  if (!bits) return;
  fw_part p;
  memset(&p, 0, sizeof p);
  p.bits = bits;
  if (from) p = *from, p.bits = bits;
  for (size_t i = 0; lits && i < lits->n; i++) {
    if (p.nlit == FW_PART_LITS) { out->base |= bits; return; }
    p.lit[p.nlit++] = lits->v[i];
  }
  if (!p.nlit) { out->base |= bits; return; }
  for (uint8_t i = 0; i < out->n; i++)   /* the same literals: one part */
    if (out->part[i].nlit == p.nlit && !memcmp(out->part[i].lit, p.lit, p.nlit * sizeof *p.lit)) {
      out->part[i].bits |= bits;
      return;
    }
  if (out->n == FW_PARTS) { out->base |= bits; return; }
  out->part[out->n++] = p;
}

/* One side's state as parts of out, each under the side's literals too. */
static void flow_add_side(fw_fstate *out, const fw_fstate *s, uint64_t common, const fw_u32vec *lits)
{
  flow_add_part(out, s->base & ~common, NULL, lits);
  for (uint8_t i = 0; i < s->n; i++) flow_add_part(out, s->part[i].bits, &s->part[i], lits);
}

void fw_flow_join_lits(fw *w, size_t at, const fw_u32vec *lits_saved, const fw_u32vec *lits_cur)
{
  size_t n = (size_t)w->flow.v[at].base;
  for (size_t i = 0; i < n && i < w->vars.n; i++) {
    const fw_fstate *a = &w->flow.v[at + 1 + i];
    fw_fstate *b = &w->vars.v[i].fs;
    if (!memcmp(a, b, sizeof *a)) continue;
    fw_fstate out;
    memset(&out, 0, sizeof out);
    uint64_t common = a->base & b->base;
    out.base = common;
    flow_add_side(&out, a, common, lits_saved);
    flow_add_side(&out, b, common, lits_cur);
    *b = out;
  }
  fw_pf_join(w, &w->flow.v[at + 1 + n], (size_t)w->flow.v[at].part[0].bits);
}

void fw_flow_join(fw *w, size_t at)
{
  fw_flow_join_lits(w, at, NULL, NULL);
}

void fw_flow_drop(fw *w, size_t at)
{
  w->flow.n = at;
}
