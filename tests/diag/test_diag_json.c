/* test_diag_json.c — JSON output (diag_json.c): the golden sample, the
 * contract's keys and types, an empty list, and bytes that are not UTF-8. */
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

static int print_json(FILE *out, void *ctx)
{
  return diag_print_json(out, ctx, NULL);
}

/* Parses the output, failing the test if it is not JSON. */
static json_t *parse(const char *text)
{
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  if (!j) fail_msg("output is not JSON: %d:%d: %s\n%s", e.line, e.column, e.text, text);
  return j;
}

/* The sample list, exactly as in golden/json.json. */
static void test_golden(void **state)
{
  char *dir = tmpdir_new();
  diag_list l = {0};
  assert_int_equal(sample_build(dir, &l), 0);
  char *t = sample_capture(print_json, &l);
  sample_golden("json.json", t);
  json_decref(parse(t));
  free(t);
  diag_list_free(&l);
  tmpdir_free(dir);
}

/* Every diagnostic has exactly the documented keys (plus related), with
 * the documented types and severity names. */
static void test_contract_keys(void **state)
{
  char *dir = tmpdir_new();
  diag_list l = {0};
  assert_int_equal(sample_build(dir, &l), 0);
  char *t = sample_capture(print_json, &l);
  json_t *j = parse(t);
  assert_int_equal(json_integer_value(json_object_get(j, "version")), 1);
  json_t *ds = json_object_get(j, "diagnostics");
  assert_int_equal(json_array_size(ds), l.n);
  static const char *const str_keys[] = {"check", "severity", "file", "function", "message"};
  for (size_t i = 0; i < json_array_size(ds); i++) {
    json_t *d = json_array_get(ds, i);
    assert_int_equal(json_object_size(d), 8);
    for (size_t k = 0; k < 5; k++) assert_true(json_is_string(json_object_get(d, str_keys[k])));
    assert_true(json_is_integer(json_object_get(d, "line")));
    assert_true(json_is_integer(json_object_get(d, "column")));
    assert_true(json_is_array(json_object_get(d, "related")));
    const char *sev = json_string_value(json_object_get(d, "severity"));
    assert_true(!strcmp(sev, "error") || !strcmp(sev, "warning") || !strcmp(sev, "note"));
    assert_string_equal(json_string_value(json_object_get(d, "check")), l.v[i].check);
  }
  /* ds[0] is the absolute /nonexistent path (sorted first); ds[1] the misuse. */
  assert_string_equal(json_string_value(json_object_get(json_array_get(ds, 1), "check")), "misuse");
  json_t *rel = json_array_get(json_object_get(json_array_get(ds, 1), "related"), 0);
  assert_non_null(rel);
  assert_string_equal(json_string_value(json_object_get(rel, "file")), "util.c");
  assert_int_equal(json_integer_value(json_object_get(rel, "line")), 5);
  assert_int_equal(json_integer_value(json_object_get(rel, "column")), 9);
  json_decref(j);
  free(t);
  diag_list_free(&l);
  tmpdir_free(dir);
}

static void test_empty(void **state)
{
  diag_list l = {0};
  char *t = sample_capture(print_json, &l);
  assert_string_equal(t, "{\n  \"version\": 1,\n  \"diagnostics\": []\n}\n");
  free(t);
}

/* A message with a Latin-1 byte and characters JSON must escape stays
 * valid JSON; the bad byte 0xE9 becomes U+EFE9 (docs/file-names.md). */
static void test_escaping_and_bad_utf8(void **state)
{
  diag_list l = {0};
  diag_add(&l, "misuse", DIAG_ERROR, "a\"b.c", NULL, 1, 1, "f", "caf\xe9 \"quoted\"\n\ttab \\");
  char *t = sample_capture(print_json, &l);
  json_t *j = parse(t);
  json_t *d = json_array_get(json_object_get(j, "diagnostics"), 0);
  assert_string_equal(json_string_value(json_object_get(d, "message")),
                      "caf\xee\xbf\xa9 \"quoted\"\n\ttab \\");
  assert_string_equal(json_string_value(json_object_get(d, "file")), "a\"b.c");
  json_decref(j);
  free(t);
  diag_list_free(&l);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_golden),
    cmocka_unit_test(test_contract_keys),
    cmocka_unit_test(test_empty),
    cmocka_unit_test(test_escaping_and_bad_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
