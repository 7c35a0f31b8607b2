/* impact_out.c — the impact report as text or JSON (see impact.h). */
#include "impact/impact.h"
#include <jansson.h>

/* "+12" or "-3": a signed difference of two counts. */
static void impact_print_delta(FILE *out, unsigned long before, unsigned long after)
{
  if (after >= before) fprintf(out, "+%lu", after - before);
  else fprintf(out, "-%lu", before - after);
}

void impact_print_text(FILE *out, const impact_totals *t, size_t top)
{
  fprintf(out, "calls: %lu before, %lu after: %lu removed, %lu added\n", t->calls_before, t->calls_after,
          t->calls_removed, t->calls_added);
  fprintf(out, "text:  %lu bytes before, %lu after: ", t->text_before, t->text_after);
  if (t->text_after <= t->text_before) fprintf(out, "%lu bytes saved\n", t->text_before - t->text_after);
  else fprintf(out, "%lu bytes more\n", t->text_after - t->text_before);
  if (t->unchanged)
    fprintf(out, "%zu file%s not compiled: %s no file the attributes go into\n", t->unchanged,
            t->unchanged == 1 ? "" : "s", t->unchanged == 1 ? "it reads" : "they read");
  if (!t->rows.n) {
    fprintf(out, "no function changed (%zu file%s compared)\n", t->tus, t->tus == 1 ? "" : "s");
    return;
  }
  size_t n = t->rows.n < top ? t->rows.n : top;
  fprintf(out, "%zu function%s changed in %zu file%s compared%s:\n", t->rows.n, t->rows.n == 1 ? "" : "s",
          t->tus, t->tus == 1 ? "" : "s", n < t->rows.n ? "; the biggest changes" : "");
  for (size_t i = 0; i < n; i++) {
    const impact_row *r = &t->rows.v[i];
    fprintf(out, "  %s: %s: calls %lu -> %lu (", r->file, r->name, r->calls_before, r->calls_after);
    impact_print_delta(out, r->calls_before, r->calls_after);
    fprintf(out, "), bytes %lu -> %lu (", r->bytes_before, r->bytes_after);
    impact_print_delta(out, r->bytes_before, r->bytes_after);
    fputs(")\n", out);
  }
}

static json_t *impact_json_row(const impact_row *r)
{
  return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "name", r->name, "file", r->file,
                   "calls_before", (json_int_t)r->calls_before, "calls_after", (json_int_t)r->calls_after,
                   "text_bytes_before", (json_int_t)r->bytes_before,
                   "text_bytes_after", (json_int_t)r->bytes_after);
}

void impact_print_json(FILE *out, const impact_totals *t)
{
  json_t *fns = json_array();
  for (size_t i = 0; i < t->rows.n; i++) json_array_append_new(fns, impact_json_row(&t->rows.v[i]));
  json_t *files = json_array();
  for (size_t i = 0; i < t->compared.n; i++) json_array_append_new(files, json_string(t->compared.v[i]));
  json_t *o = json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o}", "version", 1,
                        "calls_before", (json_int_t)t->calls_before, "calls_after", (json_int_t)t->calls_after,
                        "calls_removed", (json_int_t)t->calls_removed, "calls_added", (json_int_t)t->calls_added,
                        "text_bytes_before", (json_int_t)t->text_before,
                        "text_bytes_after", (json_int_t)t->text_after, "files_compared", (json_int_t)t->tus,
                        "files_unchanged", (json_int_t)t->unchanged, "compared", files, "functions", fns);
  json_dumpf(o, out, JSON_PRESERVE_ORDER | JSON_COMPACT);
  fputc('\n', out);
  json_decref(o);
}
