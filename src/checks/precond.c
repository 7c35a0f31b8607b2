/* precond.c — precondition guards (precond.h). */
#include "checks/precond.h"
#include <string.h>

static const char *precond_name(const link_prog *p, const link_call *cl)
{
  return cl->macro ? strtab_get(p->strs, cl->macro) : NULL;
}

/* The guard's report is a statement (`g_return_if_fail_warning (…);`);
 * a call whose value is used is the guard's test or the value it returns,
 * which run on every path and count in full. */
bool precond_call(const link_prog *p, const link_call *cl)
{
  const char *m = precond_name(p, cl);
  if (!m || cl->use != SCU_DISCARDED) return false;
  return strstr(m, "_if_fail") || strstr(m, "_if_reached") || !strncmp(m, "assert_return", 13);
}

const char *precond_off(const link_prog *p, const link_call *cl)
{
  const char *m = precond_name(p, cl);
  return m && !strncmp(m, "g_", 2) ? " (built with G_DISABLE_CHECKS there is no such path)" : "";
}
