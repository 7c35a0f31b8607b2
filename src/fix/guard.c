/* guard.c — attributes in headers that other compilers read too (issue 29,
 * item 6).
 *
 * A header that tests `_MSC_VER` or `__GNUC__` is read by compilers
 * without GNU attributes (libuv's public uv.h supports MSVC; its one other
 * __attribute__ sits under `#elif __GNUC__ >= 4`). An unguarded
 * `__attribute__((const))` written there would break those users' builds.
 * When fix would write the attribute out in such a header, it writes a
 * macro instead, PURIST_CONST or PURIST_PURE, and defines it once, just
 * before the first declaration it edits in that header:
 *
 *     #ifndef PURIST_CONST
 *     # if defined(__GNUC__) || defined(__clang__)
 *     #  define PURIST_CONST __attribute__((__const__))
 *     # else
 *     #  define PURIST_CONST
 *     # endif
 *     #endif
 *
 * The same in any file, .c files too, of a project one of whose files
 * tests `_MSC_VER` (pcre2: its public pcre2.h and the pcre2_internal.h
 * every source includes): MSVC compiles it all.
 *
 * (`#ifndef`: another header may define it too.) A later run finds the
 * macro and uses it like any project macro (spell.c). A project macro
 * already defined for the attribute is used as before, with no guard. */
#include "fix/fix_internal.h"
#include "util/fileio.h"
#include "util/ppdir.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* Does the text of file test test (memmem)? Unreadable: no. */
static bool guard_file_tests(const link_prog *p, uint32_t file, bool gnuc_too)
{
  size_t len = 0;
  char *text = file_read_all(S(p, file), &len);
  bool hit = text && (memmem(text, len, "_MSC_VER", 8) || (gnuc_too && memmem(text, len, "__GNUC__", 8)));
  free(text);
  return hit;
}

#define GUARD_PROJECT UINT64_MAX   /* the memo's key for the project's answer */

/* A file of the project (one holding its declarations) that tests
 * _MSC_VER, or UINT32_MAX: MSVC compiles such a project, its .c files
 * too (pcre2's sources include pcre2_internal.h, which tests it). */
static uint32_t guard_project_msvc(const link_prog *p, ptrmap *memo)
{
  uint32_t *seen = ptrmap_get(memo, GUARD_PROJECT);
  if (seen) return *seen == 1 ? UINT32_MAX : *seen - 2;
  uint32_t hit = UINT32_MAX;
  for (size_t i = 0; i < p->files.n && hit == UINT32_MAX; i++)
    if (guard_file_tests(p, p->files.v[i].file, false)) hit = p->files.v[i].file;
  ptrmap_put(memo, GUARD_PROJECT, hit == UINT32_MAX ? 1 : hit + 2);
  return hit;
}

bool fix_guard_header(const link_prog *p, uint32_t file, ptrmap *memo, uint32_t *because)
{
  uint32_t *seen = ptrmap_get(memo, (uint64_t)file + 1);
  if (!seen) {
    const char *path = S(p, file);
    size_t n = strlen(path);
    bool header = n < 2 || strcmp(path + n - 2, ".c");
    uint32_t why = header && guard_file_tests(p, file, true) ? file : guard_project_msvc(p, memo);
    ptrmap_put(memo, (uint64_t)file + 1, why == UINT32_MAX ? 1 : why + 2);
    seen = ptrmap_get(memo, (uint64_t)file + 1);
  }
  if (*seen == 1) return false;
  *because = *seen - 2;
  return true;
}

const char *fix_guard_macro(uint8_t kind)
{
  return kind == SUM_DECL_CONST ? "PURIST_CONST" : "PURIST_PURE";
}

char *fix_guard_block(uint8_t kind)
{
  const char *m = fix_guard_macro(kind), *word = kind == SUM_DECL_CONST ? "__const__" : "__pure__";
  return xasprintf("#ifndef %s\n# if defined(__GNUC__) || defined(__clang__)\n#  define %s __attribute__((%s))\n"
                   "# else\n#  define %s\n# endif\n#endif\n", m, m, word, m);
}

/* "/a/b": the ids of the open groups, outermost first (caller frees). */
static char *guard_path(const uint32_t *ids, size_t n)
{
  strbuf b = {0};
  for (size_t i = 0; i < n; i++) sb_printf(&b, "/%u", ids[i]);
  char *out = xstrdup(sb_str(&b));
  sb_free(&b);
  return out;
}

char **fix_guard_regions(const char *path, unsigned *nlines)
{
  size_t len = 0;
  char *text = file_read_all(path, &len);
  *nlines = 0;
  if (!text) return NULL;
  unsigned cap = 1;
  for (size_t i = 0; i < len; i++) cap += text[i] == '\n';
  char **out = xcalloc(cap + 1, sizeof *out);
  VEC(uint32_t) open = {0};   /* the ids of the groups around the line */
  uint32_t next_id = 1;
  unsigned line = 1;
  for (const char *s = text; *s && line <= cap;) {
    const char *next;
    uint32_t span;
    char *d = pp_directive(s, &next, &span);
    for (uint32_t k = 0; k < span && line <= cap; k++)   /* a directive is outside what it opens */
      out[line++] = guard_path(open.v, open.n);
    if (d && (pp_is(d, "if") || pp_is(d, "ifdef") || pp_is(d, "ifndef")))
      vec_push(&open, next_id++);
    else if (d && (pp_is(d, "elif") || pp_is(d, "else") || pp_is(d, "elifdef") || pp_is(d, "elifndef")) && open.n)
      open.v[open.n - 1] = next_id++;
    else if (d && pp_is(d, "endif") && open.n)
      open.n--;
    free(d);
    s = next;
  }
  *nlines = line - 1;
  vec_free(&open);
  free(text);
  return out;
}

bool fix_guard_sees(const char *def, const char *use)
{
  size_t n = strlen(def);
  return !strncmp(def, use, n) && (use[n] == '\0' || use[n] == '/');
}
