/* fixrename.c — a declaration whose name a macro renames (issue 29: fix on
 * nettle and GMP).
 *
 * Libraries prefix their exported names with an object-like macro above
 * the prototype: nettle's `#define ecc_size nettle_ecc_size`, GMP's
 * `#define mpz_jacobi __gmpz_jacobi`. The declaration's text is plain C;
 * only its name token is the macro's, so `fix` can edit it like any other,
 * provided it looks for the name as written (ecc_size), not as compiled.
 * Any other macro that makes a name (a function-like DECLARE(x), a token
 * paste) stays out of fix's reach (SDF_MACRO_NAME alone).
 *
 * Two tests, either enough: the name's spelling lies on a line that holds
 * exactly `#define SPELLED NAME` (blanks and a trailing comment allowed),
 * SPELLED being the identifier written where the declaration is; or
 * SPELLED is an object-like macro (GMP's `#define mpn_add_n __MPN(add_n)`,
 * whose body pastes the name) and a `(` follows it in the text: the
 * parameter list is the declaration's own, so the declarator is plain text
 * around one identifier. A function-like macro making the declaration
 * (`DECLARE(x);`) fails both. */
#include "frontend/fe_internal.h"
#include <string.h>

static size_t rn_blanks(const char *s, size_t i, size_t n)
{
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  return i;
}

/* Whether s[i..] starts with the identifier w, followed by no identifier
 * character; advances *i past it. */
static bool rn_word(const char *s, size_t n, size_t *i, const char *w, size_t wn)
{
  if (*i + wn > n || memcmp(s + *i, w, wn) || (*i + wn < n && fe_ident_char(s[*i + wn]))) return false;
  *i += wn;
  return true;
}

/* Whether the line of s holding offset at reads `#define SPELLED NAME`,
 * NAME starting at offset at. */
static bool rn_define_line(const char *s, size_t n, size_t at, const char *spelled, size_t sn,
                           const char *name, size_t nn)
{
  size_t i = at;
  while (i > 0 && s[i - 1] != '\n') i--;
  i = rn_blanks(s, i, n);
  if (i >= n || s[i] != '#') return false;
  i = rn_blanks(s, i + 1, n);
  if (!rn_word(s, n, &i, "define", 6)) return false;
  i = rn_blanks(s, i, n);
  if (!rn_word(s, n, &i, spelled, sn)) return false;
  i = rn_blanks(s, i, n);
  if (i != at || !rn_word(s, n, &i, name, nn)) return false;
  i = rn_blanks(s, i, n);
  return i >= n || s[i] == '\n' || s[i] == '\r' || (i + 1 < n && s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '*'));
}

/* Whether the identifier written at the name's place, at offset off of the
 * file's text, is an object-like macro followed by the parameter list. */
static bool rn_object_macro(fe_tu *t, CXFile file, unsigned off, const char *text, size_t size, size_t end)
{
  size_t i = end;
  while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
  if (i >= size || text[i] != '(') return false;
  CXCursor c = clang_getCursor(t->tu, clang_getLocationForOffset(t->tu, file, off));
  if (clang_getCursorKind(c) != CXCursor_MacroExpansion) return false;
  CXCursor def = clang_getCursorReferenced(c);
  return clang_getCursorKind(def) == CXCursor_MacroDefinition && !clang_Cursor_isMacroFunctionLike(def);
}

uint32_t fe_fix_renamed(fe_tu *t, CXSourceLocation name, CXFile file, unsigned name_off, const char *fname)
{
  size_t size = 0, ssize = 0;
  const char *text = fe_tu_text(t, file, &size);
  if (!text || name_off >= size) return 0;
  size_t e = name_off;
  while (e < size && fe_ident_char(text[e])) e++;
  size_t sn = e - name_off, nn = strlen(fname);
  if (sn == 0 || (sn == nn && !memcmp(text + name_off, fname, nn))) return 0;
  CXFile sfile;
  unsigned soff = 0;
  clang_getSpellingLocation(name, &sfile, NULL, NULL, &soff);
  const char *stext = sfile ? fe_tu_text(t, sfile, &ssize) : NULL;
  bool renamed = stext && soff < ssize && rn_define_line(stext, ssize, soff, text + name_off, sn, fname, nn);
  if (!renamed && !rn_object_macro(t, file, name_off, text, size, e)) return 0;
  return strtab_intern_n(t->sum->strs, text + name_off, sn);
}
