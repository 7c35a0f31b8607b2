/*
 * json_flat — the end-to-end tests' view of purist's JSON, independent of
 * its layout (indentation, one object per line or not, key order).
 *
 *   json_flat FILE            print every leaf as PATH<TAB>VALUE, in order
 *   json_flat --infer FILE    check FILE against the infer contract of
 *                             DESIGN.md §4, then print it flat as above
 *
 * PATH joins object keys and array indices with '.', e.g.
 * "functions.3.name"; VALUE is the leaf in compact JSON ("sq", 12, true).
 * Empty arrays and objects print as [] and {}.
 *
 * The --infer contract: one object with "version": 1 and an array
 * "functions" whose every element is an object with name, file (non-empty
 * strings), line (integer >= 1), linkage (external|internal), class
 * (const|pure|normal), declared (const|pure|none|reproducible|unsequenced), c23 and
 * declared_c23 (unsequenced|reproducible|none), may_not_return (bool)
 * and reason (non-empty string).  More keys are allowed.
 *
 * Exit status: 0 ok; 1 FILE is not JSON or breaks the contract (the first
 * problem is printed on stderr); 2 usage.  Built by lib.sh on first use.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void flat_print(const char *path, json_t *v)
{
  if (json_is_object(v) && json_object_size(v) > 0) {
    const char *k;
    json_t *c;
    json_object_foreach(v, k, c) {
      size_t n = strlen(path) + strlen(k) + 2;
      char *p = malloc(n);
      snprintf(p, n, "%s%s%s", path, *path ? "." : "", k);
      flat_print(p, c);
      free(p);
    }
  } else if (json_is_array(v) && json_array_size(v) > 0) {
    size_t i;
    json_t *c;
    json_array_foreach(v, i, c) {
      size_t n = strlen(path) + 24;
      char *p = malloc(n);
      snprintf(p, n, "%s%s%zu", path, *path ? "." : "", i);
      flat_print(p, c);
      free(p);
    }
  } else {
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    printf("%s\t%s\n", path, s ? s : "?");
    free(s);
  }
}

static int bad(const char *file, size_t i, const char *what)
{
  fprintf(stderr, "%s: functions[%zu]: %s\n", file, i, what);
  return 1;
}

static int one_of(json_t *v, const char *const *allowed)
{
  if (!json_is_string(v)) return 0;
  for (; *allowed; allowed++)
    if (!strcmp(json_string_value(v), *allowed)) return 1;
  return 0;
}

static int nonempty_string(json_t *v)
{
  return json_is_string(v) && json_string_length(v) > 0;
}

static int check_infer(const char *file, json_t *doc)
{
  static const char *const linkage[] = { "external", "internal", NULL };
  static const char *const cls[] = { "const", "pure", "normal", NULL };
  static const char *const declared[] = { "const", "pure", "none", "reproducible", "unsequenced", NULL };
  static const char *const c23[] = { "unsequenced", "reproducible", "none", NULL };   /* issue 15 */
  if (!json_is_object(doc)) { fprintf(stderr, "%s: not a JSON object\n", file); return 1; }
  json_t *ver = json_object_get(doc, "version");
  if (!json_is_integer(ver) || json_integer_value(ver) != 1) {
    fprintf(stderr, "%s: no \"version\": 1\n", file);
    return 1;
  }
  json_t *fns = json_object_get(doc, "functions");
  if (!json_is_array(fns)) { fprintf(stderr, "%s: no \"functions\" array\n", file); return 1; }
  size_t i;
  json_t *f;
  json_array_foreach(fns, i, f) {
    if (!json_is_object(f)) return bad(file, i, "not an object");
    if (!nonempty_string(json_object_get(f, "name"))) return bad(file, i, "no string \"name\"");
    if (!nonempty_string(json_object_get(f, "file"))) return bad(file, i, "no string \"file\"");
    json_t *line = json_object_get(f, "line");
    if (!json_is_integer(line) || json_integer_value(line) < 1) return bad(file, i, "no integer \"line\" >= 1");
    if (!one_of(json_object_get(f, "linkage"), linkage)) return bad(file, i, "\"linkage\" not external|internal");
    if (!one_of(json_object_get(f, "class"), cls)) return bad(file, i, "\"class\" not const|pure|normal");
    if (!one_of(json_object_get(f, "declared"), declared))
      return bad(file, i, "\"declared\" not const|pure|none|reproducible|unsequenced");
    if (!one_of(json_object_get(f, "c23"), c23)) return bad(file, i, "\"c23\" not unsequenced|reproducible|none");
    if (!one_of(json_object_get(f, "declared_c23"), c23)) return bad(file, i, "\"declared_c23\" not unsequenced|reproducible|none");
    if (!json_is_boolean(json_object_get(f, "may_not_return"))) return bad(file, i, "no boolean \"may_not_return\"");
    if (!nonempty_string(json_object_get(f, "reason"))) return bad(file, i, "no string \"reason\"");
  }
  return 0;
}

int main(int argc, char **argv)
{
  int infer = argc == 3 && !strcmp(argv[1], "--infer");
  if (argc != 2 + infer) {
    fprintf(stderr, "usage: json_flat [--infer] FILE\n");
    return 2;
  }
  const char *file = argv[1 + infer];
  json_error_t e;
  json_t *doc = json_load_file(file, JSON_REJECT_DUPLICATES, &e);
  if (!doc) {
    fprintf(stderr, "%s:%d:%d: not valid JSON: %s\n", file, e.line, e.column, e.text);
    return 1;
  }
  int rc = infer ? check_infer(file, doc) : 0;
  if (rc == 0) flat_print("", doc);
  json_decref(doc);
  return rc;
}
