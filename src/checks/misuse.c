/* misuse.c — declared attributes checked against the bodies.
 *
 * A declared class stronger than the body's is a misuse (error), with the
 * first offending effect and the chain of calls that reaches it — unless it
 * is a recognisable, deliberate cheat (note): memoisation (every offending
 * thing writes or feeds a private cache under an "already computed?" test
 * of it) or reading globals nothing in the program ever writes. */
#include "checks/checks.h"
#include "report/reason.h"
#include "util/ptrmap.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

static purity declared_class(uint8_t d)
{
  return (d & SUM_DECL_CONST) ? PURITY_CONST : (d & SUM_DECL_PURE) ? PURITY_PURE : PURITY_NORMAL;
}

/* Where the attribute was written: the first declaration carrying it,
 * a prototype before the definition. */
static sum_loc attr_loc(const link_prog *p, uint32_t fi, uint8_t bits)
{
  const sum_decl *best = NULL;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (!(d->declared & bits)) continue;
    if (!best || (best->is_def && !d->is_def)) best = d;
  }
  return best ? best->loc : p->funcs.v[fi].loc;
}

sum_loc checks_attr_loc(const link_prog *p, uint32_t fi, uint8_t bits)
{
  return attr_loc(p, fi, bits);
}

/* ---- the witness: first offending effect, through the chain ---- */

static void witness(const link_prog *p, const checks_opts *o, const link_func *f, strbuf *msg, diag *d)
{
  strbuf via = {0};
  const link_func *cur = f;
  for (int steps = 0; steps < 64 && cur->why.kind == WHY_CALL; steps++) {
    const link_call *c = &p->calls.v[cur->why.index];
    const link_func *g = &p->funcs.v[c->callee];
    if (!link_has_body(g) || g == cur) break;
    strbuf note = {0};
    sb_printf(&note, "'%s' calls '%s' here", S(p, cur->name), S(p, g->name));
    if (d) checks_related(d, p, o, c->loc, sb_str(&note));
    sb_free(&note);
    sb_printf(&via, "%s%s", via.n ? ", " : "", S(p, g->name));
    cur = g;
  }
  reason_head(msg, p, cur, o->root);
  sum_loc at = cur->loc;
  if (cur->why.kind == WHY_EFFECT) at = p->effs.v[cur->why.index].loc;
  else if (cur->why.kind == WHY_CALL) at = p->calls.v[cur->why.index].loc;
  sb_puts(msg, " (");
  if (via.n) sb_printf(msg, "via %s, ", sb_str(&via));
  reason_path(msg, p, at.file, o->root);
  sb_printf(msg, ":%u:%u)", at.line, at.col);
  if (d) {
    strbuf here = {0};
    reason_head(&here, p, cur, o->root);
    sb_puts(&here, " here");
    checks_related(d, p, o, at, sb_str(&here));
    sb_free(&here);
  }
  sb_free(&via);
}

/* ---- cheats ---- */

/* Names of globals and statics written, or whose address escapes,
 * anywhere in the program (value 1). */
static void written_globals(const link_prog *p, ptrmap *out)
{
  for (size_t i = 0; i < p->effs.n; i++) {
    const sum_effect *e = &p->effs.v[i];
    if (e->kind == SE_WRITE_GLOBAL || e->kind == SE_ADDR_GLOBAL) ptrmap_put(out, (uint64_t)e->name + 1, 1);
  }
}

static bool is_static(uint8_t obj) { return obj == SO_STATIC_LOCAL || obj == SO_FILE_STATIC; }

/* Writes of the static `name` by functions other than f. */
static bool written_elsewhere(const link_prog *p, const link_func *f, uint32_t name)
{
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *g = &p->funcs.v[fi];
    if (g == f) continue;
    for (uint32_t i = 0; i < g->neff; i++) {
      const sum_effect *e = &p->effs.v[g->eff_off + i];
      if ((e->kind == SE_WRITE_GLOBAL || e->kind == SE_ADDR_GLOBAL) && e->name == name && e->obj == SO_FILE_STATIC)
        return true;
    }
  }
  return false;
}

typedef VEC(uint32_t) idvec;

typedef struct {
  idvec caches;           /* statics f writes under a guard: its caches */
  idvec feeders;          /* callees feeding them */
  uint32_t first_cache;
  sum_loc cache_loc;
} memo;

static bool in(const idvec *v, uint32_t x)
{
  for (size_t i = 0; i < v->n; i++) if (v->v[i] == x) return true;
  return false;
}

/* Memoisation: every effect or call stronger than `decl` writes a private
 * cache, reads one, or happens under a guard testing one. */
static bool is_memo(const link_prog *p, const link_func *f, purity decl, memo *m)
{
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (e->kind == SE_WRITE_GLOBAL && is_static(e->obj) && e->guard && !in(&m->caches, e->name)) {
      if (!m->caches.n) { m->first_cache = e->name; m->cache_loc = e->loc; }
      vec_push(&m->caches, e->name);
    }
  }
  if (!m->caches.n) return false;
  for (size_t i = 0; i < m->caches.n; i++)
    if (written_elsewhere(p, f, m->caches.v[i])) return false;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (link_effect_contrib(p, e) <= decl) continue;
    bool cache_access = (e->kind == SE_WRITE_GLOBAL || e->kind == SE_READ_GLOBAL) && in(&m->caches, e->name);
    bool guarded = e->guard && in(&m->caches, e->guard);
    if (e->kind == SE_WRITE_GLOBAL ? !(cache_access && guarded) : !(cache_access || guarded)) return false;
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    const link_func *g = &p->funcs.v[c->callee];
    if (link_call_class(p, f, c) <= decl) continue;
    if (!(c->guard && in(&m->caches, c->guard))) return false;
    if (!in(&m->feeders, g->name)) vec_push(&m->feeders, g->name);
  }
  return true;
}

/* Memoisation through pthread_once/call_once: the routine that fills the
 * state runs once; the function itself only reads that state. Every
 * offending effect is a read of a file static, every offending call the
 * once call. */
static bool is_once_memo(const link_prog *p, const link_func *f, purity decl, memo *m)
{
  bool once = false;
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    const char *name = S(p, p->funcs.v[c->callee].name);
    bool is_once = !strcmp(name, "pthread_once") || !strcmp(name, "call_once");
    if (is_once && !in(&m->feeders, p->funcs.v[c->callee].name)) vec_push(&m->feeders, p->funcs.v[c->callee].name);
    once |= is_once;
    if (!is_once && link_call_class(p, f, c) > decl) return false;
  }
  if (!once) return false;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (link_effect_contrib(p, e) <= decl) continue;
    if (e->kind != SE_READ_GLOBAL || e->obj != SO_FILE_STATIC) return false;
    if (!m->first_cache) { m->first_cache = e->name; m->cache_loc = e->loc; }
  }
  return m->first_cache != 0;
}

/* Reads only of globals nothing writes: a constant table not marked const. */
static bool reads_frozen_globals(const link_prog *p, const link_func *f, purity decl, const ptrmap *written,
                                 uint32_t *name)
{
  if (decl != PURITY_CONST || f->cls != PURITY_PURE || f->st.pr) return false;
  *name = 0;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (link_effect_contrib(p, e) <= decl) continue;
    if (e->kind != SE_READ_GLOBAL || ptrmap_get(written, (uint64_t)e->name + 1)) return false;
    if (!*name) *name = e->name;
  }
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    if (link_call_class(p, f, c) > decl) return false;
  }
  return *name != 0;
}

static void emit_memo(const link_prog *p, const checks_opts *o, const link_func *f, purity decl,
                      sum_loc at, const memo *m, diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s but caches its result in static '%s' (memoisation",
            S(p, f->name), purity_name(decl), S(p, m->first_cache));
  for (size_t i = 0; i < m->feeders.n; i++) sb_printf(&msg, "%s%s", i ? ", " : ", computed with ", S(p, m->feeders.v[i]));
  sb_printf(&msg, "): the compiler assumes every call returns the same value and has no side effect, "
                  "so it may merge, move or drop calls; this holds only while what the first call saw "
                  "does not change%s and no two threads make the first call at once",
            m->feeders.n ? " (the environment, files, other state those calls read)" : "");
  diag *d = checks_emit(out, p, o, "cheat", o->cheats_as_errors ? DIAG_ERROR : DIAG_NOTE, at, f, sb_str(&msg));
  checks_related(d, p, o, m->cache_loc, "the cache is written here");
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

static void emit_misuse(const link_prog *p, const checks_opts *o, const link_func *f, purity decl,
                        sum_loc at, diag_list *out)
{
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s but ", S(p, f->name), purity_name(decl));
  diag *d = checks_emit(out, p, o, "misuse", DIAG_ERROR, at, f, "");
  witness(p, o, f, &msg, d);
  free(d->message);
  d->message = xstrdup(sb_str(&msg));
  sb_free(&msg);
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

void checks_misuse(const link_prog *p, const checks_opts *o, diag_list *out)
{
  ptrmap written = {0};
  written_globals(p, &written);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (f->flags & SFF_SYSTEM) continue;
    /* A prototype's attributes are checked even when no body is analysed
     * (a void function declared const in a header, defined elsewhere):
     * its declarations alone show the misuse. */
    check_declarations(p, o, fi, out);
    if (!(f->flags & SFF_BODY)) continue;
    purity decl = declared_class(f->declared);
    if (decl == PURITY_NORMAL || !link_has_body(f) || (purity)f->cls <= decl || (f->flags & SFF_VOID)) continue;
    sum_loc at = attr_loc(p, fi, decl == PURITY_CONST ? SUM_DECL_CONST : SUM_DECL_PURE);
    memo m = { {0}, {0}, 0, { 0, 0, 0 } }, once = { {0}, {0}, 0, { 0, 0, 0 } };
    uint32_t frozen;
    if (is_memo(p, f, decl, &m)) emit_memo(p, o, f, decl, at, &m, out);
    else if (is_once_memo(p, f, decl, &once)) emit_memo(p, o, f, decl, at, &once, out);
    else if (reads_frozen_globals(p, f, decl, &written, &frozen)) emit_frozen(p, o, f, at, frozen, out);
    else emit_misuse(p, o, f, decl, at, out);
    vec_free(&m.caches);
    vec_free(&m.feeders);
    vec_free(&once.caches);
    vec_free(&once.feeders);
  }
  ptrmap_free(&written);
  checks_kb_cheats(p, o, out);
}

/* Is f's wrong attribute a deliberate cheat (memoisation, a constant table
 * not marked const) that misuse reports as a note? fix leaves those alone. */
bool checks_is_cheat(const link_prog *p, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  purity decl = declared_class(f->declared);
  if (decl == PURITY_NORMAL || !link_has_body(f) || (purity)f->cls <= decl) return false;
  ptrmap written = {0};
  written_globals(p, &written);
  memo m = { {0}, {0}, 0, { 0, 0, 0 } }, once = { {0}, {0}, 0, { 0, 0, 0 } };
  uint32_t frozen;
  bool cheat = is_memo(p, f, decl, &m) || is_once_memo(p, f, decl, &once)
            || reads_frozen_globals(p, f, decl, &written, &frozen);
  vec_free(&m.caches);
  vec_free(&m.feeders);
  vec_free(&once.caches);
  vec_free(&once.feeders);
  ptrmap_free(&written);
  return cheat;
}
