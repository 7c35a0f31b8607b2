/* spell.c — how an inserted attribute is written: the project's own way.
 *
 * Auto: a macro of the project's that expands to exactly the attribute and
 * is defined before the declaration in every TU that sees it (so the edit
 * compiles everywhere); a system header's macro only if the project
 * already writes it on its own declarations (e.g. __attribute_const__,
 * G_GNUC_CONST); else [[gnu::…]] if the project writes more of those than
 * __attribute__, else __attribute__((…)). A macro that lives only in the
 * build's command (-D, -include, the compiler's own) counts as a system
 * header's: used only if the project already writes it. */
#include "fix/fix_internal.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

static const char *fix_shown(const link_prog *p, const fix_opts *o, uint32_t file)
{
  const char *rel = fix_rel(S(p, file), o->root);
  return rel ? rel : S(p, file);
}

const char *fix_kind_name(uint8_t kind)
{
  if (kind == SUM_DECL_UNSEQUENCED) return "unsequenced";
  if (kind == SUM_DECL_REPRODUCIBLE) return "reproducible";
  return kind == SUM_DECL_CONST ? "const" : "pure";
}

const char *fix_kind_word(uint8_t kind, const char *old)
{
  bool underscores = old && !strncmp(old, "__", 2);
  if (kind == SUM_DECL_UNSEQUENCED) return underscores ? "__unsequenced__" : "unsequenced";
  if (kind == SUM_DECL_REPRODUCIBLE) return underscores ? "__reproducible__" : "reproducible";
  if (kind == SUM_DECL_CONST) return underscores ? "__const__" : "const";
  return underscores ? "__pure__" : "pure";
}

static fix_spelled spell_written(uint8_t kind, uint8_t form)
{
  fix_spelled s;
  s.form = form;
  if (kind & SUM_DECL_C23) { s.form = SA_STD; s.text = xasprintf("[[%s]]", fix_kind_name(kind)); return s; }
  s.text = form == SA_C23 ? xasprintf("[[gnu::%s]]", fix_kind_name(kind))
                          : xasprintf("__attribute__((%s))", fix_kind_name(kind));
  return s;
}

/* The project's habit for attributes written out: [[gnu::]] or __attribute__. */
static uint8_t spell_habit(const link_prog *p)
{
  size_t c23 = 0, gnu = 0;
  for (size_t i = 0; i < p->attrs.n; i++) {
    if (p->attrs.v[i].macro) continue;
    if (p->attrs.v[i].form == SA_C23) c23++; else gnu++;
  }
  return c23 > gnu ? SA_C23 : SA_GNU;
}

static const char *spell_requested(const fix_opts *o, uint8_t kind)
{
  return kind == SUM_DECL_CONST ? o->macro_const : o->macro_pure;
}

/* Where a macro with no #define in a source file comes from, as a note. */
static const char *spell_origin(uint8_t origin)
{
  switch (origin) {
  case SMO_CMDLINE: return "is defined on the compile command (-D), not in a source file";
  case SMO_BUILTIN: return "is predefined by the compiler, not defined in a source file";
  default: return "is defined in a file the compile command -include's, which the sources never include";
  }
}

/* A macro of the build's command line (or compiler, or -include) is not
 * written into a file the project's sources do not already spell it in:
 * the edited file would compile only with that command. Said once per
 * macro. */
static void spell_note_origin(const link_prog *p, const sum_macro *m, fix_notes *notes)
{
  char *text = xasprintf("note: macro %s %s; the project does not write it on a declaration, so fix writes "
                         "the attribute out (the edited files must compile without that build's flags)",
                         S(p, m->name), spell_origin(m->origin));
  for (size_t i = 0; i < notes->n; i++)
    if (!strcmp(notes->v[i].text, text)) { free(text); return; }
  fix_note_add(notes, false, "%s", text);
  free(text);
}

/* A C23 attribute: the project's macro for it when usable (as for GNU
 * ones), else written out. */
static fix_spelled spell_std(const link_prog *p, const sum_decl *d, uint8_t kind, fix_notes *notes)
{
  uint32_t visible = kind == SUM_DECL_UNSEQUENCED ? d->macro_unseq : d->macro_repro;
  const sum_macro *m = link_attr_macro(p, visible, kind);
  if (m && link_attr_macro_own(p, m)) {
    fix_spelled s = { xstrdup(S(p, m->name)), SA_STD };
    return s;
  }
  if (m && m->origin != SMO_FILE) spell_note_origin(p, m, notes);
  return spell_written(kind, SA_STD);
}

fix_spelled fix_spell(const link_prog *p, const fix_opts *o, const sum_decl *d, uint8_t kind, fix_notes *notes)
{
  if (kind & SUM_DECL_C23) return spell_std(p, d, kind, notes);
  if (o->spelling == FIX_SPELL_GNU) return spell_written(kind, SA_GNU);
  if (o->spelling == FIX_SPELL_C23) return spell_written(kind, SA_C23);
  uint32_t visible = kind == SUM_DECL_CONST ? d->macro_const : d->macro_pure;
  const sum_macro *m = link_attr_macro(p, visible, kind);
  if (o->spelling == FIX_SPELL_MACRO) {
    const char *want = spell_requested(o, kind);
    if (want && m && !strcmp(S(p, m->name), want)) {
      fix_spelled s = { xstrdup(want), m->form };
      return s;
    }
    if (want)
      fix_note_add(notes, false, "%s:%u:%u: note: macro %s is not defined before this declaration in every "
                   "file that includes it; wrote __attribute__((%s)) here", fix_shown(p, o, d->loc.file), d->loc.line,
                   d->loc.col, want, fix_kind_name(kind));
    return spell_written(kind, SA_GNU);
  }
  if (m && link_attr_macro_own(p, m)) {
    fix_spelled s = { xstrdup(S(p, m->name)), m->form };
    return s;
  }
  if (m && m->origin != SMO_FILE) spell_note_origin(p, m, notes);
  return spell_written(kind, spell_habit(p));
}

int fix_spell_resolve(const link_prog *p, const fix_opts *o, fix_opts *eff, char **err)
{
  *eff = *o;
  if (o->spelling != FIX_SPELL_MACRO) return 0;
  eff->macro_pure = eff->macro_const = NULL;
  const char *names[2] = { o->macro_pure, o->macro_const };
  for (int k = 0; k < 2; k++) {
    if (!names[k]) continue;
    uint32_t id = strtab_find(p->strs, names[k]);
    const sum_macro *m = NULL;
    for (size_t i = 0; id != UINT32_MAX && i < p->macros.n && !m; i++)
      if (p->macros.v[i].name == id && p->macros.v[i].kind) m = &p->macros.v[i];
    if (!m) {
      *err = xasprintf("--spelling=macro:%s: the analysed code defines no macro %s that expands to exactly "
                       "__attribute__((pure)), __attribute__((const)) or [[gnu::pure]], [[gnu::const]]",
                       names[k], names[k]);
      return -1;
    }
    if (m->kind == SUM_DECL_CONST) eff->macro_const = names[k]; else eff->macro_pure = names[k];
  }
  return 0;
}
