/* gen_summaries.c — writes synthetic TU summaries for benchmarking the linker.
 *
 *   bench_gen_summaries OUT.purist NFUNCS NTU SEED
 *
 * writes NTU summary records (docs/summary-format.md) holding NFUNCS
 * function definitions in all, built directly with the summary API rather
 * than by parsing C, so that a million functions take seconds to make.
 *
 * Each record looks like what the front end writes for one TU of the
 * project bench/gen_project.c generates:
 *   - the TU's own functions, a third external (modT_fnI), the rest static
 *     (helper_I: the same names in every TU, told apart by their file);
 *   - the two static inline functions of a shared header (clamp_int,
 *     bounded_len), whose bodies every TU repeats;
 *   - the prototypes of the external functions of the 2–4 TUs whose headers
 *     it includes, as functions without a body, resolved by the linker by
 *     name against the TUs that define them;
 *   - library functions (strlen, memcpy, printf, malloc, free) declared in
 *     system headers;
 *   - 0–4 primitive effects per function and 1–5 calls: mostly to nearby
 *     earlier functions of the TU, some to other TUs' functions, a few
 *     forward (closing recursion cycles), self-recursion in the recursive
 *     kind; calls pass argument provenances (a local's address, a
 *     parameter, unknown memory);
 *   - a declaration record for every prototype and definition the project
 *     wrote (headers repeat across TUs; the linker folds them).
 * Fields this generator does not know of stay zero (designated
 * initializers), so it keeps compiling as the format grows.
 * The output depends only on the arguments. */
#include "summary/summary.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- deterministic random numbers (splitmix64) ---- */

typedef struct { uint64_t s; } rng;

static uint64_t rng_next(rng *r)
{
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static unsigned rng_below(rng *r, unsigned n) { return n ? (unsigned)(rng_next(r) % n) : 0; }
static int rng_pct(rng *r, unsigned pct) { return rng_below(r, 100) < pct; }

/* ---- kinds of functions (as in gen_project.c) ---- */

typedef enum {
  K_RESET, K_ARITH, K_LOOP, K_GREAD, K_GWRITE, K_LIBC, K_PTW, K_PTR, K_REC, K_ALLOC, K_SCAN, K_NKINDS
} kind;

static const unsigned kind_weight[K_NKINDS] = {
  [K_ARITH] = 22, [K_LOOP] = 12, [K_GREAD] = 10, [K_GWRITE] = 8, [K_LIBC] = 10,
  [K_PTW] = 8, [K_PTR] = 10, [K_REC] = 4, [K_ALLOC] = 5, [K_SCAN] = 6,
};

/* The kind of function i of TU t: a pure function of (seed, t, i), so any TU
 * knows the kinds of the functions it imports without storing them. */
static kind kind_of(uint64_t seed, unsigned t, unsigned i)
{
  if (i == 0) return K_RESET;
  rng r = { seed ^ ((uint64_t)t << 32 | i) * 0x9E3779B97F4A7C15ull };
  unsigned total = 0;
  for (int k = 0; k < K_NKINDS; k++) total += kind_weight[k];
  unsigned x = rng_below(&r, total);
  for (int k = 0; k < K_NKINDS; k++) {
    if (x < kind_weight[k]) return (kind)k;
    x -= kind_weight[k];
  }
  return K_ARITH;
}

/* 0: arguments, locals and what pointer parameters reach; 1: reads globals;
 * 2: writes them, I/O, allocation. Functions call their layer or below. */
static int kind_level(kind k)
{
  switch (k) {
  case K_GREAD: return 1;
  case K_RESET: case K_GWRITE: case K_LIBC: case K_ALLOC: return 2;
  default: return 0;
  }
}

static unsigned kind_nparams(kind k)
{
  switch (k) {
  case K_RESET: return 0;
  case K_ARITH: case K_LOOP: case K_PTW: return 2;
  default: return 1;
  }
}

/* Does parameter 0 of this kind take a pointer the caller passes? */
static int kind_ptr_param(kind k)
{
  return k == K_LOOP || k == K_LIBC || k == K_PTW || k == K_PTR || k == K_SCAN;
}

static int kind_void(kind k) { return k == K_RESET || k == K_GWRITE || k == K_PTW; }

static int is_exported(unsigned i) { return i % 3 == 0; }

/* ---- building one TU ---- */

enum { LIB_STRLEN, LIB_MEMCPY, LIB_PRINTF, LIB_MALLOC, LIB_FREE, LIB_N };
static const char *const lib_names[LIB_N] = { "strlen", "memcpy", "printf", "malloc", "free" };
static const char *const lib_headers[LIB_N] = {
  "/usr/include/string.h", "/usr/include/string.h", "/usr/include/stdio.h",
  "/usr/include/stdlib.h", "/usr/include/stdlib.h" };
static const unsigned lib_lines[LIB_N] = { 407, 43, 356, 672, 687 };
static const unsigned lib_nparams[LIB_N] = { 1, 3, 1, 1, 1 };

typedef struct {
  sum_tu *tu;
  unsigned t, nf;          /* this TU, its number of definitions */
  uint32_t file, header, common;
  uint32_t local0;         /* sum index of this TU's function 0 */
  uint32_t lib[LIB_N];
  uint32_t inl[2];         /* clamp_int, bounded_len */
  unsigned imports[4], nimports;
  uint32_t import0[4];     /* sum index of the first prototype of each import */
  unsigned per_tu;         /* functions per TU (for the imports' prototypes) */
} gen_tu;

static uint32_t gen_str(gen_tu *g, const char *s) { return strtab_intern(g->tu->strs, s); }

static uint32_t gen_func(gen_tu *g, const char *name, uint32_t keyfile, sum_loc loc,
                         uint8_t linkage, uint16_t flags, uint16_t nparams)
{
  sum_func f;
  memset(&f, 0, sizeof f);
  f.name = gen_str(g, name);
  f.keyfile = keyfile;
  f.loc = loc;
  f.linkage = linkage;
  f.flags = flags;
  f.nparams = nparams;
  vec_push(&g->tu->funcs, f);
  return (uint32_t)g->tu->funcs.n - 1;
}

static void gen_decl(gen_tu *g, uint32_t fi, sum_loc loc, int is_def)
{
  sum_decl d = { .func = fi, .loc = loc, .declared = g->tu->funcs.v[fi].declared, .is_def = (uint8_t)is_def };
  vec_push(&g->tu->decls, d);
}

static sum_loc gen_loc(uint32_t file, uint32_t line, uint32_t col)
{
  sum_loc l = { .file = file, .line = line, .col = col };
  return l;
}

/* Line of function i's name in its TU's source (and of its prototype in the header). */
static uint32_t def_line(unsigned i) { return 40 + 14 * i; }
static uint32_t proto_line(unsigned i) { return 8 + i / 3; }

static void gen_name(char *buf, size_t len, unsigned t, unsigned i)
{
  if (is_exported(i)) snprintf(buf, len, "mod%u_fn%u", t, i);
  else snprintf(buf, len, "helper_%u", i);
}

/* Adds every function the TU knows: its definitions (bodies come later, in
 * the same order), the inline helpers, the imports' prototypes, libc. */
static void gen_functions(gen_tu *g, uint64_t seed)
{
  char name[64], path[128];
  snprintf(path, sizeof path, "/bench/src/tu%u.c", g->t);
  g->file = gen_str(g, path);
  g->tu->main_file = g->file;
  snprintf(path, sizeof path, "/bench/include/tu%u.h", g->t);
  g->header = gen_str(g, path);
  g->common = gen_str(g, "/bench/include/common.h");

  g->local0 = (uint32_t)g->tu->funcs.n;
  for (unsigned i = 0; i < g->nf; i++) {
    kind k = kind_of(seed, g->t, i);
    gen_name(name, sizeof name, g->t, i);
    int ext = is_exported(i);
    uint16_t flags = SFF_BODY | (kind_void(k) ? SFF_VOID : 0);
    uint32_t fi = gen_func(g, name, ext ? 0 : g->file, gen_loc(g->file, def_line(i), ext ? 6 : 13),
                           ext ? SUM_EXTERNAL : SUM_INTERNAL, flags, (uint16_t)kind_nparams(k));
    /* Now and then a header declares an attribute (rightly or not). */
    if (ext && k == K_ARITH && i % 10 == 3) g->tu->funcs.v[fi].declared = SUM_DECL_CONST;
    if (ext && k == K_PTR && i % 10 == 6) g->tu->funcs.v[fi].declared = SUM_DECL_PURE;
  }
  const char *inl_names[2] = { "clamp_int", "bounded_len" };
  for (int h = 0; h < 2; h++)
    g->inl[h] = gen_func(g, inl_names[h], g->common, gen_loc(g->common, 20 + 6 * h, 19),
                         SUM_INTERNAL, SFF_BODY | SFF_INLINE, (uint16_t)(h ? 2 : 3));
  for (unsigned m = 0; m < g->nimports; m++) {
    unsigned u = g->imports[m];
    snprintf(path, sizeof path, "/bench/include/tu%u.h", u);
    uint32_t hfile = gen_str(g, path);
    g->import0[m] = (uint32_t)g->tu->funcs.n;
    for (unsigned i = 0; i < g->per_tu; i += 3) {
      kind k = kind_of(seed, u, i);
      gen_name(name, sizeof name, u, i);
      uint32_t fi = gen_func(g, name, 0, gen_loc(hfile, proto_line(i), 6), SUM_EXTERNAL,
                             kind_void(k) ? SFF_VOID : 0, (uint16_t)kind_nparams(k));
      gen_decl(g, fi, g->tu->funcs.v[fi].loc, 0);
    }
  }
  for (int l = 0; l < LIB_N; l++) {
    uint32_t hfile = gen_str(g, lib_headers[l]);
    uint16_t flags = SFF_SYSTEM | (l == LIB_PRINTF ? SFF_VARIADIC : 0) | (l == LIB_FREE ? SFF_VOID : 0);
    g->lib[l] = gen_func(g, lib_names[l], 0, gen_loc(hfile, lib_lines[l], 15), SUM_EXTERNAL,
                         flags, (uint16_t)lib_nparams[l]);
    if (l == LIB_STRLEN) g->tu->funcs.v[g->lib[l]].flags |= SFF_BUILTIN_PURE;
  }
  /* The TU's own header and definitions. */
  for (unsigned i = 0; i < g->nf; i++) {
    uint32_t fi = g->local0 + i;
    if (is_exported(i)) gen_decl(g, fi, gen_loc(g->header, proto_line(i), 6), 0);
    gen_decl(g, fi, g->tu->funcs.v[fi].loc, 1);
  }
}

static void gen_effect(gen_tu *g, uint8_t kind, uint8_t obj, uint8_t param, const char *name,
                       uint32_t line, uint32_t col)
{
  sum_effect e = { .kind = kind, .obj = obj, .param = param, .name = name ? gen_str(g, name) : 0,
                   .loc = gen_loc(g->file, line, col) };
  vec_push(&g->tu->effs, e);
}

/* Appends a call from the current function to `callee` with `nargs` argument provenances. */
static void gen_call(gen_tu *g, uint32_t callee, const uint64_t *args, unsigned nargs,
                     uint32_t line, uint32_t col)
{
  sum_call c = { .callee = callee, .arg_off = (uint32_t)g->tu->argmasks.n, .nargs = nargs,
                 .loc = gen_loc(g->file, line, col) };
  for (unsigned a = 0; a < nargs; a++) vec_push(&g->tu->argmasks, args[a]);
  vec_push(&g->tu->calls, c);
}

/* Arguments for a call to a function of kind k from a caller of kind ck:
 * a pointer parameter gets the address of one of the caller's locals (as in
 * gen_project), or, from a caller with a pointer parameter of its own,
 * sometimes that parameter: the callee's reads and writes through it then
 * become the caller's, which the linker maps through the provenance. */
static unsigned gen_args(kind k, kind ck, uint64_t *args, rng *r)
{
  unsigned n = kind_nparams(k);
  for (unsigned a = 0; a < n; a++) args[a] = 0;
  if (n && kind_ptr_param(k))
    args[0] = kind_ptr_param(ck) && k != K_PTW && rng_pct(r, 30) ? prov_param(0) : PROV_LOCAL;
  return n;
}

/* The body of the TU's function i: effects (0–4), then calls (1–5). */
static void gen_body(gen_tu *g, unsigned i, uint64_t seed, rng *r, unsigned *oldest_uncalled,
                     unsigned char *called)
{
  sum_func *f = &g->tu->funcs.v[g->local0 + i];
  kind k = kind_of(seed, g->t, i);
  uint32_t line = def_line(i) + 2;
  f->eff_off = (uint32_t)g->tu->effs.n;
  f->call_off = (uint32_t)g->tu->calls.n;

  /* The kind's own effects, capped at four. */
  switch (k) {
  case K_RESET:
    gen_effect(g, SE_WRITE_GLOBAL, SO_FILE_STATIC, 0, "s_state", line, 3);
    gen_effect(g, SE_WRITE_GLOBAL, SO_FILE_STATIC, 0, "s_name", line + 2, 3);
    break;
  case K_ARITH:
    if (rng_pct(r, 10)) gen_effect(g, SE_READ_CONST, SO_GLOBAL, 0, "g_table", line, 10);
    break;
  case K_LOOP:
    gen_effect(g, SE_READ_PARAM, 0, 0, "arr", line + 1, 12);
    break;
  case K_GREAD:
    gen_effect(g, SE_READ_CONST, SO_GLOBAL, 0, "g_table", line, 10);
    gen_effect(g, SE_READ_GLOBAL, SO_FILE_STATIC, 0, "s_state", line, 44);
    gen_effect(g, SE_READ_GLOBAL, SO_GLOBAL, 0, "g_config", line, 55);
    if (rng_pct(r, 50)) gen_effect(g, SE_READ_GLOBAL, SO_FILE_STATIC, 0, "s_hist", line + 1, 10);
    break;
  case K_GWRITE:
    gen_effect(g, SE_WRITE_GLOBAL, SO_FILE_STATIC, 0, "s_state", line, 3);
    gen_effect(g, SE_WRITE_GLOBAL, SO_FILE_STATIC, 0, "s_hist", line + 1, 3);
    gen_effect(g, SE_WRITE_GLOBAL, SO_GLOBAL, 0, "g_shared_counter", line + 2, 3);
    break;
  case K_LIBC:
    gen_effect(g, SE_READ_PARAM, 0, 0, "s", line, 22);
    break;
  case K_PTW:
    gen_effect(g, SE_WRITE_PARAM, 0, 0, "p", line, 6);
    gen_effect(g, SE_READ_PARAM, 0, 0, "p", line, 6);
    gen_effect(g, SE_WRITE_PARAM, 0, 0, "p", line + 1, 6);
    break;
  case K_PTR:
    gen_effect(g, SE_READ_PARAM, 0, 0, "p", line, 13);
    if (rng_pct(r, 50)) gen_effect(g, SE_READ_PARAM, 0, 0, "p", line, 25);
    break;
  case K_ALLOC:
    gen_effect(g, SE_WRITE_MEM, 0, 0, "v", line + 4, 5);
    gen_effect(g, SE_READ_MEM, 0, 0, "v", line + 5, 9);
    break;
  case K_SCAN:
    gen_effect(g, SE_READ_PARAM, 0, 0, "s", line, 10);
    gen_effect(g, SE_LOOP, 0, 0, NULL, line, 3);
    if (rng_pct(r, 30)) gen_effect(g, SE_READ_PARAM, 0, 0, "s", line + 1, 10);
    break;
  default: break;
  }

  /* Library calls of the kinds that make them. */
  uint64_t args[4];
  uint32_t cl = line + 6;
  if (k == K_LIBC) {
    args[0] = prov_param(0);
    gen_call(g, g->lib[LIB_STRLEN], args, 1, cl++, 16);
    args[0] = PROV_LOCAL; args[1] = prov_param(0); args[2] = 0;
    gen_call(g, g->lib[LIB_MEMCPY], args, 3, cl++, 3);
    args[0] = PROV_RODATA; args[1] = PROV_LOCAL; args[2] = 0;
    gen_call(g, g->lib[LIB_PRINTF], args, 3, cl++, 5);
  } else if (k == K_ALLOC) {
    args[0] = 0;
    gen_call(g, g->lib[LIB_MALLOC], args, 1, cl++, 12);
    args[0] = PROV_UNKNOWN;
    gen_call(g, g->lib[LIB_FREE], args, 1, cl++, 3);
  } else if (k == K_REC) {
    args[0] = 0;
    gen_call(g, g->local0 + i, args, 1, cl++, 19);   /* itself */
  }

  /* Calls to the project's functions: 1–5, layered like gen_project's. */
  if (i > 0) {
    int level = kind_level(k);
    unsigned want = 1 + rng_below(r, 5);
    for (unsigned c = 0; c < want; c++) {
      while (*oldest_uncalled < i && (called[*oldest_uncalled] || is_exported(*oldest_uncalled)))
        (*oldest_uncalled)++;
      uint32_t callee = UINT32_MAX;
      kind ck = K_ARITH;
      if (c == 0 && *oldest_uncalled < i && kind_level(kind_of(seed, g->t, *oldest_uncalled)) <= level) {
        callee = g->local0 + *oldest_uncalled;
        ck = kind_of(seed, g->t, *oldest_uncalled);
      }
      for (int tries = 0; tries < 8 && callee == UINT32_MAX; tries++) {
        unsigned ti = 0, ci;
        if (g->nimports && g->per_tu > 3 && rng_pct(r, 12)) {
          unsigned m = rng_below(r, g->nimports);
          unsigned nexp = (g->per_tu + 2) / 3;
          unsigned slot = 1 + rng_below(r, nexp - 1);   /* never the reset function */
          ti = g->imports[m];
          ci = 3 * slot;
          if (kind_level(kind_of(seed, ti, ci)) > level) continue;
          callee = g->import0[m] + slot;
          ck = kind_of(seed, ti, ci);
          continue;
        }
        if (i + 1 < g->nf && rng_pct(r, 2)) {
          ci = i + 1 + rng_below(r, g->nf - i - 1);        /* forward: may close a cycle */
        } else {
          unsigned back = 1 + (rng_pct(r, 70) ? rng_below(r, 8) : rng_below(r, i));
          ci = back <= i ? i - back : 0;
        }
        if (ci == i || kind_level(kind_of(seed, g->t, ci)) > level) continue;
        callee = g->local0 + ci;
        ck = kind_of(seed, g->t, ci);
      }
      if (callee == UINT32_MAX) continue;
      if (callee >= g->local0 && callee < g->local0 + g->nf) called[callee - g->local0] = 1;
      unsigned n = gen_args(ck, k, args, r);
      gen_call(g, callee, args, n, cl++, 9);
    }
  }
  if (rng_pct(r, 15)) {
    args[0] = args[1] = args[2] = 0;
    gen_call(g, g->inl[0], args, 3, cl++, 9);
  }
  f = &g->tu->funcs.v[g->local0 + i];
  f->neff = (uint32_t)g->tu->effs.n - f->eff_off;
  f->ncall = (uint32_t)g->tu->calls.n - f->call_off;
}

/* The header's inline functions: the same body in every TU. */
static void gen_inline_bodies(gen_tu *g)
{
  sum_func *f = &g->tu->funcs.v[g->inl[0]];
  f->eff_off = (uint32_t)g->tu->effs.n; f->neff = 0;
  f->call_off = (uint32_t)g->tu->calls.n; f->ncall = 0;
  f = &g->tu->funcs.v[g->inl[1]];
  f->eff_off = (uint32_t)g->tu->effs.n;
  sum_effect e1 = { .kind = SE_READ_PARAM, .name = gen_str(g, "s"), .loc = gen_loc(g->common, 28, 21) };
  sum_effect e2 = { .kind = SE_LOOP, .loc = gen_loc(g->common, 28, 3) };
  vec_push(&g->tu->effs, e1);
  vec_push(&g->tu->effs, e2);
  f->neff = 2;
  f->call_off = (uint32_t)g->tu->calls.n; f->ncall = 0;
}

typedef struct { unsigned long funcs, effs, calls, decls; } totals;

static sum_tu *gen_tu_make(unsigned t, unsigned ntu, unsigned nf, unsigned per_tu, uint64_t seed, totals *tot)
{
  gen_tu g;
  memset(&g, 0, sizeof g);
  g.tu = summary_new();
  g.t = t;
  g.nf = nf;
  g.per_tu = per_tu;
  rng r = { seed ^ ((uint64_t)(t + 1) * 0xD1B54A32D192ED03ull) };
  unsigned want = ntu > 1 ? 2 + rng_below(&r, 3) : 0;
  for (unsigned m = 0; m < want; m++) {
    unsigned o = rng_below(&r, ntu - 1);
    o = o >= t ? o + 1 : o;
    int dup = 0;
    for (unsigned q = 0; q < g.nimports; q++) dup |= g.imports[q] == o;
    if (!dup) g.imports[g.nimports++] = o;
  }
  gen_functions(&g, seed);
  /* Bodies in definition order, then the inline helpers'. */
  unsigned char *called = calloc(nf + 1, 1);
  if (!called) { perror("bench_gen_summaries"); exit(1); }
  unsigned oldest = 1;
  for (unsigned i = 0; i < nf; i++) gen_body(&g, i, seed, &r, &oldest, called);
  free(called);
  gen_inline_bodies(&g);
  /* Every function without a body gets an empty run at the end. */
  for (size_t i = 0; i < g.tu->funcs.n; i++) {
    sum_func *f = &g.tu->funcs.v[i];
    if (!(f->flags & SFF_BODY)) {
      f->eff_off = (uint32_t)g.tu->effs.n; f->neff = 0;
      f->call_off = (uint32_t)g.tu->calls.n; f->ncall = 0;
    }
  }
  tot->funcs += nf;
  tot->effs += g.tu->effs.n;
  tot->calls += g.tu->calls.n;
  tot->decls += g.tu->decls.n;
  return g.tu;
}

/* The format wants each function's effects and calls in function order:
 * bodies were generated in that order, but the inline helpers and the
 * bodiless functions sit in between. Reorders the runs to match. */
static void gen_tu_normalise(sum_tu *tu)
{
  VEC(sum_effect) effs = {0};
  VEC(sum_call) calls = {0};
  for (size_t i = 0; i < tu->funcs.n; i++) {
    sum_func *f = &tu->funcs.v[i];
    uint32_t eo = (uint32_t)effs.n, co = (uint32_t)calls.n;
    for (uint32_t e = 0; e < f->neff; e++) vec_push(&effs, tu->effs.v[f->eff_off + e]);
    for (uint32_t c = 0; c < f->ncall; c++) vec_push(&calls, tu->calls.v[f->call_off + c]);
    f->eff_off = eo;
    f->call_off = co;
  }
  vec_free(&tu->effs);
  vec_free(&tu->calls);
  tu->effs.v = effs.v; tu->effs.n = effs.n; tu->effs.cap = effs.cap;
  tu->calls.v = calls.v; tu->calls.n = calls.n; tu->calls.cap = calls.cap;
}

static unsigned long parse_num(const char *s, const char *what)
{
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || *end || end == s) {
    fprintf(stderr, "bench_gen_summaries: %s: not a number: %s\n", what, s);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv)
{
  if (argc != 5) {
    fprintf(stderr, "usage: bench_gen_summaries OUT.purist NFUNCS NTU SEED\n");
    return 2;
  }
  unsigned long nfuncs = parse_num(argv[2], "NFUNCS"), ntu = parse_num(argv[3], "NTU");
  uint64_t seed = parse_num(argv[4], "SEED");
  if (ntu < 1 || ntu > 1000000 || nfuncs < ntu || nfuncs / ntu > 1000000) {
    fprintf(stderr, "bench_gen_summaries: need 1 <= NTU <= NFUNCS\n");
    return 2;
  }
  FILE *out = fopen(argv[1], "wb");
  if (!out) { fprintf(stderr, "bench_gen_summaries: %s: %s\n", argv[1], strerror(errno)); return 1; }
  unsigned per_tu = (unsigned)(nfuncs / ntu);
  totals tot = {0};
  for (unsigned t = 0; t < ntu; t++) {
    /* The first nfuncs % ntu TUs take one function more; imports assume
     * per_tu, which every TU has at least. */
    unsigned nf = per_tu + (t < nfuncs % ntu ? 1 : 0);
    sum_tu *tu = gen_tu_make(t, (unsigned)ntu, nf, per_tu, seed, &tot);
    gen_tu_normalise(tu);
    if (summary_write(tu, out) != 0) {
      fprintf(stderr, "bench_gen_summaries: %s: %s\n", argv[1], strerror(errno));
      return 1;
    }
    summary_free(tu);
  }
  long bytes = ftell(out);
  if (fclose(out) != 0) { perror(argv[1]); return 1; }
  printf("%s: %lu TUs, %lu function definitions, %lu effects, %lu calls, %lu declarations, %ld bytes\n",
         argv[1], ntu, tot.funcs, tot.effs, tot.calls, tot.decls, bytes);
  return 0;
}
