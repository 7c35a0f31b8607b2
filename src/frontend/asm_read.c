/* asm_read.c — the tokens of an inline asm statement, for asm.c.
 *
 * libclang shows an asm statement's operand expressions but not its
 * template, constraints or clobbers. They are read from the source, where
 * the statement's first token is spelled (in a macro's definition when it
 * comes from one). When that text is not the statement's (a template that
 * is a stringised macro argument, a constraint or template that is itself
 * a macro: firedancer's FD_COMPILER_FORGET), they are read from clang's
 * printed form of the function instead: it shows the statement after
 * macro expansion, with its strings joined (issue 22 item 1). */
#include "frontend/asm.h"
#include <ctype.h>
#include <string.h>

enum { ASM_SCAN_BYTES = 8192, ASM_MAX_TOKS = 4096 };

void asm_toks_free(asm_toks *x)
{
  for (size_t i = 0; i < x->n; i++) free(x->sp[i]);
  free(x->sp);
  free(x->str);
  memset(x, 0, sizeof *x);
}

static void asm_toks_push(asm_toks *x, const char *s, size_t len, int is_string)
{
  if (x->n == x->cap) {
    x->cap = x->cap ? x->cap * 2 : 64;
    x->sp = xrealloc(x->sp, x->cap * sizeof *x->sp);
    x->str = xrealloc(x->str, x->cap);
  }
  char *c = xmalloc(len + 1);
  memcpy(c, s, len);
  c[len] = '\0';
  x->sp[x->n] = c;
  x->str[x->n++] = (unsigned char)is_string;
}

int asm_toks_source(fe_tu *t, CXCursor s, asm_toks *out)
{
  memset(out, 0, sizeof *out);
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(s)), &f, NULL, NULL, &off);
  size_t size = 0;
  if (!f || !clang_getFileContents(t->tu, f, &size) || off >= size) return 0;
  unsigned end = size - off > ASM_SCAN_BYTES ? off + ASM_SCAN_BYTES : (unsigned)size;
  CXSourceRange r = clang_getRange(clang_getLocationForOffset(t->tu, f, off),
                                   clang_getLocationForOffset(t->tu, f, end));
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(t->tu, r, &toks, &n);
  int depth = 0, opened = 0;
  for (unsigned i = 0; i < n && i < ASM_MAX_TOKS; i++) {
    CXString sp = clang_getTokenSpelling(t->tu, toks[i]);
    const char *c = clang_getCString(sp);
    int is_string = clang_getTokenKind(toks[i]) == CXToken_Literal && c[0] == '"';
    asm_toks_push(out, c, strlen(c), is_string);
    if (!strcmp(c, "(")) depth++, opened = 1;
    else if (!strcmp(c, ")")) depth--;
    clang_disposeString(sp);
    if (opened && depth <= 0) break;       /* the statement's closing parenthesis */
  }
  clang_disposeTokens(t->tu, toks, n);
  return out->n > 0;
}

/* ---- the printed function ---- */

typedef struct { CXCursor want; unsigned seen; int found; } asm_find;

static enum CXChildVisitResult asm_find_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  asm_find *a = d;
  if (clang_getCursorKind(c) == CXCursor_GCCAsmStmt) {
    /* The same statement reached from another parent compares unequal;
     * a statement cursor's data[1] is the statement itself. */
    if (clang_equalCursors(c, a->want) || c.data[1] == a->want.data[1]) { a->found = 1; return CXChildVisit_Break; }
    a->seen++;
  }
  return CXChildVisit_Recurse;
}

/* The statement's place among the function's asm statements, in the
 * order both the AST walk and the printer follow; -1 if not found. */
static long asm_ordinal(CXCursor fn, CXCursor s)
{
  asm_find a = { s, 0, 0 };
  clang_visitChildren(fn, asm_find_visit, &a);
  return a.found ? (long)a.seen : -1;
}

/* Length of the token at p (p not at a space), and whether it is a
 * string literal. */
static size_t asm_lex_one(const char *p, int *is_string)
{
  *is_string = 0;
  if (*p == '"' || *p == '\'') {
    char q = *p;
    size_t i = 1;
    while (p[i] && p[i] != q) i += (p[i] == '\\' && p[i + 1]) ? 2 : 1;
    *is_string = q == '"';
    return p[i] ? i + 1 : i;
  }
  if (isalnum((unsigned char)*p) || *p == '_') {
    size_t i = 1;
    while (isalnum((unsigned char)p[i]) || p[i] == '_') i++;
    return i;
  }
  return 1;
}

/* Where the n-th asm statement starts in the printed text: the printer
 * writes a statement as "asm (", "asm volatile (", "asm goto (", and an
 * asm label of a declaration as "asm(" (not counted). */
static const char *asm_nth_stmt(const char *text, long n)
{
  for (const char *p = text; *p;) {
    if (isspace((unsigned char)*p)) { p++; continue; }
    int str;
    size_t len = asm_lex_one(p, &str);
    if (len == 3 && !strncmp(p, "asm", 3) && p[3] == ' ' && n-- == 0) return p;
    p += len;
  }
  return NULL;
}

int asm_toks_printed(fe_tu *t, CXCursor fn, char **printed, CXCursor s, asm_toks *out)
{
  (void)t;
  memset(out, 0, sizeof *out);
  if (clang_Cursor_isNull(fn)) return 0;
  long n = asm_ordinal(fn, s);
  if (n < 0) return 0;
  if (!*printed) {
    CXPrintingPolicy pol = clang_getCursorPrintingPolicy(fn);
    CXString str = clang_getCursorPrettyPrinted(fn, pol);
    *printed = xstrdup(clang_getCString(str));
    clang_disposeString(str);
    clang_PrintingPolicy_dispose(pol);
  }
  const char *p = asm_nth_stmt(*printed, n);
  int depth = 0, opened = 0;
  while (p && *p && out->n < ASM_MAX_TOKS) {
    if (isspace((unsigned char)*p)) { p++; continue; }
    int str;
    size_t len = asm_lex_one(p, &str);
    asm_toks_push(out, p, len, str);
    if (*p == '(') depth++, opened = 1;
    else if (*p == ')') depth--;
    p += len;
    if (opened && depth <= 0) break;
  }
  return out->n > 0;
}
