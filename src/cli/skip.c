/* skip.c — see skip.h. */
#include "cli/skip.h"
#include "util/glob.h"
#include "util/strbuf.h"
#include <stdlib.h>
#include <string.h>

/* abs_file relative to root when inside it, else as given. */
static const char *skip_rel(const char *root, const char *abs_file)
{
  size_t n = root ? strlen(root) : 0;
  if (n > 1 && !strncmp(abs_file, root, n) && abs_file[n] == '/') return abs_file + n + 1;
  return abs_file;
}

/* The build system's probes, by where they live: autoconf writes
 * conftest.c in the build directory; CMake compiles try_compile checks
 * under CMakeFiles/CMakeScratch (CMakeFiles/CMakeTmp before 3.24) and
 * identifies the compiler with CMakeFiles/<version>/CompilerIdC. A probe
 * is meant to fail on some systems: parsing it can only cost an error. */
static const char *skip_probe(const char *abs_file)
{
  const char *path = abs_file + (abs_file[0] == '/');
  if (glob_match_path("conftest.c", path)) return "a configure probe";
  if (glob_match_path("**/CMakeFiles/CMakeScratch", path) || glob_match_path("**/CMakeFiles/CMakeTmp", path) ||
      glob_match_path("**/CMakeFiles/*/CompilerIdC", path))
    return "a CMake probe";
  return NULL;
}

char *skip_why(const cli_strs *globs, const char *root, const char *abs_file)
{
  const char *probe = skip_probe(abs_file), *rel = skip_rel(root, abs_file);
  if (probe) return xstrdup(probe);
  for (size_t i = 0; i < globs->n; i++)
    if (glob_match_path(globs->v[i], rel)) return xasprintf("--skip '%s'", globs->v[i]);
  return NULL;
}

/* Is the job's file one named on the command line (compared as real paths)? */
static bool skip_named(const cli_opts *o, const char *abs_file)
{
  char *real = realpath(abs_file, NULL);
  bool named = false;
  for (size_t i = 0; i < o->files.n && !named; i++) {
    char *f = realpath(o->files.v[i], NULL);
    named = f && !strcmp(f, real ? real : abs_file);
    free(f);
  }
  free(real);
  return named;
}

void skip_jobs(const cli_opts *o, const char *root, fe_jobs *jobs, skip_list *left)
{
  fe_jobs drop = {0};
  size_t k = 0;
  for (size_t i = 0; i < jobs->n; i++) {
    char *why = skip_why(&o->skips, root, jobs->v[i].file);
    if (why && skip_named(o, jobs->v[i].file)) { free(why); why = NULL; }
    if (!why) { jobs->v[k++] = jobs->v[i]; continue; }
    skip_entry e = { xstrdup(jobs->v[i].file), why, strncmp(why, "--skip", 6) != 0 };
    vec_push(left, e);
    vec_push(&drop, jobs->v[i]);
  }
  jobs->n = k;
  cdb_jobs_free(&drop);
}

/* ", N what (a, b, c and M more)" for the entries of one kind. */
static void skip_describe_kind(strbuf *b, const skip_list *left, const char *root, bool probe, const char *one,
                               const char *many)
{
  enum { SKIP_NAMED = 3 };
  size_t n = 0;
  for (size_t i = 0; i < left->n; i++) n += left->v[i].probe == probe;
  if (!n) return;
  sb_printf(b, "%s%zu %s (", b->n ? ", " : "", n, n == 1 ? one : many);
  size_t shown = 0;
  for (size_t i = 0; i < left->n && shown < SKIP_NAMED; i++)
    if (left->v[i].probe == probe) sb_printf(b, "%s%s", shown++ ? ", " : "", skip_rel(root, left->v[i].file));
  if (n > shown) sb_printf(b, " and %zu more", n - shown);
  sb_puts(b, ")");
}

char *skip_describe(const skip_list *left, const char *root)
{
  if (!left->n) return NULL;
  strbuf kinds = {0};
  skip_describe_kind(&kinds, left, root, true, "configure or CMake probe, meant not to compile",
                     "configure or CMake probes, meant not to compile");
  skip_describe_kind(&kinds, left, root, false, "matching --skip", "matching --skip");
  char *s = xasprintf("%zu compile-database entr%s left out of the analysis: %s", left->n,
                      left->n == 1 ? "y" : "ies", sb_str(&kinds));
  sb_free(&kinds);
  return s;
}

void skip_list_free(skip_list *left)
{
  for (size_t i = 0; i < left->n; i++) {
    free(left->v[i].file);
    free(left->v[i].why);
  }
  vec_free(left);
}
