/* kbcheat.c — declared pure/const functions resting on a library promise.
 *
 * Some library functions count as pure only by convention: gettext looks a
 * translation up in catalogs it loads on first use, and the answer changes
 * with the locale. The knowledge base marks such entries `cheat`; a function
 * declared pure or const whose body is otherwise right but reaches one of
 * them gets a note naming the call and the entry's reason, so the maintainer
 * knows what the attribute silently assumes (issue 13, item 9). */
#include "checks/checks.h"

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

typedef struct {
  uint32_t via[16];       /* functions with bodies on the way, after f */
  int nvia;
  const link_call *call;  /* the call to the cheating library function */
  const kb_entry *entry;
} kc_hit;

/* Depth-first through bodies: the first call, in f's call order, to a
 * knowledge-base cheat. Calls on paths that end in a noreturn call are
 * skipped: their value only feeds an error message that dies with them. */
static bool kc_find(const link_prog *p, uint32_t fi, uint32_t *seen, uint32_t gen, int depth, kc_hit *h)
{
  const link_func *f = &p->funcs.v[fi];
  seen[fi] = gen;
  for (uint32_t i = 0; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    if (c->flags & (SCF_DOOMED | SCF_NORETURN)) continue;
    const link_func *g = &p->funcs.v[c->callee];
    if (!link_has_body(g)) {
      const kb_entry *e = link_kb_entry(p, g);
      if (e && e->cheat) { h->call = c; h->entry = e; return true; }
      continue;
    }
    if (seen[c->callee] == gen || depth >= 16) continue;
    h->via[depth] = c->callee;
    h->nvia = depth + 1;
    if (kc_find(p, c->callee, seen, gen, depth + 1, h)) return true;
    h->nvia = depth;
  }
  return false;
}

static void kc_emit(const link_prog *p, const checks_opts *o, uint32_t fi, purity decl, const kc_hit *h,
                    diag_list *out)
{
  const link_func *f = &p->funcs.v[fi];
  strbuf m = {0};
  sb_printf(&m, "'%s' is declared %s and calls '%s'", S(p, f->name), purity_name(decl),
            S(p, p->funcs.v[h->call->callee].name));
  for (int i = 0; i < h->nvia; i++) sb_printf(&m, "%s%s", i ? ", " : " (via ", S(p, p->funcs.v[h->via[i]].name));
  if (h->nvia) sb_puts(&m, ")");
  sb_printf(&m, ", which purist counts as %s by convention only: %s (%s)", purity_name(h->entry->cls),
            h->entry->reason, h->entry->origin);
  sum_loc at = checks_attr_loc(p, fi, decl == PURITY_CONST ? SUM_DECL_CONST : SUM_DECL_PURE);
  diag *d = checks_emit(out, p, o, "cheat", o->cheats_as_errors ? DIAG_ERROR : DIAG_NOTE, at, f, sb_str(&m));
  checks_related(d, p, o, h->call->loc, "the call");
  sb_free(&m);
}

void checks_kb_cheats(const link_prog *p, const checks_opts *o, diag_list *out)
{
  /* seen[g] == gen: g visited in the search from the current function */
  uint32_t *seen = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *seen), gen = 0;
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    purity decl = (f->declared & SUM_DECL_CONST) ? PURITY_CONST
                : (f->declared & SUM_DECL_PURE) ? PURITY_PURE : PURITY_NORMAL;
    if (decl == PURITY_NORMAL || !link_has_body(f) || (f->flags & (SFF_SYSTEM | SFF_VOID))) continue;
    if ((purity)f->cls > decl) continue;   /* a misuse or another cheat: reported as such */
    kc_hit h = { {0}, 0, NULL, NULL };
    if (kc_find(p, fi, seen, ++gen, 0, &h)) kc_emit(p, o, fi, decl, &h, out);
  }
  free(seen);
}
