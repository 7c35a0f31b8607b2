/* guard.c — precondition guards' reports, as the link sees them (link.h). */
#include "link/link.h"
#include <string.h>

static bool guard_name(const link_prog *p, uint32_t id)
{
  const char *m = id ? strtab_get(p->strs, id) : NULL;
  return m && (strstr(m, "_if_fail") || strstr(m, "_if_reached") || !strncmp(m, "assert_return", 13));
}

/* The guard's report is a statement (`g_return_if_fail_warning (…);`);
 * a call whose value is used is the guard's test or the value it returns,
 * which run on every path and count in full. The guard is the macro at
 * the call, or, when that macro only wraps it (a table macro whose default
 * arm is `g_return_val_if_reached (…)`), the one that spells the call. */
uint32_t link_guard_macro(const link_prog *p, const link_call *cl)
{
  if (cl->use != SCU_DISCARDED) return 0;
  if (guard_name(p, cl->macro)) return cl->macro;
  return guard_name(p, cl->spell_macro) ? cl->spell_macro : 0;
}

bool link_guard_call(const link_prog *p, const link_call *cl) { return link_guard_macro(p, cl) != 0; }
