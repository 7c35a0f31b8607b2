/* cleanup.c — `__attribute__((cleanup(h)))` that only releases the
 * variable's block (issue 30, item 1).
 *
 * systemd's `_cleanup_free_ char *t = malloc(n);` runs `freep(&t)` when t
 * goes out of scope, and freep is `*(void **) p = mfree(*(void **) p)`:
 * a release of what t holds. The attribute has no call in the AST, so it
 * counted as a call purist cannot see into, and every function keeping a
 * scratch block this way was normal for `check` (elogind's
 * strlevenshtein, under strv_find_closest, declared pure).
 *
 * The handler is named in the attribute's argument, which is usually
 * spelled through macros (`#define _cleanup_(x) __attribute__((
 * __cleanup__(x)))`, `#define _cleanup_free_ _cleanup_(freep)`): the TU's
 * macro definitions that spell a cleanup attribute are read first
 * (fe_cleanup_macro), each with its handler or the parameter that names
 * it. When the handler is a static function of this TU that releases
 * what its parameter points to and nothing else (release.c), the
 * declaration records a call of the handler with `&v` (local storage) and
 * v's value as the pointee (SCF_PTE, filled in when the walk ends: v's
 * value may change), a release of the function's own blocks (SCF_FREE)
 * when v only ever holds fresh blocks or null and its address goes
 * nowhere else. Any other handler stays the unknown call it was. */
#include "frontend/walk.h"
#include <ctype.h>
#include <string.h>

typedef struct fe_cleanup_macro cl_macro;

/* The identifier at s[i..), or 0 length. */
static size_t cl_ident(const char *s, size_t i, size_t n)
{
  size_t e = i;
  if (e < n && (isalpha((unsigned char)s[e]) || s[e] == '_'))
    while (e < n && (isalnum((unsigned char)s[e]) || s[e] == '_')) e++;
  return e - i;
}

static size_t cl_space(const char *s, size_t i, size_t n)
{
  while (i < n && isspace((unsigned char)s[i])) i++;
  return i;
}

static bool cl_is(const char *s, size_t len, const char *word)
{
  return strlen(word) == len && !memcmp(s, word, len);
}

/* After `cleanup` or `__cleanup__` at s[i..): `( NAME )`: NAME's offset
 * and length, or 0. */
static size_t cl_arg(const char *s, size_t *i, size_t n)
{
  size_t j = cl_space(s, *i, n);
  if (j >= n || s[j] != '(') return 0;
  j = cl_space(s, j + 1, n);
  size_t len = cl_ident(s, j, n), k = cl_space(s, j + len, n);
  if (!len || k >= n || s[k] != ')') return 0;
  *i = j;
  return len;
}

/* Where `cleanup (NAME)` or `__cleanup__ (NAME)` is spelled in s[lo, hi):
 * NAME's offset and length, or 0. */
static size_t cl_find(const char *s, size_t lo, size_t hi, size_t *at)
{
  for (size_t i = lo; i < hi;) {
    size_t len = cl_ident(s, i, hi);
    if (!len) { i++; continue; }
    if (cl_is(s + i, len, "cleanup") || cl_is(s + i, len, "__cleanup__")) {
      size_t j = i + len, alen = cl_arg(s, &j, hi);
      if (alen) { *at = j; return alen; }
    }
    i += len;
  }
  return 0;
}

/* The end of the #define whose name starts at s[lo]: its line's end,
 * line splices followed; at most 200 bytes on (0: longer, not read). */
static size_t cl_define_end(const char *s, size_t lo, size_t size)
{
  for (size_t i = lo; i < size && i < lo + 200; i++)
    if (s[i] == '\n') {
      size_t e = i > lo && s[i - 1] == '\r' ? i - 1 : i;   /* CRLF */
      if (e == lo || s[e - 1] != '\\') return i;
    }
  return size < lo + 200 ? size : 0;
}

/* The parameters of a function-like macro whose name ends at s[*i]
 * (`NAME(` with no space): up to 8, into par/plen; *i moves past them.
 * -1 if they cannot be read. */
static int cl_params(const char *s, size_t *i, size_t hi, const char **par, size_t *plen)
{
  int np = 0;
  if (*i >= hi || s[*i] != '(') return 0;
  size_t j = *i + 1;
  while (j < hi && s[j] != ')') {
    j = cl_space(s, j, hi);
    size_t len = cl_ident(s, j, hi);
    if (!len || np == 8) return -1;
    par[np] = s + j;
    plen[np++] = len;
    j = cl_space(s, j + len, hi);
    if (j < hi && s[j] == ',') j++;
  }
  *i = j + 1;
  return np;
}

/* The cleanup macro named s[at, at+len), or NULL (nothing interned). */
static const cl_macro *cl_known(fe_tu *t, const char *s, size_t len)
{
  char name[128];
  if (!t->cleanup_m.n || len >= sizeof name) return NULL;
  memcpy(name, s, len);
  name[len] = '\0';
  uint32_t id = strtab_find(t->sum->strs, name);
  const uint32_t *x = id == UINT32_MAX ? NULL : ptrmap_get(&t->cleanup_macros, id);
  return x ? &t->cleanup_m.v[*x - 1] : NULL;
}

/* `#define _cleanup_free_ _cleanup_(freep)`: the handler a body applying
 * a one-parameter cleanup macro names, as a string id, or 0. */
static uint32_t cl_applied(fe_tu *t, const char *s, size_t i, size_t hi)
{
  size_t j = cl_space(s, i, hi), len = cl_ident(s, j, hi);
  const cl_macro *inner = len ? cl_known(t, s + j, len) : NULL;
  if (!inner || inner->param != 0) return 0;
  size_t k = j + len, hlen = cl_arg(s, &k, hi);
  return hlen ? strtab_intern_n(t->sum->strs, s + k, hlen) : 0;
}

void fe_cleanup_macro(fe_tu *t, CXFile f, unsigned name_at)
{
  /* Read from the text, not libclang's extent: every macro of every
   * header comes here, and most are discarded by the first test. */
  size_t lo = name_at, size = 0;
  const char *s = f ? fe_tu_text(t, f, &size) : NULL;
  size_t hi = s && lo < size ? cl_define_end(s, lo, size) : 0;
  size_t nlen = hi ? cl_ident(s, lo, hi) : 0, i = lo + nlen;
  if (!nlen) return;
  const char *par[8];
  size_t plen[8], at = 0;
  int np = cl_params(s, &i, hi, par, plen);
  size_t alen = np < 0 ? 0 : cl_find(s, i, hi, &at);
  cl_macro m = { 0, -1 };
  for (int k = 0; alen && k < np; k++)
    if (plen[k] == alen && !memcmp(par[k], s + at, alen)) m.param = k;
  if (alen && m.param < 0) m.handler = strtab_intern_n(t->sum->strs, s + at, alen);
  if (!alen && np >= 0) m.handler = cl_applied(t, s, i, hi);
  if (!m.handler && m.param < 0) return;
  vec_push(&t->cleanup_m, m);
  ptrmap_put(&t->cleanup_macros, strtab_intern_n(t->sum->strs, s + lo, nlen), (uint32_t)t->cleanup_m.n);
}

/* The handler the cleanup attribute `attr` names (a string id), or 0:
 * read where the attribute is written (its expansion, in the file). */
static uint32_t cl_handler(fe_tu *t, CXCursor attr)
{
  CXFile f;
  unsigned off = fe_expansion_offset(clang_getRangeStart(clang_getCursorExtent(attr)), &f);
  size_t size = 0;
  const char *s = f ? fe_tu_text(t, f, &size) : NULL;
  if (!s || off >= size) return 0;
  size_t end = size - off > 200 ? off + 200 : size, len = cl_ident(s, off, end), i = off + len;
  if (!len) return 0;
  if (cl_is(s + off, len, "cleanup") || cl_is(s + off, len, "__cleanup__") || cl_is(s + off, len, "__attribute__")) {
    size_t at = 0, alen = cl_find(s, off, end, &at);
    return alen ? strtab_intern_n(t->sum->strs, s + at, alen) : 0;
  }
  const uint32_t *x = ptrmap_get(&t->cleanup_macros, strtab_intern_n(t->sum->strs, s + off, len));
  if (!x) return 0;
  const cl_macro *m = &t->cleanup_m.v[*x - 1];
  if (m->handler) return m->handler;
  if (m->param != 0) return 0;   /* one argument, the handler: as systemd and GLib write it */
  size_t hlen = cl_arg(s, &i, end);
  return hlen ? strtab_intern_n(t->sum->strs, s + i, hlen) : 0;
}

/* The static function of this TU named `name` that releases what its one
 * parameter points to (release.c), or UINT32_MAX. */
static uint32_t cl_release_fn(fw *w, uint32_t name)
{
  const sum_tu *s = w->t->sum;
  for (size_t i = 0; i < s->funcs.n; i++) {
    const sum_func *f = &s->funcs.v[i];
    if (f->name == name && f->linkage == SUM_INTERNAL && f->nparams == 1 && fw_release_pointee(w, (uint32_t)i) == 1)
      return (uint32_t)i;
  }
  return UINT32_MAX;
}

int fw_cleanup_call(fw *w, CXCursor decl, CXCursor attr, uint32_t vi)
{
  uint32_t name = cl_handler(w->t, attr);
  uint32_t h = name ? cl_release_fn(w, name) : UINT32_MAX;
  const fw_var *v = &w->vars.v[vi];
  if (h == UINT32_MAX || !v->is_ptr || v->ptr_union) return 0;
  sum_tu *s = w->t->sum;
  sum_call c;
  memset(&c, 0, sizeof c);
  c.callee = h;
  c.flags = (uint16_t)(SCF_PTE | (w->doomed ? SCF_DOOMED : 0));
  c.arg_off = (uint32_t)s->argmasks.n;
  c.nargs = 1;
  c.guard = w->guards.n ? w->guards.v[w->guards.n - 1] : 0;
  c.eff_pos = (uint32_t)(s->effs.n - w->eff_base);
  c.loc = fe_cursor_loc(w->t, decl);
  vec_push(&s->argmasks, PROV_LOCAL);     /* &v */
  vec_push(&s->argmasks, PROV_UNKNOWN);   /* v's value: fw_cleanup_finish */
  vec_push(&s->calls, c);
  fw_callinfo ci = { 0, (uint32_t)w->cvars.n, 0, 0, 0, 0, FW_INL_ARGS + 1, { 0 }, 0, UINT32_MAX };
  vec_push(&w->cinfo, ci);
  w->ncalls++;
  vec_push(&w->cleanups, (uint32_t)(s->calls.n - 1));
  vec_push(&w->cleanups, vi);
  return 1;
}

void fw_cleanup_finish(fw *w)
{
  sum_tu *s = w->t->sum;
  for (size_t i = 0; i + 1 < w->cleanups.n; i += 2) {
    sum_call *c = &s->calls.v[w->cleanups.v[i]];
    const fw_var *v = &w->vars.v[w->cleanups.v[i + 1]];
    /* Its address taken elsewhere, what v holds is not all known. */
    if (v->addr_taken || v->addr_plain || v->naddr || w->flow_off) continue;
    s->argmasks.v[c->arg_off + 1] = v->mask;
    if (!(v->mask & ~PROV_FRESH)) c->flags |= SCF_FREE;
  }
}
