/* explain.c — what the compiler does with calls of pure and const functions.
 *
 * For each call of a callee that is pure or const (declared, known, or
 * inferred): a discarded value means the call is deleted; the same call
 * again, unchanged, means the calls are merged; a call with unchanging
 * arguments in a loop means it is hoisted — unless a store or an impure call
 * in between (in the loop) stops it, which is said with its location. Each
 * finding says whether the compiler does it today (the attribute is there,
 * the library is known, or the static body is visible) or would once the
 * callee is declared. */
#include "checks/checks.h"
#include "checks/clash.h"
#include "report/reason.h"
#include "report/diag_out.h"
#include "util/xalloc.h"
#include <string.h>
#include <stdlib.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* "today" or "once 'g' is declared pure": today where the compiler sees
 * g's body at f's call (the judgement suggest's gains use too). */
static void explain_when(strbuf *m, const link_prog *p, const link_func *f, const link_func *g, purity cls)
{
  purity known = checks_known_class(p, g);
  if (known <= cls) sb_puts(m, known == PURITY_NORMAL ? "" : " (it is declared so)");
  else if (checks_body_seen(p, f, g) && known != PURITY_NORMAL)
    sb_printf(m, " (declared %s, but its body, visible to the compiler here, is %s)", purity_name(known),
              purity_name(cls));
  else if (checks_body_seen(p, f, g))
    sb_puts(m, g->linkage == SUM_INTERNAL ? " (its static body is visible to the compiler)"
                                          : " (its body is visible to the compiler here)");
  else sb_printf(m, " once '%s' is declared %s", S(p, g->name), purity_name(cls));
}

/* Lines of g's definition, from its name to the end of the body, when at
 * most EXPLAIN_TINY_LINES; 0 otherwise. From the name, not the first
 * token: GNU style puts the return type on a line of its own (Emacs's
 * `INLINE struct Lisp_String *` above `XSTRING (Lisp_Object a)`), which
 * makes no body bigger. */
enum { EXPLAIN_TINY_LINES = 5, EXPLAIN_TINY_EFFS = 2, EXPLAIN_TINY_DEPTH = 8 };
static uint32_t explain_def_lines(const link_prog *p, const link_func *g)
{
  uint32_t n;
  const uint32_t *d = link_decls_of(p, (uint32_t)(g - p->funcs.v), &n);
  for (uint32_t k = 0; k < n; k++) {
    const sum_decl *x = &p->decls.v[d[k]];
    if (!x->is_def || x->end_line < x->beg_line) continue;
    uint32_t from = x->loc.line >= x->beg_line && x->loc.line <= x->end_line ? x->loc.line : x->beg_line;
    uint32_t lines = x->end_line - from + 1;
    return lines <= EXPLAIN_TINY_LINES ? lines : 0;
  }
  return 0;
}

/* The accesses of g's body and of the bodies it calls when the compiler
 * inlines all of them at f's call as a matter of course: each seen there,
 * returning, at most EXPLAIN_TINY_LINES lines, calling only such bodies
 * directly (at most depth deep); UINT32_MAX otherwise. Emacs's `XCAR (c)`
 * is `XCONS (c)->u.s.car` and XCONS a cast: GCC 12 -O2 loads the car once
 * across a store to a static bool, as it does for a getter without a call. */
static uint32_t explain_tiny_effs(const link_prog *p, const link_func *f, const link_func *g, int depth)
{
  if (g->st.mnr || g->npcall || !checks_body_seen(p, f, g) || !explain_def_lines(p, g)) return UINT32_MAX;
  uint32_t n = g->neff;
  for (uint32_t k = 0; k < g->ncall && n <= EXPLAIN_TINY_EFFS; k++) {
    const link_func *h = &p->funcs.v[p->calls.v[g->call_off + k].callee];
    uint32_t e = depth > 0 && h != g ? explain_tiny_effs(p, f, h, depth - 1) : UINT32_MAX;
    n = e == UINT32_MAX ? e : n + e;
  }
  return n;
}

/* Lines of g's body when it is one the compiler inlines at f's call as a
 * matter of course (explain_tiny_effs), its calls included, with at most
 * EXPLAIN_TINY_EFFS accesses in all; 0 otherwise. Merging or hoisting
 * such a "call" saves a load or two, not a call, and once inlined the
 * compiler's alias analysis often reuses the load by itself: tzcode's
 * `want_bloat (void) { return 0 <= bloat; }`, inlined at every call by
 * GCC 12 -O2, whose two calls around a store to another static array
 * share one load of `bloat`. */
static uint32_t explain_tiny(const link_prog *p, const link_func *f, const link_func *g)
{
  uint32_t n = explain_tiny_effs(p, f, g, EXPLAIN_TINY_DEPTH);
  return n <= EXPLAIN_TINY_EFFS ? explain_def_lines(p, g) : 0;
}

/* Advice about a tiny body the compiler inlines at f's call (explain_tiny)
 * is a note that says what reusing the value saves. */
static void explain_tiny_note(diag *d, strbuf *m, const link_prog *p, const link_func *f, const link_func *g)
{
  uint32_t lines = d ? explain_tiny(p, f, g) : 0;
  if (!lines) return;
  d->severity = DIAG_NOTE;
  if (g->ncall)
    sb_printf(m, "; '%s' is %u lines and calls only '%s'%s, as small, which the compiler inlines here with it",
              S(p, g->name), lines, S(p, p->funcs.v[p->calls.v[g->call_off].callee].name),
              g->ncall > 1 ? " and the like" : "");
  else
    sb_printf(m, "; '%s' is %u lines without a call, which the compiler inlines here", S(p, g->name), lines);
  sb_puts(m, ": it then judges the loads itself and reuses them unless the store may write what they read (a "
             "store to another named object does not), so at most a load is saved, not a call");
}

/* A finding at a call in a file the build generates (a Bison skeleton's
 * yyerror call, a gperf lookup) is nothing the reader can change there: a
 * note that says where the call comes from, not a warning. */
static void explain_generated(diag *d, const link_prog *p, const link_call *c)
{
  if (!d || !checks_file_generated(p, c->loc.file)) return;
  d->severity = DIAG_NOTE;
  char *m = xasprintf("%s; this file is generated by the build: the call comes from what generates it", d->message);
  free(d->message);
  d->message = m;
}

static void explain_blocker(strbuf *m, diag *d, const link_prog *p, const checks_opts *o, const cs_fact *f)
{
  if (f->blocker_eff >= 0) {
    const sum_effect *e = &p->effs.v[f->blocker_eff];
    strbuf what = {0};
    link_func tmp = { 0 };
    tmp.why.kind = WHY_EFFECT;
    tmp.why.index = (uint32_t)f->blocker_eff;
    reason_head(&what, p, &tmp, o->root);
    /* A call through a pointer or an asm statement is no store: name it so. */
    const char *noun = e->kind == SE_CALL_INDIRECT ? "call" : e->kind == SE_ASM ? "asm statement" : "store";
    sb_printf(m, "the %s (%s) at line %u", noun, sb_str(&what), e->loc.line);
    char *rel = xasprintf("this %s is in the way", noun);
    checks_related(d, p, o, e->loc, rel);
    free(rel);
    sb_free(&what);
  } else {
    const link_call *c = &p->calls.v[f->blocker_call];
    sb_puts(m, "the call to ");
    reason_callee(m, p, c, true);
    sb_printf(m, " at line %u, which may write memory,", c->loc.line);
    checks_related(d, p, o, c->loc, "this call is in the way");
  }
}

const char *checks_unused_words(unsigned use)
{
  switch (use) {
  case SCU_DISCARDED: return "discarded";
  case SCU_DEAD_STORE:
    return "only stored into a local that is written again or goes out of scope before anything "
           "reads it (the next statement continues the loop or returns)";
  default: return "only stored into a local that is never read";
  }
}

static void explain_dead(const link_prog *p, const checks_opts *o, const link_func *f, const link_call *c,
                         const link_func *g, purity cls, diag_list *out)
{
  strbuf m = {0};
  sb_printf(&m, "the value of this call to %s ", purity_name(cls));
  reason_callee(&m, p, c, true);   /* isalpha, not the __ctype_b_loc it expands to */
  sb_printf(&m, " is %s: the compiler deletes the call", checks_unused_words(c->use));
  explain_when(&m, p, f, g, cls);
  /* Removing the statement would remove what its arguments do as well. */
  if (c->flags & SCF_ARGS_SIDE) sb_puts(&m, "; what its arguments do (a call, an assignment, ++ or --) stays");
  explain_generated(checks_emit(out, p, o, "dead-call", DIAG_WARNING, c->loc, f, sb_str(&m)), p, c);
  sb_free(&m);
}

/* The store or call a verdict names: "the store (…) at line 21", "the
 * call to 'fill' at line 9". */
static void explain_writer(strbuf *m, diag *d, const link_prog *p, const checks_opts *o, const clash_verdict *v,
                           const cs_fact *f)
{
  cs_fact w = *f;
  if (v->eff >= 0 || v->call >= 0) { w.blocker_eff = v->eff; w.blocker_call = v->call; }
  if (w.blocker_eff >= 0 || w.blocker_call < 0) {
    explain_blocker(m, d, p, o, &w);
    return;
  }
  const link_call *c = &p->calls.v[w.blocker_call];
  sb_puts(m, "the call to ");
  reason_callee(m, p, c, true);
  sb_printf(m, " at line %u", c->loc.line);
  checks_related(d, p, o, c->loc, "this call is in the way");
}

/* "'check_break' reads 'break_flag', which 'on_int' writes, called only
 * through a pointer (a signal handler or a callback)". */
static void explain_async(strbuf *m, const link_prog *p, const link_func *g, const clash_verdict *v)
{
  sb_printf(m, "; '%s' reads '%s', which '%s' writes, called only through a pointer (a signal handler or a callback): "
            "it may change at any time", S(p, g->name), S(p, v->async_obj), S(p, p->funcs.v[v->async_fn - 1].name));
}

/* Were the callee declared const, the calls would merge (or leave the
 * loop) however much is stored in between: say so only when that is true
 * of the body, which the compiler does not see here (where it does, the
 * class explain_seen_class gives is const already). */
static void explain_if_const(strbuf *m, const link_prog *p, const link_func *g, const cs_fact *fact,
                             const char *gain)
{
  /* After a call that may not return, GCC hoists not even a const call. */
  if (fact->kind == CS_HOIST && fact->after_opaque) return;
  if (fact->blocked_for_pure && link_has_body(g) && g->cls == PURITY_CONST)
    sb_printf(m, "; once '%s' is declared const (its body is), the compiler %s", S(p, g->name), gain);
}

/* The class the compiler knows at f's call of g: the declared one, or the
 * class of g's body where the compiler sees it (GCC's ipa-pure-const makes
 * a function declared pure const when its visible body is). */
static purity explain_seen_class(const link_prog *p, const link_func *f, const link_func *g)
{
  purity cls = checks_callee_class(p, g);
  if (cls != PURITY_NORMAL && checks_body_seen(p, f, g) && (purity)g->cls < cls) cls = (purity)g->cls;
  return cls;
}

/* Do two calls of an internal function come from different macros
 * (isdigit(c) then isupper(c), both __ctype_b_loc())? Then "isupper is
 * called again" would be false: it is the expansion's call that repeats. */
static bool explain_other_macro(const link_prog *p, const link_call *c, const link_call *first)
{
  return c->macro && first->macro && c->macro != first->macro &&
         reason_is_internal(S(p, p->funcs.v[c->callee].name));
}

static void explain_redundant(const link_prog *p, const checks_opts *o, const link_func *f, const link_call *c,
                              const link_func *g, purity cls, const cs_fact *fact, const clash_verdict *v,
                              diag_list *out)
{
  const link_call *first = &p->calls.v[fact->first_call];
  bool advice = fact->blocked && v->level <= CLASH_MAYBE;
  strbuf m = {0};
  reason_callee(&m, p, c, true);   /* isalpha, not the __ctype_b_loc it expands to */
  /* Hoisted: the earlier call is on the other branch (never unblocked
   * otherwise: checks_callsite makes no such fact when a way is blocked). */
  if (fact->hoisted)
    sb_printf(&m, " is called with the same arguments at line %u, on the other way out of the if", first->loc.line);
  else if (explain_other_macro(p, c, first))
    sb_printf(&m, " calls it with the same arguments as '%s' did at line %u", S(p, first->macro), first->loc.line);
  else
    sb_printf(&m, " is called again with the same arguments as at line %u", first->loc.line);
  diag *d = checks_emit(out, p, o, "redundant-call", advice ? DIAG_WARNING : DIAG_NOTE, c->loc, f, "");
  checks_related(d, p, o, first->loc, fact->hoisted ? "the call on the other way" : "the first call");
  if (fact->hoisted) {
    sb_printf(&m, "; %s, the compiler computes it once before the if and merges the two calls", purity_name(cls));
    explain_when(&m, p, f, g, cls);
  } else if (!fact->blocked) {
    sb_printf(&m, "; %s, the compiler merges the two calls", purity_name(cls));
    explain_when(&m, p, f, g, cls);
  } else if (v->level == CLASH_NONE) {
    sb_puts(&m, "; ");
    explain_blocker(&m, d, p, o, fact);
    sb_printf(&m, " blocks the merge for a %s callee, but changes nothing '%s' reads: reuse the value of the first call",
              purity_name(cls), S(p, g->name));
    explain_if_const(&m, p, g, fact, "merges the two calls");
    explain_tiny_note(d, &m, p, f, g);
  } else if (v->level == CLASH_MAYBE) {
    sb_puts(&m, "; ");
    explain_writer(&m, d, p, o, v, fact);
    sb_printf(&m, " blocks the merge for a %s callee; if %s, reuse the value of the first call",
              purity_name(cls), sb_str(&v->cond));
    explain_if_const(&m, p, g, fact, "merges the two calls");
    explain_tiny_note(d, &m, p, f, g);
  } else if (v->async_fn) {
    explain_async(&m, p, g, v);
  } else {
    sb_puts(&m, "; ");
    explain_writer(&m, d, p, o, v, fact);
    sb_printf(&m, " may change what '%s' reads%s, so the compiler keeps both calls", S(p, g->name),
              (c->flags & SCF_ARGS_READ_MEM) ? " (its arguments read memory)" : "");
    explain_if_const(&m, p, g, fact, "merges the two calls");
  }
  free(d->message);
  d->message = xstrdup(sb_str(&m));
  explain_generated(d, p, c);
  sb_free(&m);
}

static void explain_hoist(const link_prog *p, const checks_opts *o, const link_func *f, const link_call *c,
                          const link_func *g, purity cls, const cs_fact *fact, const clash_verdict *v,
                          diag_list *out)
{
  bool advice = fact->blocked && v->level <= CLASH_MAYBE;
  strbuf m = {0};
  /* islower(i): the hoisted call is the __ctype_b_loc() it expands to,
   * whose arguments do not change, not islower, whose i does. */
  bool inner = c->macro && reason_is_internal(S(p, g->name));
  if (inner) sb_printf(&m, "'%s'", S(p, c->macro));
  else {
    sb_printf(&m, "%s ", purity_name(cls));
    reason_callee(&m, p, c, true);   /* isalpha, not the __ctype_b_loc it expands to */
  }
  if (fact->blocked && v->level == CLASH_UNKNOWN)
    sb_puts(&m, " is called in every iteration of a loop");
  else if (inner)
    sb_printf(&m, " is called in every iteration of a loop; the call to %s '%s' it expands to has arguments "
              "the loop does not change", purity_name(cls), S(p, g->name));
  else
    sb_puts(&m, " is called in every iteration of a loop with arguments the loop does not change");
  diag *d = checks_emit(out, p, o, "loop-invariant-call", advice ? DIAG_WARNING : DIAG_NOTE, c->loc, f, "");
  if (!fact->blocked) {
    sb_puts(&m, inner ? ": the compiler hoists that call out of the loop" : ": the compiler hoists it out of the loop");
    explain_when(&m, p, f, g, cls);
  } else if (v->level == CLASH_NONE) {
    sb_puts(&m, "; ");
    explain_blocker(&m, d, p, o, fact);
    sb_printf(&m, " keeps the compiler from hoisting it, but changes nothing '%s' reads: compute it once before the loop",
              S(p, g->name));
    explain_if_const(&m, p, g, fact, "hoists it out of the loop");
    explain_tiny_note(d, &m, p, f, g);
  } else if (v->level == CLASH_MAYBE) {
    sb_puts(&m, "; ");
    explain_writer(&m, d, p, o, v, fact);
    sb_printf(&m, " keeps the compiler from hoisting it; if %s, compute it once before the loop", sb_str(&v->cond));
    explain_if_const(&m, p, g, fact, "hoists it out of the loop");
    explain_tiny_note(d, &m, p, f, g);
  } else if (v->async_fn) {
    explain_async(&m, p, g, v);
  } else {
    sb_puts(&m, "; ");
    explain_writer(&m, d, p, o, v, fact);
    sb_printf(&m, " may change what it reads%s, so it runs every iteration",
              (c->flags & SCF_ARGS_READ_MEM) ? " (its arguments read memory)" : "");
    explain_if_const(&m, p, g, fact, "hoists it out of the loop");
  }
  free(d->message);
  d->message = xstrdup(sb_str(&m));
  explain_generated(d, p, c);
  sb_free(&m);
}

/* Is g's class only inferred, from a body whose class hangs on the
 * configuration analysed (an #if branch skipped here lies in it, defines
 * it again, or in a function it calls: cfgdep.c)? Declaring it would be
 * wrong in the other configuration, so nothing is promised "once it is
 * declared" (flac's FLAC__stream_encoder_set_ogg_serial_number). */
static bool explain_config_stub(const link_prog *p, const uint32_t *cfg, const link_func *g)
{
  return checks_known_class(p, g) == PURITY_NORMAL && cfg[g - p->funcs.v] != 0;
}

/* The merge GCC makes at call ci of f, of a call the inlined callee
 * copies there with an earlier one (checks_inlined_merge): "'opcode_describe',
 * which 'gen_op_simple' calls (the compiler inlines it here), is called again
 * with the same arguments as at line 12; const, …". */
static void explain_inlined(const link_prog *p, const checks_opts *o, const uint32_t *cfg, const link_func *f,
                            uint32_t ci, diag_list *out)
{
  const link_call *c = &p->calls.v[ci];
  if (!c->inl_callee) return;
  const link_func *g = &p->funcs.v[c->inl_callee - 1], *h = &p->funcs.v[c->callee];
  purity cls = checks_callee_class(p, g);
  if (!checks_inlined_merge(p, f, ci, cls) || explain_config_stub(p, cfg, g)) return;
  const link_call *first = &p->calls.v[f->call_off + c->inl_same - 1];
  strbuf m = {0};
  if (c->flags & SCF_INL_HOISTED)
    sb_printf(&m, "'%s', which '%s' calls first (the compiler inlines '%s' here), is called with the same "
              "arguments at line %u, on the other way out of the if; %s, the compiler computes it once "
              "before the if and merges the two calls",
              S(p, g->name), S(p, h->name), S(p, h->name), first->loc.line, purity_name(cls));
  else
    sb_printf(&m, "'%s', which '%s' calls (the compiler inlines '%s' here), is called again with the same "
              "arguments as at line %u; %s, the compiler merges the two calls",
              S(p, g->name), S(p, h->name), S(p, h->name), first->loc.line, purity_name(cls));
  explain_when(&m, p, f, g, cls);
  diag *d = checks_emit(out, p, o, "redundant-call", DIAG_NOTE, c->loc, f, sb_str(&m));
  checks_related(d, p, o, first->loc, "the first call");
  sb_free(&m);
}

static bool explain_same_place(const diag *a, const diag *b)
{
  return a->line == b->line && a->column == b->column && !strcmp(a->file, b->file) &&
         !strcmp(a->check, b->check) && !strcmp(a->message, b->message);
}

/* The findings of one function from out->v[n0] on that share place and
 * words — calls spelled in one macro expansion all have its place (jq's
 * BLOCK(gen_op_simple(DUP), …, gen_op_simple(DUP)), gnulib's
 * ENSURE_ALLOCATION) — are said once, with how many calls they stand for:
 * "(3 such calls at this place, in one macro expansion)", so that the
 * text, JSON, SARIF and HTML all count each call (bench/claims.sh reads
 * the number). A file the database compiles twice still gives the same
 * words twice, which diag_sort says once. */
static void explain_fold_repeats(diag_list *out, size_t n0)
{
  if (out->n < n0 + 2) return;
  bool *keep = xmalloc(out->n * sizeof *keep);
  for (size_t i = 0; i < out->n; i++) keep[i] = true;
  bool any = false;
  for (size_t i = n0; i < out->n; i++) {
    if (!keep[i]) continue;
    unsigned count = 1;
    for (size_t j = i + 1; j < out->n; j++)
      if (keep[j] && explain_same_place(&out->v[i], &out->v[j])) { keep[j] = false; count++; }
    if (count < 2) continue;
    any = true;
    strbuf m = {0};
    sb_printf(&m, "%s (%u such calls at this place, in one macro expansion)", out->v[i].message, count);
    free(out->v[i].message);
    out->v[i].message = xstrdup(sb_str(&m));
    sb_free(&m);
  }
  if (any) diag_list_keep(out, keep);
  free(keep);
}

void checks_explain(const link_prog *p, const checks_opts *o, diag_list *out)
{
  clash_ctx *x = clash_new(p, o);
  uint32_t *cfg = checks_cfgdep_new(p);
  for (size_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (!link_has_body(f) || (f->flags & SFF_SYSTEM)) continue;
    size_t n0 = out->n;
    for (uint32_t i = 0; i < f->ncall; i++) {
      uint32_t ci = f->call_off + i;
      const link_call *c = &p->calls.v[ci];
      const link_func *g = &p->funcs.v[c->callee];
      purity cls = explain_seen_class(p, f, g);
      cs_fact fact;
      explain_inlined(p, o, cfg, f, ci, out);
      checks_callsite(p, f, ci, cls, &fact);
      if (fact.kind != CS_NONE && explain_config_stub(p, cfg, g)) continue;
      if (fact.kind == CS_DEAD) {
        explain_dead(p, o, f, c, g, cls, out);
        continue;
      }
      if (fact.kind != CS_REDUNDANT && fact.kind != CS_HOIST) continue;
      /* Reusing a value is right only if nothing in between changes what
       * the callee reads: where it does, or it reads the caller's own
       * locals (whose stores are no effects), nothing is said. */
      clash_verdict v;
      clash_judge(x, f, ci, &fact, &v);
      bool silent = v.level == CLASH_LOCAL || (fact.blocked && v.level == CLASH_SAME);
      /* "Compute it once before the loop" after a call that may not
       * return (a check that exits on bad input) could run it on that
       * input: no advice. */
      silent |= fact.kind == CS_HOIST && fact.after_opaque && v.level <= CLASH_MAYBE;
      if (!silent && fact.kind == CS_REDUNDANT) explain_redundant(p, o, f, c, g, cls, &fact, &v, out);
      if (!silent && fact.kind == CS_HOIST) explain_hoist(p, o, f, c, g, cls, &fact, &v, out);
      clash_verdict_free(&v);
    }
    explain_fold_repeats(out, n0);
  }
  clash_free(x);
  free(cfg);
}
