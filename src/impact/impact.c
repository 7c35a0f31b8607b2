/* impact.c — see impact.h: measuring and comparing. Printing is in
 * impact_out.c. */
#include "impact/impact.h"
#include "impact/asmscan.h"
#include "impact/elfsize.h"
#include "util/fileio.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static impact_fn *impact_find(const impact_tu *tu, const char *name)
{
  for (size_t i = 0; i < tu->fns.n; i++)
    if (!strcmp(tu->fns.v[i].name, name)) return &tu->fns.v[i];
  return NULL;
}

/* Function n of the TU, added with no calls and no bytes if new. */
static impact_fn *impact_get(impact_tu *tu, const char *name)
{
  impact_fn *f = impact_find(tu, name);
  if (f) return f;
  impact_fn nf = { xstrdup(name), 0, 0 };
  vec_push(&tu->fns, nf);
  return &tu->fns.v[tu->fns.n - 1];
}

int impact_measure(const char *s_path, const char *o_path, impact_tu *tu, char **err)
{
  size_t len;
  char *text = file_read_all(s_path, &len);
  if (!text) { *err = xasprintf("%s: %s", s_path, strerror(errno)); return -1; }
  asmscan_fns calls = {0};
  asmscan_text(text, &calls);
  free(text);
  elfsize_fns sizes = {0};
  int rc = elfsize_read(o_path, &sizes, &tu->text, err);
  for (size_t i = 0; rc == 0 && i < calls.n; i++) impact_get(tu, calls.v[i].name)->calls += calls.v[i].calls;
  for (size_t i = 0; rc == 0 && i < sizes.n; i++) impact_get(tu, sizes.v[i].name)->bytes += sizes.v[i].bytes;
  asmscan_fns_free(&calls);
  elfsize_fns_free(&sizes);
  return rc;
}

void impact_tu_fini(impact_tu *tu)
{
  for (size_t i = 0; i < tu->fns.n; i++) free(tu->fns.v[i].name);
  vec_free(&tu->fns);
}

/* One function's before and after (either may be NULL: absent). */
static void impact_add_row(impact_totals *t, const char *file, const char *name,
                           const impact_fn *b, const impact_fn *a)
{
  unsigned long cb = b ? b->calls : 0, ca = a ? a->calls : 0;
  unsigned long bb = b ? b->bytes : 0, ba = a ? a->bytes : 0;
  if (cb > ca) t->calls_removed += cb - ca;
  else t->calls_added += ca - cb;
  if (cb == ca && bb == ba) return;
  impact_row r = { xstrdup(name), xstrdup(file), cb, ca, bb, ba };
  vec_push(&t->rows, r);
}

void impact_compare(impact_totals *t, const impact_tu *before, const impact_tu *after, const char *file)
{
  t->tus++;
  vec_push(&t->compared, xstrdup(file));
  t->text_before += before->text;
  t->text_after += after->text;
  for (size_t i = 0; i < before->fns.n; i++) {
    const impact_fn *b = &before->fns.v[i];
    t->calls_before += b->calls;
    impact_add_row(t, file, b->name, b, impact_find(after, b->name));
  }
  for (size_t i = 0; i < after->fns.n; i++) {
    const impact_fn *a = &after->fns.v[i];
    t->calls_after += a->calls;
    if (!impact_find(before, a->name)) impact_add_row(t, file, a->name, NULL, a);
  }
}

static unsigned long impact_absdiff(unsigned long x, unsigned long y)
{
  return x > y ? x - y : y - x;
}

static int impact_row_cmp(const void *pa, const void *pb)
{
  const impact_row *a = pa, *b = pb;
  unsigned long ca = impact_absdiff(a->calls_before, a->calls_after);
  unsigned long cb = impact_absdiff(b->calls_before, b->calls_after);
  if (ca != cb) return ca > cb ? -1 : 1;
  unsigned long ba = impact_absdiff(a->bytes_before, a->bytes_after);
  unsigned long bb = impact_absdiff(b->bytes_before, b->bytes_after);
  if (ba != bb) return ba > bb ? -1 : 1;
  int c = strcmp(a->file, b->file);
  return c ? c : strcmp(a->name, b->name);
}

void impact_sort(impact_totals *t)
{
  if (t->rows.n) qsort(t->rows.v, t->rows.n, sizeof *t->rows.v, impact_row_cmp);
}

void impact_totals_free(impact_totals *t)
{
  for (size_t i = 0; i < t->rows.n; i++) {
    free(t->rows.v[i].name);
    free(t->rows.v[i].file);
  }
  vec_free(&t->rows);
  for (size_t i = 0; i < t->compared.n; i++) free(t->compared.v[i]);
  vec_free(&t->compared);
}
