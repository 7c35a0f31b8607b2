/* plan_c23.c — fix in C23's own words (issue 15): [[unsequenced]] and
 * [[reproducible]] where the body keeps the promise.
 *
 * Used with --spelling=std, or automatically for a function whose TU is
 * compiled as C23 (-std=c23/c2x/gnu2x) in a project that already writes
 * C23 attributes. The attribute goes right after the declarator — after
 * the parameter list, before the `;` or the body — where C23 makes it
 * appertain to the function type, on every declaration the project wrote
 * (a prototype and the definition alike: both compilers accept it there,
 * unlike GNU attributes). An existing C23 attribute of the other kind is
 * replaced; with --fix-misuse a wrong one is weakened (unsequenced →
 * reproducible) or removed. The project's macro for the attribute is used
 * when it has one (spell.c). Functions GNU const/pure cannot describe are
 * included: a void function writing through a pointer parameter, a
 * private memo (reproducible). The class comes from the bodies, never from
 * the attributes edited, so a second run plans nothing. */
#include "fix/fix_internal.h"
#include "link/c23.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

static uint8_t c23_kind(c23_class c) { return c == C23_UNSEQUENCED ? SUM_DECL_UNSEQUENCED : SUM_DECL_REPRODUCIBLE; }

static void c23_insert(planner *pl, const sum_decl *d, const link_func *f, uint8_t kind)
{
  const link_prog *p = fix_plan_prog(pl);
  fix_spelled sp = fix_spell(p, fix_plan_opts(pl), d, kind, fix_plan_notes_of(pl));
  char *what = xasprintf("add %s", sp.text);
  fix_op *op = fix_plan_op(pl, d, f, FOP_INSERT_DECLARATOR, what);
  op->text = xasprintf(" %s", sp.text);
  op->expect = xstrdup(fix_written_name(p, d, f));
  free(what);
  free(sp.text);
}

/* Attribute a (a C23 one) on d becomes `kind`: its word, or its macro
 * replaced by this kind's spelling. */
static void c23_replace(planner *pl, const sum_decl *d, const link_func *f, const sum_attr *a, uint8_t kind)
{
  const link_prog *p = fix_plan_prog(pl);
  char *what = xasprintf("%s -> %s", fix_kind_name(a->kind), fix_kind_name(kind));
  fix_op *op = fix_plan_op(pl, d, f, FOP_REPLACE, what);
  op->line = a->beg_line;
  op->col = a->beg_col;
  op->end_line = a->end_line;
  op->end_col = a->end_col;
  if (a->macro) {
    fix_spelled sp = fix_spell(p, fix_plan_opts(pl), d, kind, fix_plan_notes_of(pl));
    op->text = sp.text;
    op->expect = xstrdup(S(p, a->macro));
  } else {
    op->text = xstrdup(fix_kind_word(kind, NULL));
  }
  free(what);
}

static void c23_remove(planner *pl, const sum_decl *d, const link_func *f, const sum_attr *a)
{
  const link_prog *p = fix_plan_prog(pl);
  char *what = xasprintf("remove %s", fix_kind_name(a->kind));
  fix_op *op = fix_plan_op(pl, d, f, FOP_REMOVE_ATTR, what);
  op->line = a->beg_line;
  op->col = a->beg_col;
  op->end_line = a->end_line;
  op->end_col = a->end_col;
  if (a->macro) op->expect = xstrdup(S(p, a->macro));
  free(what);
}

/* The C23 attribute written on d, or NULL. */
static const sum_attr *c23_attr_on(const link_prog *p, const sum_decl *d)
{
  for (uint32_t k = 0; k < d->nattr; k++)
    if (p->attrs.v[d->attr_off + k].kind & SUM_DECL_C23) return &p->attrs.v[d->attr_off + k];
  return NULL;
}

static void c23_suggestion(planner *pl, uint32_t fi, c23_class cls)
{
  const link_prog *p = fix_plan_prog(pl);
  const link_func *f = &p->funcs.v[fi];
  uint8_t kind = c23_kind(cls);
  if (f->st.mnr && !fix_plan_opts(pl)->include_mnr) {
    fix_note_add(fix_plan_notes_of(pl), false, "%s:%u:%u: note: '%s' is %s only if it is known to return "
                 "normally; not edited without --include-may-not-return", S(p, f->loc.file), f->loc.line,
                 f->loc.col, S(p, f->name), fix_kind_name(kind));
    return;
  }
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  if (nd && fix_plan_cfgdep(pl, fi, kind, di, nd)) return;
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if ((d->declared & kind) || !fix_plan_editable(pl, d, f)) continue;
    const sum_attr *a = c23_attr_on(p, d);
    if (a) c23_replace(pl, d, f, a, kind);
    else c23_insert(pl, d, f, kind);
  }
}

/* --fix-misuse: a wrong C23 attribute weakened or removed. */
static void c23_misuse(planner *pl, uint32_t fi, c23_class cls)
{
  const link_prog *p = fix_plan_prog(pl);
  const link_func *f = &p->funcs.v[fi];
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (!(d->declared & SUM_DECL_C23) || !fix_plan_editable(pl, d, f)) continue;
    for (uint32_t j = 0; j < d->nattr; j++) {
      const sum_attr *a = &p->attrs.v[d->attr_off + j];
      if (!(a->kind & SUM_DECL_C23)) continue;
      if (cls == C23_REPRODUCIBLE && a->kind == SUM_DECL_UNSEQUENCED) c23_replace(pl, d, f, a, SUM_DECL_REPRODUCIBLE);
      else if (cls == C23_NONE) c23_remove(pl, d, f, a);
    }
  }
}

void fix_plan_c23(planner *pl, uint32_t fi)
{
  const link_prog *p = fix_plan_prog(pl);
  const link_func *f = &p->funcs.v[fi];
  if (!link_has_body(f) || (f->flags & SFF_SYSTEM) || !p->c23) return;
  c23_class cls = (c23_class)p->c23[fi].cls, decl = c23_declared(f->declared);
  if (cls < decl && c23_useful(p, fi)) c23_suggestion(pl, fi, cls);
  else if (cls > decl && fix_plan_opts(pl)->fix_misuse) c23_misuse(pl, fi, cls);
}

void fix_c23_std_note(const link_prog *p, fix_notes *notes)
{
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (!link_has_body(f) || (f->flags & SFF_SYSTEM) || (f->tuflags & STF_STD_C23)) continue;
    fix_note_add(notes, false, "note: --spelling=std: some of the code (%s) is not compiled as C23 "
                 "(-std=c23, c2x, gnu2x); GCC and clang accept [[unsequenced]] there too, but a build "
                 "with an older -std and -pedantic-errors or -Werror may not", S(p, f->loc.file));
    return;
  }
}
