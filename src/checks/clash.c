/* clash.c — does a stretch of code write what a pure call reads? (clash.h)
 *
 * Every function gets two footprints, computed once bottom-up over the
 * call graph's components (a component shares one: sound, a little wide):
 * what it reads and what it writes apart from through its parameters —
 * named globals, memory through pointers it loads ("mem"), the C
 * library's own state ("lib"), or anything ("any": unknown code, asm with
 * a memory clobber, atomics, calls through pointers). Effects through
 * parameters are mapped at each call through the arguments' provenance,
 * as the solve does. A call site is then judged by pairing each write of
 * the stretch with what the callee reads; the worst pair decides. */
#include "checks/clash.h"
#include "link/scc.h"
#include "report/reason.h"
#include <stdlib.h>
#include <string.h>

enum { CLASH_MAX_GLOB = 128, CLASH_MAX_COND = 3 };

typedef struct {
  uint8_t any, mem, lib, all_glob;
  VEC(uint64_t) glob;   /* object keys (link_obj_key), sorted, distinct */
} clash_fp;

struct clash_ctx {
  const link_prog *p;
  bool whole;            /* the program is all there is: its globals' addresses are all seen */
  bool ready;
  clash_fp *rd, *wr;     /* per function */
  ptrmap escaped;        /* object keys whose address is taken somewhere */
  ptrmap async;          /* object keys written by a function called only through a
                            pointer → 1 + that function */
};

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* ---- footprints ---- */

static bool fp_has(const clash_fp *f, uint64_t key)
{
  size_t lo = 0, hi = f->glob.n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (f->glob.v[mid] == key) return true;
    if (f->glob.v[mid] < key) lo = mid + 1; else hi = mid;
  }
  return false;
}

static void fp_add_key(clash_fp *f, uint64_t key)
{
  if (f->all_glob || fp_has(f, key)) return;
  if (f->glob.n >= CLASH_MAX_GLOB) { f->all_glob = 1; return; }
  vec_push(&f->glob, key);
  size_t i = f->glob.n - 1;
  for (; i > 0 && f->glob.v[i - 1] > key; i--) f->glob.v[i] = f->glob.v[i - 1];
  f->glob.v[i] = key;
}

static void fp_join(clash_fp *into, const clash_fp *f)
{
  into->any |= f->any;
  into->mem |= f->mem;
  into->lib |= f->lib;
  into->all_glob |= f->all_glob;
  for (size_t i = 0; i < f->glob.n; i++) fp_add_key(into, f->glob.v[i]);
}

/* What one effect of function fi adds to its read (wr false) or write
 * footprint. A write on a path that ends in a noreturn call never reaches
 * a caller that goes on: for the read side it is a read (solve.c). */
static void fp_effect(clash_fp *f, uint32_t fi, const sum_effect *e, bool wr)
{
  bool doomed = e->flags & SEF_DOOMED;
  switch ((sum_effect_kind)e->kind) {
  case SE_READ_GLOBAL:
    if (wr) return;
    /* fall through */
  case SE_WRITE_GLOBAL:
    if (wr && (e->kind != SE_WRITE_GLOBAL || doomed)) return;
    fp_add_key(f, link_obj_key(fi, e));
    if (e->flags & SEF_SYSTEM_OBJ) f->lib = 1;
    return;
  case SE_READ_MEM:
    if (!wr) f->mem = 1;
    return;
  case SE_WRITE_MEM:
    if (!(wr && doomed)) f->mem = 1;
    return;
  case SE_VOLATILE:
    /* Read or write, unsaid: a pure callee reads no volatile object, but
     * the object may be reached through a plain pointer too. */
    if (!(wr && doomed)) f->mem = 1;
    return;
  case SE_ASM:
    if ((e->param == SA_ASM_MEMORY || e->param == SA_ASM_UNREAD) && !(wr && doomed)) f->any = 1;
    return;
  case SE_ATOMIC: case SE_CALL_INDIRECT:
    if (!(wr && doomed)) f->any = 1;
    return;
  default:
    return;
  }
}

/* What calling g does through its parameters (bits) and on its own
 * (*own, for a function without a usable body; the caller joins a body's
 * footprint itself). */
static uint64_t fp_callee(const link_prog *p, const link_func *g, bool wr, clash_fp *own)
{
  if (link_has_body(g)) return wr ? g->st.pw : g->st.pr;
  const kb_entry *e = link_kb_entry(p, g);
  if (e) {
    if (e->callbacks) own->any = 1;
    if (wr ? (e->cls == PURITY_NORMAL || e->math_errno) : e->cls == PURITY_PURE) own->lib = 1;
    if (wr) return e->writes_all ? ~(uint64_t)0 : e->writes;
    return e->reads_all ? ~(uint64_t)0 : e->reads;
  }
  bool is_const = (g->declared & SUM_DECL_CONST) || (g->flags & SFF_BUILTIN_CONST);
  bool is_pure = (g->declared & SUM_DECL_PURE) || (g->flags & SFF_BUILTIN_PURE);
  if (is_const || (wr && is_pure)) return 0;
  own->any = 1;   /* an unknown body; or a pure one reading who knows what */
  return 0;
}

/* The parameters `bits` of a call's callee, seen through the call's
 * arguments: the provenance of each argument they reach. */
static uint64_t fp_args(const link_prog *p, const link_call *c, uint64_t bits)
{
  uint64_t m = 0;
  for (; bits; bits &= bits - 1) {
    unsigned i = (unsigned)__builtin_ctzll(bits);
    if (i < c->nargs) m |= p->argmasks.v[c->arg_off + i];
    else if (bits != ~(uint64_t)0 >> i << i) m |= PROV_UNKNOWN;   /* named but not passed */
    else break;                                                  /* r* / w*: the rest are not passed */
  }
  return m;
}

static void fp_call(const clash_ctx *x, clash_fp *f, const link_call *c, bool wr)
{
  const link_prog *p = x->p;
  if (wr && (c->flags & (SCF_DOOMED | SCF_NORETURN))) return;
  const link_func *g = &p->funcs.v[c->callee];
  if (link_has_body(g)) fp_join(f, wr ? &x->wr[c->callee] : &x->rd[c->callee]);
  uint64_t m = fp_args(p, c, fp_callee(p, g, wr, f));
  if (m & PROV_ANYWHERE) f->mem = 1;
}

static void fp_component(clash_ctx *x, const uint32_t *m, uint32_t n)
{
  const link_prog *p = x->p;
  for (int wr = 0; wr < 2; wr++) {
    clash_fp all = { 0 };
    for (uint32_t k = 0; k < n; k++) {
      const link_func *f = &p->funcs.v[m[k]];
      for (uint32_t i = 0; i < f->neff; i++) fp_effect(&all, m[k], &p->effs.v[f->eff_off + i], wr);
      for (uint32_t i = 0; i < f->ncall; i++) {
        const link_call *c = &p->calls.v[f->call_off + i];
        bool inside = false;
        for (uint32_t j = 0; j < n && !inside; j++) inside = c->callee == m[j];
        if (inside) continue;   /* the component's union covers it */
        fp_call(x, &all, c, wr);
      }
    }
    /* A system header's inline body (glibc's feof_unlocked, getc_unlocked)
     * reads the library's own objects through the pointers it is given (a
     * FILE): what the library's normal functions write (fread). Without
     * this, `while (!feof_unlocked(fp)) fread(…, fp);` was told to
     * "compute it once before the loop" (found on sed). */
    for (uint32_t k = 0; k < n && !wr; k++) {
      const link_func *f = &p->funcs.v[m[k]];
      if ((f->flags & SFF_SYSTEM) && (f->st.pr || all.mem)) all.lib = 1;
    }
    clash_fp *dst = wr ? x->wr : x->rd;
    for (uint32_t k = 0; k < n; k++) fp_join(&dst[m[k]], &all);
    vec_free(&all.glob);
  }
}

/* Globals written by functions nobody calls directly: a signal handler
 * (wavpack's int_handler sets break_flag, which check_break() reads in
 * the encoding loop) or a callback may run between any two statements,
 * so a call reading what they write is never "computed once". A static
 * function, or any in a whole program, with no direct caller is taken to
 * be one; an external function of a library is the library's API. */
static void clash_mark_async(clash_ctx *x)
{
  const link_prog *p = x->p;
  uint8_t *called = xcalloc(p->funcs.n ? p->funcs.n : 1, 1);
  for (size_t i = 0; i < p->calls.n; i++)
    if (!(p->calls.v[i].flags & SCF_TABLE)) called[p->calls.v[i].callee] = 1;
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (called[fi] || !link_has_body(f) || (f->flags & (SFF_SYSTEM | SFF_SLOT))) continue;
    if (!strcmp(S(p, f->name), "main")) continue;   /* each program's own (a database holds several) */
    if (f->linkage != SUM_INTERNAL && !x->whole) continue;
    for (size_t k = 0; k < x->wr[fi].glob.n; k++)
      if (!ptrmap_get(&x->async, x->wr[fi].glob.v[k])) ptrmap_put(&x->async, x->wr[fi].glob.v[k], fi + 1);
  }
  free(called);
}

static void clash_prepare(clash_ctx *x)
{
  const link_prog *p = x->p;
  x->ready = true;
  scc_result scc;
  scc_compute(p, &scc);
  for (size_t c = 0; c + 1 < scc.start.n; c++)
    fp_component(x, scc.members.v + scc.start.v[c], scc.start.v[c + 1] - scc.start.v[c]);
  scc_free(&scc);
  clash_mark_async(x);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    for (uint32_t i = 0; i < f->neff; i++) {
      const sum_effect *e = &p->effs.v[f->eff_off + i];
      if (e->kind == SE_ADDR_GLOBAL) ptrmap_put(&x->escaped, link_obj_key(fi, e), 1);
    }
  }
}

clash_ctx *clash_new(const link_prog *p, const checks_opts *o)
{
  clash_ctx *x = xcalloc(1, sizeof *x);
  x->p = p;
  x->whole = checks_whole_program(p, o->whole_program);
  x->rd = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *x->rd);
  x->wr = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *x->wr);
  return x;
}

void clash_free(clash_ctx *x)
{
  if (!x) return;
  for (size_t i = 0; i < x->p->funcs.n; i++) {
    vec_free(&x->rd[i].glob);
    vec_free(&x->wr[i].glob);
  }
  free(x->rd);
  free(x->wr);
  ptrmap_free(&x->escaped);
  ptrmap_free(&x->async);
  free(x);
}

void clash_verdict_free(clash_verdict *v)
{
  sb_free(&v->cond);
}

/* ---- judging one call ---- */

/* What the call reads: its callee's footprint and, through the arguments,
 * the caller's parameters (params), pointers of unknown provenance (uarg),
 * the caller's locals (local); argmem: the argument expressions themselves
 * read memory. */
typedef struct {
  clash_fp fp;
  uint64_t params;
  bool uarg, local, argmem;
  const char *callee;
} clash_reads;

/* One write of the stretch. */
typedef enum { W_GLOBAL, W_PARAM, W_MEM, W_LIB, W_ANY } wkind;
typedef struct {
  wkind kind;
  uint64_t key;      /* W_GLOBAL */
  uint8_t obj;       /* W_GLOBAL: sum_obj_kind */
  unsigned param;    /* W_PARAM */
  uint32_t name;     /* the global, the parameter or the pointer; 0 if unnamed */
  int eff, call;     /* where it comes from */
} wr_one;

typedef struct {
  clash_ctx *x;
  const clash_reads *r;
  clash_verdict *out;
  uint32_t conds[CLASH_MAX_COND];
  unsigned ncond;
  uint16_t skip_eff, skip_call;   /* SEF_LEAVES, SEF_DOOMED / SCF_…: on no path between the two calls */
} judge;

static bool key_escapes(const clash_ctx *x, uint64_t key, uint8_t obj)
{
  if (ptrmap_get(&x->escaped, key)) return true;
  /* In a library, a client may take the address of an external global. */
  return !x->whole && (obj == SO_GLOBAL || obj == SO_THREAD_LOCAL);
}

/* Does the callee read an escaping global (one a pointer may point into)? */
static bool reads_escaping(const clash_ctx *x, const clash_reads *r)
{
  if (r->fp.all_glob) return true;
  for (size_t i = 0; i < r->fp.glob.n; i++) {
    uint64_t key = r->fp.glob.v[i];
    if (ptrmap_get(&x->escaped, key)) return true;
    /* The key does not say whether the object is external: scope 0 is. */
    if (!x->whole && ((key - 1) >> 32) == 0) return true;
  }
  return false;
}

static clash_level level_of(const judge *j, const wr_one *w)
{
  const clash_reads *r = j->r;
  if (r->fp.any) return CLASH_UNKNOWN;
  switch (w->kind) {
  case W_ANY:
    return CLASH_UNKNOWN;
  case W_LIB:
    /* The library writes its own state and what is passed to it (mapped
     * as parameters); only a callee reading library state may see it, or
     * arguments read from memory (optarg, which getopt sets: giflib's
     * strchr(optarg, ',') in the getopt loop). */
    return r->fp.lib || r->argmem ? CLASH_UNKNOWN : CLASH_NONE;
  case W_GLOBAL:
    if (r->fp.all_glob || fp_has(&r->fp, w->key)) return CLASH_SAME;
    if (!key_escapes(j->x, w->key, w->obj)) return r->argmem ? CLASH_UNKNOWN : CLASH_NONE;
    /* An argument of unknown provenance may be the global's very address. */
    if (r->argmem || r->uarg) return CLASH_UNKNOWN;
    return r->params || r->fp.mem ? CLASH_MAYBE : CLASH_NONE;
  case W_PARAM:
    if (r->params & ((uint64_t)1 << w->param)) return CLASH_SAME;
    if (r->argmem || r->uarg || r->fp.mem) return CLASH_UNKNOWN;
    if (r->params || reads_escaping(j->x, r)) return w->name ? CLASH_MAYBE : CLASH_UNKNOWN;
    return CLASH_NONE;
  case W_MEM:
    if (r->argmem || r->uarg || r->fp.mem || r->fp.lib) return CLASH_UNKNOWN;
    if (r->params || reads_escaping(j->x, r)) return w->name ? CLASH_MAYBE : CLASH_UNKNOWN;
    return CLASH_NONE;
  }
  return CLASH_UNKNOWN;
}

/* The condition a MAYBE write puts on the advice, by the name it carries. */
static void judge_cond(judge *j, const wr_one *w)
{
  for (unsigned i = 0; i < j->ncond; i++)
    if (j->conds[i] == w->name) return;
  if (j->ncond == CLASH_MAX_COND) {   /* too many to state: no advice */
    j->out->level = CLASH_UNKNOWN;
    return;
  }
  j->conds[j->ncond++] = w->name;
  const link_prog *p = j->x->p;
  strbuf *b = &j->out->cond;
  if (b->n) sb_puts(b, ", and ");
  if (w->kind == W_GLOBAL)
    sb_printf(b, "'%s' never reads '%s' through a pointer", j->r->callee, S(p, w->name));
  else
    sb_printf(b, "'%s' never points into what '%s' reads", S(p, w->name), j->r->callee);
}

static void judge_write(judge *j, const wr_one *w)
{
  if (j->out->level >= CLASH_SAME) return;
  clash_level l = level_of(j, w);
  if (l == CLASH_NONE) return;
  if (l == CLASH_MAYBE && j->out->level == CLASH_MAYBE) { judge_cond(j, w); return; }
  if (l <= j->out->level) return;
  j->out->level = l;
  j->out->eff = w->eff;
  j->out->call = w->call;
  if (l == CLASH_MAYBE) judge_cond(j, w);
}

static void judge_effect(judge *j, uint32_t fi, uint32_t ei)
{
  const sum_effect *e = &j->x->p->effs.v[ei];
  if (checks_effect_skipped(e, j->skip_eff)) return;   /* on no path between the two calls, or apart */
  wr_one w = { W_ANY, 0, 0, 0, e->name, (int)ei, -1 };
  switch ((sum_effect_kind)e->kind) {
  case SE_WRITE_GLOBAL:
    w.kind = (e->flags & SEF_SYSTEM_OBJ) ? W_LIB : W_GLOBAL;
    w.key = link_obj_key(fi, e);
    w.obj = e->obj;
    if (w.kind == W_LIB) { judge_write(j, &w); w.kind = W_GLOBAL; }
    break;
  case SE_WRITE_PARAM: w.kind = W_PARAM; w.param = e->param; break;
  case SE_WRITE_MEM: case SE_VOLATILE: w.kind = W_MEM; break;
  case SE_ASM:
    if (e->param != SA_ASM_MEMORY && e->param != SA_ASM_UNREAD) return;
    break;
  case SE_ATOMIC: case SE_CALL_INDIRECT: break;
  default: return;
  }
  judge_write(j, &w);
}

/* The name of f's parameter i, from an effect through it; 0 if none says. */
static uint32_t param_name(const link_prog *p, const link_func *f, unsigned i)
{
  for (uint32_t k = 0; k < f->neff; k++) {
    const sum_effect *e = &p->effs.v[f->eff_off + k];
    if ((e->kind == SE_READ_PARAM || e->kind == SE_WRITE_PARAM) && e->param == i && e->name) return e->name;
  }
  return 0;
}

static void judge_call(judge *j, const link_func *f, uint32_t ci)
{
  const link_prog *p = j->x->p;
  const link_call *c = &p->calls.v[ci];
  if (c->flags & (SCF_NORETURN | j->skip_call)) return;
  const link_func *g = &p->funcs.v[c->callee];
  if (checks_callee_class(p, g) != PURITY_NORMAL) return;   /* writes nothing */
  clash_fp own = { 0 };
  if (link_has_body(g)) fp_join(&own, &j->x->wr[c->callee]);
  uint64_t m = fp_args(p, c, fp_callee(p, g, true, &own));
  wr_one w = { W_ANY, 0, 0, 0, 0, -1, (int)ci };
  if (own.any) judge_write(j, &w);
  if (own.mem || (m & PROV_ANYWHERE)) { w.kind = W_MEM; judge_write(j, &w); }
  if (own.lib) { w.kind = W_LIB; judge_write(j, &w); }
  if (own.all_glob) { w.kind = W_ANY; judge_write(j, &w); }
  for (size_t i = 0; i < own.glob.n; i++) {
    w.kind = W_GLOBAL;
    w.key = own.glob.v[i];
    w.obj = ((w.key - 1) >> 32) == 0 ? SO_GLOBAL : SO_FILE_STATIC;
    w.name = (uint32_t)((w.key - 1) & 0xffffffffu);   /* the condition names it (link_obj_key) */
    judge_write(j, &w);
  }
  for (uint64_t b = m >> PROV_PARAM0; b; b &= b - 1) {
    w.kind = W_PARAM;
    w.param = (unsigned)__builtin_ctzll(b);
    w.name = param_name(p, f, w.param);
    judge_write(j, &w);
  }
  vec_free(&own.glob);
}

/* Does the callee read a global a handler or callback writes? */
static void judge_async(const clash_ctx *x, const clash_reads *r, clash_verdict *out)
{
  for (size_t i = 0; i < r->fp.glob.n; i++) {
    uint32_t *fn = ptrmap_get(&x->async, r->fp.glob.v[i]);
    if (!fn) continue;
    out->level = CLASH_UNKNOWN;
    out->async_fn = *fn;
    out->async_obj = (uint32_t)((r->fp.glob.v[i] - 1) & 0xffffffffu);
    return;
  }
}

/* What call c of f reads. */
static void reads_of(clash_ctx *x, const link_call *c, clash_reads *r)
{
  const link_prog *p = x->p;
  const link_func *g = &p->funcs.v[c->callee];
  memset(r, 0, sizeof *r);
  r->callee = S(p, g->name);
  if (link_has_body(g)) fp_join(&r->fp, &x->rd[c->callee]);
  uint64_t m = fp_args(p, c, fp_callee(p, g, false, &r->fp));
  r->params = m >> PROV_PARAM0;
  r->uarg = (m & PROV_ANYWHERE) != 0;
  r->local = m & PROV_LOCAL;
  r->argmem = c->flags & SCF_ARGS_READ_MEM;
}

void clash_judge(clash_ctx *x, const link_func *f, uint32_t ci, const cs_fact *fact, clash_verdict *out)
{
  const link_prog *p = x->p;
  memset(out, 0, sizeof *out);
  out->eff = out->call = -1;
  if (!x->ready) clash_prepare(x);
  const link_call *c = &p->calls.v[ci];
  clash_reads r;
  reads_of(x, c, &r);
  if (r.local) {
    out->level = CLASH_LOCAL;
    vec_free(&r.fp.glob);
    return;
  }
  uint32_t fi = (uint32_t)(f - p->funcs.v), rel = ci - f->call_off;
  uint32_t elo, ehi, clo, chi;
  if (fact->kind == CS_REDUNDANT) {
    elo = p->calls.v[fact->first_call].eff_pos;
    ehi = c->eff_pos;
    clo = fact->first_call - f->call_off + 1;
    chi = rel;
  } else {
    elo = c->loop_eff_lo; ehi = c->loop_eff_hi;
    clo = c->loop_call_lo; chi = c->loop_call_hi;
  }
  judge j = { x, &r, out, { 0 }, 0, 0, 0 };
  if (fact->kind == CS_REDUNDANT && !(c->flags & SCF_LEAVES)) {   /* as checks_callsite's span */
    j.skip_eff = SEF_LEAVES;
    j.skip_call = SCF_LEAVES;
  }
  if (!(c->flags & SCF_DOOMED)) {   /* the loop, or the way to the call, is left for good there */
    j.skip_eff |= SEF_DOOMED;
    j.skip_call |= SCF_DOOMED;
  }
  if (fact->fresh_apart) j.skip_eff |= SEF_SCRATCH;   /* as checks_callsite's span */
  /* The then-branch on no path between the two calls (as checks_callsite). */
  bool arm = fact->kind == CS_REDUNDANT && checks_arm_skips(c, fact->first_call - f->call_off);
  for (uint32_t i = elo; i < ehi && i < f->neff; i++)
    if (!arm || i < c->arm_eff_lo || i >= c->arm_eff_hi) judge_effect(&j, fi, f->eff_off + i);
  for (uint32_t i = clo; i < chi && i < f->ncall; i++)
    if (i != rel && (!arm || i < c->arm_call_lo || i >= c->arm_call_hi)) judge_call(&j, f, f->call_off + i);
  if (out->level <= CLASH_MAYBE) judge_async(x, &r, out);
  vec_free(&r.fp.glob);
}
