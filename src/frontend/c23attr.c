/* c23attr.c — C23's standard function-type attributes [[reproducible]] and
 * [[unsequenced]] (issue 15), read although libclang 19 does not model them.
 *
 * Where they come from: clang's own diagnostic "unknown attribute
 * 'unsequenced' ignored", one per attribute it parsed, located at the
 * attribute's name (at the macro's use when a macro spells it). We read the
 * diagnostic rather than the tokens after the declarator because it is the
 * parser's verdict: it covers every spelling (`unsequenced`,
 * `__unsequenced__`), any depth of macros, and nothing in comments, strings
 * or skipped #if branches, without re-implementing the declarator grammar
 * and the preprocessor over raw tokens. Its price: the warning must not be
 * silenced, so the parse drops `-w` and re-enables -Wunknown-attributes
 * (parse.c), and declarations in system headers (whose warnings clang
 * suppresses) are not seen — the knowledge base speaks for those.
 *
 * Which declaration an attribute belongs to: a function-type attribute
 * follows the declarator, `double f(double) [[unsequenced]];` or before a
 * definition's body. So it must lie in the same file after the name and
 * the last parameter, and before the body or the declaration's `;`. One
 * inside a parameter list belongs to that parameter's type; one before the
 * declaration (`[[unsequenced]] int f(void);`) appertains to the
 * declaration, not to the function type, and is not taken for the
 * function's promise. */
#include "frontend/fe_internal.h"
#include <ctype.h>
#include <string.h>

/* The attribute a name spells, 0 if none. */
static uint8_t c23_kind_word(const char *s, size_t n)
{
  static const struct { const char *w; uint8_t kind; } words[] = {
    { "reproducible", SUM_DECL_REPRODUCIBLE }, { "__reproducible__", SUM_DECL_REPRODUCIBLE },
    { "unsequenced", SUM_DECL_UNSEQUENCED }, { "__unsequenced__", SUM_DECL_UNSEQUENCED },
  };
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i].w) == n && !strncmp(s, words[i].w, n)) return words[i].kind;
  return 0;
}

uint8_t fe_c23_macro_kind(char **tok, unsigned n)
{
  if (n != 5 || strcmp(tok[0], "[") || strcmp(tok[1], "[") || strcmp(tok[3], "]") || strcmp(tok[4], "]"))
    return 0;
  return c23_kind_word(tok[2], strlen(tok[2]));
}

int fe_c23_std(const fe_job *job)
{
  static const char *const c23[] = { "-std=c23", "-std=c2x", "-std=gnu23", "-std=gnu2x",
                                     "-std=iso9899:2024", NULL };
  int yes = 0;
  for (int i = 0; i < job->argc; i++) {
    if (strncmp(job->argv[i], "-std=", 5)) continue;
    yes = 0;   /* the last -std= wins */
    for (int k = 0; c23[k]; k++) yes |= !strcmp(job->argv[i], c23[k]);
  }
  return yes;
}

/* The identifier at byte off of the file's text, as a string id (0 if none). */
static uint32_t c23_ident_at(fe_tu *t, CXFile file, unsigned off, unsigned *len)
{
  size_t size = 0;
  const char *text = fe_tu_text(t, file, &size);
  *len = 0;
  if (!text || off >= size) return 0;
  unsigned e = off;
  while (e < size && (isalnum((unsigned char)text[e]) || text[e] == '_')) e++;
  *len = e - off;
  return e > off ? strtab_intern_n(t->sum->strs, text + off, e - off) : 0;
}

const char *fe_unknown_attr(const char *text, size_t *len)
{
  static const char head[] = "unknown attribute '";
  const char *name = text && !strncmp(text, head, sizeof head - 1) ? text + sizeof head - 1 : NULL;
  const char *q = name ? strchr(name, '\'') : NULL;
  if (!q || strcmp(q, "' ignored")) return NULL;
  *len = (size_t)(q - name);
  return name;
}

void fe_c23_note_diag(fe_tu *t, CXDiagnostic d)
{
  CXString s = clang_getDiagnosticSpelling(d);
  size_t n = 0;
  const char *name = fe_unknown_attr(clang_getCString(s), &n);
  uint8_t kind = name ? c23_kind_word(name, n) : 0;
  if (kind) {
    CXSourceLocation l = clang_getDiagnosticLocation(d);
    fe_c23_attr a;
    memset(&a, 0, sizeof a);
    unsigned line = 0, col = 0, sl = 0, sc = 0;
    clang_getExpansionLocation(l, &a.file, &line, &col, &a.off);
    clang_getSpellingLocation(l, NULL, &sl, &sc, NULL);
    a.kind = kind;
    a.line = line;
    a.col = col;
    unsigned len = (unsigned)n;
    if (sl != line || sc != col) a.macro = c23_ident_at(t, a.file, a.off, &len);   /* spelled by a macro */
    a.end_col = col + len;
    if (a.file) vec_push(&t->c23, a);
  }
  clang_disposeString(s);
}

static unsigned c23_offset(CXSourceLocation l, CXFile *f)
{
  unsigned off = 0;
  clang_getExpansionLocation(l, f, NULL, NULL, &off);
  return off;
}

static enum CXChildVisitResult c23_find_body(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_CompoundStmt) return CXChildVisit_Continue;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* Where the declarator of fn ends (past its name and last parameter) and
 * where its function-type attributes must end (the body, or the `;`). */
static int c23_window(fe_tu *t, CXCursor fn, CXFile *file, unsigned *lo, unsigned *hi)
{
  *lo = c23_offset(clang_getCursorLocation(fn), file);
  if (!*file) return 0;
  int np = clang_Cursor_getNumArguments(fn);
  for (int i = 0; i < np; i++) {
    CXFile pf;
    unsigned e = c23_offset(clang_getRangeEnd(clang_getCursorExtent(clang_Cursor_getArgument(fn, (unsigned)i))), &pf);
    if (clang_File_isEqual(pf, *file) && e > *lo) *lo = e;
  }
  CXCursor body = clang_getNullCursor();
  if (clang_isCursorDefinition(fn)) clang_visitChildren(fn, c23_find_body, &body);
  if (!clang_Cursor_isNull(body)) {
    CXFile bf;
    *hi = c23_offset(clang_getRangeStart(clang_getCursorExtent(body)), &bf);
    return clang_File_isEqual(bf, *file) && *hi > *lo;
  }
  size_t size = 0;
  const char *text = fe_tu_text(t, *file, &size);
  if (!text || *lo > size) return 0;
  unsigned e = *lo;
  while (e < size && text[e] != ';' && text[e] != '{') e++;
  *hi = e;
  return 1;
}

/* Is the attribute at off written before fn's name at name, in the same
 * declaration: only specifiers between (no ; { } , or ), which would end
 * another declaration, declarator or parameter list)? */
static int c23_leading(fe_tu *t, CXFile file, unsigned off, unsigned name)
{
  size_t size = 0;
  const char *text = fe_tu_text(t, file, &size);
  if (!text || off >= name || name > size) return 0;
  for (unsigned i = off; i < name; i++)
    if (strchr(";{},)", text[i])) return 0;
  return 1;
}

uint8_t fe_c23_decl_attrs(fe_tu *t, CXCursor fn, sum_decl *d)
{
  if (!t->c23.n) return 0;
  CXFile file;
  unsigned lo, hi;
  if (!c23_window(t, fn, &file, &lo, &hi)) return 0;
  unsigned name = c23_offset(clang_getCursorLocation(fn), &file);
  uint8_t bits = 0;
  for (size_t i = 0; i < t->c23.n; i++) {
    const fe_c23_attr *a = &t->c23.v[i];
    if (!clang_File_isEqual(a->file, file)) continue;
    if (d && a->off < name && c23_leading(t, file, a->off, name))
      d->declared |= (uint8_t)(a->kind << SUM_DECL_LEAD_SHIFT);
    if (a->off < lo || a->off >= hi) continue;
    bits |= a->kind;
    if (!d) continue;
    sum_attr at = { .kind = a->kind, .form = SA_STD, .macro = a->macro, .beg_line = a->line,
                    .beg_col = a->col, .end_line = a->line, .end_col = a->end_col };
    vec_push(&t->sum->attrs, at);
    d->nattr++;
  }
  return bits;
}
