/* diag.c — see diag.h; also the shared helpers of diag_out.h.
 * Every string in a diagnostic is owned by it. NULL arguments are taken as
 * "" (abs_file NULL as `file`), so printers never meet a NULL string. */
#include "report/diag.h"
#include "report/diag_out.h"
#include "util/strbuf.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A copy of s the diagnostic owns; NULL becomes "". */
static char *diag_dup(const char *s)
{
  return xstrdup(s ? s : "");
}

diag *diag_add(diag_list *l, const char *check, diag_severity sev, const char *file,
               const char *abs_file, unsigned line, unsigned column,
               const char *function, const char *message)
{
  diag d = {0};
  d.check = diag_dup(check);
  d.severity = sev;
  d.file = diag_dup(file);
  d.abs_file = diag_dup(abs_file ? abs_file : file);
  d.line = line;
  d.column = column;
  d.function = diag_dup(function);
  d.message = diag_dup(message);
  d.gain = -1;
  vec_push(l, d);
  return &l->v[l->n - 1];
}

void diag_add_related(diag *d, const char *file, const char *abs_file, unsigned line,
                      unsigned column, const char *message)
{
  diag_related r = {
    .file = diag_dup(file), .abs_file = diag_dup(abs_file ? abs_file : file),
    .line = line, .column = column, .message = diag_dup(message),
  };
  vec_push(&d->related, r);
}

/* Frees what one diagnostic owns (not the diagnostic itself, which lives in
 * the list's array). */
static void diag_clear(diag *d)
{
  for (size_t i = 0; i < d->related.n; i++) {
    diag_related *r = &d->related.v[i];
    free(r->file);
    free(r->abs_file);
    free(r->message);
  }
  vec_free(&d->related);
  free(d->check);
  free(d->file);
  free(d->abs_file);
  free(d->function);
  free(d->message);
  free(d->decl_abs_file);
}

void diag_set_decl(diag *d, const char *abs_file, unsigned line)
{
  free(d->decl_abs_file);
  d->decl_abs_file = diag_dup(abs_file);
  d->decl_line = line;
}

void diag_list_free(diag_list *l)
{
  for (size_t i = 0; i < l->n; i++) diag_clear(&l->v[i]);
  vec_free(l);
}

void diag_list_keep(diag_list *l, const bool *keep)
{
  size_t k = 0;
  for (size_t i = 0; i < l->n; i++) {
    if (keep[i]) l->v[k++] = l->v[i];
    else diag_clear(&l->v[i]);
  }
  l->n = k;
}

/* Total order: file, line, column, check, message, then function and
 * severity, so that no two distinct diagnostics compare equal and qsort's
 * instability cannot show. */
static int diag_cmp(const void *a, const void *b)
{
  const diag *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (c) return c;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->column != y->column) return x->column < y->column ? -1 : 1;
  if ((c = strcmp(x->check, y->check))) return c;
  if ((c = strcmp(x->message, y->message))) return c;
  if ((c = strcmp(x->function, y->function))) return c;
  return (int)y->severity - (int)x->severity;
}

void diag_sort(diag_list *l)
{
  if (l->n < 2) return;
  qsort(l->v, l->n, sizeof *l->v, diag_cmp);
  /* A file the database compiles twice (gnulib's vasnprintf.c, once for
   * the library and once for its tests) gives each finding twice: the
   * reader wants it once. */
  size_t k = 1;
  for (size_t i = 1; i < l->n; i++) {
    if (diag_cmp(&l->v[k - 1], &l->v[i]) == 0) diag_clear(&l->v[i]);
    else l->v[k++] = l->v[i];
  }
  l->n = k;
}

const char *diag_severity_name(diag_severity s)
{
  switch (s) {
  case DIAG_ERROR: return "error";
  case DIAG_WARNING: return "warning";
  default: return "note";
  }
}

/* Whether the digits at msg[i] are a position: right after a ':' (as in
 * "util.c:14:12") or after the word "line", "lines" or "column". */
static bool diag_key_is_position(const char *msg, size_t i)
{
  static const char *const words[] = {"line ", "lines ", "column "};
  if (i > 0 && msg[i - 1] == ':') return true;
  for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
    size_t n = strlen(words[w]);
    if (i >= n && memcmp(msg + i - n, words[w], n) == 0 &&
        (i == n || !isalnum((unsigned char)msg[i - n - 1])))
      return true;
  }
  return false;
}

char *diag_key(const char *check, const char *function, const char *message)
{
  strbuf b = {0};
  sb_printf(&b, "%s\x1f%s\x1f", check ? check : "", function ? function : "");
  const char *m = message ? message : "";
  for (size_t i = 0; m[i];) {
    if (isdigit((unsigned char)m[i]) && diag_key_is_position(m, i)) {
      while (isdigit((unsigned char)m[i])) i++;
      sb_puts(&b, "#");
    } else {
      char one[2] = {m[i++], '\0'};
      sb_puts(&b, one);
    }
  }
  char *k = xstrdup(sb_str(&b));
  sb_free(&b);
  return k;
}
