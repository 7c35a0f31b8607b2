/* noreturn.c — misuse-noreturn: declared pure/const functions with a path
 * that ends in a noreturn call (noreturn.h).
 *
 * The link already counts effects on such a path as reads (the caller
 * never sees the writes); what it cannot say is that the declared
 * attribute lets the compiler delete a call whose value is unused, and the
 * abort/exit on that path with it. That is reported here, as a warning, or
 * as a note when the only such path is a failed assertion (a debugging
 * check; under NDEBUG it is gone and so is the finding). */
#include "checks/noreturn.h"
#include "checks/precond.h"
#include "report/reason.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

void nr_ctx_init(nr_ctx *c, const link_prog *p)
{
  c->p = p;
  c->info = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *c->info);
  c->live = xcalloc(p->funcs.n ? p->funcs.n : 1, 1);
  c->live_barrier = xcalloc(p->funcs.n ? p->funcs.n : 1, 1);
  c->run = xcalloc(p->funcs.n ? p->funcs.n : 1, 1);
  c->live_math = NULL;   /* liveclass.c fills it when first asked */
  c->live_st = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *c->live_st);
  c->live_barrier_st = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *c->live_barrier_st);
  c->run_st = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *c->run_st);
  c->live_math_st = NULL;
  c->unused = NULL;   /* nr_value_used fills it when first asked */
  c->drop_call = c->drop_caller = NULL;
  c->comps = NULL;    /* liveclass.c computes them when first asked */
}

void nr_ctx_free(nr_ctx *c)
{
  free(c->info);
  free(c->live);
  free(c->live_barrier);
  free(c->run);
  free(c->live_math);
  free(c->live_st);
  free(c->live_barrier_st);
  free(c->run_st);
  free(c->live_math_st);
  free(c->unused);
  free(c->drop_call);
  free(c->drop_caller);
  nr_comps_free(c->comps);
}

/* A failed assert(), or GLib's g_assert()/g_assert_*() (its noreturn
 * g_assertion_message* functions; G_DISABLE_ASSERT removes them). */
static bool is_assert_fail(const char *name)
{
  return reason_is_assert_fail(name) || !strncmp(name, "g_assertion_message", 19);
}

/* A noreturn call made by an assertion macro of the project's own
 * (systemd's assert() → log_assert_failed, PulseAudio's pa_assert() →
 * abort): the outermost macro holding the call says "assert". */
static bool nr_assert_macro(const link_prog *p, const link_call *cl)
{
  if (!cl->macro) return false;
  return strcasestr(S(p, cl->macro), "assert") != NULL;
}

/* A noreturn function the knowledge base names as how a library fails a
 * documented precondition (GMP's __gmp_divide_by_zero: `contract`). Looked
 * up by name: GMP's own build analyses its body. */
static bool nr_contract(const link_prog *p, const link_func *g)
{
  const kb_entry *e = p->kb ? kb_lookup(p->kb, S(p, g->name)) : NULL;
  return e && e->contract;
}

/* A noreturn function whose name says it is an assertion failing
 * (systemd's log_assert_failed): its assertion macro may sit inside other
 * macros (strndupa_safe → alloca_safe → assert), and then the outermost
 * macro holding the call does not say "assert" (systemd's strv_env_get_n). */
static bool nr_assert_named(const char *name)
{
  return strcasestr(name, "assert") != NULL;
}

/* Is X the cache of f's memoisation: written (or its address handed on)
 * under the "already computed?" test of X itself? Work under that guard
 * runs on the first call only. */
static bool nr_cache_guard(const link_prog *p, const link_func *f, uint32_t x)
{
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (e->guard == x && e->name == x && !(e->flags & SEF_GUARD_TEST) &&
        (e->kind == SE_WRITE_GLOBAL || e->kind == SE_ADDR_GLOBAL))
      return true;
  }
  return false;
}

/* One function being worked on by the walk below: its index and the next
 * call to look at. The walk keeps its own stack: a call chain 100,000
 * deep must not overflow the thread's (issue 31 item 7). */
typedef struct { uint32_t fi, i; } nr_frame;
typedef VEC(nr_frame) nr_frames;

/* Starts fi's info: in progress, its endless loop if any. */
static void nr_info_begin(nr_ctx *c, uint32_t fi, nr_frames *st)
{
  nr_info *in = &c->info[fi];
  in->state = 1;
  in->call = in->acall = in->loop = in->pcall = -1;
  const link_func *f = &c->p->funcs.v[fi];
  for (uint32_t i = 0; i < f->neff && in->loop < 0; i++) {
    const sum_effect *e = &c->p->effs.v[f->eff_off + i];
    if (e->kind == SE_LOOP && (e->flags & SEF_ENDLESS)) in->loop = (int32_t)(f->eff_off + i);
  }
  nr_frame fr = { fi, 0 };
  vec_push(st, fr);
}

/* Does call i of fi lead into a function whose info must be worked out
 * first? Returns it, or UINT32_MAX. */
static uint32_t nr_info_needs(nr_ctx *c, uint32_t fi, uint32_t i)
{
  const link_func *f = &c->p->funcs.v[fi];
  const link_call *cl = &c->p->calls.v[f->call_off + i];
  if (cl->guard && nr_cache_guard(c->p, f, cl->guard)) return UINT32_MAX;
  if (cl->flags & SCF_NORETURN) return UINT32_MAX;
  const link_func *g = &c->p->funcs.v[cl->callee];
  return link_has_body(g) && cl->callee != fi && !c->info[cl->callee].state ? cl->callee : UINT32_MAX;
}

/* Takes call i of fi into fi's info (its callee's info is known, or in a
 * cycle: what is known so far). */
static void nr_info_call(nr_ctx *c, uint32_t fi, uint32_t i)
{
  nr_info *in = &c->info[fi];
  const link_func *f = &c->p->funcs.v[fi];
  const link_call *cl = &c->p->calls.v[f->call_off + i];
  const link_func *g = &c->p->funcs.v[cl->callee];
  bool dies = false, asserts = false;
  /* A memo's first-call work, and its once-guard's slow path (taken
   * only until the cache is filled): the cheat note speaks for them. */
  if (cl->guard && nr_cache_guard(c->p, f, cl->guard)) return;
  if (g->flags & SFF_UNREACHABLE) return;   /* a promise, not a way out */
  if (link_guard_call(c->p, cl)) {   /* logs, may abort under G_DEBUG=fatal-criticals: a note says so */
    if (in->pcall < 0) in->pcall = (int32_t)(f->call_off + i);
    return;
  }
  if (cl->flags & SCF_NORETURN) {
    asserts = is_assert_fail(S(c->p, g->name)) || nr_assert_named(S(c->p, g->name)) ||
              (cl->flags & SCF_IMPOSSIBLE) ||   /* default: of a switch over every enumerator */
              nr_contract(c->p, g);
    dies = !asserts;
  } else if (link_has_body(g) && cl->callee != fi) {
    const nr_info *gi = &c->info[cl->callee];
    dies = gi->call >= 0 || gi->loop >= 0;
    asserts = gi->acall >= 0;
    if (gi->pcall >= 0 && in->pcall < 0) in->pcall = (int32_t)(f->call_off + i);
  }
  /* Anything that ends a path inside an assertion macro (the message
   * pa_assert logs, then its abort) is that assertion failing. */
  if (dies && nr_assert_macro(c->p, cl)) { dies = false; asserts = true; }
  if (dies && in->call < 0) in->call = (int32_t)(f->call_off + i);
  if (asserts && in->acall < 0) in->acall = (int32_t)(f->call_off + i);
}

const nr_info *nr_info_of(nr_ctx *c, uint32_t fi)
{
  if (c->info[fi].state) return &c->info[fi];   /* known, or in a cycle: what is known so far */
  nr_frames st = {0};
  nr_info_begin(c, fi, &st);
  while (st.n) {
    nr_frame *fr = &st.v[st.n - 1];
    if (fr->i == c->p->funcs.v[fr->fi].ncall) {
      c->info[fr->fi].state = 2;
      st.n--;
      continue;
    }
    uint32_t g = nr_info_needs(c, fr->fi, fr->i);
    if (g != UINT32_MAX) {   /* the callee first; this call again after */
      nr_info_begin(c, g, &st);
      continue;
    }
    nr_info_call(c, fr->fi, fr->i);
    fr->i++;
  }
  vec_free(&st);
  return &c->info[fi];
}

/* "loops forever (x.c:7:3, in expansion of macro 'fatal')", for the
 * endless loop effect li. */
static void nr_loop_words(nr_ctx *c, const checks_opts *o, int32_t li, bool which, strbuf *msg, diag *d)
{
  const link_prog *p = c->p;
  const sum_effect *e = &p->effs.v[li];
  sb_printf(msg, "%sloops forever (", which ? ", which " : "");
  reason_path(msg, p, e->loc.file, o->root);
  sb_printf(msg, ":%u:%u", e->loc.line, e->loc.col);
  reason_macro(msg, p, e->macro);
  sb_puts(msg, ")");
  if (d) checks_related(d, p, o, e->loc, "no path leaves this loop");
}

/* "calls 'check' (x.c:20:3), which calls 'die' (x.c:12:5)": from f's
 * dying call down to the noreturn call or endless loop, one related note
 * per step. */
static void nr_chain(nr_ctx *c, const checks_opts *o, const nr_info *in, bool assert_path, strbuf *msg, diag *d)
{
  const link_prog *p = c->p;
  int32_t ci = assert_path ? in->acall : in->call;
  for (int steps = 0; steps < 16; steps++) {
    /* The shortest story: a loop of the function's own before a call
     * that only may end somewhere deeper (GLib's g_type_ensure loops after
     * its g_log, whose g_vasprintf may g_error). */
    bool own_loop = !assert_path && in->loop >= 0 && (ci < 0 || !(p->calls.v[ci].flags & SCF_NORETURN));
    if (own_loop) nr_loop_words(c, o, in->loop, steps > 0, msg, d);
    if (own_loop || ci < 0) return;
    const link_call *cl = &p->calls.v[ci];
    sb_puts(msg, steps ? ", which calls " : "calls ");
    reason_callee(msg, p, cl, true);   /* what the user wrote: a macro, not its library internal */
    sb_puts(msg, " (");
    reason_path(msg, p, cl->loc.file, o->root);
    sb_printf(msg, ":%u:%u)", cl->loc.line, cl->loc.col);
    if (d) {
      strbuf n = {0};
      reason_callee(&n, p, cl, true);
      sb_puts(&n, (cl->flags & SCF_NORETURN) ? " does not return" : " may not return");
      checks_related(d, p, o, cl->loc, sb_str(&n));
      sb_free(&n);
    }
    if (cl->flags & SCF_NORETURN) return;
    in = nr_info_of(c, cl->callee);
    ci = assert_path && in->acall >= 0 ? in->acall : in->call;
  }
}

/* Notes for what f does on the dying paths beyond its attribute: the
 * message to stderr before the abort. Three at most. */
static void nr_effects(nr_ctx *c, const checks_opts *o, const link_func *f, purity decl, diag *d)
{
  const link_prog *p = c->p;
  int shown = 0;
  for (uint32_t i = 0; i < f->neff && shown < 3; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (!(e->flags & SEF_DOOMED) || link_effect_class((sum_effect_kind)e->kind) <= decl) continue;
    const sum_effect *next = i + 1 < f->neff ? e + 1 : NULL;   /* `n++`: the write says it all */
    if (next && next->loc.line == e->loc.line && next->loc.col == e->loc.col && (next->flags & SEF_DOOMED) &&
        link_effect_class((sum_effect_kind)next->kind) > link_effect_class((sum_effect_kind)e->kind))
      continue;
    strbuf n = {0};
    sb_puts(&n, "on that path, before it ends: ");
    reason_effect_text(&n, p, e);
    checks_related(d, p, o, e->loc, sb_str(&n));
    sb_free(&n);
    shown++;
  }
  for (uint32_t i = 0; i < f->ncall && shown < 3; i++) {
    const link_call *cl = &p->calls.v[f->call_off + i];
    const link_func *g = &p->funcs.v[cl->callee];
    if ((cl->flags & (SCF_DOOMED | SCF_NORETURN)) != SCF_DOOMED || checks_callee_class(p, g) <= decl) continue;
    strbuf n = {0};
    sb_puts(&n, "on that path, before it ends: ");
    reason_call_text(&n, p, cl, o->root);
    checks_related(d, p, o, cl->loc, sb_str(&n));
    sb_free(&n);
    shown++;
  }
}

/* The noreturn function f's failed-assertion path ends in, or NULL. */
static const link_func *nr_assert_end(nr_ctx *c, const nr_info *in)
{
  const link_prog *p = c->p;
  int32_t ci = in->acall;
  for (int steps = 0; steps < 16 && ci >= 0; steps++) {
    const link_call *cl = &p->calls.v[ci];
    if (cl->flags & SCF_NORETURN) return &p->funcs.v[cl->callee];
    ci = nr_info_of(c, cl->callee)->acall;
  }
  return NULL;
}

/* What removes f's failed-assertion path: " (built with NDEBUG …)" only
 * when it ends in the standard assert's failure call (__assert_fail),
 * G_DISABLE_ASSERT for g_assert; nothing for a project's own macro that
 * aborts (FFmpeg's av_assert0 aborts whatever NDEBUG says). */
static const char *nr_assert_off(nr_ctx *c, const nr_info *in)
{
  const link_func *end = nr_assert_end(c, in);
  const char *g = end ? S(c->p, end->name) : "";
  if (reason_is_assert_fail(g)) return " (built with NDEBUG there is no such path)";
  if (!strncmp(g, "g_assertion_message", 19)) return " (built with G_DISABLE_ASSERT there is no such path)";
  return "";
}

/* Marks every function some call may drop the value of: a call whose
 * value is discarded or stored into a local never read, and a function
 * whose address is taken (a call through a pointer is not seen). */
static void nr_unused_collect(nr_ctx *c)
{
  const link_prog *p = c->p;
  size_t n = p->funcs.n ? p->funcs.n : 1;
  c->unused = xcalloc(n, 1);
  c->drop_call = xcalloc(n, sizeof *c->drop_call);
  c->drop_caller = xcalloc(n, sizeof *c->drop_caller);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    for (uint32_t i = 0; i < f->ncall; i++) {
      const link_call *cl = &p->calls.v[f->call_off + i];
      if (cl->use == SCU_USED) continue;
      c->unused[cl->callee] = 1;
      if (!c->drop_call[cl->callee]) {
        c->drop_call[cl->callee] = f->call_off + i + 1;
        c->drop_caller[cl->callee] = fi;
      }
    }
  }
  for (size_t i = 0; i < p->fstores.n; i++) {
    const sum_fstore *s = &p->fstores.v[i];
    if (sum_fstore_names_func(s)) c->unused[s->value] = 1;
  }
}

/* Does every call of fi use its value? Only then is no call deleted with
 * its check (a merged call still runs it once). Every call is in sight
 * when fi is static or the analysed code is the whole program. */
static bool nr_value_used(nr_ctx *c, const checks_opts *o, uint32_t fi)
{
  const link_func *f = &c->p->funcs.v[fi];
  if (f->linkage != SUM_INTERNAL && !link_is_whole_program(c->p, o->whole_program)) return false;
  if (!c->unused) nr_unused_collect(c);
  return !c->unused[fi];
}

/* "calls 'check_year' (d.c:9:3), which calls 'g_return_if_fail_warning'
 * (d.c:4:3, in expansion of macro 'g_return_val_if_fail')": from f's call
 * down to the guard's, one related note per step. Returns the guard's
 * call. */
static const link_call *nr_precond_chain(nr_ctx *c, const checks_opts *o, const nr_info *in, strbuf *msg,
                                         diag *d)
{
  const link_prog *p = c->p;
  const link_call *cl = NULL;
  for (int32_t ci = in->pcall, steps = 0; ci >= 0 && steps < 16; steps++) {
    cl = &p->calls.v[ci];
    sb_puts(msg, steps ? ", which calls " : "calls ");
    reason_callee(msg, p, cl, true);
    sb_puts(msg, " (");
    reason_path(msg, p, cl->loc.file, o->root);
    sb_printf(msg, ":%u:%u", cl->loc.line, cl->loc.col);
    uint32_t gm = link_guard_macro(p, cl);
    bool guard = gm != 0;
    if (guard) reason_macro(msg, p, cl->macro);
    if (guard && gm != cl->macro) sb_printf(msg, ", by its guard '%s'", S(p, gm));   /* a macro around the guard */
    sb_puts(msg, ")");
    checks_related(d, p, o, cl->loc, guard ? "the precondition check" : "leads to a precondition check");
    if (guard) break;
    ci = nr_info_of(c, cl->callee)->pcall;
  }
  return cl;
}

/* The note for f whose only effect beyond its attribute is a precondition
 * guard's message (precond.h). */
static void nr_emit_precond(nr_ctx *c, const checks_opts *o, const link_func *f, const nr_info *in, purity decl,
                            sum_loc at, diag_list *out)
{
  const link_prog *p = c->p;
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared %s and logs only when a caller breaks its precondition: ", S(p, f->name),
            purity_name(decl));
  diag *d = checks_emit(out, p, o, "misuse-precondition", DIAG_NOTE, at, f, "");
  const link_call *guard = nr_precond_chain(c, o, in, &msg, d);
  sb_puts(&msg, "; the compiler may delete a call whose value is unused, or merge two calls, and that "
                "message with it");
  if (guard) sb_puts(&msg, precond_off(p, guard));
  free(d->message);
  d->message = xstrdup(sb_str(&msg));
  sb_free(&msg);
}

/* "; a call whose value is unused (z.c:21:2) is deleted together with
 * that check", and when that call is in the file of fi's body, that GCC
 * may inline fi there first, which keeps the check: tzcode's `omul (r,
 * 4);`, called for its overflow check only, stays a check at GCC 12 -O2
 * (inlined) and goes with -fno-inline. */
static void nr_drop_words(nr_ctx *c, const checks_opts *o, uint32_t fi, strbuf *msg)
{
  const link_prog *p = c->p;
  const link_func *f = &p->funcs.v[fi];
  if (!c->unused) nr_unused_collect(c);
  uint32_t ci = c->drop_call[fi];
  sb_puts(msg, "; a call whose value is unused");
  if (!ci) {
    sb_puts(msg, " is deleted together with that check");
    return;
  }
  const link_call *cl = &p->calls.v[ci - 1];
  const link_func *caller = &p->funcs.v[c->drop_caller[fi]];
  sb_puts(msg, " (");
  reason_path(msg, p, cl->loc.file, o->root);
  sb_printf(msg, ":%u:%u, in '%s') is deleted together with that check", cl->loc.line, cl->loc.col,
            S(p, caller->name));
  if (f->tu && f->tu == caller->tu && !(f->flags & SFF_INTERPOSABLE))
    sb_printf(msg, " unless GCC inlines '%s' there first, which keeps the check (its body is in that "
                   "file; whether it does follows its size estimates)", S(p, f->name));
}

void nr_emit(nr_ctx *c, const checks_opts *o, uint32_t fi, purity decl, sum_loc at, diag_list *out)
{
  const link_prog *p = c->p;
  const link_func *f = &p->funcs.v[fi];
  const nr_info *in = nr_info_of(c, fi);
  if (in->call < 0 && in->acall < 0 && in->loop < 0) {
    if (in->pcall >= 0 && (purity)f->cls > decl) nr_emit_precond(c, o, f, in, decl, at, out);
    return;
  }
  bool assert_only = in->call < 0 && in->loop < 0;
  bool used = !assert_only && nr_value_used(c, o, fi);
  strbuf msg = {0};
  const link_func *end = assert_only ? nr_assert_end(c, in) : NULL;
  if (end && nr_contract(p, end))
    sb_printf(&msg, "'%s' is declared %s but its check of a documented precondition does not return (a usage "
                    "error, as a failed assertion is): ", S(p, f->name), purity_name(decl));
  else if (assert_only)
    sb_printf(&msg, "'%s' is declared %s but a failed assertion does not return: ", S(p, f->name), purity_name(decl));
  else sb_printf(&msg, "'%s' is declared %s but may not return: ", S(p, f->name), purity_name(decl));
  diag *d = checks_emit(out, p, o, "misuse-noreturn", assert_only || used ? DIAG_NOTE : DIAG_WARNING, at, f, "");
  nr_chain(c, o, in, assert_only, &msg, d);
  if (used) sb_puts(&msg, "; no call in the program drops its value, so none is deleted together with that "
                          "check (calls the compiler merges run it once)");
  else nr_drop_words(c, o, fi, &msg);
  if (assert_only) sb_puts(&msg, nr_assert_off(c, in));
  else if (!used) sb_puts(&msg, "; GCC counts a function that may not return as not pure: drop the attribute, or "
                     "move the check to the callers");
  nr_effects(c, o, f, decl, d);
  free(d->message);
  d->message = xstrdup(sb_str(&msg));
  sb_free(&msg);
}
