/* plan.c — which declarations change, and how (see fix.h).
 *
 * Suggestions: a function suggest names gets its inferred attribute on
 * every declaration the project wrote that lacks it; a weaker attribute
 * there (pure where const holds) is replaced. So does a function declared
 * with its class on some declarations only (plan_incomplete). Misuse (on request): a
 * const that should be pure is downgraded, an attribute on a function
 * whose body is neither is removed; deliberate cheats are left alone.
 * Nothing here reads or writes a file: apply.c does, after checking that
 * each file still is what was analysed. */
#include "fix/fix_internal.h"
#include "checks/checks.h"
#include "link/c23.h"
#include "util/ptrmap.h"
#include <string.h>
#include <xxhash.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

struct planner {
  fix_plan *pl;
  const link_prog *p;
  const fix_opts *o;
  ptrmap begins;   /* where declarations begin → first declaration + 1, SHARED_BEGIN if two do */
  uint32_t *cfgdep;   /* checks_cfgdep_new */
  ptrmap guarded;     /* fix_guard_header's memo */
  VEC(struct guard_use { const sum_decl *d; uint32_t fi; uint8_t kind; }) guard_uses;
};

#define SHARED_BEGIN 0x80000000u
#define SHARED_NAME  0x40000000u   /* one name's place declares two functions (a template file) */
#define SHARED_MASK  (SHARED_BEGIN | SHARED_NAME)

/* A path as messages show it: relative to the root when inside it. */
static const char *shown(const planner *pl, uint32_t file)
{
  const char *path = S(pl->p, file), *rel = fix_rel(path, pl->o->root);
  return rel ? rel : path;
}

/* "file:line:col" of a declaration's name, for notes. */
#define DECL_AT(pl, d) shown(pl, (d)->loc.file), (d)->loc.line, (d)->loc.col

static uint64_t file_hash(const link_prog *p, uint32_t file)
{
  for (size_t i = 0; i < p->files.n; i++)
    if (p->files.v[i].file == file) return p->files.v[i].hash;
  return 0;
}

/* The function's name as d's text writes it: the renaming macro's name
 * (nettle's ecc_size for nettle_ecc_size), or the name itself. */
const char *fix_written_name(const link_prog *p, const sum_decl *d, const link_func *f)
{
  return d->spelled ? S(p, d->spelled) : S(p, f->name);
}

static bool name_shared(const planner *pl, const sum_decl *d);

/* Why declaration d may not be edited, or NULL. */
static const char *decl_why_not(const planner *pl, const sum_decl *d)
{
  const link_prog *p = pl->p;
  if (!fix_rel(S(p, d->loc.file), pl->o->root)) return "it is outside the project root";
  if ((d->dflags & SDF_MACRO_NAME) && !d->spelled) return "its name comes from a macro (edit the macro by hand)";
  if (d->spelled && name_shared(pl, d))
    return "its name is a macro that names another function in another compile of this file (edit it by hand)";
  if (d->dflags & SDF_KNR) return "it is a K&R-style definition (give it a prototype first)";
  if ((d->dflags & SDF_SPLIT) || !d->beg_line) return "it is not written in one piece in one file";
  if (checks_file_generated(p, d->loc.file))
    return "the build generates this file and would overwrite the edit (change what generates it)";
  return NULL;
}

/* May declaration d be edited? Says why not in a note. */
static bool decl_editable(planner *pl, const sum_decl *d, const link_func *f)
{
  const char *why = decl_why_not(pl, d);
  if (why)
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is not edited: %s", DECL_AT(pl, d),
                 S(pl->p, f->name), why);
  return !why;
}

static fix_op *op_new(planner *pl, const sum_decl *d, const link_func *f, fix_op_kind kind, const char *what)
{
  fix_op op;
  memset(&op, 0, sizeof op);
  op.kind = kind;
  op.info.file = xstrdup(S(pl->p, d->loc.file));
  op.shown = xstrdup(shown(pl, d->loc.file));
  op.info.line = op.line = d->loc.line;
  op.info.col = op.col = d->loc.col;
  op.info.function = xstrdup(S(pl->p, f->name));
  op.info.what = xstrdup(what);
  op.hash = file_hash(pl->p, d->loc.file);
  vec_push(&pl->pl->ops, op);
  return &pl->pl->ops.v[pl->pl->ops.n - 1];
}

static bool same_begin(const sum_decl *a, const sum_decl *b)
{
  return a->loc.file == b->loc.file && a->beg_line == b->beg_line && a->beg_col == b->beg_col;
}

static uint64_t begin_key(const sum_decl *d)
{
  uint32_t k[3] = { d->loc.file, d->beg_line, d->beg_col };
  return XXH64(k, sizeof k, 0) | 1;   /* never 0: ptrmap's empty key */
}

/* Indexes where every declaration begins, once, so that begin_shared is a
 * lookup rather than a scan of all declarations for each edit. */
static void index_begins(planner *pl)
{
  const link_prog *p = pl->p;
  for (uint32_t i = 0; i < p->decls.n; i++) {
    const sum_decl *d = &p->decls.v[i];
    uint32_t *slot = ptrmap_get(&pl->begins, begin_key(d));
    if (!slot) { ptrmap_put(&pl->begins, begin_key(d), i + 1); continue; }
    const sum_decl *e = &p->decls.v[(*slot & ~SHARED_MASK) - 1];
    if (same_begin(d, e) && (e->loc.line != d->loc.line || e->loc.col != d->loc.col)) *slot |= SHARED_BEGIN;
    else if (same_begin(d, e) && e->func != d->func) *slot |= SHARED_NAME;
  }
}

/* Does the text of d declare another function too, its name a macro
 * defined once per compile of the file (GMP's sec_aors_1.c: `FNAME_itch`
 * is mpn_sec_add_1_itch in one TU, mpn_sec_sub_1_itch in the other)? */
static bool name_shared(const planner *pl, const sum_decl *d)
{
  const uint32_t *slot = ptrmap_get(&pl->begins, begin_key(d));
  return slot && (*slot & SHARED_NAME) && same_begin(d, &pl->p->decls.v[(*slot & ~SHARED_MASK) - 1]);
}

/* Does another declaration start where d starts (`int f(int), g(int);`)?
 * An attribute before both would apply to both. */
static bool begin_shared(const planner *pl, const sum_decl *d)
{
  const link_prog *p = pl->p;
  const uint32_t *slot = ptrmap_get(&pl->begins, begin_key(d));
  if (slot && same_begin(d, &p->decls.v[(*slot & ~SHARED_MASK) - 1])) return (*slot & SHARED_BEGIN) != 0;
  for (size_t i = 0; i < p->decls.n; i++) {   /* two beginnings with one hash: look properly */
    const sum_decl *e = &p->decls.v[i];
    if (e != d && same_begin(d, e) && (e->loc.line != d->loc.line || e->loc.col != d->loc.col)) return true;
  }
  return false;
}

/* Inserts attribute `kind` on d where it compiles: __attribute__ after the
 * declarator of a prototype and before the return type of a definition
 * (GCC rejects it after the declarator there); [[gnu::]] before the whole
 * declaration, or right after the name when the declaration declares more
 * than one function. */
static void plan_insert(planner *pl, const sum_decl *d, const link_func *f, uint8_t kind)
{
  fix_spelled sp = fix_spell(pl->p, pl->o, d, kind, &pl->pl->notes);
  if (pl->o->spelling == FIX_SPELL_AUTO && sp.form == SA_GNU && !strncmp(sp.text, "__attribute__", 13) &&
      fix_guard_header(pl->p, d->loc.file, &pl->guarded, &(uint32_t){0})) {
    free(sp.text);
    sp.text = xstrdup(fix_guard_macro(kind));   /* defined by plan_guards */
    struct guard_use u = { d, (uint32_t)(f - pl->p->funcs.v), kind };
    vec_push(&pl->guard_uses, u);
  }
  char *what = xasprintf("add %s", sp.text);
  fix_op *op;
  if (sp.form == SA_GNU && !d->is_def) {
    op = op_new(pl, d, f, FOP_INSERT_END, what);
    op->line = d->end_line;
    op->col = d->end_col;
    op->text = xasprintf(" %s", sp.text);
  } else if (sp.form == SA_C23 && begin_shared(pl, d)) {
    op = op_new(pl, d, f, FOP_INSERT, what);
    op->col = d->loc.col + (unsigned)strlen(fix_written_name(pl->p, d, f));
    op->text = xasprintf(" %s", sp.text);
  } else {
    op = op_new(pl, d, f, FOP_INSERT, what);
    op->line = d->beg_line;
    op->col = d->beg_col;
    op->text = xasprintf("%s ", sp.text);
  }
  op->expect = xstrdup(fix_written_name(pl->p, d, f));   /* the name must still be where it was */
  free(what);
  free(sp.text);
}

/* Turns attribute a on d into `kind`: the word of a written attribute, or
 * a macro replaced by this kind's spelling (written out when a [[gnu::]]
 * form would land after the declarator, where it means something else). */
static void plan_replace(planner *pl, const sum_decl *d, const link_func *f, const sum_attr *a, uint8_t kind)
{
  const char *old = fix_kind_name(a->kind);
  char *what = xasprintf("%s -> %s", old, fix_kind_name(kind));
  fix_op *op = op_new(pl, d, f, FOP_REPLACE, what);
  op->line = a->beg_line;
  op->col = a->beg_col;
  op->end_line = a->end_line;
  op->end_col = a->end_col;
  if (a->macro) {
    fix_spelled sp = fix_spell(pl->p, pl->o, d, kind, &pl->pl->notes);
    bool after_name = a->beg_line > d->loc.line || (a->beg_line == d->loc.line && a->beg_col > d->loc.col);
    if (sp.form == SA_C23 && after_name) {
      free(sp.text);
      sp.text = xasprintf("__attribute__((%s))", fix_kind_name(kind));
    }
    op->text = sp.text;
    op->expect = xstrdup(S(pl->p, a->macro));
  } else {
    op->text = xstrdup(fix_kind_word(kind, NULL));   /* apply.c keeps the old word's underscores */
  }
  free(what);
}

static void plan_remove(planner *pl, const sum_decl *d, const link_func *f, const sum_attr *a)
{
  char *what = xasprintf("remove %s", fix_kind_name(a->kind));
  fix_op *op = op_new(pl, d, f, FOP_REMOVE_ATTR, what);
  op->line = a->beg_line;
  op->col = a->beg_col;
  op->end_line = a->end_line;
  op->end_col = a->end_col;
  if (a->macro) op->expect = xstrdup(S(pl->p, a->macro));
  free(what);
}

/* A call of fi whose value is thrown away by its statement: with the
 * attribute, GCC and clang warn there (-Wunused-value, "statement with no
 * effect"), which breaks -Werror builds. Says where, returns true. */
static bool discarded_call(planner *pl, uint32_t fi, uint8_t kind)
{
  const link_prog *p = pl->p;
  for (size_t i = 0; i < p->calls.n; i++) {
    const link_call *c = &p->calls.v[i];
    if (c->callee != fi || c->use != SCU_DISCARDED) continue;
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is not made %s: its value is discarded here, "
                 "and with the attribute the compilers warn (-Wunused-value); the call does nothing, so "
                 "delete it, then run fix again", shown(pl, c->loc.file), c->loc.line, c->loc.col,
                 S(p, p->funcs.v[fi].name), fix_kind_name(kind));
    return true;
  }
  return false;
}

/* Does the class of fi hold only for the configuration analysed (see
 * checks/cfgdep.c)? An attribute on a shared prototype would bind the other
 * configurations too. Says why, returns true. */
static bool config_dependent(planner *pl, uint32_t fi, uint8_t kind, const uint32_t *di, uint32_t nd)
{
  const link_prog *p = pl->p;
  uint32_t dep = pl->cfgdep[fi];
  if (!dep) return false;
  const sum_decl *d = &p->decls.v[di[0]];
  for (uint32_t k = 0; k < nd; k++)
    if (p->decls.v[di[k]].dflags & SDF_CONFIG) d = &p->decls.v[di[k]];
  const char *name = S(p, p->funcs.v[fi].name), *kn = fix_kind_name(kind);
  if (dep == CHECKS_CFG_OTHER)
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is not made %s: %s defines it too, in a file the "
                 "compile database does not compile (another platform's implementation), not analysed here",
                 DECL_AT(pl, d), name, kn, S(p, p->other_def[fi]));
  else if (dep == CHECKS_CFG_OWN)
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is not made %s: it is %s only in the "
                 "configuration analysed: an #if branch skipped here %s", DECL_AT(pl, d), name, kn, kn,
                 d->is_def ? "holds part of its body or another definition of it" : "defines it differently");
  else {
    uint32_t owner = dep - 1, hops = 0;   /* down the calls to the function that decides */
    while (pl->cfgdep[owner] < CHECKS_CFG_OTHER && hops++ < p->funcs.n) owner = pl->cfgdep[owner] - 1;
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is not made %s: it is %s only in the "
                 "configuration analysed: it calls '%s', whose class depends on %s",
                 DECL_AT(pl, d), name, kn, kn, S(p, p->funcs.v[dep - 1].name),
                 pl->cfgdep[owner] == CHECKS_CFG_OTHER ? "a definition in a file not compiled here"
                                                       : "an #if branch skipped here");
  }
  return true;
}

/* Does a declaration of fi carry an attribute GCC will not keep beside
 * pure or const (malloc, alloc_size, alloc_align)? GCC would drop that one
 * with a -Wattributes warning: redis's extend_to_usable exists only to
 * carry alloc_size. Says where, returns true. */
static bool gcc_excluded(planner *pl, uint32_t fi, uint8_t kind, const uint32_t *di, uint32_t nd)
{
  const link_prog *p = pl->p;
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (!(d->dflags & SDF_GCC_EXCL)) continue;
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is not made %s: it is declared malloc, "
                 "alloc_size or alloc_align, which GCC drops beside pure and const (-Wattributes)",
                 DECL_AT(pl, d), S(p, p->funcs.v[fi].name), fix_kind_name(kind));
    return true;
  }
  return false;
}

/* An external function whose every prototype is in a file the build
 * generates (issue 29): the callers in other files see that prototype,
 * so an attribute on the definition gains nothing there (its own file's
 * compiler sees the body), and a generator that reads the definitions
 * (an awk script making the prototype header) may skip the edited line
 * and drop the prototype: no edit, a note instead. */
static bool generated_only(planner *pl, uint32_t fi, uint8_t kind)
{
  const link_prog *p = pl->p;
  const link_func *f = &p->funcs.v[fi];
  const sum_decl *gen = NULL, *def = f->linkage == SUM_EXTERNAL ? checks_generated_target(p, fi, &gen) : NULL;
  if (!def || !gen) return false;
  fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is not edited: its prototype in %s:%u is generated by "
               "the build, so %s on the definition would gain nothing in other files; put it in what "
               "generates the prototype", DECL_AT(pl, def), S(p, f->name), shown(pl, gen->loc.file), gen->loc.line,
               fix_kind_name(kind));
  return true;
}

/* An external function whose prototypes fix may not edit, none of them
 * (pcre2.h makes every prototype with a macro, `PCRE2_MATCH_FUNCTIONS`):
 * the callers in other files see only those, so the attribute on the
 * definition alone would gain nothing there. No edit, one note naming the
 * prototype to change by hand. */
static bool prototypes_blocked(planner *pl, uint32_t fi, uint8_t kind, const uint32_t *di, uint32_t nd)
{
  const link_prog *p = pl->p;
  const link_func *f = &p->funcs.v[fi];
  const sum_decl *proto = NULL;
  if (f->linkage != SUM_EXTERNAL) return false;
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (d->is_def || checks_file_generated(p, d->loc.file)) continue;   /* generated_only speaks of those */
    /* Outside the root: the user keeps that header out of reach on purpose. */
    if (!decl_why_not(pl, d) || !fix_rel(S(p, d->loc.file), pl->o->root)) return false;
    if (!proto) proto = d;
  }
  if (!proto) return false;
  fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is not edited: this prototype, the one other files "
               "see, cannot be: %s; %s on the definition alone would gain nothing in other files", DECL_AT(pl, proto), S(p, f->name),
               decl_why_not(pl, proto), fix_kind_name(kind));
  return true;
}

/* Every declaration of f gets the inferred attribute; with protos_only
 * (completing an attribute f already has somewhere), every declaration but
 * its definition. */
static void plan_suggestion(planner *pl, uint32_t fi, bool protos_only)
{
  const link_prog *p = pl->p;
  const link_func *f = &p->funcs.v[fi];
  uint8_t kind = f->cls == PURITY_CONST ? SUM_DECL_CONST : SUM_DECL_PURE;
  if (f->st.mnr && !pl->o->include_mnr) {
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is %s only if it is known to return normally; "
                 "not edited without --include-may-not-return", shown(pl, f->loc.file), f->loc.line, f->loc.col,
                 S(p, f->name), fix_kind_name(kind));
    return;
  }
  if (!pl->o->keep_discarded && discarded_call(pl, fi, kind)) return;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  if (nd && (config_dependent(pl, fi, kind, di, nd) || gcc_excluded(pl, fi, kind, di, nd))) return;
  if (generated_only(pl, fi, kind) || (!protos_only && prototypes_blocked(pl, fi, kind, di, nd))) return;
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if ((d->declared & kind) || (protos_only && d->is_def) || !decl_editable(pl, d, f)) continue;
    bool replaced = false;
    for (uint32_t k = 0; k < d->nattr; k++)
      if (p->attrs.v[d->attr_off + k].kind != kind) {
        plan_replace(pl, d, f, &p->attrs.v[d->attr_off + k], kind);
        replaced = true;
      }
    if (!replaced) plan_insert(pl, d, f, kind);
  }
}

static purity declared_class(uint8_t d)
{
  return (d & SUM_DECL_CONST) ? PURITY_CONST : (d & SUM_DECL_PURE) ? PURITY_PURE : PURITY_NORMAL;
}

/* Is f declared with its inferred class somewhere but a prototype lacks
 * it (a prototype without the attribute its definition has)? A fix killed
 * after writing the .c and before its header leaves exactly that, and the
 * plan must not depend on which edits were already made: the next run adds
 * the attribute to the prototypes still lacking it. A definition without
 * the attribute its prototypes carry is complete: GNU style (gnulib puts
 * _GL_ATTRIBUTE_PURE on prototypes only; GCC gives the definition the
 * attributes of the declarations before it), and fix --all re-adding it
 * made six edits on sed where suggest showed none (issue 35 item 7). */
static bool plan_incomplete(const link_prog *p, const link_func *f)
{
  if (!link_has_body(f) || (f->flags & (SFF_SYSTEM | SFF_VOID | SFF_NORETURN)) || f->cls == PURITY_NORMAL ||
      declared_class(f->declared) != (purity)f->cls)
    return false;
  uint8_t kind = f->cls == PURITY_CONST ? SUM_DECL_CONST : SUM_DECL_PURE;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, (uint32_t)(f - p->funcs.v), &nd);
  for (uint32_t k = 0; k < nd; k++)
    if (!p->decls.v[di[k]].is_def && !(p->decls.v[di[k]].declared & kind)) return true;
  return false;
}

/* A wrong attribute: downgraded to pure where the body is pure, removed
 * where it is neither. */
static void plan_misuse(planner *pl, uint32_t fi)
{
  const link_prog *p = pl->p;
  const link_func *f = &p->funcs.v[fi];
  purity decl = declared_class(f->declared);
  if (!link_has_body(f) || (f->flags & SFF_SYSTEM)) return;
  if (f->declared & (SUM_DECL_VOID_PURE | SUM_DECL_VOID_CONST))
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' returns void and is declared pure or const; "
                 "the compilers drop that attribute, so purist cannot locate it: remove it by hand",
                 shown(pl, f->loc.file), f->loc.line, f->loc.col, S(p, f->name));
  if (decl == PURITY_NORMAL || (purity)f->cls <= decl || (f->flags & SFF_VOID)) return;
  if (checks_barrier_only(p, fi)) {
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is beyond its attribute only by a compiler barrier, "
                 "which runs no instruction (see purist check); its attribute is left alone",
                 shown(pl, f->loc.file), f->loc.line, f->loc.col, S(p, f->name));
    return;
  }
  if (checks_math_errno_only(p, fi)) {
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' is beyond its attribute only by what a math function "
                 "writes into errno for arguments out of its domain (see purist check); its attribute is left alone",
                 shown(pl, f->loc.file), f->loc.line, f->loc.col, S(p, f->name));
    return;
  }
  if (checks_is_cheat(p, fi)) {
    fix_note_add(&pl->pl->notes, false, "%s:%u:%u: note: '%s' cheats deliberately (see purist check); "
                 "its attribute is left alone", shown(pl, f->loc.file), f->loc.line, f->loc.col, S(p, f->name));
    return;
  }
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (!(d->declared & (SUM_DECL_PURE | SUM_DECL_CONST)) || !decl_editable(pl, d, f)) continue;
    for (uint32_t k = 0; k < d->nattr; k++) {
      const sum_attr *a = &p->attrs.v[d->attr_off + k];
      if (f->cls == PURITY_PURE && a->kind == SUM_DECL_CONST) plan_replace(pl, d, f, a, SUM_DECL_PURE);
      else if (f->cls == PURITY_NORMAL) plan_remove(pl, d, f, a);
    }
  }
}

static int op_cmp(const void *a, const void *b)
{
  const fix_op *x = a, *y = b;
  int c = strcmp(x->info.file, y->info.file);
  if (c) return c;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return (int)y->prelude - (int)x->prelude;
}

/* Guard uses by file, kind, then place. */
static int guard_use_cmp(const void *a, const void *b)
{
  const struct guard_use *x = a, *y = b;
  if (x->d->loc.file != y->d->loc.file) return x->d->loc.file < y->d->loc.file ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  if (x->d->beg_line != y->d->beg_line) return x->d->beg_line < y->d->beg_line ? -1 : 1;
  return 0;
}

/* The #define of u's guard macro, just before u's declaration; the note
 * saying why once per file and kind (first). */
static void plan_guard_block(planner *pl, const struct guard_use *u, bool first)
{
  const link_func *f = &pl->p->funcs.v[u->fi];
  char *what = xasprintf("define %s for GNU compilers only (the file is read by other compilers too)",
                         fix_guard_macro(u->kind));
  fix_op *op = op_new(pl, u->d, f, FOP_INSERT, what);
  op->line = u->d->beg_line;
  op->col = 1;
  op->text = fix_guard_block(u->kind);
  op->expect = xstrdup(fix_written_name(pl->p, u->d, f));
  op->prelude = true;
  free(what);
  if (!first) return;
  uint32_t because = u->d->loc.file;
  fix_guard_header(pl->p, u->d->loc.file, &pl->guarded, &because);
  char *why = because == u->d->loc.file ? xstrdup("it tests _MSC_VER or __GNUC__")
              : xasprintf("the project is compiled by MSVC too (%s tests _MSC_VER)", shown(pl, because));
  fix_note_add(&pl->pl->notes, false, "%s: note: %s, so the attribute is written as %s, "
               "defined there as __attribute__((%s)) for GCC and Clang and as nothing for other compilers",
               shown(pl, u->d->loc.file), why, fix_guard_macro(u->kind), fix_kind_name(u->kind));
  free(why);
}

/* One #define of each guard macro a file uses (guard.c), before the first
 * declaration that uses it, and again before a later one the first is not
 * seen at: one under an #if group the first is outside of (opus_custom.h's
 * encoder and decoder prototypes, each under its own #if). */
static void plan_guards(planner *pl)
{
  size_t n = pl->guard_uses.n;
  if (n) qsort(pl->guard_uses.v, n, sizeof *pl->guard_uses.v, guard_use_cmp);
  for (size_t i = 0, j; i < n; i = j) {
    const struct guard_use *g = &pl->guard_uses.v[i];
    for (j = i + 1; j < n && pl->guard_uses.v[j].d->loc.file == g->d->loc.file && pl->guard_uses.v[j].kind == g->kind;)
      j++;
    unsigned nl = 0;
    char **reg = fix_guard_regions(S(pl->p, g->d->loc.file), &nl);
    VEC(const char *) defs = {0};
    for (size_t k = i; k < j; k++) {
      const struct guard_use *u = &pl->guard_uses.v[k];
      const char *at = reg && u->d->beg_line <= nl && reg[u->d->beg_line] ? reg[u->d->beg_line] : "";
      bool seen = false;
      for (size_t e = 0; e < defs.n && !seen; e++) seen = fix_guard_sees(defs.v[e], at);
      if (seen) continue;
      plan_guard_block(pl, u, defs.n == 0);
      vec_push(&defs, at);
    }
    for (unsigned l = 0; reg && l <= nl; l++) free(reg[l]);
    free(reg);
    vec_free(&defs);
  }
}

fix_plan *fix_plan_new(const link_prog *p, const fix_opts *o, char **err)
{
  fix_opts eff;
  if (!o->root || fix_spell_resolve(p, o, &eff, err) < 0) {
    if (!o->root) *err = xstrdup("fix needs the project root");
    return NULL;
  }
  fix_plan *plan = xcalloc(1, sizeof *plan);
  planner pl = { plan, p, &eff, { 0 }, checks_cfgdep_new(p), { 0 }, { 0 } };
  index_begins(&pl);
  bool project_std = c23_project_writes_std(p);
  if (eff.spelling == FIX_SPELL_STD) fix_c23_std_note(p, &plan->notes);
  /* suggest's default: only what gains (issue 19); --all applies the rest. */
  checks_gain *gains = eff.all ? NULL : checks_gains_new(p, eff.whole_program);
  size_t no_gain = 0;
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    if (o->want && !o->want(o->want_ctx, S(p, p->funcs.v[fi].loc.file))) continue;   /* out of the report's scope */
    if (c23_std_for(&p->funcs.v[fi], eff.spelling == FIX_SPELL_STD, project_std)) {
      fix_plan_c23(&pl, fi);
      continue;
    }
    if (checks_suggestable(p, &p->funcs.v[fi])) {
      if (!gains || checks_gain_pays(&gains[fi])) plan_suggestion(&pl, fi, false);
      else no_gain++;
    } else if (plan_incomplete(p, &p->funcs.v[fi])) {
      plan_suggestion(&pl, fi, true);   /* an interrupted fix is finished whatever it gains */
    } else if (eff.fix_misuse) {
      plan_misuse(&pl, fi);
    }
  }
  if (no_gain)
    fix_note_add(&plan->notes, false, "note: %zu suggestion%s without gain not applied (no call in another "
                 "file that the attribute would let the compiler delete, merge or hoist): --all applies them",
                 no_gain, no_gain == 1 ? "" : "s");
  plan_guards(&pl);
  free(gains);
  ptrmap_free(&pl.begins);
  ptrmap_free(&pl.guarded);
  vec_free(&pl.guard_uses);
  free(pl.cfgdep);
  if (plan->ops.n) qsort(plan->ops.v, plan->ops.n, sizeof *plan->ops.v, op_cmp);
  return plan;
}

fix_op *fix_plan_op(planner *pl, const sum_decl *d, const link_func *f, fix_op_kind kind, const char *what)
{
  return op_new(pl, d, f, kind, what);
}

bool fix_plan_editable(planner *pl, const sum_decl *d, const link_func *f) { return decl_editable(pl, d, f); }

bool fix_plan_cfgdep(planner *pl, uint32_t fi, uint8_t kind, const uint32_t *di, uint32_t nd)
{
  return config_dependent(pl, fi, kind, di, nd);
}

const link_prog *fix_plan_prog(const planner *pl) { return pl->p; }
const fix_opts *fix_plan_opts(const planner *pl) { return pl->o; }
fix_notes *fix_plan_notes_of(planner *pl) { return &pl->pl->notes; }

void fix_plan_free(fix_plan *pl)
{
  if (!pl) return;
  for (size_t i = 0; i < pl->ops.n; i++) {
    fix_op *op = &pl->ops.v[i];
    free(op->info.file);
    free(op->shown);
    free(op->info.function);
    free(op->info.what);
    free(op->text);
    free(op->expect);
  }
  vec_free(&pl->ops);
  fix_notes_free(&pl->notes);
  free(pl);
}

size_t fix_plan_count(const fix_plan *pl) { return pl->ops.n; }

const fix_edit_info *fix_plan_edit(const fix_plan *pl, size_t i) { return &pl->ops.v[i].info; }

const fix_notes *fix_plan_notes(const fix_plan *pl) { return &pl->notes; }
