/* test_diag_sarif.c — SARIF output (diag_sarif.c): the golden sample, one
 * rule per check with a consistent ruleIndex, URIs, related locations, and
 * fingerprints that survive line moves. Schema validation is the separate
 * test diag/sarif_schema (validate_sarif.mjs). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "report/diag_out.h"
#include "sample.h"
#include "tmpdir.h"

typedef struct { const diag_list *l; const char *root; } sarif_ctx;

static int print_sarif(FILE *out, void *ctx)
{
  const sarif_ctx *c = ctx;
  return diag_print_sarif(out, c->l, c->root, "0.1.0", NULL);
}

static json_t *sarif_of(const diag_list *l, const char *root)
{
  sarif_ctx c = {l, root};
  char *t = sample_capture(print_sarif, &c);
  json_error_t e;
  json_t *j = json_loads(t, 0, &e);
  if (!j) fail_msg("SARIF is not JSON: %d:%d: %s", e.line, e.column, e.text);
  free(t);
  return j;
}

static json_t *run0(json_t *log)
{
  return json_array_get(json_object_get(log, "runs"), 0);
}

static json_t *result(json_t *log, size_t i)
{
  return json_array_get(json_object_get(run0(log), "results"), i);
}

/* t with every PURIST_DOCS_URL (the build's choice) as "file:///@DOCS@/". */
static char *docs_url_neutral(const char *t)
{
  size_t n = strlen(PURIST_DOCS_URL);
  char *out = malloc(strlen(t) + 1), *w = out;
  while (*t) {
    if (!strncmp(t, PURIST_DOCS_URL, n)) { w = stpcpy(w, "file:///@DOCS@/"); t += n; }
    else *w++ = *t++;
  }
  *w = '\0';
  return out;
}

/* The sample, exactly as in golden/sarif.json (root /home/dev/my project;
 * the docs' base URL, a build setting, as file:///@DOCS@/). */
static void test_golden(void **state)
{
  char *dir = tmpdir_new();
  diag_list l = {0};
  assert_int_equal(sample_build(dir, &l), 0);
  sarif_ctx c = {&l, "/home/dev/my project"};
  char *raw = sample_capture(print_sarif, &c);
  char *t = docs_url_neutral(raw);
  free(raw);
  sample_golden("sarif.json", t);
  free(t);
  diag_list_free(&l);
  tmpdir_free(dir);
}

/* One rule per distinct check, sorted; each result's ruleIndex points at
 * the rule named by its ruleId; refinements get their own rule with the
 * parent's help; every rule has the texts a viewer shows. */
static void test_rules(void **state)
{
  char *dir = tmpdir_new();
  diag_list l = {0};
  assert_int_equal(sample_build(dir, &l), 0);
  json_t *log = sarif_of(&l, dir);
  json_t *rules = json_object_get(json_object_get(json_object_get(run0(log), "tool"), "driver"), "rules");
  assert_int_equal(json_array_size(rules), 8);
  const char *prev = "";
  for (size_t i = 0; i < json_array_size(rules); i++) {
    json_t *r = json_array_get(rules, i);
    const char *id = json_string_value(json_object_get(r, "id"));
    assert_true(strcmp(prev, id) < 0);
    prev = id;
    assert_true(strlen(json_string_value(json_object_get(json_object_get(r, "help"), "text"))) > 200);
    assert_non_null(json_string_value(json_object_get(json_object_get(r, "shortDescription"), "text")));
    assert_non_null(json_string_value(json_object_get(json_object_get(r, "fullDescription"), "text")));
  }
  for (size_t i = 0; i < l.n; i++) {
    json_t *res = result(log, i);
    size_t k = (size_t)json_integer_value(json_object_get(res, "ruleIndex"));
    assert_string_equal(json_string_value(json_object_get(json_array_get(rules, k), "id")),
                        json_string_value(json_object_get(res, "ruleId")));
  }
  json_t *misuse = NULL, *misuse_void = NULL;
  for (size_t i = 0; i < json_array_size(rules); i++) {
    json_t *r = json_array_get(rules, i);
    const char *id = json_string_value(json_object_get(r, "id"));
    if (!strcmp(id, "purist-misuse")) misuse = r;
    if (!strcmp(id, "purist-misuse-void")) misuse_void = r;
  }
  assert_non_null(misuse);
  assert_non_null(misuse_void);
  assert_string_equal(json_string_value(json_object_get(misuse_void, "name")), "AttributeMisuseVoid");
  assert_true(json_equal(json_object_get(misuse, "help"), json_object_get(misuse_void, "help")));
  json_decref(log);
  diag_list_free(&l);
  tmpdir_free(dir);
}

/* Relative paths hang off SRCROOT, absolute ones are file: URIs, both
 * percent-encoded; SRCROOT ends in '/'. */
static void test_uris(void **state)
{
  diag_list l = {0};
  diag_add(&l, "misuse", DIAG_ERROR, "src/a b%.c", NULL, 3, 0, "f", "m");
  diag_add(&l, "misuse", DIAG_ERROR, "/usr/include/x y.h", NULL, 0, 0, "f", "m");
  json_t *log = sarif_of(&l, "/srv/proj");
  json_t *base = json_object_get(json_object_get(run0(log), "originalUriBaseIds"), "SRCROOT");
  assert_string_equal(json_string_value(json_object_get(base, "uri")), "file:///srv/proj/");
  json_t *p0 = json_object_get(json_array_get(json_object_get(result(log, 0), "locations"), 0), "physicalLocation");
  json_t *a0 = json_object_get(p0, "artifactLocation");
  assert_string_equal(json_string_value(json_object_get(a0, "uri")), "src/a%20b%25.c");
  assert_string_equal(json_string_value(json_object_get(a0, "uriBaseId")), "SRCROOT");
  json_t *reg = json_object_get(p0, "region");
  assert_int_equal(json_integer_value(json_object_get(reg, "startLine")), 3);
  assert_null(json_object_get(reg, "startColumn"));
  json_t *p1 = json_object_get(json_array_get(json_object_get(result(log, 1), "locations"), 0), "physicalLocation");
  json_t *a1 = json_object_get(p1, "artifactLocation");
  assert_string_equal(json_string_value(json_object_get(a1, "uri")), "file:///usr/include/x%20y.h");
  assert_null(json_object_get(a1, "uriBaseId"));
  assert_null(json_object_get(p1, "region"));
  json_decref(log);
  log = sarif_of(&l, "file:///already/a/uri");
  base = json_object_get(json_object_get(run0(log), "originalUriBaseIds"), "SRCROOT");
  assert_string_equal(json_string_value(json_object_get(base, "uri")), "file:///already/a/uri/");
  json_decref(log);
  diag_list_free(&l);
}

/* Related locations carry ids from 1, their place and their message. */
static void test_related(void **state)
{
  diag_list l = {0};
  diag *d = diag_add(&l, "misuse", DIAG_ERROR, "a.c", NULL, 3, 5, "f", "m");
  diag_add_related(d, "b.c", NULL, 7, 2, "via g");
  diag_add_related(d, "c.c", NULL, 9, 1, "writes 'x' here");
  json_t *log = sarif_of(&l, "/p");
  json_t *rel = json_object_get(result(log, 0), "relatedLocations");
  assert_int_equal(json_array_size(rel), 2);
  json_t *r1 = json_array_get(rel, 1);
  assert_int_equal(json_integer_value(json_object_get(r1, "id")), 2);
  assert_string_equal(json_string_value(json_object_get(json_object_get(r1, "message"), "text")), "writes 'x' here");
  json_t *reg = json_object_get(json_object_get(r1, "physicalLocation"), "region");
  assert_int_equal(json_integer_value(json_object_get(reg, "startLine")), 9);
  json_decref(log);
  diag_list_free(&l);
}

static const char *fingerprint(json_t *log, size_t i)
{
  return json_string_value(json_object_get(json_object_get(result(log, i), "partialFingerprints"),
                                           "puristFingerprint/v1"));
}

/* Moving a finding (and the line numbers its message quotes) keeps its
 * fingerprint; another message or function changes it; two equal
 * findings get different ones. */
static void test_fingerprints(void **state)
{
  diag_list a = {0}, b = {0};
  diag_add(&a, "redundant-call", DIAG_WARNING, "a.c", NULL, 10, 5, "f", "again at line 12 (a.c:12:3)");
  diag_add(&a, "redundant-call", DIAG_WARNING, "a.c", NULL, 20, 5, "f", "again at line 12 (a.c:12:3)");
  diag_add(&a, "redundant-call", DIAG_WARNING, "a.c", NULL, 30, 5, "g", "again at line 12 (a.c:12:3)");
  diag_add(&a, "dead-call", DIAG_WARNING, "a.c", NULL, 40, 5, "f", "again at line 12 (a.c:12:3)");
  diag_add(&b, "redundant-call", DIAG_WARNING, "a.c", NULL, 14, 1, "f", "again at line 16 (a.c:16:3)");
  json_t *la = sarif_of(&a, "/p"), *lb = sarif_of(&b, "/p");
  assert_int_equal(strlen(fingerprint(la, 0)), 16);
  assert_string_equal(fingerprint(la, 0), fingerprint(lb, 0));
  assert_string_not_equal(fingerprint(la, 0), fingerprint(la, 1));
  assert_string_not_equal(fingerprint(la, 0), fingerprint(la, 2));
  assert_string_not_equal(fingerprint(la, 0), fingerprint(la, 3));
  json_decref(la);
  json_decref(lb);
  diag_list_free(&a);
  diag_list_free(&b);
}

/* No findings: a valid log with no rules and no results. */
static void test_empty(void **state)
{
  diag_list l = {0};
  json_t *log = sarif_of(&l, "/p");
  assert_string_equal(json_string_value(json_object_get(log, "version")), "2.1.0");
  assert_int_equal(json_array_size(json_object_get(run0(log), "results")), 0);
  json_decref(log);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_golden),
    cmocka_unit_test(test_rules),
    cmocka_unit_test(test_uris),
    cmocka_unit_test(test_related),
    cmocka_unit_test(test_fingerprints),
    cmocka_unit_test(test_empty),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
