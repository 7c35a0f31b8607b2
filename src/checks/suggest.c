/* suggest.c — where attributes belong, ranked by what they buy.
 *
 * A returning function whose body is const or pure, and whose declarations
 * say less, gets a suggestion at every prototype a caller sees (external
 * functions) or at its definition (static ones). Its gain (suggest_gain.c)
 * is the number of call sites in other files where, with the attribute,
 * the compiler could delete, merge or hoist the call (the judgement of
 * `explain`), and whether it is public API. One that gains nothing is a
 * note under --all and left out otherwise: the compiler already infers it
 * wherever it is called (issue 19: 393 of 400 tmux suggestions said "0
 * call sites gain", all warnings). */
#include "checks/checks.h"
#include "link/c23.h"
#include "report/reason.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* Never a function that never returns (every path ends in abort, exit or
 * a loop no path leaves): "pure if it returns normally" says nothing
 * there, and the attribute would let a call be deleted with its end. */
bool checks_suggestable(const link_prog *p, const link_func *f)
{
  if (!link_has_body(f) || (f->flags & (SFF_SYSTEM | SFF_VOID | SFF_NORETURN)) || f->cls == PURITY_NORMAL)
    return false;
  /* main: the program's start, called by nothing that could use it. */
  if (f->linkage == SUM_EXTERNAL && !strcmp(S(p, f->name), "main")) return false;
  purity decl = (f->declared & SUM_DECL_CONST) ? PURITY_CONST
              : (f->declared & SUM_DECL_PURE) ? PURITY_PURE : PURITY_NORMAL;
  return (purity)f->cls < decl;
}

typedef struct { const link_prog *p; const checks_gain *gains; } order_ctx;

static int suggest_cmp(const void *a, const void *b, void *ctx)
{
  const order_ctx *c = ctx;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  uint32_t gx = checks_gain_total(&c->gains[x]), gy = checks_gain_total(&c->gains[y]);
  if (gx != gy) return gx > gy ? -1 : 1;
  bool px = c->gains[x].header != NULL, py = c->gains[y].header != NULL;
  if (px != py) return px ? -1 : 1;
  const link_func *fx = &c->p->funcs.v[x], *fy = &c->p->funcs.v[y];
  int n = strcmp(S(c->p, fx->name), S(c->p, fy->name));
  /* Same name (static functions of several TUs): by place, so the order
   * does not depend on the order the summaries came in (a compile
   * database's order versus a link line's: found on redis). */
  if (!n) n = strcmp(S(c->p, fx->loc.file), S(c->p, fy->loc.file));
  if (!n && fx->loc.line != fy->loc.line) n = fx->loc.line < fy->loc.line ? -1 : 1;
  if (!n && fx->loc.col != fy->loc.col) n = fx->loc.col < fy->loc.col ? -1 : 1;
  return n ? n : (x < y ? -1 : 1);
}

/* "; N call sites in other files gain (…)", or public API, or why
 * nothing gains. */
static void suggest_gain_text(strbuf *m, const link_prog *p, const link_func *f, const checks_gain *g,
                              const char *root)
{
  uint32_t total = checks_gain_total(g);
  if (total) {
    /* -fPIC or noipa: its own file's calls gain too (checks_body_seen). */
    bool pic = f->flags & SFF_INTERPOSABLE, noipa = f->flags & SFF_NOIPA;
    const char *where = pic || noipa ? "" : total == 1 ? " in another file" : " in other files";
    sb_printf(m, "; %u call site%s%s gain%s", total, total == 1 ? "" : "s", where, total == 1 ? "s" : "");
    if (noipa) sb_puts(m, " (noipa or optimize(\"O0\"): the compiler uses its body nowhere)");
    else if (pic) sb_puts(m, " (built -fPIC, the function may be interposed: the compiler uses its body nowhere)");
    const char *sep = " (";
    if (g->dead) { sb_printf(m, "%s%u deleted", sep, g->dead); sep = ", "; }
    if (g->merged) { sb_printf(m, "%s%u merged", sep, g->merged); sep = ", "; }
    if (g->hoisted) sb_printf(m, "%s%u hoisted out of loops", sep, g->hoisted);
    sb_puts(m, ")");
  }
  if (g->header) {
    sb_puts(m, total ? "; and it is public API (declared in " : "; it is public API (declared in ");
    reason_path(m, p, g->header->loc.file, root);
    sb_puts(m, "): callers outside the analysed code gain");
  }
  if (!total && !g->header && g->same_file)
    sb_printf(m, "; no call site gains: the compiler sees the body at the %u call site%s that would, "
              "and infers this itself", g->same_file, g->same_file == 1 ? "" : "s");
  else if (!total && !g->header && (f->flags & SFF_AGGREGATE))
    sb_puts(m, "; no call site gains: it returns a struct or union, and GCC merges and hoists no such "
               "call (it deletes one whose value is dropped: none in another file)");
  else if (!total && !g->header && f->linkage == SUM_INTERNAL)   /* no other file can call it */
    sb_puts(m, "; no call site gains (no call the compiler could delete, merge or hoist)");
  else if (!total && !g->header)
    sb_puts(m, "; no call site gains (no call in another file the compiler could delete, merge or hoist)");
}

static void suggest_message(strbuf *m, const link_prog *p, const link_func *f, const checks_gain *g,
                            const char *root)
{
  const char *cls = purity_name((purity)f->cls);
  sb_printf(m, "'%s' can be declared %s: it ", S(p, f->name), cls);
  reason_head(m, p, f, root);
  if (f->st.mnr) {
    sb_printf(m, "; it is %s only if it is known to return normally (may not return: ", cls);
    reason_mnr(m, p, f, root);
    sb_puts(m, ")");
  }
  suggest_gain_text(m, p, f, g, root);
}

/* Records the gain on a suggestion, for JSON, SARIF and the HTML report. */
static void suggest_mark(diag *d, const checks_gain *g)
{
  d->gain = (int)checks_gain_total(g);
  d->public_api = g->header != NULL;
}

/* Does external function fi have a prototype apart from its definition?
 * Without one (a program's function called only where it is defined, or
 * through a pointer) the attribute goes on the definition, and the
 * message says so, not "to the prototype". */
static bool suggest_has_prototype(const link_prog *p, uint32_t fi)
{
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++)
    if (!p->decls.v[di[k]].is_def) return true;
  return false;
}

/* Whether every prototype of fi lies in a file the build generates. */
static bool suggest_all_prototypes_generated(const link_prog *p, uint32_t fi)
{
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++)
    if (!p->decls.v[di[k]].is_def && !checks_file_generated(p, p->decls.v[di[k]].loc.file)) return false;
  return true;
}

/* Every place the attribute should go: the prototypes of an external
 * function (else its definition), the definition of a static one. */
static void suggest_emit(const link_prog *p, const checks_opts *o, uint32_t fi, const checks_gain *g,
                         diag_severity sev, diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  strbuf msg = {0};
  suggest_message(&msg, p, f, g, o->root);
  const char *check = f->cls == PURITY_CONST ? "suggest-const" : "suggest-pure";
  /* A static function, or one of several definitions of a name (link/dup.c:
   * the prototypes are the name's, shared by every program): its definition. */
  bool at_def = f->linkage == SUM_INTERNAL || (f->lflags & LF_ALT) || !suggest_has_prototype(p, fi);
  const sum_decl *gen = NULL, *def = at_def ? NULL : checks_generated_target(p, fi, &gen);
  if (def) {   /* every prototype is in a generated header: the definition, and why */
    checks_generated_advice(&msg, p, o, gen, def, (purity)f->cls);
    suggest_mark(checks_emit(out, p, o, check, sev, def->loc, f, sb_str(&msg)), g);
    sb_free(&msg);
    return;
  }
  /* Generated all through (gengetopt's parser: its .c and .h): no file
   * takes an edit that lasts. */
  if (!at_def && checks_file_generated(p, f->loc.file) && suggest_all_prototypes_generated(p, fi)) {
    sb_puts(&msg, "; its prototypes and its definition are generated by the build, which overwrites an edit: "
                  "put the attribute in what generates them");
    suggest_mark(checks_emit(out, p, o, check, sev, f->loc, f, sb_str(&msg)), g);
    sb_free(&msg);
    return;
  }
  sb_printf(&msg, "; add __attribute__((%s)) %s", purity_name((purity)f->cls),
            at_def ? "to the definition" : "to the prototype");
  int emitted = 0;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (d->is_def != at_def) continue;
    if (!d->is_def && checks_file_generated(p, d->loc.file)) continue;   /* another prototype takes it */
    strbuf here = {0};
    sb_puts(&here, sb_str(&msg));
    checks_generated_where(&here, p, d);   /* a generated definition: nowhere better */
    suggest_mark(checks_emit(out, p, o, check, sev, d->loc, f, sb_str(&here)), g);
    sb_free(&here);
    emitted++;
  }
  if (!emitted) suggest_mark(checks_emit(out, p, o, check, sev, f->loc, f, sb_str(&msg)), g);
  sb_free(&msg);
}

/* The declaration of fi the configuration decides (SDF_CONFIG), its
 * definition first; NULL if none. */
static const sum_decl *suggest_config_decl(const link_prog *p, uint32_t fi)
{
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  const sum_decl *best = NULL;
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if ((d->dflags & SDF_CONFIG) && (!best || (d->is_def && !best->is_def))) best = d;
  }
  return best;
}

/* A function whose class holds only in the configuration analysed
 * (cfgdep.c): a note at its definition naming the #if, never a suggestion
 * at a prototype every configuration shares (FFmpeg's
 * avpriv_ac3_parse_header looked const from its `#else` ENOSYS stub).
 * Likewise when a file the database does not compile defines it, or a
 * function it calls, again (libuv's uv_thread_self: src/win/thread.c). */
static void suggest_config_note(const link_prog *p, const checks_opts *o, uint32_t fi, const uint32_t *cfgdep,
                                const checks_gain *g, diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  const char *cls = purity_name((purity)f->cls);
  uint32_t owner = fi, hops = 0;   /* down the calls to the function an #if (or another file) decides */
  while (cfgdep[owner] < CHECKS_CFG_OTHER && hops++ < p->funcs.n) owner = cfgdep[owner] - 1;
  bool other = cfgdep[owner] == CHECKS_CFG_OTHER;
  strbuf m = {0};
  sb_printf(&m, "'%s' is %s only in the %s analysed: it ", S(p, f->name), cls, other ? "files" : "configuration");
  reason_head(&m, p, f, o->root);
  if (owner != fi) {
    sb_printf(&m, "; it calls '%s'", S(p, p->funcs.v[cfgdep[fi] - 1].name));
    if (owner != cfgdep[fi] - 1) sb_printf(&m, ", which calls '%s'", S(p, p->funcs.v[owner].name));
    sb_puts(&m, other ? ", which " : ", whose class depends on ");
  } else {
    sb_puts(&m, other ? "; " : "; its definition depends on ");
  }
  if (other) {
    sb_printf(&m, "%s defines ", S(p, p->other_def[owner]));
    if (owner == fi) sb_printf(&m, "'%s' ", S(p, f->name));
    sb_puts(&m, "too, in a file the compile database does not compile (another platform's implementation), "
                "which is not analysed here");
  } else {
    const sum_decl *d = suggest_config_decl(p, owner);
    if (!d || !checks_cfg_condition(&m, p, d, o->root))
      sb_puts(&m, "an #if branch this build skips");
    sb_puts(&m, ", whose other branch is not analysed here");
  }
  suggest_gain_text(&m, p, f, g, o->root);
  if (other)
    sb_printf(&m, "; not suggested at the prototype every definition shares: add __attribute__((%s)) only if "
              "every definition is %s", cls, cls);
  else
    sb_printf(&m, "; not suggested for every configuration (an attribute on the prototype binds them all): "
              "add __attribute__((%s)) only where every branch is %s", cls, cls);
  const char *check = f->cls == PURITY_CONST ? "suggest-const" : "suggest-pure";
  suggest_mark(checks_emit(out, p, o, check, DIAG_NOTE, f->loc, f, sb_str(&m)), g);
  sb_free(&m);
}

size_t checks_suggest(const link_prog *p, const checks_opts *o, diag_list *out)
{
  checks_gain *gains = checks_gains_new(p, o->whole_program);
  uint32_t *cfgdep = checks_cfgdep_new(p);
  VEC(uint32_t) list = {0};
  bool project_std = c23_project_writes_std(p);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++)
    if (checks_suggestable(p, &p->funcs.v[fi]) && !c23_std_for(&p->funcs.v[fi], o->std_attrs, project_std))
      vec_push(&list, fi);
  order_ctx ctx = { p, gains };
  if (list.n) qsort_r(list.v, list.n, sizeof *list.v, suggest_cmp, &ctx);
  size_t hidden = 0;
  for (size_t i = 0; i < list.n; i++) {
    const checks_gain *g = &gains[list.v[i]];
    bool pays = checks_gain_pays(g);
    if (!pays && !o->all) { hidden++; continue; }
    if (cfgdep[list.v[i]]) suggest_config_note(p, o, list.v[i], cfgdep, g, out);
    else suggest_emit(p, o, list.v[i], g, pays ? DIAG_WARNING : DIAG_NOTE, out);
  }
  vec_free(&list);
  free(cfgdep);
  free(gains);
  checks_suggest_c23(p, o, out);
  return hidden;
}
