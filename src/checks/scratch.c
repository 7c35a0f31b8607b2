/* scratch.c — scratch memory in `check` (issue 30, items 1 and 7).
 *
 * link/capture.c leaves out of a function's class for `check` what it does
 * to blocks it allocates for itself and never lets leave. Here: the note
 * saying what the attribute then relies on (the allocation succeeding;
 * nothing of the block reaching a caller), and witnesses that name the
 * allocation or the real cause rather than a write into the function's
 * own block. */
#include "checks/scratch.h"
#include "report/reason.h"

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

bool checks_param_local(const sum_effect *e, uint64_t local_params)
{
  return (e->kind == SE_READ_PARAM || e->kind == SE_WRITE_PARAM) && e->param < 64 &&
         (local_params >> e->param & 1);
}

/* Does a witness in f look past what f does to its own blocks? When f
 * owns them (LF_SCRATCH_OK), and when they reach nothing beyond its
 * locals by f's own doing (neither returned nor stored beyond them) but
 * the analysis lost them — kept in a local object whose address is passed
 * on (GMP's MPZ_TMP_INIT), or passed to a callee that keeps them (GMP's
 * mpz_jacobi): then a write into them is not what breaks the attribute,
 * the loss is, and the witness names that. */
static bool scratch_witness_owner(const link_func *f)
{
  if (f->lflags & LF_SCRATCH_OK) return true;
  if ((f->sflags & SSF_FRESH_IN_OWN) && !link_pb_own_ok(f)) return false;   /* link/ptrblock.c */
  return (f->sflags & SSF_SCRATCH) && !(f->sflags & (SSF_FRESH_OUT | SSF_FRESH_RETURNED));
}

/* Does f hand the blocks it allocates to its caller and to no one else
 * (returned; not stored beyond its locals, not returned in a struct:
 * libgcrypt's _gcry_sexp_find_token copying a token into a new list)?
 * Then filling them is not a cause a witness names: nobody has seen the
 * block yet. The allocation is (and what it does), or another cause of
 * f. Witnesses only: the check's class is link/capture.c's. */
static bool scratch_hands_out(const link_func *f)
{
  if (!(f->sflags & SSF_FRESH_RETURNED) || (f->sflags & SSF_FRESH_OUT)) return false;
  return !(f->sflags & SSF_FRESH_IN_OWN) || link_pb_own_ok(f);
}

/* May a witness in f pass over writes into f's own blocks? */
static bool scratch_fills_own(const link_func *f, const link_chain *ch)
{
  return scratch_witness_owner(f) || (ch && ch->owned) || scratch_hands_out(f);
}

/* Does call c release only memory the chain owns: a library release
 * (a knowledge-base `fN` that allocates nothing) whose released arguments
 * all hold cur's parameters in local_params, or its own blocks (owner)?
 * A release wrapper's free of the block its caller allocated is that
 * caller's scratch work, not a cause (link/capture.c's rel). */
static bool scratch_release_of_chain(const link_prog *p, const link_call *c, uint64_t local_params, bool owner)
{
  const link_func *g = &p->funcs.v[c->callee];
  const kb_entry *e = link_has_body(g) ? NULL : link_kb_entry(p, g);
  if (!e || !e->frees || e->alloc || e->callbacks) return false;
  uint64_t ok = (local_params << PROV_PARAM0) | (owner ? PROV_FRESH : 0);
  for (uint64_t bits = e->frees; bits; bits &= bits - 1) {
    unsigned a = (unsigned)__builtin_ctzll(bits);
    if (a >= c->nargs) return false;
    uint64_t m = p->argmasks.v[c->arg_off + a];
    if (!m || (m & ~ok)) return false;
  }
  return true;
}

/* The first effect of f beyond decl for check that is not scratch work,
 * else the first such call (for a function handing out its blocks, its
 * allocations among them), else WHY_NONE. */
static link_why scratch_other_cause(const link_prog *p, const link_func *f, purity decl, uint64_t local_params,
                                    const link_chain *ch)
{
  bool owned = scratch_witness_owner(f) || (ch && ch->owned), owner = scratch_fills_own(f, ch);
  /* A function handing out its blocks: their allocation is a cause in
   * its turn (an owner's is not: its blocks never leave). */
  bool alloc_counts = owner && !owned;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if ((e->flags & (SEF_SCRATCH | SEF_DOOMED | SEF_ERRNO_RESTORE)) || checks_param_local(e, local_params) ||
        link_scratch_effect(p, f, e) || (ch && ch->noerr && link_errno_write(p, e)))
      continue;
    if (link_effect_contrib(p, e) > decl) return (link_why){ WHY_EFFECT, f->eff_off + i };
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    if ((c->flags & (SCF_DOOMED | SCF_NORETURN | SCF_FREE)) || ((c->flags & SCF_ALLOC) && !alloc_counts) ||
        scratch_release_of_chain(p, c, local_params, owner))
      continue;
    if ((c->flags & SCF_ALLOC) && p->call_cls[f->call_off + i] > decl) return (link_why){ WHY_CALL, f->call_off + i };
    if (link_call_class_scratch_as(p, f, c, local_params, owner, ch) > decl) return (link_why){ WHY_CALL, f->call_off + i };
  }
  return (link_why){ WHY_NONE, 0 };
}

uint64_t checks_scratch_step(const link_prog *p, const link_func *from, const link_call *via, uint64_t local_params)
{
  uint64_t out = 0;
  uint64_t ok = PROV_LOCAL | (scratch_fills_own(from, NULL) ? PROV_FRESH : 0) | (local_params << PROV_PARAM0);
  for (uint32_t a = 0; a < via->nargs && a < 64; a++) {
    uint64_t m = p->argmasks.v[via->arg_off + a];
    if (!(m & ~ok)) out |= (uint64_t)1 << a;   /* null (0) points nowhere */
  }
  /* What the arguments point to (SCF_PTE): the callee's virtual
   * parameters nargs + a (frontend/slot.c). */
  for (uint32_t a = 0; (via->flags & SCF_PTE) && a < via->nargs && via->nargs + a < 64; a++) {
    uint64_t m = p->argmasks.v[via->arg_off + via->nargs + a];
    if (!(m & ~ok)) out |= (uint64_t)1 << (via->nargs + a);
  }
  return out;
}

/* f's first allocation beyond decl: an allocator call, else a hook call. */
static link_why scratch_alloc(const link_prog *p, const link_func *f, purity decl)
{
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    if ((c->flags & SCF_ALLOC) && p->call_cls[f->call_off + i] > decl) return (link_why){ WHY_CALL, f->call_off + i };
  }
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if ((e->flags & SEF_SCRATCH) && e->kind == SE_CALL_INDIRECT) return (link_why){ WHY_EFFECT, f->eff_off + i };
  }
  return (link_why){ WHY_NONE, 0 };
}

link_why checks_scratch_why(const link_prog *p, const link_func *cur, link_why w, purity decl,
                            uint64_t local_params, const link_chain *ch)
{
  /* Forgiven for check: work on its own blocks, a call that breaks decl
   * only by writing them (or by its callees' scratch work), an access
   * through a parameter that points to a caller's locals or scratch. */
  bool scratch = false;
  if (w.kind == WHY_EFFECT) {
    const sum_effect *e = &p->effs.v[w.index];
    scratch = (e->flags & (SEF_SCRATCH | SEF_ERRNO_RESTORE)) || checks_param_local(e, local_params) ||
              link_scratch_effect(p, cur, e) || (ch && ch->noerr && link_errno_write(p, e));
  } else if (w.kind == WHY_CALL) {
    const link_call *c = &p->calls.v[w.index];
    /* An allocation whose block leaves (xmalloc returning it) is the cause;
     * one whose blocks were only lost (scratch_witness_owner) is not by
     * itself: what else breaks decl comes first. */
    bool owner = scratch_witness_owner(cur) || (ch && ch->owned), fills = owner || scratch_hands_out(cur);
    if ((c->flags & (SCF_ALLOC | SCF_FREE)) && !owner) return w;
    scratch = (c->flags & (SCF_ALLOC | SCF_FREE)) || scratch_release_of_chain(p, c, local_params, fills) ||
              link_call_class_scratch_as(p, cur, c, local_params, fills, ch) <= decl;
  }
  if (!scratch) return w;
  link_why other = scratch_other_cause(p, cur, decl, local_params, ch);
  if (other.kind != WHY_NONE) return other;
  link_why a = scratch_alloc(p, cur, decl);
  return a.kind != WHY_NONE ? a : w;
}

/* Where f's attribute relies on scratch memory: the allocation, found in
 * f or down the chain of calls that break decl only with their scratch
 * work counted. Appends the callees passed to *via. */
static bool scratch_find(const link_prog *p, uint32_t fi, purity decl, int depth, strbuf *via,
                         const link_func **owner, link_why *why)
{
  const link_func *f = &p->funcs.v[fi];
  if (f->lflags & LF_SCRATCH_OK) {
    link_why a = scratch_alloc(p, f, decl);
    if (a.kind != WHY_NONE) { *owner = f; *why = a; return true; }
  }
  if (depth >= 16) return false;
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    const link_func *g = &p->funcs.v[c->callee];
    if (c->callee == fi || !link_has_body(g) || (c->flags & (SCF_DOOMED | SCF_NORETURN))) continue;
    if (p->call_cls[f->call_off + i] <= decl || link_call_class_scratch(p, f, c) > decl) continue;
    size_t n = via->n;
    sb_printf(via, "%s%s", n ? ", " : "", S(p, g->name));
    if (scratch_find(p, c->callee, decl, depth + 1, via, owner, why)) return true;
    via->n = n;
    if (via->s) via->s[n] = '\0';
  }
  return false;
}

void checks_scratch_note(const link_prog *p, const checks_opts *o, uint32_t fi, purity decl, sum_loc at,
                         diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  strbuf via = {0};
  const link_func *owner = NULL;
  link_why why = { WHY_NONE, 0 };
  if (!scratch_find(p, fi, decl, 0, &via, &owner, &why)) { sb_free(&via); return; }
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s and uses scratch memory: ", S(p, f->name), purity_name(decl));
  reason_head_why(&msg, p, owner, why, o->root);
  checks_why_where(&msg, p, o, owner, why, &via);
  sb_printf(&msg, "; the block is neither returned nor stored where a caller can reach it, nor passed to a "
                  "function that keeps it, so what is written there changes nothing a caller sees and the "
                  "attribute holds as long as the allocation succeeds (a failed allocation must abort or be "
                  "handled without another effect; malloc then sets errno)");
  diag *d = checks_emit(out, p, o, "misuse", DIAG_NOTE, at, f, sb_str(&msg));
  checks_related_why(d, p, o, owner, why, ": scratch memory");
  sb_free(&msg);
  sb_free(&via);
}
