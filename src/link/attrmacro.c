/* attrmacro.c — which attribute macro a program may be told to write.
 *
 * A macro that expands to the attribute is the project's own spelling only
 * if a file of the project defines it, or the project already writes it
 * on a declaration: glibc's __attribute_pure__ (sys/cdefs.h) is visible in
 * every TU on glibc, but a project that never wrote it does not compile
 * on the systems without it (PCRE2 builds with MSVC). fix (fix/spell.c)
 * and suggest's advice for generated headers (checks/generated.c) ask
 * here, so they name the same macro. */
#include "link/link.h"

const sum_macro *link_attr_macro(const link_prog *p, uint32_t name, uint8_t kind)
{
  for (size_t i = 0; name && i < p->macros.n; i++)
    if (p->macros.v[i].name == name) return p->macros.v[i].kind == kind ? &p->macros.v[i] : NULL;
  return NULL;
}

bool link_attr_macro_written(const link_prog *p, uint32_t name)
{
  for (size_t i = 0; i < p->attrs.n; i++)
    if (p->attrs.v[i].macro == name) return true;
  return false;
}

bool link_attr_macro_own(const link_prog *p, const sum_macro *m)
{
  return (!m->system && m->origin == SMO_FILE) || link_attr_macro_written(p, m->name);
}
