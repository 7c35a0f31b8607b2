/* diag_text.c — diagnostics as GCC and Clang print them:
 *
 *   src/api.h:9:5: error: 'parse_level' is declared const … [purist-misuse]
 *       9 | int parse_level(const char *s) __attribute__((const));
 *         |     ^
 *   src/util.c:14:12: note: reads global 'verbosity' here
 *      14 |   return verbosity;
 *         |          ^
 *   1 error generated.
 *
 * so editors and CI log parsers that understand compiler output understand
 * purist's. Columns are byte columns (as libclang reports them); the caret
 * line repeats the source line's tabs so the caret lands under the column
 * whatever the tab width, and counts a multi-byte UTF-8 character once. */
#include "report/diag_out.h"
#include "util/textenc.h"
#include "util/fileio.h"
#include "util/strtab.h"
#include "util/strbuf.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* GCC's default GCC_COLORS: locus=01, error=01;31, warning=01;35,
 * note=01;36; the caret in green as Clang draws it. */
#define SGR_LOCUS "\33[01m\33[K"
#define SGR_ERROR "\33[01;31m\33[K"
#define SGR_WARNING "\33[01;35m\33[K"
#define SGR_NOTE "\33[01;36m\33[K"
#define SGR_CARET "\33[01;32m\33[K"
#define SGR_END "\33[m\33[K"

/* One source file as read for snippets: its text and where each line
 * starts. text is NULL when the file could not be read. */
typedef struct {
  bool loaded;
  char *text;
  size_t len;
  VEC(size_t) starts;
} text_file;

/* The files read during one diag_print_text call, indexed by the strtab id
 * of their path: a file is read once however many findings point into it. */
typedef struct {
  strtab *paths;
  VEC(text_file) files;
} text_cache;

/* Reads a file and records its line starts; a trailing newline does not
 * start another line. */
static void text_file_load(text_file *f, const char *path)
{
  f->loaded = true;
  f->text = file_read_all(path, &f->len);
  if (!f->text || f->len == 0) return;
  vec_push(&f->starts, (size_t)0);
  for (size_t i = 0; i + 1 < f->len; i++)
    if (f->text[i] == '\n') vec_push(&f->starts, i + 1);
}

/* The entry for path, loaded on first use. */
static text_file *text_cache_file(text_cache *c, const char *path)
{
  if (!c->paths) c->paths = strtab_new();
  uint32_t id = strtab_intern(c->paths, path);
  if (id >= c->files.n) {
    vec_reserve(&c->files, (size_t)id + 1);
    memset(c->files.v + c->files.n, 0, ((size_t)id + 1 - c->files.n) * sizeof *c->files.v);
    c->files.n = (size_t)id + 1;
  }
  text_file *f = &c->files.v[id];
  if (!f->loaded) text_file_load(f, path);
  return f;
}

/* Line `line` (1-based) of path without its line ending, or NULL if the
 * file is unreadable or shorter. */
static const char *text_cache_line(text_cache *c, const char *path, unsigned line, size_t *len)
{
  if (!path[0] || line == 0) return NULL;
  text_file *f = text_cache_file(c, path);
  if (!f->text || line > f->starts.n) return NULL;
  size_t b = f->starts.v[line - 1];
  size_t e = line < f->starts.n ? f->starts.v[line] - 1 : f->len;
  if (e > b && f->text[e - 1] == '\n') e--;
  if (e > b && f->text[e - 1] == '\r') e--;
  *len = e - b;
  return f->text + b;
}

/* Frees every file read and the cache's own storage. */
static void text_cache_free(text_cache *c)
{
  for (size_t i = 0; i < c->files.n; i++) {
    free(c->files.v[i].text);
    vec_free(&c->files.v[i].starts);
  }
  vec_free(&c->files);
  if (c->paths) strtab_free(c->paths);
}

/* The colour GCC gives a severity's name. */
static const char *text_sev_color(diag_severity s)
{
  return s == DIAG_ERROR ? SGR_ERROR : s == DIAG_WARNING ? SGR_WARNING : SGR_NOTE;
}

/* `file:line:col:`, leaving out what is unknown (0 or ""). */
static void text_locus(FILE *out, bool color, const char *file, unsigned line, unsigned col)
{
  if (color) fputs(SGR_LOCUS, out);
  const char *shown = file[0] ? file : "purist";
  textenc_put_text(out, shown, strlen(shown), 0);   /* an ESC in a file name stays text */
  if (file[0] && line) {
    fprintf(out, ":%u", line);
    if (col) fprintf(out, ":%u", col);
  }
  fputc(':', out);
  if (color) fputs(SGR_END, out);
}

/* ` severity: message[ [purist-check]]` and the newline; the check name
 * in the severity's colour, as GCC colours `[-Wflag]`. */
static void text_headline(FILE *out, bool color, diag_severity sev, const char *message,
                          const char *check)
{
  const char *sc = text_sev_color(sev);
  fprintf(out, " %s%s: %s", color ? sc : "", diag_severity_name(sev), color ? SGR_END : "");
  textenc_put_text(out, message, strlen(message), 1);   /* names quoted in it */
  if (check) fprintf(out, " [%spurist-%s%s]", color ? sc : "", check, color ? SGR_END : "");
  fputc('\n', out);
}

/* The number of decimal digits of n, for the width of the margin. */
static int text_digits(unsigned n)
{
  int d = 1;
  while (n >= 10) { n /= 10; d++; }
  return d;
}

/* The caret line's indentation: a tab for a tab, nothing for a UTF-8
 * continuation byte, a space for anything else, up to byte column col. */
static void text_caret_indent(FILE *out, const char *src, size_t len, unsigned col)
{
  size_t upto = col - 1 < len ? col - 1 : len;
  for (size_t i = 0; i < upto; i++) {
    unsigned char ch = (unsigned char)src[i];
    if (ch == '\t') fputc('\t', out);
    else if ((ch & 0xC0) != 0x80)
      fprintf(out, "%*s", textenc_text_width((const unsigned char *)src + i, len - i, 1), "");
  }
}

/* A quoted line longer than this shows this much around the column, with
 * "..." for what is left out (as clang does): a 5 MB line (generated or
 * minified code) was written whole under every finding on it. */
#define TEXT_LINE_MAX 240

/* The part [*lo, *hi) of a line of len bytes shown for byte column col,
 * on UTF-8 character boundaries. */
static void text_window(const char *src, size_t len, unsigned col, size_t *lo, size_t *hi)
{
  size_t at = col ? col - 1 : 0;
  *lo = 0;
  *hi = len;
  if (len <= TEXT_LINE_MAX) return;
  *lo = at > TEXT_LINE_MAX / 2 ? at - TEXT_LINE_MAX / 2 : 0;
  if (*lo > len) *lo = len;
  while (*lo < len && ((unsigned char)src[*lo] & 0xC0) == 0x80) ++*lo;
  *hi = *lo + TEXT_LINE_MAX < len ? *lo + TEXT_LINE_MAX : len;
  while (*hi > *lo && *hi < len && ((unsigned char)src[*hi] & 0xC0) == 0x80) --*hi;
}

/* The source line in GCC's margin (`   12 | …`) and, when the column is
 * known, the caret line under it. Nothing if the line cannot be read. */
static void text_snippet(FILE *out, text_cache *c, bool color, const char *abs_file,
                         unsigned line, unsigned col)
{
  size_t len, lo, hi;
  const char *src = text_cache_line(c, abs_file, line, &len);
  if (!src) return;
  text_window(src, len, col, &lo, &hi);
  int w = text_digits(line) > 5 ? text_digits(line) : 5;
  fprintf(out, "%*u | %s", w, line, lo ? "..." : "");
  textenc_put_text(out, src + lo, hi - lo, 1);
  fputs(hi < len ? "...\n" : "\n", out);
  if (!col) return;
  fprintf(out, "%*s | %s", w, "", lo ? "   " : "");
  text_caret_indent(out, src + lo, hi - lo, col - (unsigned)lo);
  fprintf(out, "%s^%s\n", color ? SGR_CARET : "", color ? SGR_END : "");
}

/* `3 errors, 12 warnings, 2 notes generated.`, leaving out zero counts. */
static void text_summary(FILE *out, const size_t count[3])
{
  static const char *const names[3] = {"note", "warning", "error"};
  const char *sep = "";
  for (int s = DIAG_ERROR; s >= DIAG_NOTE; s--) {
    if (!count[s]) continue;
    fprintf(out, "%s%zu %s%s", sep, count[s], names[s], count[s] == 1 ? "" : "s");
    sep = ", ";
  }
  fputs(" generated.\n", out);
}

/* One finding: its headline and snippet, then each related location as a
 * note with its own snippet. */
static void text_diag(FILE *out, text_cache *c, bool color, const diag *d)
{
  text_locus(out, color, d->file, d->line, d->column);
  text_headline(out, color, d->severity, d->message, d->check);
  text_snippet(out, c, color, d->abs_file, d->line, d->column);
  for (size_t i = 0; i < d->related.n; i++) {
    const diag_related *r = &d->related.v[i];
    text_locus(out, color, r->file, r->line, r->column);
    text_headline(out, color, DIAG_NOTE, r->message, NULL);
    text_snippet(out, c, color, r->abs_file, r->line, r->column);
  }
}

/* Do a and b read the same, but for the function they concern? */
static bool text_same(const diag *a, const diag *b)
{
  if (a->severity != b->severity || a->line != b->line || a->column != b->column ||
      a->related.n != b->related.n || strcmp(a->file, b->file) || strcmp(a->check, b->check) ||
      strcmp(a->message, b->message))
    return false;
  for (size_t i = 0; i < a->related.n; i++) {
    const diag_related *x = &a->related.v[i], *y = &b->related.v[i];
    if (x->line != y->line || x->column != y->column || strcmp(x->file, y->file) || strcmp(x->message, y->message))
      return false;
  }
  return true;
}

/* The functions of d[0] and its repeats d[1..n), as one note at its place:
 * code an #include or a macro puts into several functions (brotli's
 * hasher templates) reads the same in each, and the reader wants it once. */
static void text_repeats(FILE *out, bool color, const diag *d, size_t n)
{
  enum { SHOWN = 4 };
  strbuf sb = {0};
  sb_printf(&sb, "the same in %zu functions: ", n);
  for (size_t i = 0; i < n && i < SHOWN; i++)
    sb_printf(&sb, "%s'%s'", i ? ", " : "", d[i].function ? d[i].function : "?");
  if (n > SHOWN) sb_printf(&sb, " and %zu more", n - SHOWN);
  sb_puts(&sb, " (the code is included or expanded into each)");
  text_locus(out, color, d->file, d->line, d->column);
  text_headline(out, color, DIAG_NOTE, sb.s, NULL);
  sb_free(&sb);
}

int diag_print_text(FILE *out, const diag_list *l, bool color)
{
  text_cache c = {0};
  size_t count[3] = {0};
  for (size_t i = 0, n; i < l->n; i += n) {
    for (n = 1; i + n < l->n && text_same(&l->v[i], &l->v[i + n]); n++) {}
    text_diag(out, &c, color, &l->v[i]);
    if (n > 1) text_repeats(out, color, &l->v[i], n);
    count[l->v[i].severity <= DIAG_ERROR ? l->v[i].severity : DIAG_ERROR]++;
  }
  if (l->n) text_summary(out, count);
  text_cache_free(&c);
  return ferror(out) ? -1 : 0;
}

bool diag_use_color(const char *when, FILE *out)
{
  if (when && strcmp(when, "always") == 0) return true;
  if (when && strcmp(when, "never") == 0) return false;
  const char *no = getenv("NO_COLOR");
  if (no && no[0]) return false;
  const char *term = getenv("TERM");
  if (term && strcmp(term, "dumb") == 0) return false;
  return isatty(fileno(out));
}
