/* deps.c — a TU's make rule against the files the plan edits (deps.h). */
#include "impact/deps.h"
#include "util/xalloc.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void impact_edited_init(impact_edited *e)
{
  memset(e, 0, sizeof *e);
}

/* The real path of p (taken from dir when relative), or p as written. */
static char *deps_real(const char *p, const char *dir)
{
  char *abs = p[0] == '/' || !dir ? xstrdup(p) : xasprintf("%s/%s", dir, p);
  char *real = realpath(abs, NULL);
  if (!real) return abs;
  free(abs);
  return real;
}

void impact_edited_add(impact_edited *e, const char *path)
{
  vec_push(&e->paths, deps_real(path, NULL));
}

void impact_edited_fini(impact_edited *e)
{
  for (size_t i = 0; i < e->paths.n; i++) free(e->paths.v[i]);
  vec_free(&e->paths);
}

static int deps_cmp(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void impact_edited_seal(impact_edited *e)
{
  if (e->paths.n) qsort(e->paths.v, e->paths.n, sizeof *e->paths.v, deps_cmp);
}

static bool deps_has(const impact_edited *e, const char *real)
{
  return e->paths.n && bsearch(&real, e->paths.v, e->paths.n, sizeof *e->paths.v, deps_cmp);
}

bool impact_edited_has(const impact_edited *e, const char *path)
{
  char *real = deps_real(path, NULL);
  bool has = deps_has(e, real);
  free(real);
  return has;
}

/* The next word of a make rule from *p: blanks and line continuations
 * skipped, `\ ` an escaped blank (make's spelling of a space in a name);
 * NULL at the end. Caller frees. */
static char *deps_word(const char **p)
{
  const char *s = *p;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (s[0] == '\\' && (s[1] == '\n' || (s[1] == '\r' && s[2] == '\n'))) { s += s[1] == '\n' ? 2 : 3; continue; }
    break;
  }
  if (!*s) return NULL;
  VEC(char) w = {0};
  while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
    if (s[0] == '\\' && (s[1] == ' ' || s[1] == '#')) s++;
    else if (s[0] == '$' && s[1] == '$') s++;
    else if (s[0] == '\\' && (s[1] == '\n' || s[1] == '\r')) break;
    vec_push(&w, *s++);
  }
  vec_push(&w, '\0');
  *p = s;
  return w.v;
}

bool impact_deps_read_any(const char *rule, const char *dir, const impact_edited *e)
{
  bool reads = false, in_deps = false;
  const char *p = rule;
  char *w;
  while (!reads && (w = deps_word(&p))) {
    size_t n = strlen(w);
    if (!in_deps) {
      in_deps = n && w[n - 1] == ':';   /* the target ends at its colon */
    } else {
      char *real = deps_real(w, dir);
      reads = deps_has(e, real);
      free(real);
    }
    free(w);
  }
  return reads;
}
