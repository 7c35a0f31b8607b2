/* html_verify.c — reads a verify report's diagnostics for the HTML page.
 *
 * The verify runtime writes the diagnostics JSON of DESIGN.md §4, like
 * check, suggest and explain. Anything else is refused with a reason: the
 * page must not show half a file as if it were all of it. */
#include "report/html.h"
#include "util/textenc.h"
#include <jansson.h>
#include <sys/stat.h>
#include <string.h>

/* The string member `key` of o as the bytes it encodes (util/textenc.h),
 * or NULL if absent or not a string. Kept in a small ring, so several can
 * be used at once; each lives until eight more calls. */
static const char *hv_str(json_t *o, const char *key)
{
  static char *ring[8];
  static unsigned next;
  json_t *v = json_object_get(o, key);
  if (!json_is_string(v)) return NULL;
  char **slot = &ring[next++ % 8];
  free(*slot);
  *slot = textenc_json_decode(json_string_value(v), json_string_length(v));
  return *slot;
}

/* The non-negative integer member `key` of o, or 0 if absent. */
static unsigned hv_uint(json_t *o, const char *key)
{
  json_t *v = json_object_get(o, key);
  json_int_t n = json_is_integer(v) ? json_integer_value(v) : 0;
  return n > 0 && n < (json_int_t)1 << 31 ? (unsigned)n : 0;
}

static bool hv_severity(const char *s, diag_severity *out)
{
  if (!s) return false;
  if (!strcmp(s, "error")) *out = DIAG_ERROR;
  else if (!strcmp(s, "warning")) *out = DIAG_WARNING;
  else if (!strcmp(s, "note")) *out = DIAG_NOTE;
  else return false;
  return true;
}

/* root/file for a relative file, the file itself otherwise (caller frees). */
static char *hv_abs(const char *root, const char *file)
{
  if (file[0] == '/' || !root || !*root) return xstrdup(file);
  return xasprintf("%s/%s", root, file);
}

static void hv_related(diag *d, json_t *rel, const char *root)
{
  size_t i;
  json_t *r;
  json_array_foreach(rel, i, r) {
    const char *file = hv_str(r, "file"), *msg = hv_str(r, "message");
    if (!json_is_object(r) || !file || !msg) continue;
    char *abs = hv_abs(root, file);
    diag_add_related(d, file, abs, hv_uint(r, "line"), hv_uint(r, "column"), msg);
    free(abs);
  }
}

/* Adds diagnostic number i; returns NULL or what is wrong with it. */
static const char *hv_one(json_t *o, const char *root, diag_list *out)
{
  if (!json_is_object(o)) return "is not an object";
  const char *check = hv_str(o, "check"), *file = hv_str(o, "file"), *fn = hv_str(o, "function");
  const char *msg = hv_str(o, "message");
  diag_severity sev;
  if (!check || !*check) return "has no \"check\"";
  if (!hv_severity(hv_str(o, "severity"), &sev)) return "has no \"severity\" error, warning or note";
  if (!file) return "has no \"file\"";
  if (!msg) return "has no \"message\"";
  char *abs = hv_abs(root, file);
  diag *d = diag_add(out, check, sev, file, abs, hv_uint(o, "line"), hv_uint(o, "column"), fn ? fn : "", msg);
  free(abs);
  hv_related(d, json_object_get(o, "related"), root);
  return NULL;
}

int html_verify_load(const char *path, const char *root, diag_list *out, char **err)
{
  json_error_t je;
  struct stat st;
  /* A directory (or a FIFO) is said as such, not as a JSON parse error
   * (the reader would say "unable to open" or block). */
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    *err = xasprintf("%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
    return -1;
  }
  json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
  if (!doc) {
    *err = je.line > 0 ? xasprintf("%s:%d:%d: %s", path, je.line, je.column, je.text)
                       : xasprintf("%s: %s", path, je.text);
    return -1;
  }
  json_t *diags = json_object_get(doc, "diagnostics");
  json_t *version = json_object_get(doc, "version");
  diag_list tmp = {0};
  const char *why = NULL;
  size_t i = 0;
  if (!json_is_object(doc) || !json_is_array(diags))
    why = "not a diagnostics report: expected {\"version\":1,\"diagnostics\":[…]}";
  else if (!json_is_integer(version) || json_integer_value(version) != 1)
    why = "unsupported \"version\" (this purist reads 1)";
  for (; !why && i < json_array_size(diags); i++) why = hv_one(json_array_get(diags, i), root, &tmp);
  if (why) {
    *err = i ? xasprintf("%s: diagnostic %zu %s", path, i, why) : xasprintf("%s: %s", path, why);
    diag_list_free(&tmp);
  } else {
    for (size_t k = 0; k < tmp.n; k++) vec_push(out, tmp.v[k]);
    vec_free(&tmp);
  }
  json_decref(doc);
  return why ? -1 : 0;
}
