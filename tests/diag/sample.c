/* sample.c — see sample.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "sample.h"
#include "tmpdir.h"
#include "util/fileio.h"
#include "util/xalloc.h"

static const char sample_api_h[] =
  "/* api.h — the public interface */\n"
  "int parse_level(const char *s) __attribute__((const));\n"
  "int count_items(const char *s);\n"
  "void reset(void) __attribute__((pure));\n";

static const char sample_util_c[] =
  "int verbosity;\n"
  "\n"
  "int helper_level(void)\n"
  "{\n"
  "\treturn verbosity +\t1;\n"
  "}\n"
  "\n"
  "int count_items(const char *s)\n"
  "{\n"
  "\tint n = 0;\n"
  "\tfor (int i = 0; i < strlen(s); i++) n++;\n"
  "\tconst char *t = \"caf\xc3\xa9\"; helper_level();\n"
  "\treturn n + strlen(s) + strlen(s);\n"
  "}\n";

/* The column (1-based, bytes) of needle on line `line` of text, or 0. */
static unsigned sample_column(const char *text, unsigned line, const char *needle)
{
  const char *p = text;
  for (unsigned i = 1; i < line && p; i++) {
    p = strchr(p, '\n');
    if (p) p++;
  }
  if (!p) return 0;
  const char *eol = strchr(p, '\n');
  const char *hit = strstr(p, needle);
  if (!hit || (eol && hit > eol)) return 0;
  return (unsigned)(hit - p) + 1;
}

diag *sample_add_at(diag_list *l, const char *dir, const char *name, unsigned line,
                    const char *needle, const char *check, diag_severity sev,
                    const char *function, const char *message)
{
  char *abs = xasprintf("%s/%s", dir, name);
  size_t len;
  char *text = file_read_all(abs, &len);
  unsigned col = text ? sample_column(text, line, needle) : 0;
  diag *d = diag_add(l, check, sev, name, abs, line, col, function, message);
  free(text);
  free(abs);
  return d;
}

/* A related location at the first `needle` of line `line` of dir/name. */
static void sample_related(diag *d, const char *dir, const char *name, unsigned line,
                           const char *needle, const char *message)
{
  char *abs = xasprintf("%s/%s", dir, name);
  size_t len;
  char *text = file_read_all(abs, &len);
  diag_add_related(d, name, abs, line, text ? sample_column(text, line, needle) : 0, message);
  free(text);
  free(abs);
}

int sample_build(const char *dir, diag_list *l)
{
  char *a = tmpdir_write(dir, "api.h", sample_api_h);
  char *u = tmpdir_write(dir, "util.c", sample_util_c);
  int ok = a && u;
  free(a);
  free(u);
  if (!ok) return -1;
  diag *d = sample_add_at(l, dir, "api.h", 2, "parse_level", "misuse", DIAG_ERROR, "parse_level",
                          "'parse_level' is declared const but reads global 'verbosity' "
                          "(via helper_level, util.c:5:9)");
  sample_related(d, dir, "util.c", 5, "verbosity", "reads global 'verbosity' here");
  sample_related(d, dir, "util.c", 1, "verbosity", "'verbosity' is defined here");
  sample_add_at(l, dir, "api.h", 4, "reset", "misuse-void", DIAG_ERROR, "reset",
                "'reset' returns void but is declared pure; the compiler may delete every call");
  sample_add_at(l, dir, "api.h", 3, "count_items", "suggest-pure", DIAG_WARNING, "count_items",
                "'count_items' could be declared pure: 2 call sites would benefit");
  sample_add_at(l, dir, "util.c", 3, "helper_level", "cheat", DIAG_NOTE, "helper_level",
                "'helper_level' is declared pure but caches its result; the compiler may skip "
                "the first call's side effects");
  sample_add_at(l, dir, "util.c", 11, "strlen", "loop-invariant-call", DIAG_WARNING, "count_items",
                "call to pure 'strlen' in the loop condition is loop-invariant; hoistable: the "
                "loop writes no memory");
  sample_add_at(l, dir, "util.c", 12, "helper_level", "dead-call", DIAG_WARNING, "count_items",
                "the value of 'helper_level' is discarded; declared pure, the compiler deletes "
                "this call");
  d = sample_add_at(l, dir, "util.c", 13, "strlen(s) + strlen", "redundant-call", DIAG_WARNING,
                    "count_items", "'strlen(s)' is computed again at line 13; the calls merge");
  d->column += (unsigned)strlen("strlen(s) + ");
  sample_related(d, dir, "util.c", 13, "strlen", "first computed here");
  diag_add(l, "suggest-const", DIAG_WARNING, "/nonexistent/purist-test/ext.h",
           "/nonexistent/purist-test/ext.h", 7, 5, "ext_fn",
           "'ext_fn' could be declared const, if it is known to return normally");
  diag_sort(l);
  return 0;
}

char *sample_capture(int (*print)(FILE *out, void *ctx), void *ctx)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(print(f, ctx), 0);
  assert_int_equal(fclose(f), 0);
  return buf;
}

void sample_golden(const char *name, const char *text)
{
  char *path = xasprintf("%s/%s", DIAG_GOLDEN_DIR, name);
  const char *update = getenv("PURIST_UPDATE_GOLDEN");
  if (update && strcmp(update, "1") == 0) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
  }
  size_t len;
  char *want = file_read_all(path, &len);
  if (!want) fail_msg("cannot read golden file %s (set PURIST_UPDATE_GOLDEN=1 to create it)", path);
  assert_string_equal(text, want);
  free(want);
  free(path);
}
