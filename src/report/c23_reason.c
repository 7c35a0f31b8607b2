/* c23_reason.c — the words for a function's C23 class (issue 15). */
#include "report/c23_reason.h"
#include "report/reason.h"

void c23_reason_head(strbuf *b, const link_prog *p, uint32_t fi, const char *root)
{
  const link_c23 *r = &p->c23[fi];
  if (r->why.kind == WHY_EFFECT) reason_effect_text(b, p, &p->effs.v[r->why.index]);
  else if (r->why.kind == WHY_CALL) reason_call_text(b, p, &p->calls.v[r->why.index], root);
  else if (r->why.kind == WHY_UNKNOWN_BODY) sb_puts(b, "has no body in the analysed code");
  else sb_puts(b, r->st.pw ? "writes only its locals and through its pointer parameters"
                           : "uses only its arguments, locals and what its pointer parameters point to");
}

/* Which of the standard's conditions the first cause breaks. */
static const char *c23_broken(const link_prog *p, uint32_t fi)
{
  const link_c23 *r = &p->c23[fi];
  if (r->idem) return "which it also reads through: not provably idempotent";
  if (r->why.kind == WHY_EFFECT && (p->effs.v[r->why.index].flags & SEF_ARG_VALUE))
    return "a cache filled from the arguments: an observable store, not effectless";
  if (r->cls == C23_NONE) return "not effectless";
  if (r->st.memo && r->why.kind == WHY_EFFECT && p->effs.v[r->why.index].kind == SE_WRITE_GLOBAL)
    return "a private memo no caller can observe: reproducible allows it, but unsequenced functions are stateless";
  return "reproducible, but unsequenced functions are stateless and independent";
}

void c23_reason(strbuf *b, const link_prog *p, uint32_t fi, const char *root)
{
  const link_c23 *r = &p->c23[fi];
  c23_reason_head(b, p, fi, root);
  if (r->why.kind == WHY_EFFECT || r->why.kind == WHY_CALL) {
    sum_loc at = r->why.kind == WHY_EFFECT ? p->effs.v[r->why.index].loc : p->calls.v[r->why.index].loc;
    sb_puts(b, " at ");
    reason_path(b, p, at.file, root);
    sb_printf(b, ":%u:%u (%s)", at.line, at.col, c23_broken(p, fi));
  }
}
