/* c23.c — the C23 class of every function (issue 15; the rules and their
 * citations: docs/c23-attributes.md). */
#include "link/c23.h"

const char *c23_class_name(c23_class c)
{
  return c == C23_UNSEQUENCED ? "unsequenced" : c == C23_REPRODUCIBLE ? "reproducible" : "none";
}

c23_class c23_declared(uint8_t d)
{
  if (d & SUM_DECL_UNSEQUENCED) return C23_UNSEQUENCED;
  if (d & SUM_DECL_REPRODUCIBLE) return C23_REPRODUCIBLE;
  return C23_NONE;
}

const char *declared_c23_name(uint8_t d)
{
  return c23_class_name(c23_declared(d));
}
