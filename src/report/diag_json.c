/* diag_json.c — diagnostics as the JSON of DESIGN.md §4:
 * {"version":1,"diagnostics":[{"check","severity","file","line","column",
 * "function","message","related":[…]}…]}, suggestions also "gain" and
 * "public_api". Streamed one diagnostic per line,
 * like `infer --format=json`, so the output diffs well and memory stays
 * flat; each line is built and escaped by jansson. */
#include "report/diag_out.h"
#include "util/strbuf.h"
#include "util/textenc.h"
#include <jansson.h>
#include <string.h>

json_t *diag_json_str(const char *s)
{
  /* Bytes that are not UTF-8 (a Latin-1 file name or source line) are
   * written by textenc's one lossless rule (docs/file-names.md), so the
   * output stays valid JSON and the name can be had back exactly. */
  const unsigned char *p = (const unsigned char *)s;
  while (*p && *p < 0x80) p++;
  if (!*p) return json_string(s);
  char *enc = textenc_json(s);
  json_t *j = json_string(enc);
  free(enc);
  return j;
}

/* One related location: {"file","line","column","message"}. */
static json_t *json_related(const diag_related *r)
{
  json_t *o = json_object();
  json_object_set_new(o, "file", diag_json_str(r->file));
  json_object_set_new(o, "line", json_integer(r->line));
  json_object_set_new(o, "column", json_integer(r->column));
  json_object_set_new(o, "message", diag_json_str(r->message));
  return o;
}

/* One diagnostic, keys in the documented order. */
static json_t *json_diag(const diag *d)
{
  json_t *o = json_object();
  json_object_set_new(o, "check", diag_json_str(d->check));
  json_object_set_new(o, "severity", json_string(diag_severity_name(d->severity)));
  json_object_set_new(o, "file", diag_json_str(d->file));
  json_object_set_new(o, "line", json_integer(d->line));
  json_object_set_new(o, "column", json_integer(d->column));
  json_object_set_new(o, "function", diag_json_str(d->function));
  json_object_set_new(o, "message", diag_json_str(d->message));
  json_t *rel = json_array();
  for (size_t i = 0; i < d->related.n; i++) json_array_append_new(rel, json_related(&d->related.v[i]));
  json_object_set_new(o, "related", rel);
  if (d->gain >= 0) {   /* suggestions: what they buy (issue 19), for tools that rank them */
    json_object_set_new(o, "gain", json_integer(d->gain));
    json_object_set_new(o, "public_api", json_boolean(d->public_api));
  }
  return o;
}

int diag_print_json(FILE *out, const diag_list *l, const run_info *ri)
{
  int rc = 0;
  fputs("{\n  \"version\": 1,\n  \"diagnostics\": [", out);
  for (size_t i = 0; i < l->n && rc == 0; i++) {
    json_t *o = json_diag(&l->v[i]);
    fputs(i ? ",\n    " : "\n    ", out);
    rc = json_dumpf(o, out, JSON_PRESERVE_ORDER) < 0 ? -1 : 0;
    json_decref(o);
  }
  fputs(l->n ? "\n  ]" : "]", out);
  if (rc == 0) rc = run_info_print_json(out, ri);
  fputs("\n}\n", out);
  return ferror(out) ? -1 : rc;
}
