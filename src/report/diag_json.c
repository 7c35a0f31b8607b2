/* diag_json.c — diagnostics as the JSON of DESIGN.md §4:
 * {"version":1,"diagnostics":[{"check","severity","file","line","column",
 * "function","message","related":[…]}…]}. Streamed one diagnostic per line,
 * like `infer --format=json`, so the output diffs well and memory stays
 * flat; each line is built and escaped by jansson. */
#include "report/diag_out.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (as jansson defines valid: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t json_utf8_len(const unsigned char *s)
{
  unsigned c = s[0];
  size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (n <= 1) return n;
  unsigned cp = c & (0x7F >> n);
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

json_t *diag_json_str(const char *s)
{
  json_t *j = json_string(s);
  if (j) return j;
  /* Not UTF-8 (a Latin-1 source line, say): each bad byte becomes U+FFFD,
   * so the output stays valid JSON and the rest stays readable. */
  strbuf b = {0};
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    size_t n = json_utf8_len(p);
    if (n) {
      char seq[5] = {0};
      memcpy(seq, p, n);
      sb_puts(&b, seq);
      p += n;
    } else {
      sb_puts(&b, "\xEF\xBF\xBD");
      p++;
    }
  }
  j = json_string(sb_str(&b));
  sb_free(&b);
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
  return o;
}

int diag_print_json(FILE *out, const diag_list *l)
{
  int rc = 0;
  fputs("{\n  \"version\": 1,\n  \"diagnostics\": [", out);
  for (size_t i = 0; i < l->n && rc == 0; i++) {
    json_t *o = json_diag(&l->v[i]);
    fputs(i ? ",\n    " : "\n    ", out);
    rc = json_dumpf(o, out, JSON_PRESERVE_ORDER) < 0 ? -1 : 0;
    json_decref(o);
  }
  fputs(l->n ? "\n  ]\n}\n" : "]\n}\n", out);
  return ferror(out) ? -1 : rc;
}
