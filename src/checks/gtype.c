/* gtype.c — GObject's X_get_type functions declared const (issue 22,
 * item 9).
 *
 * G_DEFINE_TYPE's X_get_type registers the type on its first call and
 * caches the id under g_once_init_enter. Declared G_GNUC_CONST (ostree's
 * #3626) it is a memo, but staleness is not what goes wrong: a call made
 * for the registration alone may be deleted or moved, and the type is not
 * registered when code expects it. The cheat note says so, naming the
 * registering call (found here) and the fix maintainers chose. */
#include "checks/checks.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* GLib's type registration: g_type_register_static(_simple),
 * g_enum_register_static, g_boxed_type_register_static, … */
static bool gtype_is_register(const char *name)
{
  return !strncmp(name, "g_", 2) && strstr(name, "_register") != NULL;
}

static bool gtype_ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), m = strlen(tail);
  return n >= m && !strcmp(s + n - m, tail);
}

enum { GTYPE_DEPTH = 4 };

/* The registering call under function fi, depth calls down at most; *via
 * gets fi's callee it is reached through (0: fi calls it itself). */
static uint32_t gtype_find(const link_prog *p, uint32_t fi, int depth, uint32_t *via)
{
  const link_func *f = &p->funcs.v[fi];
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_func *g = &p->funcs.v[p->calls.v[f->call_off + i].callee];
    if (gtype_is_register(S(p, g->name))) { *via = 0; return g->name; }
  }
  if (depth <= 0) return 0;
  for (uint32_t i = 0; i < f->ncall; i++) {
    uint32_t gi = p->calls.v[f->call_off + i].callee;
    uint32_t under;
    if (gi == fi || !link_has_body(&p->funcs.v[gi])) continue;
    uint32_t r = gtype_find(p, gi, depth - 1, &under);
    if (r) { *via = p->funcs.v[gi].name; return r; }
  }
  return 0;
}

uint32_t checks_gtype_registration(const link_prog *p, uint32_t fi, uint32_t *via)
{
  *via = 0;
  if (!gtype_ends_with(S(p, p->funcs.v[fi].name), "_get_type")) return 0;
  return gtype_find(p, fi, GTYPE_DEPTH, via);
}
