/* guard.c — precondition guards' reports, as the link sees them (link.h). */
#include "link/link.h"
#include <string.h>

/* The guard's report is a statement (`g_return_if_fail_warning (…);`);
 * a call whose value is used is the guard's test or the value it returns,
 * which run on every path and count in full. */
bool link_guard_call(const link_prog *p, const link_call *cl)
{
  const char *m = cl->macro ? strtab_get(p->strs, cl->macro) : NULL;
  if (!m || cl->use != SCU_DISCARDED) return false;
  return strstr(m, "_if_fail") || strstr(m, "_if_reached") || !strncmp(m, "assert_return", 13);
}
