/* ptrblock.c — what the blocks of pointers hold, over calls (issue 30,
 * items 1 and 3; frontend/ptrblock.c says what each body stores).
 *
 * A function's own blocks (PROV_FRESH) may be handed to a callee with a
 * pointee mask PROV_FRESH, "what they hold": the callee's writes through
 * a pointer loaded from them (its virtual parameter) are then writes of
 * the caller's own blocks, its scratch. That holds only if every pointer
 * ever stored into those blocks — by the function, by any callee, at any
 * depth — points to its own blocks. So, a fixpoint over all bodies (the
 * sets only grow):
 *
 *  - pinto / pstores: where a function stores pointers beyond its own
 *    locals and blocks, and what, in its own terms; a call adds its
 *    callee's, seen through the arguments (parameter i: the argument's
 *    mask; virtual parameter i: its pointee mask; the callee's own
 *    storage: anywhere). A callee neither analysed nor described, given
 *    a pointer, may store anything anywhere that pointer reaches; an
 *    allocator, a release, a function declared pure or const stores none.
 *  - ownc: what its own blocks hold: its own stores into them (or through
 *    pointers that may point anywhere), and what callees store where its
 *    blocks may be; anywhere as soon as a pointer loaded from memory is
 *    stored beyond the locals (it may be one of its own) or something
 *    stores unseen (SSF_PTR_OPAQUE, an asm statement).
 *
 * Where ownc holds more than PROV_FRESH, the pointee masks that name the
 * function's own blocks become PROV_UNKNOWN. Inference sees no
 * difference (PROV_FRESH is anywhere to it); `check`'s scratch states,
 * the captures and the witness read the masks after this. */
#include "link/solve_int.h"

/* Call c's argument masks; NULL without arguments (a TU whose calls take
 * none has no argmasks at all, and NULL + 0 is undefined). */
static uint64_t *pb_masks(const link_prog *p, const link_call *c)
{
  return c->nargs ? p->argmasks.v + c->arg_off : NULL;
}

/* x (a mask in callee terms) seen through call c's arguments. */
static uint64_t pb_map(const link_prog *p, const link_call *c, uint64_t x)
{
  const uint64_t *m = pb_masks(p, c);
  const uint64_t *pte = link_call_pte(p, c);
  uint64_t out = x & (PROV_UNKNOWN | PROV_RODATA);
  if (x & (PROV_FRESH | PROV_LOCAL)) out |= PROV_UNKNOWN;   /* the callee's own storage */
  for (uint64_t b = x >> PROV_PARAM0; b; b &= b - 1) {
    unsigned i = (unsigned)__builtin_ctzll(b);
    if (i < c->nargs) out |= m[i];
    else if (pte && i - c->nargs < c->nargs) out |= pte[i - c->nargs];
    else out |= PROV_UNKNOWN;
  }
  return out;
}

/* Does a call of g (no body analysed) store no pointer anywhere? */
static bool pb_stores_none(const link_prog *p, const link_func *g, const link_call *c)
{
  if (c->flags & (SCF_ALLOC | SCF_FREE)) return true;
  const kb_entry *e = link_kb_entry(p, g);
  if (e) return (e->alloc || e->frees) && !e->callbacks;
  return (g->declared & SUM_DECL_GNU) || (g->flags & (SFF_BUILTIN_PURE | SFF_BUILTIN_CONST));
}

/* Where call c stores pointers (to) and which (vals), in its caller's
 * terms; what the block it hands back holds joins the caller's own (own). */
static void pb_call(const link_prog *p, const link_call *c, uint64_t *to, uint64_t *vals, uint64_t *own)
{
  const link_func *g = &p->funcs.v[c->callee];
  *to = *vals = *own = 0;
  /* It never returns: nothing it stores is seen after (as link_solve_cap_doomed). */
  if (c->flags & SCF_NORETURN) return;
  if (link_solved_body(g)) {
    *to = pb_map(p, c, g->pinto);
    *vals = pb_map(p, c, g->pstores);
    /* A block handed back through `&v` (slot.c) holds what the callee
     * stored into its own blocks; one declared `malloc` holds no pointer
     * to a valid object (GCC's promise, taken at its word as elsewhere). */
    if ((c->flags & SCF_ALLOC) && (c->flags & SCF_PTE)) *own = pb_map(p, c, g->ownc);
    return;
  }
  if (pb_stores_none(p, g, c)) return;
  const uint64_t *m = pb_masks(p, c);
  const uint64_t *pte = link_call_pte(p, c);
  for (uint32_t a = 0; a < c->nargs; a++)
    if (m[a] & ~PROV_RODATA) *to |= m[a] | PROV_UNKNOWN | (pte ? pte[a] : 0);
  if (*to) *vals = PROV_UNKNOWN;
}

/* Does f store pointers unseen (an asm statement; SSF_PTR_OPAQUE)? */
static bool pb_opaque(const link_prog *p, const link_func *f)
{
  if (f->sflags & SSF_PTR_OPAQUE) return true;
  for (uint32_t i = 0; i < f->neff; i++)
    if (p->effs.v[f->eff_off + i].kind == SE_ASM) return true;
  return false;
}

/* What call c adds to the pointee mask of the local struct it lends
 * (pte_join, argument a): what the callee stores into it, through its
 * parameter a (noreturn or not: what it reads back counts); anywhere if
 * the callee stores that address itself anywhere (then stores through
 * anything may reach the struct) or is not the body the link knows.
 * Nothing else reaches the struct: the caller lends every address of it
 * to such calls, each at one argument. */
static uint64_t pb_lend_add(const link_prog *p, const link_call *c, unsigned a)
{
  const link_func *g = &p->funcs.v[c->callee];
  if (!link_solved_body(g) || (g->pstores & prov_param(a))) return PROV_UNKNOWN;
  return (g->pinto & prov_param(a)) ? pb_map(p, c, g->pstores) : 0;
}

/* The lent argument of call c (its pte_join bit), or -1. */
static int pb_lent_arg(const link_call *c)
{
  if (!c->pte_join || !(c->flags & SCF_PTE)) return -1;
  unsigned a = (unsigned)__builtin_ctzll(c->pte_join);
  return a < c->nargs ? (int)a : -1;
}

/* The pointee masks of f's calls lending a local struct: what f stores
 * there (the front end's) and what every call lending the same struct
 * (pte_group) adds, shared: one callee's stores stay for the next. Says
 * whether a mask grew. */
static bool pb_join_lent(link_prog *p, const link_func *f)
{
  bool grew = false;
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    int a = pb_lent_arg(c);
    if (a < 0) continue;
    uint64_t add = 0;
    for (uint32_t j = 0; j < f->ncall; j++) {
      const link_call *d = &p->calls.v[f->call_off + j];
      int b = pb_lent_arg(d);
      if (b >= 0 && d->pte_group == c->pte_group) add |= pb_lend_add(p, d, (unsigned)b);
    }
    uint64_t *pte = pb_masks(p, c) + c->nargs + a;
    if ((*pte | add) != *pte) { *pte |= add; grew = true; }
  }
  return grew;
}

/* One round over f's calls; says whether anything grew. */
static bool pb_round(link_prog *p, link_func *f)
{
  uint64_t into = f->pinto, stores = f->pstores, own = f->ownc;
  bool joined = pb_join_lent(p, f);
  for (uint32_t i = 0; i < f->ncall; i++) {
    uint64_t to, vals, handed;
    pb_call(p, &p->calls.v[f->call_off + i], &to, &vals, &handed);
    own |= handed;
    if (!to || !vals) continue;
    if (to & (PROV_FRESH | PROV_UNKNOWN)) own |= vals;
    if ((to & ~PROV_LOCAL) && (vals & PROV_UNKNOWN)) own |= PROV_UNKNOWN;
    uint64_t out = to & ~(PROV_FRESH | PROV_LOCAL | PROV_RODATA);
    if (out) {
      into |= out;
      stores |= vals;
    }
  }
  bool grew = joined || into != f->pinto || stores != f->pstores || own != f->ownc;
  f->pinto = into;
  f->pstores = stores;
  f->ownc = own;
  return grew;
}

bool link_pb_own_ok(const link_func *f)
{
  return !(f->ownc & ~PROV_FRESH);
}

/* f's pointee masks that name its own blocks, made anywhere. */
static void pb_forget(link_prog *p, const link_func *f)
{
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    if (!(c->flags & SCF_PTE)) continue;
    uint64_t *m = pb_masks(p, c);
    for (uint32_t a = 0; a < c->nargs; a++)
      if ((m[a] & PROV_FRESH) && (m[c->nargs + a] & PROV_FRESH))
        m[c->nargs + a] = (m[c->nargs + a] & ~PROV_FRESH) | PROV_UNKNOWN;
  }
}

void link_pb_solve(link_prog *p)
{
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    link_func *f = &p->funcs.v[fi];
    if (!link_solved_body(f)) { f->pinto = f->pstores = f->ownc = 0; continue; }
    if (pb_opaque(p, f)) {
      f->pinto |= PROV_UNKNOWN;
      f->pstores |= PROV_UNKNOWN;
      f->ownc |= PROV_UNKNOWN;
    }
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t fi = 0; fi < p->funcs.n; fi++)
      if (link_solved_body(&p->funcs.v[fi])) grew |= pb_round(p, &p->funcs.v[fi]);
  }
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (link_solved_body(f) && !link_pb_own_ok(f)) pb_forget(p, f);
  }
}

bool link_pb_keeps(const link_prog *p, const link_func *g, unsigned bit, const link_func *f, const link_call *c)
{
  if (bit >= PROV_MAX_PARAMS || !(g->pstores & prov_param(bit))) return false;
  if (!f || !c || !link_pb_own_ok(f)) return true;
  uint64_t to = pb_map(p, c, g->pinto);
  return (to & ~PROV_FRESH) != 0;
}
