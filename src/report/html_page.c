/* html_page.c — fills in the page template and writes it (html.h).
 *
 * The template (data/report/report.html) has markers @CSS@, @JS@, @DATA@
 * and @NONCE@. The data is the JSON document of html_json.c, written
 * inside <script type="application/json">: JSON with every non-ASCII
 * character as a \u escape (so U+2028 and U+2029 too) and `<`, `>`, `&` as
 * \u003c, \u003e, \u0026, so no byte sequence in it can close the script
 * element or open a comment. The nonce lets the Content-Security-Policy
 * allow the page's own style and script and nothing else; it is a hash of
 * the data, so the same project gives the same page. */
#include "report/html_internal.h"
#include "util/fileio.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

/* Generated from data/report/ at build time (cmake/report_html.cmake). */
extern const char html_page_html_text[], html_page_css_text[], html_page_js_text[];

/* The data document as the script block's text (caller frees). */
static char *html_page_data(json_t *doc, size_t *len)
{
  char *json = json_dumps(doc, JSON_COMPACT | JSON_ENSURE_ASCII);
  size_t n = 0, extra = 0;
  for (; json[n]; n++) extra += (json[n] == '<' || json[n] == '>' || json[n] == '&') * 5;
  char *out = xmalloc(n + extra + 1), *w = out;
  for (size_t i = 0; i < n; i++) {
    char c = json[i];
    if (c == '<' || c == '>' || c == '&') w += sprintf(w, "\\u%04x", (unsigned)c);
    else *w++ = c;
  }
  *w = '\0';
  free(json);
  *len = (size_t)(w - out);
  return out;
}

/* The data for a page of at most max_bytes, summarising as far as needed. */
static char *html_page_fit(html_model *m, size_t max_bytes, size_t *len)
{
  size_t fixed = strlen(html_page_html_text) + strlen(html_page_css_text) + strlen(html_page_js_text) + 256;
  size_t budget = max_bytes > fixed ? max_bytes - fixed : 1;
  html_level min = HTML_FULL;
  double ratio = 1.0;
  for (int attempt = 0;; attempt++) {
    html_model_select(m, budget, min, ratio);
    json_t *doc = html_json_build(m);
    char *data = html_page_data(doc, len);
    json_decref(doc);
    if (*len <= budget || attempt == 6) return data;
    free(data);
    /* Estimates were short: one level further, or keep fewer functions. */
    if (m->level < HTML_TOP) min = m->level + 1;
    else ratio *= (double)budget / (double)*len * 0.9;
  }
}

/* Writes the template with its markers replaced. */
static void html_page_emit(FILE *out, const char *data, size_t len, const char *nonce)
{
  const char *t = html_page_html_text;
  while (*t) {
    const char *at = strchr(t, '@');
    if (!at) { fputs(t, out); break; }
    fwrite(t, 1, (size_t)(at - t), out);
    if (!strncmp(at, "@CSS@", 5)) { fputs(html_page_css_text, out); t = at + 5; }
    else if (!strncmp(at, "@JS@", 4)) { fputs(html_page_js_text, out); t = at + 4; }
    else if (!strncmp(at, "@DATA@", 6)) { fwrite(data, 1, len, out); t = at + 6; }
    else if (!strncmp(at, "@NONCE@", 7)) { fputs(nonce, out); t = at + 7; }
    else { fputc('@', out); t = at + 1; }
  }
}

int html_write(FILE *out, const link_prog *p, const html_opts *o)
{
  html_model m;
  html_model_init(&m, p, o);
  size_t len;
  char *data = html_page_fit(&m, o->max_bytes, &len);
  XXH128_hash_t h = XXH3_128bits(data, len);
  char nonce[40];
  snprintf(nonce, sizeof nonce, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
  html_page_emit(out, data, len, nonce);
  free(data);
  html_model_free(&m);
  return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int html_write_file(const char *path, const link_prog *p, const html_opts *o, char **err)
{
  /* Through a temporary file renamed into place: a reader (a browser
   * reloading the page) never sees half a report, and a failed run leaves
   * the previous report as it was. */
  char *tmp;
  FILE *f = file_atomic_open(path, &tmp);
  int rc = f ? html_write(f, p, o) : -1;
  if (f) rc = file_atomic_commit(f, tmp, path, rc == 0);
  if (rc != 0) *err = xasprintf("%s: %s", path, strerror(errno));
  return rc;
}
