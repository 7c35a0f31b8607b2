/* scope.c — see scope.h. */
#include "cli/scope.h"
#include "cli/project.h"
#include "report/diag_out.h"
#include "util/glob.h"
#include <stdlib.h>
#include <string.h>

void scope_init(scope *s, const cli_opts *o, const char *root)
{
  memset(s, 0, sizeof *s);
  s->root = xstrdup(root ? root : "/");
  size_t n = strlen(s->root);
  if (n > 1 && s->root[n - 1] == '/') s->root[n - 1] = '\0';
  s->includes = &o->includes;
  s->excludes = &o->excludes;
  s->checks = &o->checks;
  if (!project_narrows(o)) return;
  for (size_t i = 0; i < o->files.n; i++) {
    char *real = realpath(o->files.v[i], NULL);
    vec_push(&s->only, real ? real : xstrdup(o->files.v[i]));
  }
}

void scope_free(scope *s)
{
  for (size_t i = 0; i < s->only.n; i++) free(s->only.v[i]);
  vec_free(&s->only);
  free(s->root);
}

/* The path the globs see: relative to the root inside it, else absolute. */
static const char *scope_rel(const scope *s, const char *abs_path)
{
  size_t n = strlen(s->root);
  if (!strcmp(s->root, "/")) return abs_path[0] == '/' ? abs_path + 1 : abs_path;
  if (!strncmp(abs_path, s->root, n) && abs_path[n] == '/') return abs_path + n + 1;
  return abs_path;
}

static bool scope_any(const cli_strs *globs, const char *path)
{
  for (size_t i = 0; i < globs->n; i++)
    if (glob_match_path(globs->v[i], path)) return true;
  return false;
}

bool scope_wants_file(const scope *s, const char *abs_path)
{
  if (!abs_path) return true;
  if (s->only.n) {
    bool named = false;
    for (size_t i = 0; i < s->only.n && !named; i++) named = !strcmp(s->only.v[i], abs_path);
    if (!named) return false;
  }
  const char *rel = scope_rel(s, abs_path);
  if (s->includes->n && !scope_any(s->includes, rel)) return false;
  return !scope_any(s->excludes, rel);
}

/* Files named on the command line: a finding about a function defined
 * in one of them is theirs, wherever it is reported (a suggestion goes to
 * the header's prototype: `suggest -p build src/panel.c` showed nothing
 * for panel.c's functions, found on htop). */
bool scope_wants_diag_file(const scope *s, const diag *d)
{
  if (scope_wants_file(s, d->abs_file)) return true;
  return s->only.n && d->decl_abs_file && scope_wants_file(s, d->decl_abs_file);
}

/* As clang-tidy: "*" first, then each item in turn; the last that
 * matches decides, a leading '-' turning the check off. */
bool scope_wants_check(const scope *s, const char *check)
{
  bool on = true;
  for (size_t i = 0; i < s->checks->n; i++) {
    const char *g = s->checks->v[i];
    bool off = g[0] == '-';
    if (glob_match_name(g + off, check)) on = !off;
  }
  return on;
}

void scope_filter_diags(const scope *s, diag_list *l)
{
  bool *keep = xcalloc(l->n ? l->n : 1, sizeof *keep);
  for (size_t i = 0; i < l->n; i++)
    keep[i] = scope_wants_check(s, l->v[i].check) && scope_wants_diag_file(s, &l->v[i]);
  diag_list_keep(l, keep);
  free(keep);
}
