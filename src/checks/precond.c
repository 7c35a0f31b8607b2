/* precond.c — precondition guards (precond.h). */
#include "checks/precond.h"
#include <string.h>

const char *precond_off(const link_prog *p, const link_call *cl)
{
  const char *m = cl->macro ? strtab_get(p->strs, cl->macro) : NULL;
  return m && !strncmp(m, "g_", 2) ? " (built with G_DISABLE_CHECKS there is no such path)" : "";
}
