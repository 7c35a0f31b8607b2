/* verify_diag.c — what the runtime saw, as diagnostics at each function's
 * declaration (DESIGN.md §4 shape), one per function and check:
 *   verify-global-write      (error) wrote static storage, not as a cache;
 *   verify-cheat             (note)  wrote it on the first call(s) only: memoisation;
 *   verify-heap-write        (error) wrote the heap block a pointer argument points into;
 *   verify-global-read       (error) const, but read the program's writable data;
 *   verify-nondeterministic  (error) a second call with the same arguments returned
 *                                    something else;
 *   verify-syscall           (error) made a system call that breaks its promise (a
 *                                    const function any but allocation and locks; a
 *                                    pure one any but those and queries of the
 *                                    process's own settings, src/rt/rt_systab.c);
 *   verify-missing           (note)  watched, but in no program that ran;
 *   verify-allowed-c23       (note)  a [[unsequenced]]/[[reproducible]] function wrote
 *                                    through a pointer argument: the standard allows it.
 * C23 promises are checked as GNU ones (unsequenced as const, reproducible
 * as pure), with the standard's allowances (docs/c23-attributes.md). The
 * runtime cannot tell a read based on a parameter from a direct one, so an
 * unsequenced function reading writable data through its pointer argument
 * is reported as a read (the message says so).
 * A const function that memoises reads its cache too: reads of a symbol the
 * function also writes are part of that write's finding, not a second one. */
#include "verify/verify_internal.h"
#include "report/reason.h"
#include <string.h>

typedef struct {
  const link_prog *p;
  const checks_opts *o;
  diag_list *out;
  const vr_account *a;
} vd_ctx;

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* Where f (else any function) reads or writes the global `sym`; file 0 if
 * the summaries do not say (written through a pointer, in a library). */
static sum_loc vd_effect_loc(const link_prog *p, const link_func *f, sum_effect_kind k, const char *sym)
{
  for (int pass = 0; pass < 2; pass++) {
    size_t lo = pass ? 0 : f->eff_off, hi = pass ? p->effs.n : f->eff_off + f->neff;
    for (size_t i = lo; i < hi; i++)
      if (p->effs.v[i].kind == k && !strcmp(S(p, p->effs.v[i].name), sym)) return p->effs.v[i].loc;
  }
  return (sum_loc){ 0, 0, 0 };
}

/* "'name' is declared const but ", "… declared [[unsequenced]] but " */
static void vd_head(strbuf *m, const verify_fn *v)
{
  if (v->c23) {
    sb_printf(m, "'%s' is declared [[%s]] but ", v->name,
              v->c23 == SUM_DECL_UNSEQUENCED ? "unsequenced" : "reproducible");
    return;
  }
  sb_printf(m, "'%s' is %s %s but ", v->name, v->declared ? "declared" : "suggested", purity_name(v->cls));
}

/* The bit of the attribute v was declared with, for its location. */
static uint8_t vd_attr_bit(const verify_fn *v)
{
  if (v->c23) return v->c23;
  return v->cls == PURITY_CONST ? SUM_DECL_CONST : SUM_DECL_PURE;
}

static diag *vd_emit(const vd_ctx *x, const verify_fn *v, const char *check, diag_severity sev, const char *msg)
{
  const link_func *f = &x->p->funcs.v[v->fi];
  sum_loc at = f->loc;
  if (v->declared) at = checks_attr_loc(x->p, v->fi, vd_attr_bit(v));
  return checks_emit(x->out, x->p, x->o, check, sev, at, f, msg);
}

/* Appends "static 'x' (file:line:col)" for each finding in list, and a
 * related location for each that the summaries place. */
static void vd_symbols(const vd_ctx *x, const verify_fn *v, vr_finding *const *list, size_t n, strbuf *m,
                       sum_effect_kind k, sum_loc *locs)
{
  const link_func *f = &x->p->funcs.v[v->fi];
  for (size_t i = 0; i < n; i++) {
    const vr_finding *g = list[i];
    locs[i] = vd_effect_loc(x->p, f, k, g->sym);
    sb_printf(m, "%s%s '%s'", i == 0 ? "" : i + 1 == n ? " and " : ", ", g->is_static ? "static" : "global", g->sym);
    if (locs[i].file) {
      sb_puts(m, " (");
      reason_path(m, x->p, locs[i].file, x->o->root);
      sb_printf(m, ":%u:%u)", locs[i].line, locs[i].col);
    }
  }
}

static void vd_related(const vd_ctx *x, diag *d, vr_finding *const *list, size_t n, const sum_loc *locs, const char *verb)
{
  for (size_t i = 0; i < n; i++) {
    if (!locs[i].file) continue;
    char *msg = xasprintf("'%s' is %s here", list[i]->sym, verb);
    checks_related(d, x->p, x->o, locs[i], msg);
    free(msg);
  }
}

typedef VEC(vr_finding *) vd_list;

/* The findings of kind k for function fn, in report order. */
static void vd_collect(const vd_ctx *x, const char *fn, vr_kind k, vd_list *out)
{
  for (size_t i = 0; i < x->a->finds.n; i++) {
    vr_finding *f = &x->a->finds.v[i];
    if (f->kind == k && !strcmp(f->fn, fn)) vec_push(out, f);
  }
}

/* Static storage: violations first; memoisation only if that is all. */
static void vd_writes(const vd_ctx *x, const verify_fn *v)
{
  vd_list all = {0}, bad = {0}, memo = {0};
  vd_collect(x, v->name, VR_WRITE, &all);
  for (size_t i = 0; i < all.n; i++) {
    if (all.v[i]->every || (all.v[i]->single && !all.v[i]->memo)) vec_push(&bad, all.v[i]);
    else vec_push(&memo, all.v[i]);
  }
  vd_list *use = bad.n ? &bad : &memo;
  if (use->n) {
    strbuf m = {0};
    sum_loc *locs = xcalloc(use->n, sizeof *locs);
    const vr_finding *g = use->v[0];
    vd_head(&m, v);
    sb_puts(&m, "wrote ");
    vd_symbols(x, v, use->v, use->n, &m, SE_WRITE_GLOBAL, locs);
    if (bad.n && g->count >= g->checked && !g->single) sb_printf(&m, " on every checked call (%lu)", g->checked);
    else if (bad.n && g->count >= g->checked) sb_puts(&m, " on its only checked call");
    else if (bad.n) sb_printf(&m, " on %lu of %lu checked calls", g->count, g->checked);
    else if (g->count == 1) sb_puts(&m, " on its first call only \xe2\x80\x94 memoisation");
    else sb_printf(&m, " on its first %lu calls only \xe2\x80\x94 memoisation", g->count);
    /* C23: a memo is allowed in reproducible (an unobservable store), never
     * in unsequenced (stateless). */
    bool unseq = v->c23 == SUM_DECL_UNSEQUENCED;
    if (!bad.n && unseq) sb_puts(&m, "; unsequenced functions are stateless: even a private cache is state");
    if (!bad.n && v->c23 == SUM_DECL_REPRODUCIBLE) sb_puts(&m, "; C23 allows this in a reproducible function "
                                                               "while no caller can observe the cache");
    diag_severity sev = bad.n || unseq || x->o->cheats_as_errors ? DIAG_ERROR : DIAG_NOTE;
    diag *d = vd_emit(x, v, bad.n ? "verify-global-write" : unseq ? "verify-global-write" : "verify-cheat", sev, sb_str(&m));
    vd_related(x, d, use->v, use->n, locs, "written");
    free(locs);
    sb_free(&m);
  }
  vec_free(&all);
  vec_free(&bad);
  vec_free(&memo);
}

static bool vd_written(const vd_ctx *x, const char *fn, const char *sym)
{
  for (size_t i = 0; i < x->a->finds.n; i++) {
    const vr_finding *f = &x->a->finds.v[i];
    if (f->kind == VR_WRITE && !strcmp(f->fn, fn) && !strcmp(f->sym, sym)) return true;
  }
  return false;
}

static void vd_reads(const vd_ctx *x, const verify_fn *v)
{
  vd_list all = {0}, use = {0};
  vd_collect(x, v->name, VR_READ, &all);
  for (size_t i = 0; i < all.n; i++)
    if (!vd_written(x, v->name, all.v[i]->sym)) vec_push(&use, all.v[i]);
  if (use.n) {
    strbuf m = {0};
    sum_loc *locs = xcalloc(use.n, sizeof *locs);
    vd_head(&m, v);
    sb_puts(&m, "read ");
    vd_symbols(x, v, use.v, use.n, &m, SE_READ_GLOBAL, locs);
    if (v->c23 == SUM_DECL_UNSEQUENCED)
      sb_puts(&m, "; unsequenced functions are independent: writable data only through a pointer parameter "
                  "(the runtime cannot tell, so check that this read was not one)");
    diag *d = vd_emit(x, v, "verify-global-read", DIAG_ERROR, sb_str(&m));
    vd_related(x, d, use.v, use.n, locs, "read");
    free(locs);
    sb_free(&m);
  }
  vec_free(&all);
  vec_free(&use);
}

static void vd_heap(const vd_ctx *x, const verify_fn *v)
{
  vd_list all = {0};
  vd_collect(x, v->name, VR_HEAP, &all);
  if (all.n) {
    strbuf m = {0};
    vd_head(&m, v);
    sb_puts(&m, "wrote into the heap block");
    for (size_t i = 0; i < all.n; i++)
      sb_printf(&m, "%s argument %ld", i == 0 ? " its" : i + 1 == all.n ? " and" : ",", all.v[i]->arg + 1);
    sb_printf(&m, " points to (on %lu of %lu checked calls)", all.v[0]->count, all.v[0]->checked);
    if (v->c23) {   /* the standard's allowance: a store through a unique pointer parameter */
      sb_puts(&m, ": allowed for a C23 attribute (an effectless function may store through a unique "
                  "pointer parameter), provided the caller's pointer is the only way to that block");
      vd_emit(x, v, "verify-allowed-c23", DIAG_NOTE, sb_str(&m));
    } else {
      vd_emit(x, v, "verify-heap-write", DIAG_ERROR, sb_str(&m));
    }
    sb_free(&m);
  }
  vec_free(&all);
}

static void vd_nondet(const vd_ctx *x, const verify_fn *v)
{
  vd_list all = {0};
  vd_collect(x, v->name, VR_NONDET, &all);
  if (all.n) {
    strbuf m = {0};
    vd_head(&m, v);
    sb_printf(&m, "returned a different result when called again with the same arguments "
                  "(%lu of %lu re-executed calls)", all.v[0]->count, all.v[0]->checked);
    vd_emit(x, v, "verify-nondeterministic", DIAG_ERROR, sb_str(&m));
    sb_free(&m);
  }
  vec_free(&all);
}

/* System calls: those that break what the function promises (a pure
 * function may ask the process's own settings, getpid and the like). */
static void vd_syscalls(const vd_ctx *x, const verify_fn *v)
{
  vd_list all = {0}, use = {0};
  vd_collect(x, v->name, VR_SYSCALL, &all);
  bool is_const = v->c23 ? v->c23 == SUM_DECL_UNSEQUENCED : v->cls == PURITY_CONST;
  for (size_t i = 0; i < all.n; i++)
    if (is_const || all.v[i]->arg == 0) vec_push(&use, all.v[i]);
  if (use.n) {
    strbuf m = {0};
    vd_head(&m, v);
    sb_puts(&m, use.n == 1 ? "made the system call " : "made the system calls ");
    for (size_t i = 0; i < use.n; i++) {
      const vr_finding *g = use.v[i];
      char *line = g->site_obj ? verify_site_line(g->site_obj, g->site_addr, x->o->root) : NULL;
      sb_printf(&m, "%s%s%s (%lu of %lu checked calls%s%s)", i == 0 ? "" : i + 1 == use.n ? " and " : ", ",
                g->sym, g->vdso ? " through the vDSO" : "", g->count, g->checked, line ? ", called at " : "",
                line ? line : "");
      free(line);
    }
    vd_emit(x, v, "verify-syscall", DIAG_ERROR, sb_str(&m));
    sb_free(&m);
  }
  vec_free(&all);
  vec_free(&use);
}

static const vr_fn *vd_fn(const vr_account *a, const char *name)
{
  for (size_t i = 0; i < a->fns.n; i++)
    if (!strcmp(a->fns.v[i].name, name)) return &a->fns.v[i];
  return NULL;
}

int verify_report_read(const verify_session *s, const link_prog *p, const verify_watch *w,
                       const checks_opts *o, diag_list *out, verify_lines *notes, int *lost)
{
  vr_account a = {0};
  int n = vr_account_read(&a, s->reports);
  vd_ctx x = { p, o, out, &a };
  size_t called = 0;
  for (size_t i = 0; i < w->n; i++) {
    const verify_fn *v = &w->v[i];
    if (i && !strcmp(w->v[i - 1].name, v->name)) continue;   /* namesakes: one account */
    const vr_fn *f = vd_fn(&a, v->name);
    if (n > 0 && (!f || !f->found)) {
      char *msg = xasprintf("'%s' is watched but is in none of the %d programs that ran", v->name, n);
      vd_emit(&x, v, "verify-missing", DIAG_NOTE, msg);
      free(msg);
    }
    called += f && f->calls;
    vd_writes(&x, v);
    vd_reads(&x, v);
    vd_heap(&x, v);
    vd_nondet(&x, v);
    vd_syscalls(&x, v);
  }
  for (size_t i = 0; i < a.notes.n; i++) vec_push(notes, a.notes.v[i]);
  if (n == 0 && a.lost == 0)
    vec_push(notes, xstrdup("nothing was watched: no process loaded libpurist-rt: link the program with "
                            "the flags of `purist rt-flags --ldflags` (and compile it with --cflags)"));
  else
    vec_push(notes, xasprintf("%d process%s reported; %zu of %zu watched functions were called",
                              n, n == 1 ? "" : "es", called, w->n));
  *lost = (int)a.lost;
  vr_account_free(&a);
  return n;
}
