/* attrtext.c — an attribute read from the text it was written in: which
 * word it is (libclang has no cursor kind for many) and which declaration
 * it was written on. The table of functions (decl.c) and fix's facts
 * (fixfacts.c) both call it. */
#include "frontend/fe_internal.h"
#include <ctype.h>
#include <string.h>

/* Is t (len bytes) one of the tokens that may come before an attribute's
 * name: `__attribute__((`, `[[`, a `gnu::` scope? */
static int fe_attr_lead_token(const char *t, size_t len)
{
  static const char *const lead[] = { "__attribute__", "__attribute", "(", "[", "gnu", "__gnu__", "::", NULL };
  for (int i = 0; lead[i]; i++)
    if (strlen(lead[i]) == len && !memcmp(t, lead[i], len)) return 1;
  return 0;
}

size_t fe_skip_space(const char *s, size_t i, size_t n)
{
  for (;;) {
    while (i < n && (isspace((unsigned char)s[i]) || (s[i] == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')))) i++;
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
      const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);
      i = e ? (size_t)(e - s) + 2 : n;
    } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') i++;
    } else {
      return i;
    }
  }
}

/* The length of the token at s[i] (i < n): an identifier, `::`, or one
 * character (anything else is no lead token and no attribute name). */
static size_t fe_attr_token(const char *s, size_t i, size_t n)
{
  size_t e = i;
  while (e < n && (isalnum((unsigned char)s[e]) || s[e] == '_' || s[e] == '$')) e++;
  if (e > i) return e - i;
  return s[i] == ':' && i + 1 < n && s[i + 1] == ':' ? 2 : 1;
}

/* Is the attribute's name one of `words`? The C API has no cursor kind for
 * noreturn, weak or cleanup: they are UnexposedAttr. The name is read at the
 * spelling location of the attribute's start, which for an attribute from a
 * macro lies in the macro's definition, often in another header; the
 * cursor's extent then ends at the expansion, in a different file, and
 * tokenizing the extent would find nothing (or, within one file, every
 * token from the #define down to the use). The text is scanned here, not
 * by clang_tokenize: that needs clang_getLocationForOffset, which looks
 * the file up among every source entry of the TU, and neovim writes
 * several attributes on each of its thousands of prototypes (a third of
 * check's CPU went there). */
int fe_attr_has_word(fe_tu *t, CXCursor attr, const char *const *words)
{
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(attr)), &f, NULL, NULL, &off);
  size_t size = 0;
  const char *s = fe_tu_text(t, f, &size);
  if (!s || off >= size) return 0;
  /* The name is among the first few tokens; 64 bytes hold `gnu :: __weak__`. */
  size_t end = size - off > 64 ? off + 64 : size;
  for (size_t i = fe_skip_space(s, off, end); i < end; i = fe_skip_space(s, i, end)) {
    size_t len = fe_attr_token(s, i, size);
    if (!fe_attr_lead_token(s + i, len)) {
      for (int w = 0; words[w]; w++)
        if (strlen(words[w]) == len && !memcmp(s + i, words[w], len)) return 1;
      return 0;
    }
    i += len;
  }
  return 0;
}

/* Is an attribute at [a_lo, a_hi) written on the declaration spanning
 * [lo, hi] of the same file? Inside the extent, yes. Before it, only as a
 * leading attribute: clang's extent starts after `[[gnu::const]]` and
 * after an attribute macro, so one that precedes it with no `;`, `{` or
 * `}` in between belongs to it (an earlier declaration would end with
 * one of those; an inherited attribute lies in that earlier declaration). */
int fe_attr_in_decl(fe_tu *t, CXFile file, unsigned lo, unsigned hi, CXCursor attr)
{
  CXSourceRange r = clang_getCursorExtent(attr);
  CXFile af;
  unsigned a_lo = fe_expansion_offset(clang_getRangeStart(r), &af);
  unsigned a_hi = fe_expansion_offset(clang_getRangeEnd(r), NULL);
  if (!file || !clang_File_isEqual(af, file)) return 0;
  if (a_lo >= lo && a_lo <= hi) return 1;
  if (a_lo > lo || a_hi > lo) return 0;
  size_t size = 0;
  const char *text = fe_tu_text(t, file, &size);
  if (!text || lo > size) return 0;
  for (unsigned i = a_hi; i < lo; i++)
    if (text[i] == ';' || text[i] == '{' || text[i] == '}') return 0;
  return 1;
}
