/* dup.c — one name, several definitions: a database of many programs.
 *
 * A compile database often holds several programs: every test and example
 * defines main, a test double redefines a library function. A linker
 * would keep one definition per program; purist sees them all. So, as a
 * linker per program would: a call in a TU that defines the name resolves
 * to that definition; a call from elsewhere, to the unique definition if
 * there is one, else to the join of them all (the safe answer: as impure
 * as the most impure). link_add already gave every definition after the
 * first its own LF_ALT function, and mapped its TU's calls to it; here the
 * first definition moves to an LF_ALT of its own too, its TU's calls
 * follow it, and the name becomes the LF_JOIN: no body, one synthetic call
 * per definition, which the solver joins like any calls. */
#include "link/link.h"
#include <string.h>

/* Moves the body of name fi (the first definition) to a new LF_ALT
 * function at the head of fi's chain. */
static void dup_split_first(link_prog *p, uint32_t fi)
{
  link_func a = p->funcs.v[fi];
  a.lflags = (uint8_t)((a.lflags & ~LF_CONFLICT) | LF_ALT);
  a.def_file2 = 0;
  vec_push(&p->funcs, a);
  uint32_t ai = (uint32_t)p->funcs.n - 1;
  p->funcs.v[fi].alt_next = ai + 1;
  /* Its definition's declaration goes with it (prototypes stay the name's,
   * as link_add does for the other definitions). */
  for (size_t i = 0; i < p->decls.n; i++) {
    sum_decl *d = &p->decls.v[i];
    if (d->func == fi && d->is_def && d->loc.file == a.loc.file && d->loc.line == a.loc.line) d->func = ai;
  }
}

/* The definition of the name `callee` in TU tu, if the chain has one. */
static uint32_t dup_in_tu(const link_prog *p, uint32_t callee, uint32_t tu)
{
  for (uint32_t a = p->funcs.v[callee].alt_next; a; a = p->funcs.v[a - 1].alt_next)
    if (p->funcs.v[a - 1].tu == tu) return a - 1;
  return callee;
}

/* Calls (and functions passed) in a TU defining the name go to its own
 * definition. */
static void dup_retarget(link_prog *p)
{
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (!(f->flags & SFF_BODY) || !f->tu) continue;
    for (uint32_t k = 0; k < f->ncall; k++) {
      link_call *c = &p->calls.v[f->call_off + k];
      if (p->funcs.v[c->callee].alt_next && !(p->funcs.v[c->callee].lflags & LF_ALT))
        c->callee = dup_in_tu(p, c->callee, f->tu);
    }
    for (uint32_t k = 0; k < f->nfnarg; k++) {
      sum_fnarg *a = &p->fnargs.v[f->fnarg_off + k];
      if (a->kind == SFA_FUNC && p->funcs.v[a->value].alt_next && !(p->funcs.v[a->value].lflags & LF_ALT))
        a->value = dup_in_tu(p, a->value, f->tu);
    }
  }
}

/* Name fi becomes the join: no effects, a call to each definition passing
 * its parameters straight through (so per-parameter reads and writes map
 * as they would at a real call). */
static void dup_make_join(link_prog *p, uint32_t fi)
{
  link_func *j = &p->funcs.v[fi];
  j->flags &= (uint16_t)~SFF_BODY;
  j->lflags |= LF_JOIN | LF_CONFLICT;
  j->sflags &= (uint8_t)~SSF_ERRNO_KEPT;   /* the first definition's, not the join's */
  j->neff = j->nfnarg = j->npcall = 0;
  j->call_off = (uint32_t)p->calls.n;
  j->ncall = 0;
  uint32_t nargs = j->nparams < PROV_MAX_PARAMS ? j->nparams : PROV_MAX_PARAMS;
  for (uint32_t a = j->alt_next; a; a = p->funcs.v[a - 1].alt_next) {
    link_call c;
    memset(&c, 0, sizeof c);
    c.callee = a - 1;
    c.loc = p->funcs.v[a - 1].loc;
    c.nargs = nargs;
    c.arg_off = (uint32_t)p->argmasks.n;
    for (uint32_t i = 0; i < nargs; i++) vec_push(&p->argmasks, prov_param(i));
    vec_push(&p->calls, c);
    j = &p->funcs.v[fi];   /* the pushes do not move funcs, but keep it obvious */
    j->ncall++;
  }
}

void link_dups_resolve(link_prog *p)
{
  if (p->dups_resolved) return;
  p->dups_resolved = true;
  size_t n = p->funcs.n;   /* the names: LF_ALTs appended below are not */
  for (uint32_t fi = 0; fi < n; fi++)
    if (p->funcs.v[fi].alt_next && !(p->funcs.v[fi].lflags & LF_ALT) && (p->funcs.v[fi].flags & SFF_BODY))
      dup_split_first(p, fi);
  dup_retarget(p);
  for (uint32_t fi = 0; fi < n; fi++)
    if (p->funcs.v[fi].alt_next && !(p->funcs.v[fi].lflags & LF_ALT)) dup_make_join(p, fi);
}

uint32_t link_dup_defs(const link_prog *p, uint32_t fi, uint32_t **defs)
{
  uint32_t n = 0;
  *defs = NULL;
  for (uint32_t a = p->funcs.v[fi].alt_next; a; a = p->funcs.v[a - 1].alt_next) n++;
  if (!n) return 0;
  *defs = xmalloc(n * sizeof **defs);
  n = 0;
  for (uint32_t a = p->funcs.v[fi].alt_next; a; a = p->funcs.v[a - 1].alt_next) (*defs)[n++] = a - 1;
  return n;
}
