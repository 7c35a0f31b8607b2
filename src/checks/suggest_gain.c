/* suggest_gain.c — what a suggested attribute buys (issue 19).
 *
 * Where the compiler sees a body it infers pure/const itself (GCC's
 * ipa-pure-const does, for every function of the TU it compiles), so an
 * attribute gains only at calls compiled without the body: calls in other
 * files. Each such call counts when, with the attribute, the compiler
 * could delete, merge or hoist it (the judgement of `explain`) and does
 * not already. A function declared in a header with external linkage is
 * public API besides: in a library, callers outside the analysed code gain
 * too (not in a whole program, which has no such callers). A suggestion
 * with neither pays nothing: `suggest` hides it unless --all. */
#include "checks/checks.h"
#include <string.h>
#include <strings.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* Does the stem of file name base (up to its first '.') end in "priv",
 * "private" or "internal" run together with what precedes it (libpng's
 * pngpriv.h, "fooprivate.h")? */
static bool sg_private_stem(const char *base)
{
  static const char *const tails[] = { "priv", "private", "internal" };
  size_t n = strcspn(base, ".");
  for (size_t k = 0; k < sizeof tails / sizeof *tails; k++) {
    size_t m = strlen(tails[k]);
    if (n > m && strncasecmp(base + n - m, tails[k], m) == 0) return true;
  }
  return false;
}

/* Whether a header's path says the project keeps it to itself: a word of
 * its file name ("internal", "private", "priv", "impl", split at '-', '_'
 * and '.': nettle's eddsa-internal.h, GMP's gmp-impl.h), a stem ending in
 * one of the first three (sg_private_stem), or a parent
 * directory named "internal" or "private" (src/internal/x.h). A library
 * installs no such header, so no caller outside the analysed code sees its
 * prototypes. Only whole directory names count: a checkout under
 * "my_private_tree/" says nothing about the project's headers. */
static bool sg_private_header(const char *path)
{
  static const char *const words[] = { "internal", "private", "priv", "impl" };
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (sg_private_stem(base)) return true;
  for (const char *w = base; *w;) {
    size_t n = strcspn(w, "-_.");
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
      if (n == strlen(words[k]) && strncasecmp(w, words[k], n) == 0) return true;
    w += n + (w[n] != '\0');
  }
  for (const char *d = path; d < base;) {
    size_t n = strcspn(d, "/");
    if ((n == 8 && strncasecmp(d, "internal", 8) == 0) || (n == 7 && strncasecmp(d, "private", 7) == 0)) return true;
    d += n + 1;
  }
  return false;
}

/* A prototype's place, exact (0 where it does not fit: never shared). */
static uint64_t sg_place(const sum_decl *d)
{
  if (d->loc.line >= (1u << 20) || d->loc.col >= (1u << 12)) return 0;
  return (uint64_t)d->loc.file << 32 | (uint64_t)d->loc.line << 12 | d->loc.col;
}

/* The places where one prototype, its name a renaming macro, declares a
 * different function in each compile (PulseAudio's module.h: `#define
 * pa__get_author MODULE_LTX_pa__get_author`, one per module, found by
 * lt_dlsym): value UINT32_MAX. No caller outside the analysed code can
 * call such a function through that prototype, so it is no public API. */
static void sg_shared_places(const link_prog *p, ptrmap *out)
{
  for (size_t i = 0; i < p->decls.n; i++) {
    const sum_decl *d = &p->decls.v[i];
    uint64_t key = sg_place(d);
    if (d->is_def || !(d->dflags & SDF_MACRO_NAME) || !key) continue;
    uint32_t *v = ptrmap_get(out, key);
    if (!v) ptrmap_put(out, key, d->func);
    else if (*v != d->func) *v = UINT32_MAX;
  }
}

static bool sg_shared(const ptrmap *shared, const sum_decl *d)
{
  const uint32_t *v = ptrmap_get(shared, sg_place(d));
  return (d->dflags & SDF_MACRO_NAME) && v && *v == UINT32_MAX;
}

/* The header declaring external function fi, or NULL. A header is any file
 * other than the definition's that does not end in ".c", and not one the
 * project keeps to itself, nor a place shared by several functions. */
static const sum_decl *sg_header_decl(const link_prog *p, uint32_t fi, const ptrmap *shared)
{
  const link_func *f = &p->funcs.v[fi];
  if (f->linkage != SUM_EXTERNAL) return NULL;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (d->is_def || d->loc.file == f->loc.file || sg_shared(shared, d)) continue;
    const char *path = S(p, d->loc.file);
    size_t n = strlen(path);
    if ((n < 2 || strcmp(path + n - 2, ".c")) && !sg_private_header(path)) return d;
  }
  return NULL;
}

/* Counts call ci of f into gains when the callee's class would let the
 * compiler do something there it does not do today. */
static void sg_count_call(const link_prog *p, const link_func *f, uint32_t ci, checks_gain *gains)
{
  const link_func *g = &p->funcs.v[p->calls.v[ci].callee];
  if (!link_has_body(g) || g->cls == PURITY_NORMAL) return;
  cs_fact fact, today;
  checks_callsite(p, f, ci, (purity)g->cls, &fact);
  checks_callsite(p, f, ci, checks_known_class(p, g), &today);
  if (fact.kind == CS_NONE || fact.blocked || (today.kind == fact.kind && !today.blocked))
    return;   /* nothing to gain here, or the compiler does it already */
  checks_gain *gg = &gains[p->calls.v[ci].callee];
  if (checks_body_seen(p, f, g)) { gg->same_file++; return; }
  if (fact.kind == CS_DEAD) gg->dead++;
  else if (fact.kind == CS_REDUNDANT) gg->merged++;
  else gg->hoisted++;
}

/* Counts the merge GCC makes at call ci of f once it inlines the tiny
 * function called there (checks_inlined_merge) into gains, when the copied
 * call's callee is suggested const and not known so today. */
static void sg_count_inlined(const link_prog *p, const link_func *f, uint32_t ci, checks_gain *gains)
{
  uint32_t gi = p->calls.v[ci].inl_callee;
  if (!gi) return;
  const link_func *g = &p->funcs.v[gi - 1];
  if (!link_has_body(g) || !checks_inlined_merge(p, f, ci, (purity)g->cls) ||
      checks_inlined_merge(p, f, ci, checks_known_class(p, g)))
    return;
  if (checks_body_seen(p, f, g)) gains[gi - 1].same_file++;
  else gains[gi - 1].merged++;
}

checks_gain *checks_gains_new(const link_prog *p, bool whole_program)
{
  checks_gain *gains = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *gains);
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (!link_has_body(f)) continue;
    for (uint32_t i = 0; i < f->ncall; i++) {
      sg_count_call(p, f, f->call_off + i, gains);
      sg_count_inlined(p, f, f->call_off + i, gains);
    }
  }
  /* A whole program has no callers outside; a library's exports have,
   * even in a database that also holds the programs that call them. Not
   * for a struct or union result: GCC merges and hoists no such call, so
   * callers outside gain only where they drop the value. */
  bool wp = checks_whole_program(p, whole_program);
  ptrmap shared = {0};
  sg_shared_places(p, &shared);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (f->flags & SFF_AGGREGATE) continue;
    if (!wp || (f->flags & SFF_EXPORTED) || (f->lflags & LF_LIBRARY))
      gains[fi].header = sg_header_decl(p, fi, &shared);
  }
  ptrmap_free(&shared);
  return gains;
}

uint32_t checks_gain_total(const checks_gain *g) { return g->dead + g->merged + g->hoisted; }

bool checks_gain_pays(const checks_gain *g) { return checks_gain_total(g) || g->header; }

bool checks_whole_program(const link_prog *p, bool opt)
{
  return link_is_whole_program(p, opt);
}
