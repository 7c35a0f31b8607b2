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
 * (`#ifndef`: another header may define it too.) A later run finds the
 * macro and uses it like any project macro (spell.c). A project macro
 * already defined for the attribute is used as before, with no guard. */
#include "fix/fix_internal.h"
#include "util/fileio.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

bool fix_guard_header(const link_prog *p, uint32_t file, ptrmap *memo)
{
  uint32_t *seen = ptrmap_get(memo, (uint64_t)file + 1);
  if (seen) return *seen == 2;
  const char *path = S(p, file);
  size_t n = strlen(path), len = 0;
  bool header = n < 2 || strcmp(path + n - 2, ".c");
  char *text = header ? file_read_all(path, &len) : NULL;
  bool guarded = text && (memmem(text, len, "_MSC_VER", 8) || memmem(text, len, "__GNUC__", 8));
  free(text);
  ptrmap_put(memo, (uint64_t)file + 1, guarded ? 2 : 1);
  return guarded;
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
