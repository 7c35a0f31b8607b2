/* spelling.c — what the source text says at a location, through macros.
 *
 * libclang names few expressions (an atomic builtin is an UnexposedExpr)
 * and tells nothing of macro expansions. Both are recovered from the
 * text: the spelling location of a token is where it is written, in a
 * macro's definition when it comes from one; the expansion location is
 * where the outermost macro is used, at that macro's name. Identifiers
 * are read straight from the file buffer libclang parsed, which is cheap
 * and needs no tokenization. */
#include "frontend/fe_internal.h"
#include <string.h>

int fe_ident_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The text of f: libclang looks a file up among all the TU's files for
 * every call (measurable on macro-heavy code), and consecutive lookups
 * are mostly of one file, so the last one is kept. */
static const char *fe_file_text_cached(fe_tu *t, CXFile f, size_t *size)
{
  if (!t->text_file || !clang_File_isEqual(t->text_file, f)) {
    t->text = clang_getFileContents(t->tu, f, &t->text_size);
    t->text_file = f;
  }
  *size = t->text ? t->text_size : 0;
  return t->text;
}

/* The identifier starting at byte `off` of f into buf (NUL-terminated);
 * returns its length, 0 if none there or if it does not fit. */
static size_t fe_ident_at(fe_tu *t, CXFile f, unsigned off, char *buf, size_t n)
{
  size_t size = 0;
  const char *text = f ? fe_file_text_cached(t, f, &size) : NULL;
  if (!text || off >= size || n == 0) return 0;
  size_t len = 0;
  while (off + len < size && fe_ident_char(text[off + len])) len++;
  if (len == 0 || len >= n || (text[off] >= '0' && text[off] <= '9')) return 0;
  memcpy(buf, text + off, len);
  buf[len] = '\0';
  return len;
}

size_t fe_spelled_ident(fe_tu *t, CXSourceLocation l, char *buf, size_t n)
{
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(l, &f, NULL, NULL, &off);
  return fe_ident_at(t, f, off, buf, n);
}

uint32_t fe_macro_of(fe_tu *t, CXSourceLocation l)
{
  if (t->pp) return 0;     /* preprocessed input has no macros left */
  CXFile sf, ef;
  unsigned soff, eoff;
  clang_getSpellingLocation(l, &sf, NULL, NULL, &soff);
  clang_getExpansionLocation(l, &ef, NULL, NULL, &eoff);
  if (!ef || (sf && clang_File_isEqual(sf, ef) && soff == eoff)) return 0;
  char name[256];
  if (!fe_ident_at(t, ef, eoff, name, sizeof name)) return 0;
  return strtab_intern(t->sum->strs, name);
}

/* The start of the logical line holding byte off of text: lines joined
 * by a backslash before their newline are one line. */
static size_t fe_logical_line_start(const char *text, size_t off)
{
  size_t i = off;
  for (;;) {
    while (i > 0 && text[i - 1] != '\n') i--;
    if (i == 0) return 0;
    size_t j = i - 1;                         /* the newline ending the line before */
    if (j > 0 && text[j - 1] == '\r') j--;
    if (j == 0 || text[j - 1] != '\\') return i;
    i = j - 1;                                /* a splice: that line too */
  }
}

uint32_t fe_spelling_macro_of(fe_tu *t, CXSourceLocation l)
{
  if (t->pp) return 0;
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(l, &f, NULL, NULL, &off);
  size_t size = 0;
  const char *text = f ? fe_file_text_cached(t, f, &size) : NULL;
  if (!text || off >= size) return 0;
  /* `#  define NAME` at the start of the logical line that holds it. */
  size_t i = fe_logical_line_start(text, off);
  while (i < off && (text[i] == ' ' || text[i] == '\t')) i++;
  if (i >= off || text[i++] != '#') return 0;
  while (i < off && (text[i] == ' ' || text[i] == '\t')) i++;
  if (off - i < 7 || strncmp(text + i, "define", 6) || (text[i + 6] != ' ' && text[i + 6] != '\t')) return 0;
  i += 7;
  while (i < off && (text[i] == ' ' || text[i] == '\t')) i++;
  char name[256];
  if (i >= off || !fe_ident_at(t, f, (unsigned)i, name, sizeof name)) return 0;
  return strtab_intern(t->sum->strs, name);
}
