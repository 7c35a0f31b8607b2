/* alias.c — `int b(int) __attribute__((alias("a")));` (issue 37, item 3).
 *
 * An alias is a second name for the target's code: the same symbol
 * address, so the same effects. GCC joins them in its call graph and
 * merges `b(1) == b(1)` when `a` is const. The front end gives the alias
 * a body of its own, made of one call of the target that passes every
 * parameter on (as fnslot.c does for a table's slot), and marks it
 * SFF_ALIAS: the link then gives it the target's class, its reasons name
 * the target, and its callers get the call-site facts of any function
 * with a body. A weak alias stays weak (untrusted, as any weak function);
 * an alias of a weak target calls that weak function, untrusted too
 * (GCC binds a strong alias to the body here; we do not count on it).
 *
 * GCC requires the target to be defined in the same TU; an alias whose
 * target has no body here stays a declaration (unknown, as before). */
#include "frontend/fe_internal.h"
#include <ctype.h>
#include <string.h>

typedef struct { fe_tu *t; uint32_t target; } alias_scan;

/* The string literal's contents after `alias (` at text[i]: its id, 0 if
 * the text is not that. */
static uint32_t alias_target_at(fe_tu *t, const char *text, size_t size, size_t i)
{
  while (i < size && isspace((unsigned char)text[i])) i++;
  if (i >= size || text[i++] != '(') return 0;
  while (i < size && isspace((unsigned char)text[i])) i++;
  if (i >= size || text[i++] != '"') return 0;
  size_t start = i;
  while (i < size && (isalnum((unsigned char)text[i]) || text[i] == '_' || text[i] == '$' || text[i] == '.')) i++;
  if (i >= size || text[i] != '"' || i == start) return 0;
  return strtab_intern_n(t->sum->strs, text + start, i - start);
}

static enum CXChildVisitResult alias_attr(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  static const char *const words[] = { "alias", "__alias__", NULL };
  alias_scan *a = d;
  if (clang_getCursorKind(c) != CXCursor_UnexposedAttr || !fe_attr_has_word(a->t, c, words))
    return CXChildVisit_Continue;
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &off);
  size_t size = 0;
  const char *text = fe_tu_text(a->t, f, &size);
  if (!text || off >= size) return CXChildVisit_Continue;
  size_t i = off;
  while (i < size && (isalnum((unsigned char)text[i]) || text[i] == '_')) i++;
  a->target = alias_target_at(a->t, text, size, i);
  return a->target ? CXChildVisit_Break : CXChildVisit_Continue;
}

void fe_alias_note(fe_tu *t, CXCursor fn, uint32_t fi)
{
  alias_scan a = { t, 0 };
  clang_visitChildren(fn, alias_attr, &a);
  if (!a.target) return;
  fe_alias al = { fi, a.target };
  vec_push(&t->aliases, al);
}

/* The function of this TU named `name` that has a body, or UINT32_MAX. */
static uint32_t alias_find_body(const sum_tu *s, uint32_t name)
{
  for (size_t i = 0; i < s->funcs.n; i++)
    if (s->funcs.v[i].name == name && (s->funcs.v[i].flags & SFF_BODY) && !(s->funcs.v[i].flags & SFF_ALIAS))
      return (uint32_t)i;
  return UINT32_MAX;
}

/* Gives alias ai the body "call target with my parameters". */
static void alias_body(sum_tu *s, uint32_t ai, uint32_t target)
{
  sum_func *f = &s->funcs.v[ai];
  f->flags |= SFF_BODY | SFF_ALIAS;
  f->eff_off = (uint32_t)s->effs.n;
  f->neff = 0;
  f->call_off = (uint32_t)s->calls.n;
  f->ncall = 1;
  f->fnarg_off = (uint32_t)s->fnargs.n;
  f->nfnarg = 0;
  f->pcall_off = (uint32_t)s->pcalls.n;
  f->npcall = 0;
  sum_call c;
  memset(&c, 0, sizeof c);
  c.callee = target;
  c.arg_off = (uint32_t)s->argmasks.n;
  c.nargs = f->nparams;
  c.loc = f->loc;
  if (s->funcs.v[target].flags & SFF_NORETURN) c.flags |= SCF_NORETURN;
  for (uint32_t a = 0; a < f->nparams; a++) vec_push(&s->argmasks, prov_param(a));
  vec_push(&s->calls, c);
}

void fe_alias_finish(fe_tu *t)
{
  sum_tu *s = t->sum;
  for (size_t i = 0; i < t->aliases.n; i++) {
    const fe_alias *al = &t->aliases.v[i];
    if (s->funcs.v[al->func].flags & SFF_BODY) continue;   /* two alias attributes: the first */
    uint32_t target = alias_find_body(s, al->target);
    if (target != UINT32_MAX && target != al->func) alias_body(s, al->func, target);
  }
}
