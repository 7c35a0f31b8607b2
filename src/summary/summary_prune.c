/* summary_prune.c — see summary.h (summary_prune).
 *
 * A TU's summary as the front end makes it lists every function the TU
 * declares, so every TU repeats the hundreds of prototypes of libc's and
 * the project's headers. The link needs only what this TU adds: the
 * functions it defines, those it calls or passes, those a declaration here
 * says something about (an attribute, weak), their declarations, and the
 * strings those name. Issue 24: objects and binaries built through
 * `purist cc` stay small. The one thing lost is which attribute macros
 * every TU defines before a header's prototype; STF_PRUNED tells the link,
 * which then never spells an attribute on a header prototype with a macro
 * from such a record (link.c): fix writes __attribute__ there, valid in
 * every TU. */
#include "summary/summary.h"
#include <string.h>

/* Must function f stay, whatever refers to it? */
static bool prune_keep_self(const sum_func *f)
{
  return (f->flags & (SFF_BODY | SFF_WEAK)) || f->declared;
}

/* keep[i] = 1 + new index of function i, or 0 if it goes. */
static uint32_t prune_mark(const sum_tu *tu, uint32_t *keep)
{
  for (size_t i = 0; i < tu->funcs.n; i++) keep[i] = prune_keep_self(&tu->funcs.v[i]);
  for (size_t i = 0; i < tu->calls.n; i++) {
    keep[tu->calls.v[i].callee] = 1;
    if (tu->calls.v[i].inl_callee) keep[tu->calls.v[i].inl_callee - 1] = 1;
  }
  for (size_t i = 0; i < tu->fnargs.n; i++)
    if (tu->fnargs.v[i].kind == SFA_FUNC) keep[tu->fnargs.v[i].value] = 1;
  for (size_t i = 0; i < tu->fstores.n; i++) {
    const sum_fstore *s = &tu->fstores.v[i];
    if (s->func) keep[s->func - 1] = 1;
    if (sum_fstore_names_func(s)) keep[s->value] = 1;
  }
  for (size_t i = 0; i < tu->fcalls.n; i++) keep[tu->fcalls.v[i].func] = 1;
  for (size_t i = 0; i < tu->rmembers.n; i++)
    if (tu->rmembers.v[i].kind == SFA_FUNC) keep[tu->rmembers.v[i].value] = 1;   /* func has a body */
  uint32_t n = 0;
  for (size_t i = 0; i < tu->funcs.n; i++) keep[i] = keep[i] ? ++n : 0;
  return n;
}

/* Drops the functions not kept and renumbers every reference to one.
 * Dropped functions are declarations only: no effects, calls or facts of
 * theirs are left behind. */
static void prune_funcs(sum_tu *tu, const uint32_t *keep)
{
  size_t n = 0;
  for (size_t i = 0; i < tu->funcs.n; i++)
    if (keep[i]) tu->funcs.v[n++] = tu->funcs.v[i];
  tu->funcs.n = n;
  for (size_t i = 0; i < tu->calls.n; i++) {
    sum_call *c = &tu->calls.v[i];
    c->callee = keep[c->callee] - 1;
    if (c->inl_callee) c->inl_callee = keep[c->inl_callee - 1];
  }
  for (size_t i = 0; i < tu->fnargs.n; i++)
    if (tu->fnargs.v[i].kind == SFA_FUNC) tu->fnargs.v[i].value = keep[tu->fnargs.v[i].value] - 1;
  for (size_t i = 0; i < tu->fstores.n; i++) {
    sum_fstore *s = &tu->fstores.v[i];
    if (s->func) s->func = keep[s->func - 1];
    if (sum_fstore_names_func(s)) s->value = keep[s->value] - 1;
  }
  for (size_t i = 0; i < tu->fcalls.n; i++) tu->fcalls.v[i].func = keep[tu->fcalls.v[i].func] - 1;
  for (size_t i = 0; i < tu->rmembers.n; i++) {
    sum_rmember *m = &tu->rmembers.v[i];
    m->func = keep[m->func] - 1;
    if (m->kind == SFA_FUNC) m->value = keep[m->value] - 1;
  }
  n = 0;
  for (size_t i = 0; i < tu->decls.n; i++) {
    sum_decl d = tu->decls.v[i];
    if (!keep[d.func]) continue;   /* its attributes (attr_off) stay: a table of a few entries */
    d.func = keep[d.func] - 1;
    tu->decls.v[n++] = d;
  }
  tu->decls.n = n;
}

/* The file hashes fix checks are those of files holding a declaration. */
static void prune_files(sum_tu *tu)
{
  size_t n = 0;
  for (size_t i = 0; i < tu->files.n; i++) {
    bool used = tu->files.v[i].file == tu->main_file;
    for (size_t d = 0; d < tu->decls.n && !used; d++) used = tu->decls.v[d].loc.file == tu->files.v[i].file;
    if (used) tu->files.v[n++] = tu->files.v[i];
  }
  tu->files.n = n;
}

/* Copies string *id into the new table. */
static void prune_str(const strtab *old, strtab *nt, uint32_t *id)
{
  if (*id) *id = strtab_intern_n(nt, strtab_get(old, *id), strtab_len(old, *id));
}

static void prune_loc(const strtab *old, strtab *nt, sum_loc *l) { prune_str(old, nt, &l->file); }

/* A new string table holding only the strings still named: every string
 * field of summary.h's records is listed here. */
static void prune_strings(sum_tu *tu)
{
  strtab *old = tu->strs, *nt = strtab_new();
  prune_str(old, nt, &tu->main_file);
  for (size_t i = 0; i < tu->funcs.n; i++) {
    sum_func *f = &tu->funcs.v[i];
    prune_str(old, nt, &f->name); prune_str(old, nt, &f->keyfile); prune_loc(old, nt, &f->loc);
  }
  for (size_t i = 0; i < tu->effs.n; i++) {
    sum_effect *e = &tu->effs.v[i];
    prune_str(old, nt, &e->name); prune_str(old, nt, &e->guard); prune_str(old, nt, &e->macro);
    prune_str(old, nt, &e->cond);
    prune_loc(old, nt, &e->loc);
  }
  for (size_t i = 0; i < tu->calls.n; i++) {
    sum_call *c = &tu->calls.v[i];
    prune_str(old, nt, &c->guard); prune_str(old, nt, &c->macro); prune_loc(old, nt, &c->loc);
  }
  for (size_t i = 0; i < tu->decls.n; i++) {
    sum_decl *d = &tu->decls.v[i];
    prune_loc(old, nt, &d->loc);
    prune_str(old, nt, &d->macro_pure); prune_str(old, nt, &d->macro_const);
    prune_str(old, nt, &d->macro_repro); prune_str(old, nt, &d->macro_unseq);
    prune_str(old, nt, &d->spelled);
  }
  for (size_t i = 0; i < tu->attrs.n; i++) prune_str(old, nt, &tu->attrs.v[i].macro);
  for (size_t i = 0; i < tu->macros.n; i++) prune_str(old, nt, &tu->macros.v[i].name);
  for (size_t i = 0; i < tu->files.n; i++) prune_str(old, nt, &tu->files.v[i].file);
  for (size_t i = 0; i < tu->fstores.n; i++) prune_str(old, nt, &tu->fstores.v[i].field);
  for (size_t i = 0; i < tu->fcalls.n; i++) prune_str(old, nt, &tu->fcalls.v[i].field);
  strtab_free(old);
  tu->strs = nt;
}

void summary_prune(sum_tu *tu)
{
  /* Without every TU's view of a header's declarations, the link cannot
   * tell that an attribute macro is defined before them in all TUs. */
  tu->flags |= STF_PRUNED;
  uint32_t *keep = xcalloc(tu->funcs.n ? tu->funcs.n : 1, sizeof *keep);
  if (prune_mark(tu, keep) < tu->funcs.n) prune_funcs(tu, keep);
  free(keep);
  prune_files(tu);
  prune_strings(tu);
}
