/* verify_watch.c — which functions `purist verify` watches, and the watch
 * list the runtime reads. */
#include "verify/verify.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* The class a function promises: its GNU attribute, else its C23 one
 * (unsequenced checked as const, reproducible as pure: *c23 says which, so
 * that the report applies the standard's allowances); with `suggested`,
 * what purist infers when there is no attribute. NORMAL: not watched. */
static purity watch_class(const link_func *f, bool suggested, bool *declared, uint8_t *c23)
{
  *declared = (f->declared & (SUM_DECL_GNU | SUM_DECL_C23)) != 0;
  *c23 = 0;
  if (!link_has_body(f) || (f->flags & SFF_SYSTEM)) return PURITY_NORMAL;
  if (!(f->declared & SUM_DECL_GNU) && (f->declared & SUM_DECL_C23)) {   /* void is fine for C23 */
    *c23 = (f->declared & SUM_DECL_UNSEQUENCED) ? SUM_DECL_UNSEQUENCED : SUM_DECL_REPRODUCIBLE;
    return *c23 == SUM_DECL_UNSEQUENCED ? PURITY_CONST : PURITY_PURE;
  }
  if (f->flags & SFF_VOID) return PURITY_NORMAL;
  if (f->declared & SUM_DECL_CONST) return PURITY_CONST;
  if (f->declared & SUM_DECL_PURE) return PURITY_PURE;
  return suggested ? (purity)f->cls : PURITY_NORMAL;
}

static int watch_cmp(const void *a, const void *b)
{
  const verify_fn *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->fi > y->fi) - (x->fi < y->fi);
}

void verify_watch_collect(const link_prog *p, bool suggested, verify_watch *out)
{
  for (size_t i = 0; i < p->funcs.n; i++) {
    verify_fn v = { .fi = (uint32_t)i, .name = S(p, p->funcs.v[i].name) };
    v.cls = watch_class(&p->funcs.v[i], suggested, &v.declared, &v.c23);
    if (v.cls != PURITY_NORMAL) vec_push(out, v);
  }
  if (out->n) qsort(out->v, out->n, sizeof *out->v, watch_cmp);
}

/* Two static functions may share a name; the runtime knows functions by
 * name, so such a name is watched once, as the weaker class (pure): the
 * read check of const must not fire for a pure namesake. */
int verify_watch_write(const verify_watch *w, const char *path, char **err)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    *err = xasprintf("%s: %s", path, strerror(errno));
    return -1;
  }
  fputs("# purist verify watch list: NAME const|pure\n", f);
  for (size_t i = 0; i < w->n;) {
    const char *name = w->v[i].name;
    purity cls = w->v[i].cls;
    size_t j = i + 1;
    for (; j < w->n && !strcmp(w->v[j].name, name); j++)
      cls = purity_join(cls, w->v[j].cls);
    fprintf(f, "%s %s\n", name, purity_name(cls));
    i = j;
  }
  if (fclose(f) != 0) {
    *err = xasprintf("%s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

const verify_fn *verify_watch_find(const verify_watch *w, const char *name)
{
  for (size_t i = 0; i < w->n; i++)
    if (!strcmp(w->v[i].name, name)) return &w->v[i];
  return NULL;
}
