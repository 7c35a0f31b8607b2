/* precond.c — precondition guards (precond.h). */
#include "checks/precond.h"
#include <string.h>

const char *precond_off(const link_prog *p, const link_call *cl)
{
  uint32_t id = link_guard_macro(p, cl);
  const char *m = id ? strtab_get(p->strs, id) : NULL;
  return m && !strncmp(m, "g_", 2) ? " (built with G_DISABLE_CHECKS there is no such path)" : "";
}
