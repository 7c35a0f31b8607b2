/* cfgdep.c — which functions' classes hold only for the configuration
 * analysed: those with a declaration the front end marked SDF_CONFIG
 * (frontend/condfacts.c), and every function that calls one, directly or
 * through others. On curl without TLS, Curl_conn_may_http3 is a stub, and
 * Curl_http_setup_conn, which calls it, looked pure only because of it.
 * fix leaves them alone; suggest says so in a note at the definition. */
#include "checks/checks.h"
#include "util/xalloc.h"

/* Does declaration d hang on the configuration for the class its function
 * has? Not when the #if branches in its body are stubs that keep that
 * class (frontend/cfgstub.c: libpng's `#else PNG_UNUSED(png_ptr) #endif`
 * in a pure getter). */
static bool cd_decl_dep(const link_prog *p, const sum_decl *d)
{
  if (!(d->dflags & SDF_CONFIG)) return false;
  purity cls = (purity)p->funcs.v[d->func].cls;
  if (cls == PURITY_CONST) return !(d->dflags & SDF_CFG_CONST_OK);
  return !(cls == PURITY_PURE && (d->dflags & SDF_CFG_PURE_OK));
}

/* Marks the functions with a declaration that hangs on the configuration. */
static void cd_own(const link_prog *p, uint32_t *dep)
{
  for (size_t i = 0; i < p->decls.n; i++)
    if (cd_decl_dep(p, &p->decls.v[i])) dep[p->decls.v[i].func] = CHECKS_CFG_OWN;
  /* Another definition in a file not compiled here (src/win/thread.c
   * beside src/unix/thread.c): the prototype is shared by both. */
  for (uint32_t fi = 0; p->other_def && fi < p->funcs.n; fi++)
    if (p->other_def[fi] && !dep[fi]) dep[fi] = CHECKS_CFG_OTHER;
}

/* A call on a path that ends in a noreturn call (a failed assertion's
 * log_assert_failed) gives the caller at most reads, whatever the callee
 * does in any configuration (link_solve_cap_doomed): a caller that is
 * already pure, or normal, cannot get worse through it. systemd's
 * char16_strlen is pure on every configuration although the assertion's
 * log_assert_failed calls raw_getpid, which has an #if __alpha__ branch.
 * A const caller could become pure through it: that edge still counts. */
static bool cd_capped(const link_prog *p, const link_func *f, const link_call *c)
{
  return !p->strict && (c->flags & (SCF_NORETURN | SCF_DOOMED)) && (purity)f->cls != PURITY_CONST;
}

uint32_t *checks_cfgdep_new(const link_prog *p)
{
  uint32_t *dep = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *dep);
  cd_own(p, dep);
  /* Callers inherit until nothing changes: each round reaches one call
   * level further up, and call chains are short. */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
      const link_func *f = &p->funcs.v[fi];
      for (uint32_t k = 0; !dep[fi] && k < f->ncall; k++) {
        const link_call *c = &p->calls.v[f->call_off + k];
        uint32_t callee = c->callee;
        if (cd_capped(p, f, c)) continue;
        if (callee < p->funcs.n && callee != fi && dep[callee]) {
          dep[fi] = callee + 1;
          changed = true;
        }
      }
    }
  }
  return dep;
}
