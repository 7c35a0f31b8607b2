/* misuse.c — declared attributes checked against the bodies.
 *
 * A declared class stronger than the body's is a misuse (error), with the
 * first offending effect and the chain of calls that reaches it — unless it
 * is a recognisable, deliberate cheat (note): memoisation (every offending
 * thing writes or feeds a private cache under an "already computed?" test
 * of it) or reading globals nothing in the program ever writes. */
#include "checks/checks.h"
#include "checks/cheat.h"
#include "checks/noreturn.h"
#include "checks/precond.h"
#include "checks/scratch.h"
#include "report/reason.h"
#include "util/ptrmap.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

static purity declared_class(uint8_t d)
{
  return (d & SUM_DECL_CONST) ? PURITY_CONST : (d & SUM_DECL_PURE) ? PURITY_PURE : PURITY_NORMAL;
}

/* ---- the witness: first offending effect, through the chain ---- */

/* cur's reason, or when that is a compiler barrier (or a call that breaks
 * decl only through one) and something else breaks decl, that thing: the
 * first own effect, else call, beyond decl with barriers left out. A
 * barrier is named only when it is all there is (the note). */
/* Is effect e of cur a call through one of the parameters in `bound`? */
static bool witness_bound_call(const link_prog *p, const link_func *cur, uint32_t e, uint64_t bound)
{
  for (uint32_t i = 0; bound && i < cur->npcall; i++) {
    const sum_pcall *pc = &p->pcalls.v[cur->pcall_off + i];
    /* Not one through a member of what it returns: that one stays
     * unknown unless the lookup's table says (checks_passed_culprit). */
    if (cur->eff_off + pc->eff == e && !pc->moff && pc->param < 64 && (bound >> pc->param & 1)) return true;
  }
  return false;
}

/* When cur's first cause is a call through a parameter that the call the
 * chain came by binds to a known function (`walk(find_a, …)`), that call
 * is not what breaks decl there: the first other effect, else call, that
 * goes beyond decl (xz's lzma_raw_coder_memusage: not `coder_find`, bound
 * to a const lookup, but the field call after it). */
static link_why witness_unbound(const link_prog *p, const link_func *cur, purity decl, link_why w,
                                uint64_t bound)
{
  if (w.kind != WHY_EFFECT || !witness_bound_call(p, cur, w.index, bound)) return w;
  for (uint32_t i = 0; i < cur->neff; i++) {
    const sum_effect *e = &p->effs.v[cur->eff_off + i];
    if (!(e->flags & SEF_DOOMED) && !witness_bound_call(p, cur, cur->eff_off + i, bound) &&
        link_effect_contrib(p, e) > decl)
      return (link_why){ WHY_EFFECT, cur->eff_off + i };
  }
  for (uint32_t i = 0; i < cur->ncall; i++) {
    const link_call *c = &p->calls.v[cur->call_off + i];
    if (!(c->flags & (SCF_DOOMED | SCF_NORETURN)) && p->call_cls[cur->call_off + i] > decl)
      return (link_why){ WHY_CALL, cur->call_off + i };
  }
  return w;
}

/* The parameters of c's callee that c binds to a named function (cur's
 * facts of that call). */
static uint64_t witness_bound_params(const link_prog *p, const link_func *cur, const link_call *c)
{
  uint64_t bound = 0;
  uint32_t rel = (uint32_t)(c - p->calls.v) - cur->call_off;
  for (uint32_t i = 0; i < cur->nfnarg; i++) {
    const sum_fnarg *a = &p->fnargs.v[cur->fnarg_off + i];
    if (a->call == rel && a->kind == SFA_FUNC && a->arg < 64) bound |= 1ull << a->arg;
  }
  return bound;
}

/* The functions a witness's chain has passed through, cur included. */
typedef struct { uint32_t fn[80]; int n; } witness_path;

static bool witness_on_path(const witness_path *path, uint32_t fi)
{
  for (int i = 0; i < path->n; i++)
    if (path->fn[i] == fi) return true;
  return false;
}

/* When cur's cause is a call of itself, or of a function the chain has
 * already passed through (mutual recursion: GMP's mpn_mul_n → toom22 →
 * toom32 → mpn_mul_n, where following the first cause went round the
 * cycle until the step limit and named no effect), what the recursion
 * repeats: its first effect beyond decl, else its first call beyond decl
 * (as the chain sees it) of a function not on the path, else w. */
static link_why witness_not_self(const link_prog *p, const link_func *cur, purity decl, uint64_t local_params,
                                 const link_chain *ch, const witness_path *path, link_why w)
{
  uint32_t fi = (uint32_t)(cur - p->funcs.v);
  if (w.kind != WHY_CALL || (p->calls.v[w.index].callee != fi && !witness_on_path(path, p->calls.v[w.index].callee)))
    return w;
  for (uint32_t i = 0; i < cur->neff; i++) {
    const sum_effect *e = &p->effs.v[cur->eff_off + i];
    bool local = checks_param_local(e, local_params);
    if ((e->flags & (SEF_DOOMED | SEF_SCRATCH | SEF_MAY)) || nr_is_barrier(e) || link_scratch_effect(p, cur, e) ||
        (ch->noerr && link_errno_write(p, e)) || local)
      continue;
    if (link_effect_contrib(p, e) > decl) return (link_why){ WHY_EFFECT, cur->eff_off + i };
  }
  bool owner = (cur->lflags & LF_SCRATCH_OK) || ch->owned;
  for (uint32_t i = 0; i < cur->ncall; i++) {
    const link_call *c = &p->calls.v[cur->call_off + i];
    if (c->callee == fi || witness_on_path(path, c->callee) || (c->flags & (SCF_DOOMED | SCF_NORETURN))) continue;
    if (link_call_class_scratch_as(p, cur, c, local_params, owner, ch) > decl)
      return (link_why){ WHY_CALL, cur->call_off + i };
  }
  return w;
}

/* Is cl a precondition guard's report (precond.h), or a call of a body
 * whose only excess beyond decl is one? */
static bool witness_guard_call(const link_prog *p, nr_ctx *nr, uint32_t fi, const link_call *cl, purity decl)
{
  if (link_guard_call(p, cl)) return true;
  const link_func *g = &p->funcs.v[cl->callee];
  return link_has_body(g) && cl->callee != fi && nr_live_class(nr, cl->callee) <= decl &&
         nr_info_of(nr, cl->callee)->pcall >= 0;
}

/* When cur's cause is a precondition guard's report and something else
 * breaks decl, that thing: the guard alone is a note (misuse-precondition),
 * never the reason for an error. A call of a body with a guard somewhere
 * below is not taken instead: its class through the call's arguments
 * counts the guard (the link knows no guard-free class), so what it would
 * name may be a write into cur's own locals (GLib's g_date_clear (&d, 1)). */
static link_why witness_not_guard(const link_prog *p, nr_ctx *nr, const link_func *cur, purity decl, link_why w)
{
  uint32_t fi = (uint32_t)(cur - p->funcs.v);
  if (!nr || w.kind != WHY_CALL || !witness_guard_call(p, nr, fi, &p->calls.v[w.index], decl)) return w;
  for (uint32_t i = 0; i < cur->neff; i++) {
    const sum_effect *e = &p->effs.v[cur->eff_off + i];
    if (!(e->flags & SEF_DOOMED) && !nr_is_barrier(e) && !link_scratch_effect(p, cur, e) &&
        link_effect_contrib(p, e) > decl)
      return (link_why){ WHY_EFFECT, cur->eff_off + i };
  }
  for (uint32_t i = 0; i < cur->ncall; i++) {
    const link_call *c = &p->calls.v[cur->call_off + i];
    bool guarded = link_has_body(&p->funcs.v[c->callee]) && nr_info_of(nr, c->callee)->pcall >= 0;
    if (!(c->flags & (SCF_DOOMED | SCF_NORETURN)) && p->call_cls[cur->call_off + i] > decl &&
        !link_guard_call(p, c) && !guarded)
      return (link_why){ WHY_CALL, cur->call_off + i };
  }
  return w;
}

static link_why witness_why(const link_prog *p, nr_ctx *nr, const link_func *cur, purity decl,
                            uint64_t local_params, uint64_t bound, const link_chain *ch, witness_path *path)
{
  link_why w = link_weak_body(cur) ? cur->weak_why : cur->why;
  /* Not a write into its own scratch block, nor into its callers', nor
   * into errno below a function that keeps it. */
  w = checks_scratch_why(p, cur, w, decl, local_params, ch);
  w = witness_unbound(p, cur, decl, w, bound);
  if (path->n < (int)(sizeof path->fn / sizeof path->fn[0])) path->fn[path->n++] = (uint32_t)(cur - p->funcs.v);
  w = witness_not_self(p, cur, decl, local_params, ch, path, w);
  w = witness_not_guard(p, nr, cur, decl, w);
  /* Not a memo's own cache work when something else breaks the attribute. */
  w = cheat_memo_other_cause(p, (uint32_t)(cur - p->funcs.v), decl, w);
  /* A write that may not happen (SEF_MAY) is named last: a sure cause first. */
  if (w.kind == WHY_EFFECT && (p->effs.v[w.index].flags & SEF_MAY))
    for (uint32_t i = 0; i < cur->neff; i++) {
      const sum_effect *e = &p->effs.v[cur->eff_off + i];
      if (!(e->flags & (SEF_MAY | SEF_DOOMED | SEF_SCRATCH | SEF_ERRNO_RESTORE)) && !nr_is_barrier(e) &&
          !link_scratch_effect(p, cur, e) &&
          link_effect_contrib(p, e) > decl) {
        w = (link_why){ WHY_EFFECT, cur->eff_off + i };
        break;
      }
    }
  if (!nr) return w;
  uint32_t fi = (uint32_t)(cur - p->funcs.v);
  bool barrier = w.kind == WHY_EFFECT && nr_is_barrier(&p->effs.v[w.index]);
  if (w.kind == WHY_CALL) {
    uint32_t g = p->calls.v[w.index].callee;
    barrier = link_has_body(&p->funcs.v[g]) && g != fi && nr_live_class(nr, g) <= decl &&
              nr_live_barrier_class(nr, g) > decl;
  }
  if (!barrier || nr_live_class(nr, fi) <= decl) return w;
  for (uint32_t i = 0; i < cur->neff; i++) {
    const sum_effect *e = &p->effs.v[cur->eff_off + i];
    if (!nr_is_barrier(e) && !(e->flags & SEF_DOOMED) && link_effect_contrib(p, e) > decl)
      return (link_why){ WHY_EFFECT, cur->eff_off + i };
  }
  for (uint32_t i = 0; i < cur->ncall; i++) {
    const link_call *c = &p->calls.v[cur->call_off + i];
    if ((c->flags & (SCF_DOOMED | SCF_NORETURN)) || p->call_cls[cur->call_off + i] <= decl) continue;
    if (!link_has_body(&p->funcs.v[c->callee]) || c->callee == fi || nr_live_class(nr, c->callee) > decl)
      return (link_why){ WHY_CALL, cur->call_off + i };
  }
  return w;
}

/* ---- a witness stuck in a cycle: search its calls breadth-first ---- */

/* What the chain knows at c's callee, from what it knows at cur. */
static void witness_step(const link_prog *p, const link_func *cur, const link_call *c, uint64_t *local_params,
                         link_chain *ch)
{
  const link_func *g = &p->funcs.v[c->callee];
  *local_params = checks_scratch_step(p, cur, c, *local_params);
  ch->noerr = ch->noerr || (cur->sflags & SSF_ERRNO_KEPT);
  ch->nonnull = link_chain_nonnull(p, c, ch->nonnull);
  ch->owned = (c->flags & SCF_ALLOC) && (c->flags & SCF_PTE) && ((cur->lflags & LF_SCRATCH_OK) || ch->owned) &&
              !(g->sflags & SSF_FRESH_OUT);
}

/* Does the witness show a body for call c of m (the chain goes on into it)?
 * A weak body was solved with the weak bodies it calls (solve_weak_bodies):
 * the chain goes on into them; anywhere else a weak callee is its declaration. */
static bool witness_shown(const link_prog *p, const link_func *m, const link_call *c)
{
  const link_func *g = &p->funcs.v[c->callee];
  return link_has_body(g) || (link_weak_body(m) && link_weak_body(g));
}

/* One function reached by the search: how (call, parent), what the
 * chain knows there, and the next node of the same function. */
typedef struct {
  uint32_t fn, call, parent, same;
  uint64_t local_params, bound;
  link_chain ch;
} witness_node;

/* m's own cause beyond decl as a chain reaching it as n says: an effect
 * on memory the chain does not own (a sure one, else a call beyond decl
 * of a function with no body shown, else one that may not happen), else
 * WHY_NONE. A compiler barrier counts only with `barriers`. *blind is set
 * when a call through a parameter bound to a known function is passed
 * over (the search does not follow it). */
static link_why witness_own_cause(const link_prog *p, const witness_node *n, purity decl, bool barriers, bool *blind)
{
  const link_func *m = &p->funcs.v[n->fn];
  bool owner = (m->lflags & LF_SCRATCH_OK) || n->ch.owned;
  for (int may = 0; may < 2; may++) {
    for (uint32_t i = 0; i < m->neff; i++) {
      const sum_effect *e = &p->effs.v[m->eff_off + i];
      bool local = checks_param_local(e, n->local_params);
      if (!(e->flags & SEF_MAY) != !may || (e->flags & (SEF_DOOMED | SEF_SCRATCH | SEF_ERRNO_RESTORE)) || local ||
          (!barriers && nr_is_barrier(e)) || link_scratch_effect(p, m, e) || (n->ch.noerr && link_errno_write(p, e)) ||
          link_effect_contrib(p, e) <= decl)
        continue;
      if (!witness_bound_call(p, m, m->eff_off + i, n->bound)) return (link_why){ WHY_EFFECT, m->eff_off + i };
      *blind = true;
    }
    for (uint32_t i = 0; !may && i < m->ncall; i++) {
      const link_call *c = &p->calls.v[m->call_off + i];
      if ((c->flags & (SCF_DOOMED | SCF_NORETURN)) || witness_shown(p, m, c) || link_guard_call(p, c)) continue;
      if (link_call_class_scratch_as(p, m, c, n->local_params, owner, &n->ch) > decl)
        return (link_why){ WHY_CALL, m->call_off + i };
    }
  }
  return (link_why){ WHY_NONE, 0 };
}

/* The way out of a cycle: the calls from the function the witness is
 * stuck in to the nearest function whose own cause breaks decl, and that
 * cause (end). */
typedef struct { uint32_t call[32]; int n; link_why end; } witness_detour;
/* What a search found: a detour; nothing, having looked at every
 * function the calls beyond decl reach; or it cannot tell. */
typedef enum { DETOUR_FOUND, DETOUR_NONE, DETOUR_UNKNOWN } detour_result;

/* Walks back from node k to the root: the calls, in order. */
static bool witness_detour_of(const witness_node *v, uint32_t k, link_why end, witness_detour *out)
{
  int n = 0;
  for (uint32_t j = k; v[j].parent != UINT32_MAX; j = v[j].parent) n++;
  if (n > (int)(sizeof out->call / sizeof out->call[0])) return false;
  out->n = n;
  out->end = end;
  for (uint32_t j = k; v[j].parent != UINT32_MAX; j = v[j].parent) out->call[--n] = v[j].call;
  return true;
}

/* Has the search already reached function x->fn knowing no more than x
 * does (no more local parameters, errno kept or blocks owned only if x
 * has them)? What x would find, that node finds too. */
static bool witness_reached(const witness_node *v, const uint32_t *first, const witness_node *x)
{
  for (uint32_t j = first[x->fn]; j != UINT32_MAX; j = v[j].same)
    if (!(v[j].local_params & ~x->local_params) && (!v[j].ch.noerr || x->ch.noerr) &&
        (!v[j].ch.owned || x->ch.owned))
      return true;
  return false;
}

/* A breadth-first search from root over the calls beyond decl as the
 * chain sees them (its parameters mapped as the witness maps them), for
 * the nearest function with an own cause (witness_own_cause). A function
 * is looked at again only when reached knowing less. Not into a body
 * whose only excess is a precondition guard (a note, witness_not_guard). */
static detour_result witness_search(const link_prog *p, nr_ctx *nr, const witness_node *root, purity decl,
                                    bool barriers, witness_detour *out)
{
  enum { CAP = 4096 };
  witness_node *v = xmalloc(CAP * sizeof *v);
  uint32_t *first = xmalloc(p->funcs.n * sizeof *first);
  memset(first, 0xff, p->funcs.n * sizeof *first);
  uint32_t nv = 1;
  bool blind = false;
  detour_result r = DETOUR_NONE;
  v[0] = *root;
  v[0].same = UINT32_MAX;
  first[root->fn] = 0;
  for (uint32_t k = 0; k < nv && r == DETOUR_NONE; k++) {
    link_why w = witness_own_cause(p, &v[k], decl, barriers, &blind);
    if (w.kind != WHY_NONE) {
      r = witness_detour_of(v, k, w, out) ? DETOUR_FOUND : DETOUR_UNKNOWN;
      break;
    }
    const link_func *m = &p->funcs.v[v[k].fn];
    bool owner = (m->lflags & LF_SCRATCH_OK) || v[k].ch.owned;
    for (uint32_t i = 0; i < m->ncall; i++) {
      const link_call *c = &p->calls.v[m->call_off + i];
      if ((c->flags & (SCF_DOOMED | SCF_NORETURN)) || !witness_shown(p, m, c) ||
          (nr && witness_guard_call(p, nr, v[k].fn, c, decl)) ||
          link_call_class_scratch_as(p, m, c, v[k].local_params, owner, &v[k].ch) <= decl)
        continue;
      witness_node x = { c->callee, m->call_off + i, k, first[c->callee], v[k].local_params,
                         witness_bound_params(p, m, c), v[k].ch };
      witness_step(p, m, c, &x.local_params, &x.ch);
      if (witness_reached(v, first, &x)) continue;
      if (nv == CAP) { blind = true; break; }
      v[nv] = x;
      first[x.fn] = nv++;
    }
  }
  free(first);
  free(v);
  return r == DETOUR_NONE && blind ? DETOUR_UNKNOWN : r;
}

/* Is the witness's cause a call back into what the chain has passed
 * (cur itself, or a function on the path)? Then following it goes round. */
static bool witness_stuck(const link_prog *p, const link_func *cur, link_why why, const witness_path *path)
{
  if (why.kind != WHY_CALL) return false;
  uint32_t g = p->calls.v[why.index].callee;
  return g == (uint32_t)(cur - p->funcs.v) || witness_on_path(path, g);
}

/* The detour's next cause (taken: how many of its calls are taken, -1
 * when none was searched), or why when no detour is going on. */
static link_why witness_detour_next(const witness_detour *det, int *taken, link_why why)
{
  if (*taken < 0 || *taken > det->n) return why;
  link_why w = *taken < det->n ? (link_why){ WHY_CALL, det->call[*taken] } : det->end;
  ++*taken;
  return w;
}

/* The detour for a chain stuck at root: a real effect first, a compiler
 * barrier only when there is nothing else. */
static detour_result witness_detour_find(const link_prog *p, nr_ctx *nr, const witness_node *root, purity decl,
                                         witness_detour *out)
{
  detour_result r = witness_search(p, nr, root, decl, false, out);
  return r == DETOUR_NONE ? witness_search(p, nr, root, decl, true, out) : r;
}

/* Is cur's cause `why` a direct call of a library function with hidden
 * state given a null pointer (`nullN`) whose every such argument is known
 * not to be null, here or down the chain (ch)? Then the null pointer's
 * clause of the entry's reason is no part of the story. */
static bool witness_state_given(const link_prog *p, const link_func *cur, link_why why, const link_chain *ch)
{
  if (why.kind != WHY_CALL || (cur->flags & SFF_ALIAS)) return false;
  const link_call *c = &p->calls.v[why.index];
  const link_func *g = &p->funcs.v[c->callee];
  const kb_entry *e = link_has_body(g) ? NULL : link_kb_entry(p, g);
  if (!e || !e->null_hidden || (c->flags & (LINK_CF_STATIC | LINK_CF_FIELD | SCF_TABLE))) return false;
  uint64_t known = link_chain_nonnull(p, c, ch->nonnull);
  return (e->null_hidden & ~known) == 0;
}

/* Does the name say logging (log_warn, fd_log_private_1, g_log, LOG_ERR…)? */
static bool witness_is_log(const char *name)
{
  for (const char *s = name; (s = strcasestr(s, "log")); s += 3) {
    bool start = s == name || s[-1] == '_';
    bool end = s[3] == '\0' || s[3] == '_' || (s[3] >= '0' && s[3] <= '9');
    if (start && end) return true;
  }
  return false;
}

/* The call through a function pointer that g's chain of first causes ends
 * in, or NULL: a logging function's clock or hook (firedancer's log
 * reading its wallclock through a pointer). The logging call is the story. */
static const sum_effect *witness_log_hook(const link_prog *p, const link_func *g)
{
  if (!witness_is_log(S(p, g->name))) return NULL;
  for (int steps = 0; steps < 32 && g->why.kind == WHY_CALL; steps++) {
    const link_func *h = &p->funcs.v[p->calls.v[g->why.index].callee];
    if (!link_has_body(h) || h == g) return NULL;
    g = h;
  }
  if (g->why.kind != WHY_EFFECT) return NULL;
  const sum_effect *e = &p->effs.v[g->why.index];
  return e->kind == SE_CALL_INDIRECT ? e : NULL;
}

/* Writes f's witness into msg (and its steps as d's notes). Returns true
 * when the recursion is all there is: no function past the call back into
 * it has a cause of its own, so the analysis cannot tell (a warning). */
static bool witness(const link_prog *p, const checks_opts *o, nr_ctx *nr, purity decl, const link_func *f,
                    strbuf *msg, diag *d)
{
  const sum_effect *hook = NULL;
  strbuf via = {0};
  const link_func *cur = f;
  uint64_t local_params = 0;   /* cur's parameters pointing to memory f's callers never see */
  link_chain ch = { false, false, 0 };
  witness_path path = { .n = 0 };
  uint64_t bound = 0;
  link_why why = witness_why(p, nr, cur, decl, local_params, bound, &ch, &path);
  /* Once stuck in a cycle, the chain takes the detour's calls, then its end
   * (taken: -1 not yet searched, else how many calls are taken). */
  witness_detour det = { .n = 0 };
  int taken = -1;
  detour_result found = DETOUR_UNKNOWN;
  for (int steps = 0; steps < 64 && why.kind == WHY_CALL; steps++) {
    if (taken < 0 && witness_stuck(p, cur, why, &path)) {
      witness_node root = { (uint32_t)(cur - p->funcs.v), UINT32_MAX, UINT32_MAX, UINT32_MAX, local_params, bound,
                            ch };
      found = witness_detour_find(p, nr, &root, decl, &det);
      if (found == DETOUR_NONE) break;   /* the recursion is all there is: named as such */
      taken = found == DETOUR_FOUND ? 0 : 1;   /* unknown: det.n is 0, the chain goes on as before */
      why = witness_detour_next(&det, &taken, why);
      if (why.kind != WHY_CALL) break;
    }
    bool detour = taken > 0 && taken <= det.n;   /* why is one of the detour's calls */
    const link_call *c = &p->calls.v[why.index];
    const link_func *g = &p->funcs.v[c->callee];
    const link_func *lookup;
    const link_func *h = detour ? NULL : checks_passed_culprit(p, cur, c, (purity)p->call_cls[why.index], &lookup);
    if (h) {   /* the callee calls back a function passed here: that one is the culprit */
      strbuf note = {0};
      if (lookup)
        sb_printf(&note, "'%s' passes '%s' to '%s' here, whose table holds '%s'", S(p, cur->name),
                  S(p, lookup->name), S(p, g->name), S(p, h->name));
      else sb_printf(&note, "'%s' passes '%s' to '%s' here", S(p, cur->name), S(p, h->name), S(p, g->name));
      if (d) checks_related(d, p, o, c->loc, sb_str(&note));
      sb_free(&note);
      sb_printf(&via, "%s%s calling back %s", via.n ? ", " : "", S(p, g->name), S(p, h->name));
      cur = h;
      local_params = bound = 0;
      ch.nonnull = 0;
      ch.owned = false;
      why = witness_why(p, nr, cur, decl, local_params, 0, &ch, &path);
      continue;
    }
    if (!witness_shown(p, cur, c) || g == cur) break;
    if ((hook = witness_log_hook(p, g))) break;
    strbuf note = {0};
    if (c->flags & SCF_TABLE)   /* one of the functions a call through a pointer may reach */
      sb_printf(&note, "'%s' may call '%s' here, through a function pointer", S(p, cur->name), S(p, g->name));
    else sb_printf(&note, "'%s' calls '%s' here", S(p, cur->name), S(p, g->name));
    if (d) checks_related(d, p, o, c->loc, sb_str(&note));
    sb_free(&note);
    sb_printf(&via, "%s%s", via.n ? ", " : "", S(p, g->name));
    bound = witness_bound_params(p, cur, c);
    witness_step(p, cur, c, &local_params, &ch);
    cur = g;
    why = witness_why(p, nr, cur, decl, local_params, bound, &ch, &path);
    why = witness_detour_next(&det, &taken, why);
  }
  if (witness_state_given(p, cur, why, &ch)) reason_call_state_given(msg, p, &p->calls.v[why.index]);
  else reason_head_why(msg, p, cur, why, o->root);
  if (hook) {
    sb_puts(msg, ", which logs (its chain ends in ");
    reason_effect_text(msg, p, hook);
    sb_puts(msg, ")");
  }
  checks_why_where(msg, p, o, cur, why, &via);
  if (found == DETOUR_NONE)
    sb_puts(msg, "; past this call, back into the recursion, no function has an effect of its own beyond the "
                 "attribute once the memory this chain owns is left out (locals, scratch blocks, buffers passed "
                 "down): the analysis does not leave that memory out through recursive calls, so it cannot "
                 "tell whether the attribute holds (a warning, not an error)");
  if (d) checks_related_why(d, p, o, cur, why, "");
  sb_free(&via);
  return found == DETOUR_NONE;
}

/* ---- cheats ---- */

static const char *memo_where(uint8_t kind, uint8_t obj)
{
  if (kind == MEMO_ONCE) return "under a once-guard";
  return obj == SO_THREAD_LOCAL ? "in thread-local" : "in static";
}

/* "caches its result in static 'x'", "… through 'g' → 'h', which caches …". */
static void memo_words(strbuf *msg, const link_prog *p, const cheat_memo *m)
{
  uint8_t kind = m->kind == MEMO_CALLEE ? m->inner : m->kind;
  if (m->kind == MEMO_CALLEE) {
    sb_puts(msg, "calls ");
    for (size_t i = 0; i < m->chain.n; i++) sb_printf(msg, "%s'%s'", i ? " → " : "", S(p, p->funcs.v[m->chain.v[i]].name));
    sb_puts(msg, ", which caches its result ");
  } else {
    sb_puts(msg, "caches its result ");
  }
  if (kind == MEMO_ONCE && m->once) sb_printf(msg, "in '%s', filled once through '%s'", S(p, m->cache), S(p, m->once));
  else if (kind == MEMO_ONCE) sb_printf(msg, "in '%s', filled once under an atomic test of it", S(p, m->cache));
  else sb_printf(msg, "%s '%s'", memo_where(kind, m->cache_obj), S(p, m->cache));
}

/* The attribute's macro on f (G_GNUC_CONST), or 0 if written out. */
static uint32_t attr_macro(const link_prog *p, uint32_t fi, uint8_t bits)
{
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    for (uint32_t a = 0; a < d->nattr; a++)
      if ((p->attrs.v[d->attr_off + a].kind & bits) && p->attrs.v[d->attr_off + a].macro)
        return p->attrs.v[d->attr_off + a].macro;
  }
  return 0;
}

/* A GObject X_get_type declared const: the registration is what a deleted
 * or moved call loses (gtype.c). Says whether it wrote the note. */
static bool emit_memo_gtype(const link_prog *p, const checks_opts *o, const link_func *f, purity decl,
                            sum_loc at, const cheat_memo *m, diag_list *out)
{
  uint32_t fi = (uint32_t)(f - p->funcs.v), via;
  uint32_t reg = m->kind == MEMO_CALLEE ? 0 : checks_gtype_registration(p, fi, &via);
  if (!reg) return false;
  uint32_t macro = attr_macro(p, fi, decl == PURITY_CONST ? SUM_DECL_CONST : SUM_DECL_PURE);
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s but its first call registers the type (%s", S(p, f->name),
            purity_name(decl), S(p, reg));
  if (via) sb_printf(&msg, ", through '%s'", S(p, via));
  sb_printf(&msg, ") and caches the id in '%s': the compiler may delete a call whose value is unused, or move "
                  "one, and the registration with it, so the type (its class, its signals, its properties) "
                  "is not registered when code that looks it up by name runs; GLib's own _get_type functions "
                  "carry no attribute: drop %s", S(p, m->cache), macro ? S(p, macro) : "the attribute");
  diag *d = checks_emit(out, p, o, "cheat", o->cheats_as_errors ? DIAG_ERROR : DIAG_NOTE, at, f, sb_str(&msg));
  if (m->cache_loc.line) checks_related(d, p, o, m->cache_loc, "the type id is cached here");
  sb_free(&msg);
  return true;
}

static void emit_memo(const link_prog *p, const checks_opts *o, const link_func *f, purity decl,
                      sum_loc at, const cheat_memo *m, diag_list *out)
{
  if (emit_memo_gtype(p, o, f, decl, at, m, out)) return;
  strbuf msg = {0};
  uint8_t kind = m->kind == MEMO_CALLEE ? m->inner : m->kind;
  sb_printf(&msg, "'%s' is declared %s but ", S(p, f->name), purity_name(decl));
  memo_words(&msg, p, m);
  sb_puts(&msg, " (memoisation");
  for (size_t i = 0; i < m->feeders.n; i++) sb_printf(&msg, "%s%s", i ? ", " : ", computed with ", S(p, m->feeders.v[i]));
  sb_printf(&msg, "): the compiler assumes every call returns the same value and has no side effect, "
                  "so it may merge, move or drop calls; this holds only while what the first call saw "
                  "does not change%s",
            m->feeders.n ? " (the environment, files, other state those calls read)" : "");
  if (kind == MEMO_THREAD) sb_puts(&msg, ", and each thread computes its own value");
  else if (kind != MEMO_ONCE) sb_puts(&msg, " and no two threads make the first call at once");
  sb_puts(&msg, "; a call whose value is unused is deleted, and the first call's work with it");
  diag *d = checks_emit(out, p, o, "cheat", o->cheats_as_errors ? DIAG_ERROR : DIAG_NOTE, at, f, sb_str(&msg));
  for (size_t i = 0; i < m->chain.n; i++) {
    const link_func *g = &p->funcs.v[m->chain.v[i]];
    strbuf n = {0};
    sb_printf(&n, "'%s' is defined here", S(p, g->name));
    checks_related(d, p, o, g->loc, sb_str(&n));
    sb_free(&n);
  }
  if (m->cache_loc.line) checks_related(d, p, o, m->cache_loc, "the cache is written here");
  sb_free(&msg);
}

/* cheat-argument: the cache keeps whatever the first call's arguments
 * computed, and every later call returns it. */
static void emit_memo_argument(const link_prog *p, const checks_opts *o, const link_func *f, purity decl,
                               sum_loc at, const cheat_memo *m, diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s but ", S(p, f->name), purity_name(decl));
  memo_words(&msg, p, m);
  sb_puts(&msg, ", and the value it stores is computed from its arguments (");
  reason_path(&msg, p, m->arg_loc.file, o->root);
  sb_printf(&msg, ":%u:%u): the first call's arguments decide what every later call returns, whatever "
                  "its own arguments; this is not memoisation but a wrong result; key the cache by the "
                  "arguments, or drop the attribute and the cache", m->arg_loc.line, m->arg_loc.col);
  diag *d = checks_emit(out, p, o, "cheat-argument", DIAG_ERROR, at, f, sb_str(&msg));
  checks_related(d, p, o, m->arg_loc, "the cache is written from the arguments here");
  sb_free(&msg);
}

static void emit_frozen(const link_prog *p, const checks_opts *o, const link_func *f, sum_loc at,
                        uint32_t name, diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared const but reads global '%s', which nothing in the program writes: "
                  "the compiler treats it as a constant table; declare it const, or a later write "
                  "(or one through a pointer purist cannot see) will be missed", S(p, f->name), S(p, name));
  checks_emit(out, p, o, "cheat", o->cheats_as_errors ? DIAG_ERROR : DIAG_NOTE, at, f, sb_str(&msg));
  sb_free(&msg);
}

/* A library's global nothing in it writes: its clients can. */
static void emit_library_global(const link_prog *p, const checks_opts *o, const link_func *f, sum_loc at,
                                uint32_t name, sum_loc read_at, diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared const but reads global '%s' (", S(p, f->name), S(p, name));
  reason_path(&msg, p, read_at.file, o->root);
  sb_printf(&msg, ":%u:%u), which has external linkage and is not const: nothing in the analysed code "
                  "writes it, but this is a library (no main; --whole-program says otherwise) and its "
                  "clients can, and the compiler would not see the change; declare it const",
            read_at.line, read_at.col);
  diag *d = checks_emit(out, p, o, "misuse", DIAG_ERROR, at, f, sb_str(&msg));
  strbuf here = {0};
  sb_printf(&here, "reads global '%s' here", S(p, name));
  checks_related(d, p, o, read_at, sb_str(&here));
  sb_free(&here);
  sb_free(&msg);
}

static void emit_misuse(const link_prog *p, const checks_opts *o, nr_ctx *nr, const link_func *f, purity decl,
                        sum_loc at, diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s but ", S(p, f->name), purity_name(decl));
  diag *d = checks_emit(out, p, o, "misuse", DIAG_ERROR, at, f, "");
  /* Issue 30 item 7: where the analysis cannot tell, no false certainty. */
  if (witness(p, o, nr, decl, f, &msg, d)) d->severity = DIAG_WARNING;
  if (link_weak_body(f))
    sb_puts(&msg, "; this is a weak definition: a strong definition elsewhere may replace it, but where none "
                  "does, this body is the one linked");
  free(d->message);
  d->message = xstrdup(sb_str(&msg));
  sb_free(&msg);
}

/* Only what math functions write into errno breaks the attribute (issue
 * 30 item 7): they write it for arguments out of their domain or range
 * alone, which the analysis cannot rule out; a warning, not an error
 * (PulseAudio's pa_sw_volume_to_dB takes log10 of a volume it has
 * already tested above zero). */
static void emit_math_errno(const link_prog *p, const checks_opts *o, nr_ctx *nr, const link_func *f, purity decl,
                            sum_loc at, diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s but may set errno: ", S(p, f->name), purity_name(decl));
  diag *d = checks_emit(out, p, o, "misuse", DIAG_WARNING, at, f, "");
  (void)witness(p, o, nr, decl, f, &msg, d);
  sb_puts(&msg, "; only for an argument out of its domain or range, which the analysis cannot rule out: if no "
                "call passes one, the attribute holds; if one does, a call the compiler merges or deletes "
                "sets no errno (with -fno-math-errno the function is what it is declared)");
  free(d->message);
  d->message = xstrdup(sb_str(&msg));
  sb_free(&msg);
}

/* The first of f's own writes beyond decl that need two unrelated tests
 * of its input (SEF_MAY, frontend/maywrite.c), or NULL. */
static const sum_effect *may_write_of(const link_prog *p, const link_func *f, purity decl)
{
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if ((e->flags & SEF_MAY) && !(e->flags & SEF_DOOMED) && link_effect_contrib(p, e) > decl) return e;
  }
  return NULL;
}

/* The attribute is broken only by such writes: the analysis cannot tell
 * whether an input passes both tests, so a warning saying "may write"
 * and under which tests, not an error (issue 30, item 7). */
static void emit_may_write(const link_prog *p, const checks_opts *o, const link_func *f, purity decl, sum_loc at,
                           const sum_effect *e, diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s but may write through parameter '%s' (if %s; the analysis cannot "
                  "tell whether any input passes both tests: if none does, the attribute holds) (",
            S(p, f->name), purity_name(decl), S(p, e->name), S(p, e->cond));
  reason_path(&msg, p, e->loc.file, o->root);
  sb_printf(&msg, ":%u:%u)", e->loc.line, e->loc.col);
  diag *d = checks_emit(out, p, o, "misuse", DIAG_WARNING, at, f, sb_str(&msg));
  checks_related(d, p, o, e->loc, "may write here");
  sb_free(&msg);
}

/* Only a compiler barrier (asm with no instruction, volatile or clobbering
 * memory) is beyond the attribute: nothing runs that breaks it, so a note
 * (firedancer's fd_type_pun_const). fix keeps the attribute. */
static void emit_barrier(const link_prog *p, const checks_opts *o, const link_func *f, purity decl, sum_loc at,
                         diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s and ", S(p, f->name), purity_name(decl));
  diag *d = checks_emit(out, p, o, "misuse", DIAG_NOTE, at, f, "");
  (void)witness(p, o, NULL, decl, f, &msg, d);
  sb_puts(&msg, ": it runs no instruction, so the attribute holds; the compiler may still merge, move or "
                "delete calls, and the barrier's ordering with them");
  free(d->message);
  d->message = xstrdup(sb_str(&msg));
  sb_free(&msg);
}

/* A C23 attribute written before the declaration promises nothing. */
static void check_leading_c23(const link_prog *p, const checks_opts *o, const link_func *f, const sum_decl *d,
                              diag_list *out)
{
  for (uint8_t k = SUM_DECL_REPRODUCIBLE; k <= SUM_DECL_UNSEQUENCED; k <<= 1) {
    if (!(d->declared & (k << SUM_DECL_LEAD_SHIFT))) continue;
    const char *w = k == SUM_DECL_UNSEQUENCED ? "unsequenced" : "reproducible";
    strbuf msg = {0};
    sb_printf(&msg, "[[%s]] is written before the declaration of '%s', where it appertains to the declaration; "
                    "C23 applies it only to a function declarator or a function type, so compilers ignore or "
                    "reject it and nothing is promised: write it after the parameter list, as in "
                    "'%s(…) [[%s]];'", w, S(p, f->name), S(p, f->name), w);
    checks_emit(out, p, o, "misuse-c23", DIAG_ERROR, d->loc, f, sb_str(&msg));
    sb_free(&msg);
  }
}

/* pure/const on a void function, and declarations that disagree. */
static void check_declarations(const link_prog *p, const checks_opts *o, uint32_t fi, diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  sum_loc pure_at = { 0, 0, 0 }, const_at = { 0, 0, 0 };
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    check_leading_c23(p, o, f, d, out);
    if (d->declared & (SUM_DECL_VOID_PURE | SUM_DECL_VOID_CONST)) {
      strbuf msg = {0};
      sb_printf(&msg, "'%s' returns void but is declared %s: its only effects are side effects, so the "
                      "attribute is wrong and both GCC and clang ignore it; remove it",
                S(p, f->name), (d->declared & SUM_DECL_VOID_CONST) ? "const" : "pure");
      checks_emit(out, p, o, "misuse-void", DIAG_ERROR, d->loc, f, sb_str(&msg));
      sb_free(&msg);
    }
    if ((d->declared & SUM_DECL_PURE) && (d->declared & SUM_DECL_CONST)) {
      strbuf msg = {0};
      sb_printf(&msg, "'%s' is declared both pure and const: the compilers keep const and ignore pure; "
                      "say which one you mean", S(p, f->name));
      checks_emit(out, p, o, "misuse-both", DIAG_ERROR, d->loc, f, sb_str(&msg));
      sb_free(&msg);
      continue;
    }
    if ((d->declared & SUM_DECL_PURE) && !pure_at.line) pure_at = d->loc;
    if ((d->declared & SUM_DECL_CONST) && !const_at.line) const_at = d->loc;
  }
  if (pure_at.line && const_at.line) {
    strbuf msg = {0};
    sb_printf(&msg, "declarations of '%s' disagree: one says const (", S(p, f->name));
    reason_path(&msg, p, const_at.file, o->root);
    sb_printf(&msg, ":%u), another pure; the compiler takes const", const_at.line);
    diag *d = checks_emit(out, p, o, "misuse-disagree", DIAG_ERROR, pure_at, f, sb_str(&msg));
    checks_related(d, p, o, const_at, "declared const here");
    sb_free(&msg);
  }
}

/* A declared attribute the body breaks: a cheat (note) or a misuse. Says
 * whether an error was reported. */
static bool check_body(const link_prog *p, const checks_opts *o, cheat_ctx *cx, uint32_t fi,
                       purity decl, sum_loc at, diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  sum_loc read_at = at;
  cheat_memo m = {0};
  uint32_t frozen = 0;
  cheat_frozen_verdict fv;
  bool error = false, memo = cheat_find_memo(p, cx, fi, decl, &m);
  if (memo && m.arg_value) { emit_memo_argument(p, o, f, decl, at, &m, out); error = true; }
  else if (memo) emit_memo(p, o, f, decl, at, &m, out);
  else if ((fv = cheat_frozen(p, cx, fi, decl, &frozen, &read_at)) == FROZEN_CHEAT)
    emit_frozen(p, o, f, at, frozen, out);
  else if (fv == FROZEN_LIBRARY) { emit_library_global(p, o, f, at, frozen, read_at, out); error = true; }
  else {
    const sum_effect *mw = p->strict ? NULL : may_write_of(p, f, decl);
    if (mw && nr_live_sure_class(cx->nr, fi) <= decl) emit_may_write(p, o, f, decl, at, mw, out);
    else if (!p->strict && nr_live_math_class(cx->nr, fi) <= decl) emit_math_errno(p, o, cx->nr, f, decl, at, out);
    else { emit_misuse(p, o, cx->nr, f, decl, at, out); error = true; }
  }
  cheat_memo_free(&m);
  return error;
}

void checks_misuse(const link_prog *p, const checks_opts *o, diag_list *out)
{
  cheat_ctx cx;
  cheat_ctx_init(&cx, p, o->whole_program);
  nr_ctx *nr = cx.nr;
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (f->flags & SFF_SYSTEM) continue;
    /* A prototype's attributes are checked even when no body is analysed
     * (a void function declared const in a header, defined elsewhere):
     * its declarations alone show the misuse. */
    check_declarations(p, o, fi, out);
    if (!(f->flags & SFF_BODY)) continue;
    purity decl = declared_class(f->declared);
    bool weak = link_weak_body(f);   /* its body is checked too (utf8.h's weak utf8cpy) */
    if (decl == PURITY_NORMAL || !(link_has_body(f) || weak) || (f->flags & SFF_VOID)) continue;
    purity cls = weak ? (purity)f->weak_cls : (purity)f->cls;
    sum_loc at = checks_attr_loc(p, fi, decl == PURITY_CONST ? SUM_DECL_CONST : SUM_DECL_PURE);
    /* Beyond the attribute only on paths that end in a noreturn call (and
     * not --strict, which counts those in full): misuse-noreturn says so. */
    purity seen = p->strict ? nr_run_class(nr, fi) : nr_live_class(nr, fi);
    bool broken = cls > decl && seen > decl;
    bool barrier = !broken && cls > decl && (p->strict || nr_live_barrier_class(nr, fi) > decl);
    if (barrier) emit_barrier(p, o, f, decl, at, out);
    else if (!broken && cls > decl) checks_scratch_note(p, o, fi, decl, at, out);
    if (!broken || !check_body(p, o, &cx, fi, decl, at, out)) nr_emit(nr, o, fi, decl, at, out);
  }
  cheat_ctx_free(&cx);
  checks_kb_cheats(p, o, out);
  checks_discarded(p, o, out);
  checks_c23_misuse(p, o, out);
}

/* Is f's wrong attribute a deliberate cheat (memoisation, a constant table
 * not marked const) that misuse reports as a note? fix leaves those alone.
 * Whole program: when a main is defined. */
bool checks_is_cheat(const link_prog *p, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  purity decl = declared_class(f->declared);
  if (decl == PURITY_NORMAL || !link_has_body(f) || (purity)f->cls <= decl) return false;
  cheat_ctx cx;
  cheat_ctx_init(&cx, p, false);
  cheat_memo m = {0};
  uint32_t frozen;
  sum_loc at;
  bool memo = cheat_find_memo(p, &cx, fi, decl, &m);
  bool cheat = memo ? !m.arg_value : cheat_frozen(p, &cx, fi, decl, &frozen, &at) == FROZEN_CHEAT;
  cheat_memo_free(&m);
  cheat_ctx_free(&cx);
  return cheat;
}

/* Is a compiler barrier all that puts f beyond its declared attribute (a
 * misuse note, not an error)? fix leaves the attribute alone. */
bool checks_barrier_only(const link_prog *p, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  purity decl = declared_class(f->declared);
  if (decl == PURITY_NORMAL || !link_has_body(f) || (purity)f->cls <= decl) return false;
  nr_ctx nr;
  nr_ctx_init(&nr, p);
  purity seen = p->strict ? nr_run_class(&nr, fi) : nr_live_class(&nr, fi);
  bool barrier = seen <= decl && (p->strict || nr_live_barrier_class(&nr, fi) > decl);
  nr_ctx_free(&nr);
  return barrier;
}

bool checks_math_errno_only(const link_prog *p, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  purity decl = declared_class(f->declared);
  if (p->strict || decl == PURITY_NORMAL || !link_has_body(f) || (purity)f->cls <= decl) return false;
  nr_ctx nr;
  nr_ctx_init(&nr, p);
  bool only = nr_live_class(&nr, fi) > decl && nr_live_math_class(&nr, fi) <= decl;
  nr_ctx_free(&nr);
  return only;
}
