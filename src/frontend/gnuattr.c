/* gnuattr.c — GCC-only function attributes that hide a body from GCC's
 * inference at call sites (issue 37, item 4), although clang ignores them.
 *
 * `__attribute__((noipa))` tells GCC to treat the function "as if its body
 * were not available" when optimising callers, and a body compiled with
 * `__attribute__((optimize("O0")))` is never analysed by GCC's pure-const
 * pass. Measured with GCC 12 at -O2: both keep `m(x, 2) + m(x, 2)` as two
 * calls and keep an unused call, though the body is a bare `x * y`; an
 * explicit `const` on the declaration still merges them. `noinline,
 * noclone` do not hide anything (GCC still merges and deletes such calls).
 *
 * clang 19 knows neither attribute: it drops them with the warning
 * "unknown attribute 'noipa' ignored", located at the name, which is read
 * here as c23attr.c reads [[unsequenced]] (the parse keeps that warning
 * on). The function's own class is untouched; SFF_NOIPA only tells the
 * call-site facts that the compiler sees no body. */
#include "frontend/fe_internal.h"
#include <ctype.h>
#include <string.h>

/* Is the name (n bytes at s) noipa (1) or optimize (2)? 0: neither. */
static int gnu_attr_word(const char *s, size_t n)
{
  static const struct { const char *w; int kind; } words[] = {
    { "noipa", 1 }, { "__noipa__", 1 }, { "optimize", 2 }, { "__optimize__", 2 },
  };
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i].w) == n && !strncmp(s, words[i].w, n)) return words[i].kind;
  return 0;
}

/* Does the argument list at text[i] (just past the name) start with a
 * level that means -O0: "O0", "-O0" or 0? */
static int gnu_args_o0(const char *text, size_t size, size_t i)
{
  while (i < size && isspace((unsigned char)text[i])) i++;
  if (i >= size || text[i] != '(') return 0;
  for (i++; i < size && isspace((unsigned char)text[i]); i++) {}
  static const char *const zero[] = { "\"O0\"", "\"-O0\"", "0)", "0 ", "0," };
  for (size_t k = 0; k < sizeof zero / sizeof *zero; k++)
    if (size - i >= strlen(zero[k]) && !strncmp(text + i, zero[k], strlen(zero[k]))) return 1;
  return 0;
}

void fe_gnu_note_diag(fe_tu *t, CXDiagnostic d)
{
  CXString s = clang_getDiagnosticSpelling(d);
  size_t n = 0;
  const char *name = fe_unknown_attr(clang_getCString(s), &n);
  int kind = name ? gnu_attr_word(name, n) : 0;
  if (kind) {
    fe_gnu_attr a;
    clang_getExpansionLocation(clang_getDiagnosticLocation(d), &a.file, NULL, NULL, &a.off);
    size_t size = 0;
    const char *src = a.file ? fe_tu_text(t, a.file, &size) : NULL;
    /* optimize's level is read after the name in the text; spelled by a
     * macro, the text there is the macro's name, and it counts as not -O0. */
    if (src && a.off < size && (kind == 1 || gnu_args_o0(src, size, a.off + n)))
      vec_push(&t->gnu_hidden, a);
  }
  clang_disposeString(s);
}

/* Is one of the recorded attributes written in declaration fn (between the
 * start of its extent and its body, or its end)? */
static int gnu_in_decl(fe_tu *t, CXCursor fn)
{
  if (clang_Cursor_isNull(fn)) return 0;
  CXSourceRange r = clang_getCursorExtent(fn);
  CXFile file;
  unsigned lo, hi;
  clang_getExpansionLocation(clang_getRangeStart(r), &file, NULL, NULL, &lo);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &hi);
  for (size_t i = 0; i < t->gnu_hidden.n; i++) {
    const fe_gnu_attr *a = &t->gnu_hidden.v[i];
    if (clang_File_isEqual(a->file, file) && a->off >= lo && a->off < hi) return 1;
  }
  return 0;
}

int fe_gnu_body_hidden(fe_tu *t, CXCursor canon, CXCursor use, CXCursor def)
{
  if (!t->gnu_hidden.n) return 0;
  return gnu_in_decl(t, canon) || gnu_in_decl(t, use) || gnu_in_decl(t, def);
}
