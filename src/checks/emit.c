/* emit.c — where a finding is placed and how it is added: every check
 * (misuse, suggest, explain, the cheats, C23) reports through here, so the
 * related prototype of a generated file and the printed path are the same
 * in all of them. */
#include "checks/checks.h"
#include "link/c23.h"
#include "report/reason.h"
#include <string.h>

diag *checks_emit(diag_list *out, const link_prog *p, const checks_opts *o, const char *check,
                  diag_severity sev, sum_loc at, const link_func *f, const char *msg)
{
  strbuf rel = {0};
  reason_path(&rel, p, at.file, o->root);
  diag *d = diag_add(out, check, sev, sb_str(&rel), strtab_get(p->strs, at.file), at.line, at.col,
                     strtab_get(p->strs, f->name), msg);
  diag_set_decl(d, strtab_get(p->strs, f->loc.file), f->loc.line);
  bool ours = f >= p->funcs.v && f < p->funcs.v + p->funcs.n;
  if (p->c23 && ours) d->c23 = c23_class_name((c23_class)p->c23[f - p->funcs.v].cls);
  sb_free(&rel);
  /* An attribute's finding placed at the editable declaration or the
   * definition: the generated prototype that repeats it, as related. */
  const sum_decl *gen = ours && (!strncmp(check, "misuse", 6) || !strncmp(check, "cheat", 5))
                            ? checks_generated_attr_decl(p, (uint32_t)(f - p->funcs.v), at) : NULL;
  if (gen) checks_related(d, p, o, gen->loc, "the attribute is repeated in this prototype, which the build "
                                             "generates from the definition");
  return d;
}

void checks_related(diag *d, const link_prog *p, const checks_opts *o, sum_loc at, const char *msg)
{
  strbuf rel = {0};
  reason_path(&rel, p, at.file, o->root);
  diag_add_related(d, sb_str(&rel), strtab_get(p->strs, at.file), at.line, at.col, msg);
  sb_free(&rel);
}

/* Where the attribute was written: the first declaration carrying it,
 * a prototype before the definition; never a file the build generates
 * (neovim's x.h.generated.h, copied from the definition's attributes),
 * which the user cannot edit or a SARIF viewer show: there the definition
 * stands for it (checks_emit adds the generated prototype as related). */
sum_loc checks_attr_loc(const link_prog *p, uint32_t fi, uint8_t bits)
{
  const sum_decl *best = NULL, *gen = NULL, *def = NULL;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    bool g = checks_file_generated(p, d->loc.file);
    if (d->is_def && !g && !def) def = d;
    if (!(d->declared & bits)) continue;
    if (g) { if (!gen) gen = d; continue; }
    if (!best || (best->is_def && !d->is_def)) best = d;
  }
  if (best) return best->loc;
  if (gen && def) return def->loc;
  if (gen && !checks_file_generated(p, p->funcs.v[fi].loc.file)) return p->funcs.v[fi].loc;
  return gen ? gen->loc : p->funcs.v[fi].loc;
}

/* A prototype in a generated file carrying f's declared attribute, when
 * the diagnostic is placed elsewhere (checks_attr_loc); NULL if none. */
const sum_decl *checks_generated_attr_decl(const link_prog *p, uint32_t fi, sum_loc at)
{
  if (checks_file_generated(p, at.file)) return NULL;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if ((d->declared & (SUM_DECL_GNU | SUM_DECL_C23)) && checks_file_generated(p, d->loc.file)) return d;
  }
  return NULL;
}

sum_loc checks_why_loc(const link_prog *p, const link_func *f, link_why why, uint32_t *macro)
{
  *macro = 0;
  if (why.kind == WHY_EFFECT) { *macro = p->effs.v[why.index].macro; return p->effs.v[why.index].loc; }
  if (why.kind == WHY_CALL) { *macro = p->calls.v[why.index].macro; return p->calls.v[why.index].loc; }
  return f->loc;
}

void checks_why_where(strbuf *msg, const link_prog *p, const checks_opts *o, const link_func *f, link_why why,
                      const strbuf *via)
{
  uint32_t macro;
  sum_loc at = checks_why_loc(p, f, why, &macro);
  sb_puts(msg, " (");
  if (via->n) sb_printf(msg, "via %s, ", via->s);
  reason_path(msg, p, at.file, o->root);
  sb_printf(msg, ":%u:%u", at.line, at.col);
  reason_macro(msg, p, macro);
  sb_puts(msg, ")");
}

void checks_related_why(diag *d, const link_prog *p, const checks_opts *o, const link_func *f, link_why why,
                        const char *suffix)
{
  uint32_t macro;
  sum_loc at = checks_why_loc(p, f, why, &macro);
  strbuf here = {0};
  reason_head_why(&here, p, f, why, o->root);
  sb_printf(&here, " here%s", suffix);
  reason_macro(&here, p, macro);
  checks_related(d, p, o, at, sb_str(&here));
  sb_free(&here);
}
