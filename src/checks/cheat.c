/* cheat.c — deliberate cheats: memoisation wherever its cache lives, and
 * constant data not marked const (cheat.h).
 *
 * Memoisation is recognised by what a function does that its attribute
 * forbids: every such effect or call must write a private cache, read it,
 * or happen under (or in) the "already computed?" test of it. The cache
 * may be a static, a thread-local, an object filled under a once-guard
 * (GLib's g_once_init_enter: an atomic load of the cache and a call given
 * its address, in the `if` condition), pthread_once/call_once state, or
 * live in a callee that memoises. */
#include "checks/cheat.h"
#include "checks/checks.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

void cheat_ctx_init(cheat_ctx *c, const link_prog *p, bool whole_program)
{
  memset(c, 0, sizeof *c);
  link_obj_writers(p, &c->writers);
  c->nr = xcalloc(1, sizeof *c->nr);
  nr_ctx_init(c->nr, p);
  c->whole_program = checks_whole_program(p, whole_program);
}

void cheat_ctx_free(cheat_ctx *c)
{
  ptrmap_free(&c->writers);
  nr_ctx_free(c->nr);
  free(c->nr);
}

void cheat_memo_free(cheat_memo *m)
{
  vec_free(&m->caches);
  vec_free(&m->feeders);
  vec_free(&m->chain);
}

static bool in(const cheat_ids *v, uint32_t x)
{
  for (size_t i = 0; i < v->n; i++) if (v->v[i] == x) return true;
  return false;
}

static void add(cheat_ids *v, uint32_t x) { if (!in(v, x)) vec_push(v, x); }

/* On a path that ends in a noreturn call: misuse-noreturn's business, not
 * the memo's (unless --strict counts such paths in full). A compiler
 * barrier is not the memo's either: it runs no instruction. */
static bool eff_dying(const link_prog *p, const sum_effect *e)
{
  return nr_is_barrier(e) || (!p->strict && (e->flags & SEF_DOOMED));
}
/* A call beyond decl only where it may not return: itself on such a path,
 * or a callee whose paths that return stay within decl (GLib's
 * g_type_ensure, whose g_error("can't happen") logs, then loops forever). */
static bool call_dying(const link_prog *p, const cheat_ctx *c, const link_call *cl, purity decl)
{
  bool body = link_has_body(&p->funcs.v[cl->callee]);
  if (p->strict) return body && nr_run_class(c->nr, cl->callee) <= decl;   /* barriers only */
  if (cl->flags & (SCF_DOOMED | SCF_NORETURN)) return true;
  return body && nr_live_class(c->nr, cl->callee) <= decl;
}

static bool is_cache_obj(uint8_t obj)
{
  return obj == SO_STATIC_LOCAL || obj == SO_FILE_STATIC || obj == SO_THREAD_LOCAL;
}

/* Written (or its address taken) by a function other than fi? */
static bool written_elsewhere(const cheat_ctx *c, uint32_t fi, const sum_effect *e)
{
  const uint32_t *v = ptrmap_get(&c->writers, link_obj_key(fi, e));
  return v && *v != fi + 1;
}

/* The access a volatile qualifies: the front end records SE_VOLATILE,
 * then the access itself at the same place (frontend/walk_expr.c's
 * fw_access), so a volatile cache (GLib before 2.68 spelled
 * G_DEFINE_TYPE's `static volatile gsize`) is known as the cache. NULL
 * when effect i is no such pair (a volatile local has no access effect
 * of its own: whatever follows is another access). */
static const sum_effect *volatile_access(const link_prog *p, const link_func *f, uint32_t i)
{
  const sum_effect *v = &p->effs.v[f->eff_off + i];
  if (v->kind != SE_VOLATILE || i + 1 >= f->neff) return NULL;
  const sum_effect *a = v + 1;
  bool here = a->loc.file == v->loc.file && a->loc.line == v->loc.line && a->loc.col == v->loc.col;
  return here && a->kind != SE_VOLATILE ? a : NULL;
}

/* Effect e (index i) reads or writes one of the caches by name, itself
 * or as the volatile access of one. */
static bool cache_access(const link_prog *p, const link_func *f, uint32_t i, const cheat_ids *caches)
{
  const sum_effect *e = &p->effs.v[f->eff_off + i];
  const sum_effect *a = e->kind == SE_VOLATILE ? volatile_access(p, f, i) : e;
  return a && (a->kind == SE_WRITE_GLOBAL || a->kind == SE_READ_GLOBAL) && in(caches, a->name);
}

/* The guard an effect or call is under; one in the test itself does not
 * count for a plain static cache (`if (!cache && getenv(…))` runs getenv
 * on every call until the cache is filled). */
static uint32_t under(uint32_t guard, bool in_test) { return in_test ? 0 : guard; }

static bool find_memo(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl, cheat_memo *m, int depth);

/* An unguarded call of a function that memoises itself (GLib's
 * G_DEFINE_TYPE_WITH_CODE prelude calling g_networking_init, a once-guard
 * of its own): runs its work once too. */
static bool memo_call_ok(const link_prog *p, const cheat_ctx *c, uint32_t fi, const link_call *cl, purity decl,
                         int depth)
{
  if (depth >= 4 || cl->callee == fi || !link_has_body(&p->funcs.v[cl->callee])) return false;
  cheat_memo sub = {0};
  bool ok = find_memo(p, c, cl->callee, decl, &sub, depth + 1);
  cheat_memo_free(&sub);
  return ok;
}

/* A write of a static (or thread-local) under a test of itself: a cache. */
static bool memo_cache_write(const sum_effect *e)
{
  return e->kind == SE_WRITE_GLOBAL && is_cache_obj(e->obj) && under(e->guard, e->flags & SEF_GUARD_TEST);
}

/* Is effect i (is_eff) or call i of f the memo's own work: a cache's
 * access (its write under its test), or work under a cache's test? */
static bool memo_part(const link_prog *p, const link_func *f, const cheat_ids *caches, bool is_eff, uint32_t i)
{
  if (!is_eff) {
    const link_call *cl = &p->calls.v[f->call_off + i];
    uint32_t g = under(cl->guard, cl->flags & SCF_GUARD_TEST);
    return g && in(caches, g);
  }
  const sum_effect *e = &p->effs.v[f->eff_off + i];
  uint32_t g = under(e->guard, e->flags & SEF_GUARD_TEST);
  bool cached = cache_access(p, f, i, caches), guarded = g && in(caches, g);
  return e->kind == SE_WRITE_GLOBAL ? cached && guarded : cached || guarded;
}

/* A static or thread-local written under a test of itself. */
static bool memo_plain(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl, cheat_memo *m, int depth)
{
  const link_func *f = &p->funcs.v[fi];
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (!memo_cache_write(e)) continue;
    if (written_elsewhere(c, fi, e)) return false;
    if (!m->caches.n) { m->cache = e->name; m->cache_obj = e->obj; m->cache_loc = e->loc; }
    if ((e->flags & SEF_ARG_VALUE) && !m->arg_value) { m->arg_value = true; m->arg_loc = e->loc; }
    add(&m->caches, e->name);
  }
  if (!m->caches.n) return false;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (link_effect_contrib(p, e) <= decl || eff_dying(p, e)) continue;
    if (!memo_part(p, f, &m->caches, true, i)) return false;
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *cl = &p->calls.v[f->call_off + i];
    if (link_call_class(p, f, cl) <= decl || call_dying(p, c, cl, decl)) continue;
    if (!memo_part(p, f, &m->caches, false, i)) {
      if (memo_call_ok(p, c, fi, cl, decl, depth)) continue;
      return false;
    }
    add(&m->feeders, p->funcs.v[cl->callee].name);
  }
  m->kind = m->cache_obj == SO_THREAD_LOCAL ? MEMO_THREAD : MEMO_STATIC;
  return true;
}

/* The caches of fi's plain memo shape: statics (or thread-locals) written
 * under a test of themselves, whoever else writes them. */
static void memo_plain_caches(const link_prog *p, const link_func *f, cheat_ids *caches)
{
  for (uint32_t i = 0; i < f->neff; i++)
    if (memo_cache_write(&p->effs.v[f->eff_off + i])) add(caches, p->effs.v[f->eff_off + i].name);
}

/* A read of errno by a function that puts errno back before it returns
 * (frontend/errsave.c): the saving, named only when nothing else is
 * (GLib's g_strerror saves errno around its memo of messages). */
static bool saved_errno_read(const link_prog *p, const link_func *f, const sum_effect *e)
{
  return (f->sflags & SSF_ERRNO_KEPT) && e->kind == SE_READ_MEM && e->name == p->errno_name;
}

/* f's effect or call beyond decl outside the memo's own work (and,
 * unless errno_too, not the saving of errno) that comes first in the
 * source (G_LOCK's call before a read in a rare branch); false if none. */
static bool memo_first_other(const link_prog *p, const link_func *f, const cheat_ids *caches, purity decl,
                             bool errno_too, link_why *out)
{
  bool found = false;
  sum_loc at = { 0, 0, 0 };
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (link_effect_contrib(p, e) <= decl || eff_dying(p, e) || link_scratch_effect(p, f, e) ||
        memo_part(p, f, caches, true, i) || (!errno_too && saved_errno_read(p, f, e)))
      continue;
    *out = (link_why){ WHY_EFFECT, f->eff_off + i };
    at = e->loc;
    found = true;
    break;
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *cl = &p->calls.v[f->call_off + i];
    if (p->call_cls[f->call_off + i] <= decl || (cl->flags & (SCF_DOOMED | SCF_NORETURN)) ||
        memo_part(p, f, caches, false, i))
      continue;
    if (!found || (cl->loc.file == at.file && sum_loc_before(cl->loc, at))) *out = (link_why){ WHY_CALL, f->call_off + i };
    return true;
  }
  return found;
}

link_why cheat_memo_other_cause(const link_prog *p, uint32_t fi, purity decl, link_why w)
{
  const link_func *f = &p->funcs.v[fi];
  bool is_eff = w.kind == WHY_EFFECT;
  if (!is_eff && w.kind != WHY_CALL) return w;
  uint32_t off = is_eff ? f->eff_off : f->call_off, n = is_eff ? f->neff : f->ncall;
  if (w.index < off || w.index >= off + n) return w;
  cheat_ids caches = {0};
  memo_plain_caches(p, f, &caches);
  link_why out = w;
  if (caches.n && memo_part(p, f, &caches, is_eff, w.index - off) &&
      !memo_first_other(p, f, &caches, decl, false, &out))
    memo_first_other(p, f, &caches, decl, true, &out);
  vec_free(&caches);
  return out;
}

/* Does effect e name object x: x itself, or `*&x` (a macro's `*(location)`
 * given `&x`)? */
static bool names(const link_prog *p, const sum_effect *e, uint32_t x)
{
  if (e->name == x) return true;
  if (e->kind != SE_READ_MEM && e->kind != SE_WRITE_MEM) return false;
  const char *n = S(p, e->name);
  return n[0] == '&' && !strcmp(n + 1, S(p, x));
}

/* The guard of the first thing in an `if` test, and the effect naming that
 * object (for its kind and identity), or NULL. */
static const sum_effect *once_candidate(const link_prog *p, const link_func *f, uint32_t *x)
{
  *x = 0;
  for (uint32_t i = 0; i < f->neff && !*x; i++)
    if (p->effs.v[f->eff_off + i].flags & SEF_GUARD_TEST) *x = p->effs.v[f->eff_off + i].guard;
  for (uint32_t i = 0; i < f->ncall && !*x; i++)
    if (p->calls.v[f->call_off + i].flags & SCF_GUARD_TEST) *x = p->calls.v[f->call_off + i].guard;
  for (uint32_t i = 0; *x && i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (e->name == *x && is_cache_obj(e->obj)) return e;
  }
  return NULL;
}

/* A private static written under once-guard x other than x itself: the
 * cache of a once-control (`if (once_begin(&ctl)) { cache = …;
 * once_end(&ctl); } return cache;`, PulseAudio's PA_ONCE_BEGIN). */
static bool once_side_cache(const cheat_ctx *c, uint32_t fi, const sum_effect *e, uint32_t x)
{
  return e->kind == SE_WRITE_GLOBAL && e->name != x && e->guard == x && !(e->flags & SEF_GUARD_TEST) &&
         is_cache_obj(e->obj) && !written_elsewhere(c, fi, e);
}

/* The once primitive's name says so: a test call given &ctl might as well
 * be a try-lock, whose writes are not done once. */
static bool names_once(const char *name) { return strcasestr(name, "once") != NULL; }

/* Are a and b of one family: the same name up to its last '_'
 * (g_once_init_enter / g_once_init_leave, pa_once_begin / pa_once_end)? */
static bool same_family(const char *a, const char *b)
{
  const char *ua = strrchr(a, '_'), *ub = strrchr(b, '_');
  return ua && ub && ua - a == ub - b && ua > a && !strncmp(a, b, (size_t)(ua - a));
}

/* The once primitive's other half (g_once_init_leave beside the test's
 * g_once_init_enter) fills the cache; it computes nothing: not a feeder. */
static void drop_once_family(const link_prog *p, cheat_memo *m)
{
  if (!m->once) return;
  size_t k = 0;
  for (size_t i = 0; i < m->feeders.n; i++)
    if (!same_family(S(p, m->feeders.v[i]), S(p, m->once))) m->feeders.v[k++] = m->feeders.v[i];
  m->feeders.n = k;
}

/* A once-guard: `if (once_enter(&x)) { …; once_leave(&x, v); } return x;`,
 * the test being an atomic load of x and/or a call given x's address. The
 * cache — x, or private statics written only under the guard when the test
 * calls a once primitive — is written only under the guard, the rest only
 * reads it, or happens under the guard (computing the value). */
static bool memo_once_guard(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl, cheat_memo *m,
                            int depth)
{
  const link_func *f = &p->funcs.v[fi];
  uint32_t x;
  const sum_effect *obj = once_candidate(p, f, &x);
  if (!obj || written_elsewhere(c, fi, obj)) return false;
  cheat_ids side = {0};
  const sum_effect *first_side = NULL;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (!once_side_cache(c, fi, e, x)) continue;
    if (!first_side) first_side = e;
    if ((e->flags & SEF_ARG_VALUE) && !m->arg_value) { m->arg_value = true; m->arg_loc = e->loc; }
    add(&side, e->name);
  }
  bool addr = false, test_op = false, written = false, ok = true;
  sum_loc wloc = obj->loc;
  for (uint32_t i = 0; i < f->neff && ok; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (e->kind == SE_ADDR_GLOBAL && e->name == x) addr = true;
    if (link_effect_contrib(p, e) <= decl || eff_dying(p, e)) continue;
    const sum_effect *a = e->kind == SE_VOLATILE ? volatile_access(p, f, i) : e;
    bool in_test = e->flags & SEF_GUARD_TEST, nx = a && names(p, a, x);
    bool side_access = cache_access(p, f, i, &side);
    if (e->kind == SE_WRITE_GLOBAL || e->kind == SE_WRITE_MEM || e->kind == SE_WRITE_PARAM) {
      if (side_access && e->guard == x && !in_test) continue;
      if (!nx || e->guard != x || in_test) ok = false;
      else if (!written) { wloc = e->loc; written = true; }
      continue;
    }
    if (e->kind == SE_ATOMIC) {
      if (!(nx || (e->guard == x && (!e->name || in_test)))) ok = false;
      test_op |= in_test;
      continue;
    }
    if (!nx && !side_access && e->guard != x) ok = false;
  }
  for (uint32_t i = 0; i < f->ncall && ok; i++) {
    const link_call *cl = &p->calls.v[f->call_off + i];
    if (link_call_class(p, f, cl) <= decl || call_dying(p, c, cl, decl)) continue;
    if (cl->guard != x) {
      if (!memo_call_ok(p, c, fi, cl, decl, depth)) ok = false;
      continue;
    }
    if (cl->flags & SCF_GUARD_TEST) {
      if (!m->once) m->once = p->funcs.v[cl->callee].name;
      test_op = true;
    } else {
      add(&m->feeders, p->funcs.v[cl->callee].name);
    }
  }
  drop_once_family(p, m);
  ok = ok && addr && test_op && (!side.n || (m->once && names_once(S(p, m->once))));
  if (ok) {
    m->kind = MEMO_ONCE;
    m->cache = first_side ? first_side->name : x;
    m->cache_obj = first_side ? first_side->obj : obj->obj;
    m->cache_loc = first_side ? first_side->loc : wloc;
    add(&m->caches, x);
    for (size_t i = 0; i < side.n; i++) add(&m->caches, side.v[i]);
  }
  vec_free(&side);
  return ok;
}

/* Memoisation through pthread_once/call_once: the routine that fills the
 * state runs once; the function itself only reads that state. Every
 * offending effect is a read of a file static, every offending call the
 * once call. */
static bool memo_once_call(const link_prog *p, const cheat_ctx *cx, uint32_t fi, purity decl, cheat_memo *m)
{
  const link_func *f = &p->funcs.v[fi];
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    const char *name = S(p, p->funcs.v[c->callee].name);
    bool is_once = !strcmp(name, "pthread_once") || !strcmp(name, "call_once");
    if (is_once && !m->once) m->once = p->funcs.v[c->callee].name;
    if (!is_once && link_call_class(p, f, c) > decl && !call_dying(p, cx, c, decl)) return false;
  }
  if (!m->once) return false;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (link_effect_contrib(p, e) <= decl || eff_dying(p, e)) continue;
    if (e->kind != SE_READ_GLOBAL || e->obj != SO_FILE_STATIC) return false;
    if (!m->cache) { m->cache = e->name; m->cache_obj = e->obj; m->cache_loc = e->loc; }
  }
  m->kind = MEMO_ONCE;
  return m->cache != 0;
}

/* Only calls of memoising functions go beyond decl: the cache is theirs. */
static bool memo_callee(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl, cheat_memo *m, int depth)
{
  const link_func *f = &p->funcs.v[fi];
  if (depth >= 4) return false;
  for (uint32_t i = 0; i < f->neff; i++)
    if (link_effect_contrib(p, &p->effs.v[f->eff_off + i]) > decl && !eff_dying(p, &p->effs.v[f->eff_off + i])) return false;
  bool any = false;
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *cl = &p->calls.v[f->call_off + i];
    if (link_call_class(p, f, cl) <= decl || call_dying(p, c, cl, decl)) continue;
    if (cl->callee == fi || !link_has_body(&p->funcs.v[cl->callee])) return false;
    cheat_memo sub = {0};
    bool ok = find_memo(p, c, cl->callee, decl, &sub, depth + 1);
    if (ok && !any) {
      m->inner = sub.kind == MEMO_CALLEE ? sub.inner : sub.kind;
      m->cache = sub.cache; m->cache_obj = sub.cache_obj; m->cache_loc = sub.cache_loc; m->once = sub.once;
      m->arg_value = sub.arg_value; m->arg_loc = sub.arg_loc;
      vec_push(&m->chain, cl->callee);
      for (size_t k = 0; k < sub.chain.n; k++) vec_push(&m->chain, sub.chain.v[k]);
      for (size_t k = 0; k < sub.feeders.n; k++) add(&m->feeders, sub.feeders.v[k]);
      add(&m->caches, sub.cache);
    }
    cheat_memo_free(&sub);
    if (!ok) return false;
    any = true;
  }
  if (any) m->kind = MEMO_CALLEE;
  return any;
}

static bool find_memo(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl, cheat_memo *m, int depth)
{
  const cheat_memo empty = {0};
  if (memo_plain(p, c, fi, decl, m, depth)) return true;
  cheat_memo_free(m); *m = empty;
  if (memo_once_guard(p, c, fi, decl, m, depth)) return true;
  cheat_memo_free(m); *m = empty;
  if (memo_once_call(p, c, fi, decl, m)) return true;
  cheat_memo_free(m); *m = empty;
  if (memo_callee(p, c, fi, decl, m, depth)) return true;
  cheat_memo_free(m); *m = empty;
  return false;
}

bool cheat_find_memo(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl, cheat_memo *m)
{
  return find_memo(p, c, fi, decl, m, 0);
}

/* Reads only of globals nothing writes: a constant table not marked const.
 * A static is private to the analysed code; an external global is only
 * when the analysed code is the whole program (clients of a library can
 * write it). The reads may be in callees with bodies (GLib's const
 * g_unichar_iswide reads its static inline helper's never-written
 * `static int saved_mid`), as deep as memoisation is followed. */
static cheat_frozen_verdict frozen_in(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl,
                                      uint32_t *name, sum_loc *at, int depth)
{
  const link_func *f = &p->funcs.v[fi];
  if (f->st.pr) return FROZEN_NONE;
  cheat_frozen_verdict v = FROZEN_CHEAT;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (link_effect_contrib(p, e) <= decl || eff_dying(p, e)) continue;
    if (e->kind != SE_READ_GLOBAL || (e->flags & SEF_SYSTEM_OBJ) || ptrmap_get(&c->writers, link_obj_key(fi, e)))
      return FROZEN_NONE;   /* written here, or by the C library that defines it */
    bool exported = e->obj == SO_GLOBAL || e->obj == SO_THREAD_LOCAL;
    if (exported && !c->whole_program && v != FROZEN_LIBRARY) { v = FROZEN_LIBRARY; *name = e->name; *at = e->loc; }
    if (!*name) { *name = e->name; *at = e->loc; }
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *cl = &p->calls.v[f->call_off + i];
    if (link_call_class(p, f, cl) <= decl || call_dying(p, c, cl, decl)) continue;
    /* A call above the attribute: frozen only if the callee's body is,
     * recursion and unknown bodies stay misuse. */
    if (depth >= 4 || cl->callee == fi || !link_has_body(&p->funcs.v[cl->callee])) return FROZEN_NONE;
    cheat_frozen_verdict sub = frozen_in(p, c, cl->callee, decl, name, at, depth + 1);
    if (sub == FROZEN_NONE) return FROZEN_NONE;
    if (sub == FROZEN_LIBRARY) v = FROZEN_LIBRARY;
  }
  return *name ? v : FROZEN_NONE;
}

cheat_frozen_verdict cheat_frozen(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl,
                                  uint32_t *name, sum_loc *at)
{
  const link_func *f = &p->funcs.v[fi];
  if (decl != PURITY_CONST || f->cls != PURITY_PURE) return FROZEN_NONE;
  *name = 0;
  return frozen_in(p, c, fi, decl, name, at, 0);
}
