/* capture.c — scratch memory for `check` (issue 30, item 1).
 *
 * A block a function allocates for itself (PROV_FRESH, frontend/scratch.c)
 * and never lets leave changes nothing a caller sees: writing it, reading
 * it, allocating and releasing it are scratch work. The front end marks
 * that work (SEF_SCRATCH, SCF_ALLOC, SCF_FREE) and the ways a block leaves
 * by the function's own doing (SSF_FRESH_ESCAPES); what only the whole
 * program knows is whether a callee it is passed to keeps it. Here:
 *
 *  - captures: parameter i of g is kept beyond g's call if g stores it
 *    beyond its locals (the front end's bits), or passes it to a call
 *    that keeps that argument: a body that keeps it (or passes it to a
 *    call through a function-pointer parameter, sum_pcall, and the call
 *    of g passes there a function that keeps it, or no known function:
 *    GMP's mpn_gcd_subdiv_step hands its limbs to the hook
 *    mpn_jacobi_n passes, which only reads them), a library function
 *    of class normal (pthread_create, setvbuf) unless it releases it, any
 *    function neither analysed nor described. A fixpoint over all bodies
 *    (the sets only grow).
 *  - LF_SCRATCH_OK: f allocates scratch, no block leaves by itself, and
 *    no call is passed one at an argument its callee keeps.
 *  - rel, rst: a function that releases its own parameters (free, or such
 *    a wrapper: pa_xfree in another file) and what it does besides; a
 *    call giving it only the caller's blocks is a release (issue 30 item 9).
 *  - sst: f's state with its scratch work left out (and blocks it passes
 *    treated as its own locals: a callee writing them writes scratch),
 *    the callees' sst joined, bottom-up; a recursive component from
 *    nothing up to its fixpoint, as the plain solve. A precondition guard's report
 *    (link_guard_call) is left out too: check notes it (checks/precond.h).
 *
 * Inference (infer, suggest) never looks at any of this: GCC counts an
 * allocating function as not pure, and so does purist's class. */
#include "link/solve_int.h"
#include "link/scc.h"
#include <string.h>

static purity scratch_state_class(const link_state *s)
{
  purity c = (purity)s->own;
  if (s->pr) c = purity_join(c, PURITY_PURE);
  if (s->pw || s->pn || s->pm) c = PURITY_NORMAL;   /* pn, pm: a caller may pass null, or not */
  return c;
}

static bool scratch_keeps(const link_prog *p, const link_func *g, uint32_t a, const link_func *f,
                          const link_call *c);

/* Do the functions call c (of f) passes at g's parameter `param` all leave
 * their argument b alone? False when the call passes no known function
 * there (nothing, a pointer read from memory, f's own parameter). */
static bool scratch_bound_keep_none(const link_prog *p, const link_func *f, const link_call *c,
                                    uint32_t param, uint32_t b)
{
  if (!f || !c) return false;
  uint32_t rel = (uint32_t)(c - p->calls.v) - f->call_off;
  bool any = false;
  for (uint32_t i = 0; i < f->nfnarg; i++) {
    const sum_fnarg *x = &p->fnargs.v[f->fnarg_off + i];
    if (x->call != rel || x->arg != param) continue;
    any = true;
    if (x->kind == SFA_NULL) continue;
    if (x->kind != SFA_FUNC || scratch_keeps(p, &p->funcs.v[x->value], b, NULL, NULL)) return false;
  }
  return any;
}

/* Does g keep its argument a by passing it to a call through one of its
 * function-pointer parameters (sum_pcall; the front end leaves those out
 * of captures)? Resolved by what call c of f passes there; without a
 * call (g called through a pointer itself), yes. */
static bool scratch_pcall_keeps(const link_prog *p, const link_func *g, uint32_t a, const link_func *f,
                                const link_call *c)
{
  for (uint32_t i = 0; i < g->npcall; i++) {
    const sum_pcall *pc = &p->pcalls.v[g->pcall_off + i];
    for (uint32_t b = 0; b < pc->nargs; b++)
      if ((p->argmasks.v[pc->arg_off + b] & prov_param(a)) && !scratch_bound_keep_none(p, f, c, pc->param, b))
        return true;
  }
  return false;
}

/* Does a call of g keep its argument a? c, a call of f, when known: it
 * fixes g's function-pointer parameters. */
static bool scratch_keeps(const link_prog *p, const link_func *g, uint32_t a, const link_func *f,
                          const link_call *c)
{
  const kb_entry *e = link_kb_entry(p, g);
  if (e) {
    if ((e->frees >> (a < 64 ? a : 63) & 1) || e->alloc) return false;
    /* Its class column: what it does beyond reading and writing through
     * its arguments (memcpy's is const: it keeps nothing). */
    return e->cls == PURITY_NORMAL || e->callbacks;
  }
  if (link_solved_body(g)) {
    if (a >= g->nparams || a >= PROV_MAX_PARAMS) return (g->flags & SFF_VARIADIC) != 0;
    return (g->captures >> a & 1) || scratch_pcall_keeps(p, g, a, f, c) || link_pb_keeps(p, g, a, f, c);
  }
  /* Declared pure or const: it keeps nothing (it could store nowhere). */
  return !((g->declared & SUM_DECL_GNU) || (g->flags & (SFF_BUILTIN_PURE | SFF_BUILTIN_CONST)));
}

static const uint64_t *scratch_masks(const link_prog *p, const link_call *c)
{
  return c->nargs ? p->argmasks.v + c->arg_off : NULL;
}

/* Does g keep what its argument a points to (its virtual parameter
 * nparams + a, SEF_PTE), which call c of f's pointee masks name? */
static bool scratch_keeps_pointee(const link_prog *p, const link_func *g, uint32_t a, const link_func *f,
                                  const link_call *c)
{
  if (!link_solved_body(g)) return true;
  uint32_t v = g->nparams + a;
  return v >= PROV_MAX_PARAMS || (g->captures >> v & 1) || link_pb_keeps(p, g, v, f, c);
}

/* One round of the captures fixpoint; says whether anything grew. */
static bool scratch_capture_round(link_prog *p)
{
  bool grew = false;
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    link_func *f = &p->funcs.v[fi];
    if (!link_solved_body(f)) continue;
    uint64_t cap = f->captures;
    for (uint32_t i = 0; i < f->ncall; i++) {
      const link_call *c = &p->calls.v[f->call_off + i];
      const uint64_t *m = scratch_masks(p, c);
      for (uint32_t a = 0; a < c->nargs; a++) {
        uint64_t params = m[a] >> PROV_PARAM0;
        if ((params & ~cap) && scratch_keeps(p, &p->funcs.v[c->callee], a, f, c)) cap |= params;
      }
      const uint64_t *pte = link_call_pte(p, c);
      for (uint32_t a = 0; pte && a < c->nargs; a++) {
        uint64_t params = pte[a] >> PROV_PARAM0;
        if ((params & ~cap) && scratch_keeps_pointee(p, &p->funcs.v[c->callee], a, f, c)) cap |= params;
      }
    }
    if (cap != f->captures) { f->captures = cap; grew = true; }
  }
  return grew;
}

/* Is a block f allocated passed to a callee that keeps it? */
static bool scratch_passed_away(const link_prog *p, const link_func *f)
{
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    /* the allocator's own arguments, a release (not a hand-back: judged as any call) */
    if ((c->flags & (SCF_ALLOC | SCF_FREE)) && !(c->flags & SCF_PTE)) continue;
    const uint64_t *m = scratch_masks(p, c);
    for (uint32_t a = 0; a < c->nargs; a++)
      if ((m[a] & PROV_FRESH) && scratch_keeps(p, &p->funcs.v[c->callee], a, f, c)) return true;
    const uint64_t *pte = link_call_pte(p, c);
    for (uint32_t a = 0; pte && a < c->nargs; a++)
      if ((pte[a] & PROV_FRESH) && scratch_keeps_pointee(p, &p->funcs.v[c->callee], a, f, c)) return true;
  }
  return false;
}

bool link_errno_write(const link_prog *p, const sum_effect *e)
{
  return e->kind == SE_WRITE_MEM && e->name == p->errno_name && !(e->flags & SEF_ATOMIC);
}

static bool scratch_errno_write(const link_prog *p, const sum_effect *e) { return link_errno_write(p, e); }

bool link_scratch_effect(const link_prog *p, const link_func *f, const sum_effect *e)
{
  /* errno put back as it was (frontend/errsave.c) is no write either, nor
   * any write into errno of a function that keeps errno for its caller. */
  if ((f->sflags & SSF_ERRNO_KEPT) && scratch_errno_write(p, e)) return true;
  return ((f->lflags & LF_SCRATCH_OK) && (e->flags & SEF_SCRATCH)) || (e->flags & SEF_ERRNO_RESTORE);
}

/* What calling g gives for `check` with what it writes into errno left
 * out (a caller keeping errno): its est, or for a library function of the
 * knowledge base whose entry says what it does apart from setting errno
 * (`errno=CLASS`, or a math function's `errno`), that. */
static link_state scratch_callee_noerr(const link_prog *p, const link_func *f, const link_func *g)
{
  if (link_solved_body(g)) return g->est;
  link_state s = link_solve_callee(p, f, g);
  const kb_entry *e = link_kb_entry(p, g);
  if (e && !e->callbacks && s.own == PURITY_NORMAL) {
    if (e->errno_only) { s.own = e->errno_cls; s.pn = e->null_hidden; }
    else if (e->math_errno) s.own = e->cls;
  }
  return s;
}

/* A library call given a null pointer where its knowledge-base entry says
 * that makes it a query (`queryN`: setlocale(c, NULL)): it only reads. A
 * null argument is one pointing nowhere (mask 0: the null constant). */
static void scratch_query(const link_prog *p, const link_func *g, const link_call *c, link_state *cs)
{
  const kb_entry *e = link_kb_entry(p, g);
  if (!e || !e->null_query) return;
  for (uint32_t a = 0; a < c->nargs && a < 64; a++)
    if ((e->null_query >> a & 1) && !(c->nonnull >> a & 1) && p->argmasks.v[c->arg_off + a] == 0) {
      cs->own = PURITY_PURE;
      return;
    }
}

/* Does mask m hold nothing but the caller's parameters (and some)? */
static bool scratch_params_only(uint64_t m)
{
  return m && !(m & ((1ull << PROV_PARAM0) - 1));
}

/* cs.pn seen through call c's arguments (masks m, n of them): a surely
 * non-null argument escapes the hidden state; one that is the caller's
 * parameter passes the question on to the caller's callers; anything else
 * (null, a pointer from anywhere) keeps hidden state: normal. */
static void scratch_map_null(link_state *out, const link_state *cs, const link_call *c, const uint64_t *m, uint32_t n,
                             uint64_t nonnull)
{
  for (uint64_t bits = cs->pn; bits; bits &= bits - 1) {
    unsigned i = (unsigned)__builtin_ctzll(bits);
    if (i < 64 && (c->nonnull >> i & 1)) continue;
    uint64_t a = i < n ? m[i] : PROV_UNKNOWN;
    bool params = scratch_params_only(a);
    if (params && !((a >> PROV_PARAM0) & ~nonnull)) continue;   /* the chain says: not null */
    if (params) out->pn |= a >> PROV_PARAM0;
    else out->own = PURITY_NORMAL;
  }
}

/* cs.pm seen through call c's arguments: a null constant there (mask 0,
 * not surely non-null) makes no call through its member; the caller's
 * own parameter passes the question on; anything else calls: normal. */
static void scratch_map_member(link_state *out, const link_state *cs, const link_call *c, const uint64_t *m, uint32_t n)
{
  for (uint64_t bits = cs->pm; bits; bits &= bits - 1) {
    unsigned i = (unsigned)__builtin_ctzll(bits);
    uint64_t a = i < n ? m[i] : PROV_UNKNOWN;
    if (!a && !(i < 64 && (c->nonnull >> i & 1))) continue;
    if (scratch_params_only(a)) out->pm |= a >> PROV_PARAM0;
    else out->own = PURITY_NORMAL;
  }
}

/* A call through a member of what parameter P points to (`P->m (…)`),
 * not resolved otherwise: s.pm gets P (scratch_map_member). */
static bool scratch_member_call(const sum_effect *e, link_state *s)
{
  if (e->kind != SE_CALL_INDIRECT || !e->param || (e->flags & (LINK_EF_RESOLVED | SEF_DOOMED)) ||
      e->param > PROV_MAX_PARAMS)
    return false;
  s->pm |= (uint64_t)1 << (e->param - 1);
  return true;
}

uint64_t link_chain_nonnull(const link_prog *p, const link_call *via, uint64_t nonnull)
{
  uint64_t out = 0;
  for (uint32_t a = 0; a < via->nargs && a < 64; a++) {
    uint64_t m = p->argmasks.v[via->arg_off + a];
    bool params = scratch_params_only(m) && !((m >> PROV_PARAM0) & ~nonnull);
    if ((via->nonnull >> a & 1) || params) out |= (uint64_t)1 << a;
  }
  return out;
}

/* Is call c (of a function with a body) a release of only that function's
 * own parameters — a knowledge-base `fN` that allocates nothing, or a
 * release wrapper solved before it — each released argument holding
 * nothing but parameters (derived by arithmetic, never loaded: freeing
 * any other address than a block's start is undefined)? *params gets
 * them, *rest what the call does besides (a wrapper's rst). */
static bool scratch_release_of_params(const link_prog *p, const link_call *c, uint64_t *params)
{
  const link_func *g = &p->funcs.v[c->callee];
  const kb_entry *e = link_kb_entry(p, g);
  uint64_t frees = g->rel;
  if (!frees) {
    if (link_solved_body(g) || !e || !e->frees || e->alloc || e->callbacks) return false;
    frees = e->frees;
  }
  const uint64_t *m = scratch_masks(p, c);
  *params = 0;
  for (uint64_t bits = frees; bits; bits &= bits - 1) {
    unsigned a = (unsigned)__builtin_ctzll(bits);
    if (a >= c->nargs || !scratch_params_only(m[a])) return false;
    *params |= m[a] >> PROV_PARAM0;
  }
  return true;
}

/* Does call c of f hand only blocks f owns, or null, to what its callee,
 * a release wrapper, releases? Then the call is a release of f's scratch,
 * or of nothing (freeing null does nothing). An argument in local_params
 * is one the chain being checked knows to be null or its own storage.
 * The callee may release what a pointer loaded from its argument holds
 * (its virtual parameter): then the argument's pointee mask says what
 * (xz's lz_encoder_prepare frees the members its caller's local struct
 * holds null in). */
static bool scratch_releases_own(const link_prog *p, const link_call *c, bool owner, uint64_t local_params)
{
  const link_func *g = &p->funcs.v[c->callee];
  if (!g->rel) return false;
  const uint64_t *m = scratch_masks(p, c);
  const uint64_t *pte = link_call_pte(p, c);
  uint64_t ok = (owner ? PROV_FRESH : 0) | (local_params << PROV_PARAM0);
  for (uint64_t bits = g->rel; bits; bits &= bits - 1) {
    unsigned a = (unsigned)__builtin_ctzll(bits);
    uint64_t x = a < c->nargs ? m[a] : pte && a - c->nargs < c->nargs ? pte[a - c->nargs] : PROV_UNKNOWN;
    if (x & ~(g->rel_kept >> a & 1 ? ok & ~PROV_FRESH : ok)) return false;
  }
  return true;
}

/* Is call c of f left out when f owns its blocks (owner)? Allocating and
 * releasing are; a call of an allocator whose body is analysed is judged
 * by that body (its allocator state), not left out. */
static bool scratch_skip_call(const link_prog *p, const link_call *c, bool owner)
{
  if (!owner || !(c->flags & (SCF_ALLOC | SCF_FREE))) return false;
  return !((c->flags & SCF_ALLOC) && link_has_body(&p->funcs.v[c->callee]));
}

bool link_scratch_call(const link_prog *p, const link_func *f, const link_call *c)
{
  return scratch_skip_call(p, c, (f->lflags & LF_SCRATCH_OK) != 0);
}

/* What call c of f gives with the callee's check state, blocks f
 * allocated counting as f's own storage when f owns them (owner), and
 * f's parameters in local_params (bit i) pointing to storage no caller
 * of the function being checked sees. */
static link_state scratch_call_state_rel(const link_prog *p, const link_func *f, const link_call *c,
                                         uint64_t local_params, bool owner, bool noerr, uint64_t nonnull, bool rest);

static link_state scratch_call_state_in(const link_prog *p, const link_func *f, const link_call *c,
                                        uint64_t local_params, bool owner, bool noerr, uint64_t nonnull)
{
  return scratch_call_state_rel(p, f, c, local_params, owner, noerr, nonnull, false);
}

/* As scratch_call_state_in; with rest, the call is a release of f's
 * parameters (scratch_release_of_params): what it does besides. */
static link_state scratch_call_state_rel(const link_prog *p, const link_func *f, const link_call *c,
                                         uint64_t local_params, bool owner, bool noerr, uint64_t nonnull, bool rest)
{
  const link_func *g = &p->funcs.v[c->callee];
  /* noerr: f keeps errno for its caller (or this is f's est), so what the
   * callee writes into errno is undone before f returns. */
  noerr = noerr || (f->sflags & SSF_ERRNO_KEPT);
  link_state cs = noerr ? scratch_callee_noerr(p, f, g) : link_solved_body(g) ? g->sst : link_solve_callee(p, f, g);
  if (!link_solved_body(g)) scratch_query(p, g, c, &cs);
  /* An allocator with a body: what it does besides handing out the block. */
  if (owner && (c->flags & SCF_ALLOC) && link_has_body(g)) cs = (g->lflags & LF_ALLOCATOR) ? g->ast : g->st;
  /* A release wrapper given only f's own blocks: what it does besides. */
  if (rest || scratch_releases_own(p, c, owner, local_params)) cs = g->rel ? g->rst : (link_state){ .own = PURITY_CONST };
  const kb_entry *e = link_kb_entry(p, g);
  if (e && e->callbacks) cs.own = PURITY_NORMAL;   /* callbacks: indirect.c knows better */
  uint64_t local[PROV_MAX_PARAMS];
  uint32_t n = c->nargs < PROV_MAX_PARAMS ? c->nargs : PROV_MAX_PARAMS;
  const uint64_t *m = scratch_masks(p, c);
  uint64_t lp = local_params << PROV_PARAM0;
  for (uint32_t a = 0; a < n; a++) {
    local[a] = owner && (m[a] & PROV_FRESH) ? ((m[a] & ~PROV_FRESH) | PROV_LOCAL) : m[a];
    if (local[a] & lp) local[a] = (local[a] & ~lp) | PROV_LOCAL;
  }
  /* The pointee masks likewise (SCF_PTE): a block of f's own, or a
   * parameter pointing to storage no caller sees, that a local pointer
   * holds when its address is handed to the callee. */
  const uint64_t *pte = link_call_pte(p, c);
  uint64_t lpte[PROV_MAX_PARAMS];
  for (uint32_t a = 0; pte && a < n; a++) {
    lpte[a] = owner && (pte[a] & PROV_FRESH) ? ((pte[a] & ~PROV_FRESH) | PROV_LOCAL) : pte[a];
    if (lpte[a] & lp) lpte[a] = (lpte[a] & ~lp) | PROV_LOCAL;
  }
  link_state out = { .own = PURITY_CONST };
  link_solve_apply_pte(&out, &cs, n ? local : NULL, n, pte && n == c->nargs ? lpte : NULL);
  scratch_map_null(&out, &cs, c, m, n, nonnull);
  scratch_map_member(&out, &cs, c, m, n);
  if ((c->flags & (SCF_NORETURN | SCF_DOOMED)) && !p->strict) link_solve_cap_doomed(&out);
  return out;
}

purity link_call_class_scratch(const link_prog *p, const link_func *f, const link_call *c)
{
  return link_call_class_scratch_in(p, f, c, 0);
}

purity link_call_class_scratch_in(const link_prog *p, const link_func *f, const link_call *c,
                                  uint64_t local_params)
{
  return link_call_class_scratch_as(p, f, c, local_params, (f->lflags & LF_SCRATCH_OK) != 0, NULL);
}

purity link_call_class_scratch_as(const link_prog *p, const link_func *f, const link_call *c,
                                  uint64_t local_params, bool owner, const link_chain *ch)
{
  purity k = link_call_class(p, f, c);
  if (scratch_skip_call(p, c, owner)) return PURITY_CONST;
  if (k == PURITY_CONST) return k;
  link_state s = scratch_call_state_in(p, f, c, local_params, owner, ch ? ch->noerr : false, ch ? ch->nonnull : 0);
  purity ks = scratch_state_class(&s);
  /* The callee specialised to the functions this call passes it (xz's
   * lzma_raw_coder_memusage given encoder_find), their check states
   * counted (link/indirect.c): no worse an answer, and often better. */
  const link_func *g = &p->funcs.v[c->callee];
  if (ks > PURITY_CONST && f->nfnarg && link_solved_body(g) && g->pc) {
    link_state sp;
    link_ind_call_check(p, f, c, &sp);
    purity kp = scratch_state_class(&sp);
    if (kp < ks) ks = kp;
  }
  return ks < k ? ks : k;
}

purity link_scratch_class(const link_func *f)
{
  return scratch_state_class(&f->sst);
}

/* f's check state from its effects and calls (callees' sst known); with
 * owner, its blocks are its own scratch (LF_SCRATCH_OK, or the allocator
 * state of an LF_ALLOCATOR); with noerr, what it and its callees write
 * into errno is left out (its est; callees' est known); with rel, its
 * releases of its own parameters are left out too (what they do besides
 * joined) and *rel gets those parameters. */
static link_state scratch_eval(const link_prog *p, const link_func *f, bool owner, bool noerr, uint64_t *rel)
{
  link_state s = { .own = PURITY_CONST };
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (link_scratch_effect(p, f, e) || (owner && (e->flags & SEF_SCRATCH)) || (noerr && scratch_errno_write(p, e)))
      continue;
    if (scratch_member_call(e, &s)) continue;
    link_solve_effect(&s, e, p->strict);
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    /* A precondition guard's report logs only for a caller that broke
     * f's contract: a caller of f passing its own locals keeps its
     * attribute (GLib's g_date_set_dmy on a GDate of the stack). */
    if (scratch_skip_call(p, c, owner) || link_guard_call(p, c)) continue;
    uint64_t released;
    bool rest = rel && scratch_release_of_params(p, c, &released);
    if (rest) *rel |= released;
    link_state plain, cs = scratch_call_state_rel(p, f, c, 0, owner, noerr, 0, rest);
    link_ind_call_check(p, f, c, &plain);
    /* The plain contribution resolves functions passed in; keep it when it
     * is no worse. Of two states equally normal by their writes through
     * parameters, the one that does not also write memory anywhere is
     * better: its writes may still map to its callers' locals (a virtual
     * parameter, frontend/slot.c). A release of parameters is judged by
     * what it does besides. */
    purity kp = scratch_state_class(&plain), kc = scratch_state_class(&cs);
    if (!rest && (kp < kc || (kp == kc && !(cs.own < plain.own)))) cs = plain;
    s.own = purity_join((purity)s.own, (purity)cs.own);
    s.pr |= cs.pr;
    s.pw |= cs.pw;
    s.pn |= cs.pn;
    s.pm |= cs.pm;
  }
  s.mnr = f->st.mnr;
  return s;
}

static bool scratch_state_same(const link_state *a, const link_state *b)
{
  return a->own == b->own && a->mnr == b->mnr && a->pr == b->pr && a->pw == b->pw && a->pn == b->pn &&
         a->pm == b->pm;
}

/* An allocator's ast: its state with the blocks it hands out left out
 * (callees' check states known), never above its plain state. */
static void scratch_allocator_state(link_prog *p, link_func *f)
{
  if (!(f->lflags & LF_ALLOCATOR)) return;
  link_state a = scratch_eval(p, f, true, false, NULL);
  if (scratch_state_class(&a) <= scratch_state_class(&f->st)) f->ast = a;
}

/* One of a recursive component's check states (members m[0..n)), sst or
 * est (noerr): from nothing up to the fixpoint, as the plain solve does
 * (the lattice is finite and each step monotone). */
static void scratch_cycle_fix(link_prog *p, const uint32_t *m, uint32_t n, bool noerr)
{
  for (uint32_t k = 0; k < n; k++) {
    link_func *f = &p->funcs.v[m[k]];
    *(noerr ? &f->est : &f->sst) = (link_state){ .own = PURITY_CONST };
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (uint32_t k = 0; k < n; k++) {
      link_func *f = &p->funcs.v[m[k]];
      link_state *cur = noerr ? &f->est : &f->sst;
      link_state e = scratch_eval(p, f, (f->lflags & LF_SCRATCH_OK) != 0, noerr, NULL), j = *cur;
      j.own = purity_join((purity)j.own, (purity)e.own);
      j.mnr |= e.mnr;
      j.pr |= e.pr;
      j.pw |= e.pw;
      j.pn |= e.pn;
      j.pm |= e.pm;
      if (!scratch_state_same(&j, cur)) { *cur = j; grew = true; }
    }
  }
}

/* A recursive component's sst, then its est, each never above the state
 * before it (st, sst: check only ever forgives). Members that keep errno
 * take est as their sst too. */
static void scratch_solve_cycle(link_prog *p, const uint32_t *m, uint32_t n)
{
  scratch_cycle_fix(p, m, n, false);
  for (uint32_t k = 0; k < n; k++) {
    link_func *f = &p->funcs.v[m[k]];
    if (scratch_state_class(&f->sst) > scratch_state_class(&f->st)) f->sst = f->st;
  }
  scratch_cycle_fix(p, m, n, true);
  for (uint32_t k = 0; k < n; k++) {
    link_func *f = &p->funcs.v[m[k]];
    if (scratch_state_class(&f->est) > scratch_state_class(&f->sst)) f->est = f->sst;
    if (f->sflags & SSF_ERRNO_KEPT) f->sst = f->est;
  }
  /* An allocator in the component (PulseAudio's pa_xmalloc0, whose failed
   * assertion logs through code that allocates): what it does besides
   * handing out its block, from the members' final states. */
  for (uint32_t k = 0; k < n; k++) scratch_allocator_state(p, &p->funcs.v[m[k]]);
}

/* Is f, not recursive, a release wrapper (link_func.rel)? Only a body
 * every call links to (or the join of several), not variadic; what it may
 * also keep of what it releases is rel_kept. rst keeps everything else it does;
 * its reads and writes through the released parameters map, at a call,
 * to the caller's own block: scratch. */
static void scratch_find_release(link_prog *p, link_func *f, bool owner)
{
  if (!link_solved_body(f) || (f->flags & SFF_VARIADIC)) return;
  uint64_t rel = 0;
  link_state r = scratch_eval(p, f, owner, false, &rel);
  if (!rel || scratch_state_class(&r) > scratch_state_class(&f->sst)) return;
  f->rel = rel;
  f->rel_kept = f->captures & rel;
  f->rst = r;
}

void link_scratch_solve(link_prog *p)
{
  p->errno_name = strtab_find(p->strs, "errno");
  while (scratch_capture_round(p)) {}
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    link_func *f = &p->funcs.v[fi];
    f->sst = f->ast = f->est = f->st;
    f->rel = f->rel_kept = 0;
    if (!(f->sflags & SSF_SCRATCH) || (f->sflags & SSF_FRESH_ESCAPES) || !link_solved_body(f) ||
        ((f->sflags & SSF_FRESH_IN_OWN) && !link_pb_own_ok(f)) || scratch_passed_away(p, f))
      continue;
    /* Returned, the block is the caller's: an allocator (xmalloc). */
    f->lflags |= (f->sflags & SSF_FRESH_RETURNED) ? LF_ALLOCATOR : LF_SCRATCH_OK;
  }
  scc_result scc;
  scc_compute(p, &scc);
  for (size_t c = 0; c + 1 < scc.start.n; c++) {
    uint32_t n = scc.start.v[c + 1] - scc.start.v[c];
    uint32_t fi = scc.members.v[scc.start.v[c]];
    link_func *f = &p->funcs.v[fi];
    /* A name defined in several files (LF_JOIN) releases what every
     * definition releases: its calls are one per definition. */
    if (n == 1 && (f->lflags & LF_JOIN)) scratch_find_release(p, f, false);
    if (!link_has_body(f)) continue;
    bool self = false;
    for (uint32_t i = 0; i < f->ncall && !self; i++) self = p->calls.v[f->call_off + i].callee == fi;
    /* recursion: solved from nothing up, as the plain solve is */
    if (n > 1 || self) { scratch_solve_cycle(p, scc.members.v + scc.start.v[c], n); continue; }
    bool owner = (f->lflags & LF_SCRATCH_OK) != 0;
    link_state s = scratch_eval(p, f, owner, false, NULL);
    /* Never above the plain state: check only ever forgives. */
    if (scratch_state_class(&s) <= scratch_state_class(&f->st)) f->sst = s;
    link_state e = scratch_eval(p, f, owner, true, NULL);
    f->est = scratch_state_class(&e) <= scratch_state_class(&f->sst) ? e : f->sst;
    /* Keeping errno for its caller, it leaves errno as it found it. */
    if (f->sflags & SSF_ERRNO_KEPT) f->sst = f->est;
    scratch_allocator_state(p, f);
    scratch_find_release(p, f, owner);
  }
  scc_free(&scc);
}
