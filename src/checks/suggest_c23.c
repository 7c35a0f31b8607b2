/* suggest_c23.c — where C23's [[unsequenced]] / [[reproducible]] belong
 * (issue 15), for the functions suggest speaks C23 for: --spelling=std, or
 * a TU compiled as C23 in a project that already writes C23 attributes
 * (c23_std_for). A function whose body keeps a stronger C23 promise than
 * its declarations make gets a suggestion at every prototype a caller sees
 * (external) or at its definition (static), like the GNU ones — including
 * functions GNU const/pure cannot describe: out-parameter writers,
 * void functions writing through their pointer parameters, private memos. */
#include "checks/checks.h"
#include "link/c23.h"
#include "report/c23_reason.h"
#include "report/reason.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* Would fix write a C23 attribute on fi? */
static bool c23_suggestable(const link_prog *p, uint32_t fi)
{
  const link_func *f = &p->funcs.v[fi];
  if (!link_has_body(f) || (f->flags & SFF_SYSTEM) || !c23_useful(p, fi)) return false;
  return p->c23[fi].cls < c23_declared(f->declared);
}

static void c23_message(strbuf *m, const link_prog *p, uint32_t fi, const char *root)
{
  const link_func *f = &p->funcs.v[fi];
  const link_c23 *r = &p->c23[fi];
  const char *cls = c23_class_name((c23_class)r->cls);
  sb_printf(m, "'%s' can be declared [[%s]]: it ", S(p, f->name), cls);
  if (r->cls == C23_UNSEQUENCED) c23_reason_head(m, p, fi, root);
  else { sb_puts(m, "is effectless and idempotent, but "); c23_reason_head(m, p, fi, root); }
  if (r->st.pw) sb_puts(m, " (stores through a pointer parameter are allowed: GNU const or pure cannot say this)");
  if (r->st.memo) sb_puts(m, " (a private memo is allowed in reproducible)");
  if (f->st.mnr) {
    sb_puts(m, "; only if it is known to return normally (may not return: ");
    reason_mnr(m, p, f, root);
    sb_puts(m, ")");
  }
  sb_printf(m, "; write [[%s]] after the declarator of %s, before its ';' or body", cls,
            f->linkage == SUM_INTERNAL ? "the definition" : "the prototype");
}

static void c23_emit(const link_prog *p, const checks_opts *o, uint32_t fi, diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  strbuf msg = {0};
  c23_message(&msg, p, fi, o->root);
  const char *check = p->c23[fi].cls == C23_UNSEQUENCED ? "suggest-unsequenced" : "suggest-reproducible";
  int emitted = 0;
  uint32_t nd;
  const uint32_t *di = link_decls_of(p, fi, &nd);
  for (uint32_t k = 0; k < nd; k++) {
    const sum_decl *d = &p->decls.v[di[k]];
    if (d->is_def != (f->linkage == SUM_INTERNAL)) continue;
    checks_emit(out, p, o, check, DIAG_WARNING, d->loc, f, sb_str(&msg));
    emitted++;
  }
  if (!emitted) checks_emit(out, p, o, check, DIAG_WARNING, f->loc, f, sb_str(&msg));
  sb_free(&msg);
}

void checks_suggest_c23(const link_prog *p, const checks_opts *o, diag_list *out)
{
  if (!p->c23) return;
  bool project_std = c23_project_writes_std(p);
  for (uint32_t fi = 0; fi < p->funcs.n; fi++)
    if (c23_std_for(&p->funcs.v[fi], o->std_attrs, project_std) && c23_suggestable(p, fi)) c23_emit(p, o, fi, out);
}
