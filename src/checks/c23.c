/* c23.c — declared [[unsequenced]] / [[reproducible]] checked against the
 * bodies by the standard's own rules (issue 15; docs/c23-attributes.md).
 *
 *   misuse-c23   error: the body breaks the promise, with the first cause
 *                and the chain of calls reaching it;
 *   cheat-c23    note: a [[reproducible]] function keeping a private memo —
 *                allowed (the store is not observable) but only while no
 *                two threads fill it at once;
 *   allowed-c23  note: a function writing through a pointer parameter —
 *                allowed by both attributes, on the caller's promise that
 *                the pointer is the only way to reach that object.
 * Declarations in system headers are not checked; neither are functions
 * without a usable body. */
#include "checks/checks.h"
#include "link/c23.h"
#include "report/c23_reason.h"
#include "report/reason.h"

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

static uint8_t c23_bit(c23_class c) { return c == C23_UNSEQUENCED ? SUM_DECL_UNSEQUENCED : SUM_DECL_REPRODUCIBLE; }

/* Which of the standard's conditions the first cause of fi breaks, for a
 * function declared `decl`. */
static const char *c23_condition(const link_prog *p, uint32_t fi, c23_class decl)
{
  const link_c23 *r = &p->c23[fi];
  if (r->idem) return "which it also reads through: a second call would see the first one's store "
                      "(not idempotent)";
  if (r->why.kind == WHY_EFFECT && (p->effs.v[r->why.index].flags & SEF_ARG_VALUE))
    return "a cache filled from the arguments: later calls with other arguments see the first call's "
           "value, an observable store (not effectless)";
  if (r->cls == C23_NONE)
    return decl == C23_UNSEQUENCED ? "unsequenced functions are effectless and stateless"
                                   : "reproducible functions are effectless";
  return r->st.memo ? "unsequenced functions are stateless: even a private cache is state"
                    : "unsequenced functions are independent: what they read other than through "
                      "their parameters must never change";
}

/* The first cause, followed down the calls into bodies that break the
 * promise themselves; related locations name each step. Returns the
 * function where the chain ends. */
static uint32_t c23_witness(const link_prog *p, const checks_opts *o, uint32_t fi, c23_class decl,
                            strbuf *via, diag *d)
{
  uint32_t cur = fi;
  for (int steps = 0; steps < 64; steps++) {
    const link_c23 *r = &p->c23[cur];
    if (r->why.kind != WHY_CALL || r->idem) break;
    const link_call *c = &p->calls.v[r->why.index];
    uint32_t g = c->callee;
    if (g == cur || !link_has_body(&p->funcs.v[g]) || p->c23[g].cls <= decl) break;
    strbuf note = {0};
    sb_printf(&note, "'%s' calls '%s' here", S(p, p->funcs.v[cur].name), S(p, p->funcs.v[g].name));
    checks_related(d, p, o, c->loc, sb_str(&note));
    sb_free(&note);
    sb_printf(via, "%s%s", via->n ? ", " : "", S(p, p->funcs.v[g].name));
    cur = g;
  }
  return cur;
}

static sum_loc c23_why_loc(const link_prog *p, uint32_t fi)
{
  const link_c23 *r = &p->c23[fi];
  if (r->why.kind == WHY_EFFECT) return p->effs.v[r->why.index].loc;
  if (r->why.kind == WHY_CALL) return p->calls.v[r->why.index].loc;
  return p->funcs.v[fi].loc;
}

static void c23_misuse(const link_prog *p, const checks_opts *o, uint32_t fi, c23_class decl, diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  sum_loc at = checks_attr_loc(p, fi, c23_bit(decl));
  diag *d = checks_emit(out, p, o, "misuse-c23", DIAG_ERROR, at, f, "");
  strbuf via = {0}, msg = {0}, here = {0};
  uint32_t end = c23_witness(p, o, fi, decl, &via, d);
  sum_loc w = c23_why_loc(p, end);
  sb_printf(&msg, "'%s' is declared [[%s]] but ", S(p, f->name), c23_class_name(decl));
  c23_reason_head(&msg, p, end, o->root);
  sb_puts(&msg, " (");
  if (via.n) sb_printf(&msg, "via %s, ", sb_str(&via));
  reason_path(&msg, p, w.file, o->root);
  sb_printf(&msg, ":%u:%u) — %s", w.line, w.col, c23_condition(p, end, decl));
  c23_reason_head(&here, p, end, o->root);
  sb_puts(&here, " here");
  checks_related(d, p, o, w, sb_str(&here));
  free(d->message);
  d->message = xstrdup(sb_str(&msg));
  sb_free(&via);
  sb_free(&msg);
  sb_free(&here);
}

/* The first private-memo store of fi (a static written under a test of a
 * static, by fi alone), or NULL. */
static const sum_effect *c23_memo_store(const link_prog *p, const ptrmap *writers, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  for (uint32_t i = 0; i < f->neff; i++)
    if (c23_is_memo_store(writers, fi, &p->effs.v[f->eff_off + i])) return &p->effs.v[f->eff_off + i];
  return NULL;
}

static void c23_memo_note(const link_prog *p, const checks_opts *o, uint32_t fi, const sum_effect *e,
                          diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared [[reproducible]] and caches its result in %s '%s': the standard "
                  "allows a store no caller can observe, so the attribute holds, but only while no "
                  "two threads make the first call at once (a data race on the cache) and what the "
                  "first call computed from stays the same",
            S(p, f->name), e->obj == SO_THREAD_LOCAL ? "thread-local" : "static", S(p, e->name));
  sum_loc at = checks_attr_loc(p, fi, SUM_DECL_REPRODUCIBLE);
  diag *d = checks_emit(out, p, o, "cheat-c23", o->cheats_as_errors ? DIAG_ERROR : DIAG_NOTE, at, f,
                        sb_str(&msg));
  checks_related(d, p, o, e->loc, "the cache is written here");
  sb_free(&msg);
}

/* The first write through a parameter in fi's own body, or NULL (it may
 * come from a callee). */
static const sum_effect *c23_param_write(const link_prog *p, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  for (uint32_t i = 0; i < f->neff; i++)
    if (p->effs.v[f->eff_off + i].kind == SE_WRITE_PARAM && !(p->effs.v[f->eff_off + i].flags & SEF_PTE))
      return &p->effs.v[f->eff_off + i];
  return NULL;
}

static void c23_outparam_note(const link_prog *p, const checks_opts *o, uint32_t fi, c23_class decl,
                              diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  const sum_effect *e = c23_param_write(p, fi);
  strbuf msg = {0};
  sb_printf(&msg, "'%s' is declared [[%s]] and writes through ", S(p, f->name), c23_class_name(decl));
  if (e) sb_printf(&msg, "parameter '%s'", S(p, e->name)); else sb_puts(&msg, "its pointer parameters");
  sb_puts(&msg, ": allowed (an effectless function may store through a unique pointer parameter), "
                "provided every caller passes a pointer that nothing else in the call reaches; "
                "GNU const or pure could not say this");
  diag *d = checks_emit(out, p, o, "allowed-c23", DIAG_NOTE, checks_attr_loc(p, fi, c23_bit(decl)), f,
                        sb_str(&msg));
  if (e) checks_related(d, p, o, e->loc, "the store through the parameter");
  sb_free(&msg);
}

void checks_c23_misuse(const link_prog *p, const checks_opts *o, diag_list *out)
{
  if (!p->c23) return;
  ptrmap *writers = c23_writers_new(p);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    c23_class decl = c23_declared(f->declared);
    if (decl == C23_NONE || !link_has_body(f) || (f->flags & SFF_SYSTEM)) continue;
    const link_c23 *r = &p->c23[fi];
    if (r->cls > decl) { c23_misuse(p, o, fi, decl, out); continue; }
    const sum_effect *memo = decl == C23_REPRODUCIBLE && r->st.memo ? c23_memo_store(p, writers, fi) : NULL;
    if (memo) c23_memo_note(p, o, fi, memo, out);
    if (r->st.pw) c23_outparam_note(p, o, fi, decl, out);
  }
  c23_writers_free(writers);
}
