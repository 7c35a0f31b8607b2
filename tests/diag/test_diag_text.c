/* test_diag_text.c — GCC-style text output (diag_text.c): golden output
 * with and without colour, tabs and UTF-8 before the caret, unreadable
 * sources, the summary line, and when colour is used. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/diag_out.h"
#include "sample.h"
#include "tmpdir.h"

typedef struct { const diag_list *l; bool color; } text_ctx;

static int print_text(FILE *out, void *ctx)
{
  const text_ctx *c = ctx;
  return diag_print_text(out, c->l, c->color);
}

static char *text_of(const diag_list *l, bool color)
{
  text_ctx c = {l, color};
  return sample_capture(print_text, &c);
}

/* ESC shown as "^[" (as cat -v does), so the colour golden file is text. */
static char *show_escapes(const char *s)
{
  char *r = xmalloc(2 * strlen(s) + 1), *o = r;
  for (; *s; s++) {
    if (*s == '\33') { *o++ = '^'; *o++ = '['; }
    else *o++ = *s;
  }
  *o = '\0';
  return r;
}

/* The sample list, without colour, exactly as in golden/text.txt. */
static void test_golden_plain(void **state)
{
  char *dir = tmpdir_new();
  diag_list l = {0};
  assert_int_equal(sample_build(dir, &l), 0);
  char *t = text_of(&l, false);
  sample_golden("text.txt", t);
  free(t);
  diag_list_free(&l);
  tmpdir_free(dir);
}

/* The sample list with GCC's colours, as in golden/text_color.txt. */
static void test_golden_color(void **state)
{
  char *dir = tmpdir_new();
  diag_list l = {0};
  assert_int_equal(sample_build(dir, &l), 0);
  char *t = text_of(&l, true);
  char *shown = show_escapes(t);
  sample_golden("text_color.txt", shown);
  assert_non_null(strstr(t, "\33[01;31m\33[Kerror: \33[m\33[K"));
  assert_non_null(strstr(t, "\33[01;35m\33[Kwarning: \33[m\33[K"));
  assert_non_null(strstr(t, "\33[01;36m\33[Knote: \33[m\33[K"));
  assert_non_null(strstr(t, "\33[01;32m\33[K^\33[m\33[K"));
  free(shown);
  free(t);
  diag_list_free(&l);
  tmpdir_free(dir);
}

/* The caret line keeps the source line's tabs, so the caret sits under
 * the column at any tab width; a multi-byte character counts once. */
static void test_caret_tabs_and_utf8(void **state)
{
  char *dir = tmpdir_new();
  char *p = tmpdir_write(dir, "t.c", "x;\n\tint a =\tb; /* \xc3\xa9 */ c;\n");
  free(p);
  diag_list l = {0};
  sample_add_at(&l, dir, "t.c", 2, "b;", "dead-call", DIAG_WARNING, "f", "tab");
  sample_add_at(&l, dir, "t.c", 2, "c;", "dead-call", DIAG_WARNING, "f", "utf8");
  char *t = text_of(&l, false);
  assert_string_equal(t,
    "t.c:2:10: warning: tab [purist-dead-call]\n"
    "    2 | \tint a =\tb; /* \xc3\xa9 */ c;\n"
    "      | \t       \t^\n"
    "t.c:2:22: warning: utf8 [purist-dead-call]\n"
    "    2 | \tint a =\tb; /* \xc3\xa9 */ c;\n"
    "      | \t       \t           ^\n"
    "2 warnings generated.\n");
  free(t);
  diag_list_free(&l);
  tmpdir_free(dir);
}

/* No snippet when the source cannot be read or the line is past its end;
 * no caret when the column is unknown; no position when the line is. */
static void test_missing_source_and_positions(void **state)
{
  char *dir = tmpdir_new();
  char *p = tmpdir_write(dir, "s.c", "one\r\ntwo\n");
  diag_list l = {0};
  diag_add(&l, "misuse", DIAG_ERROR, "gone.c", "/nonexistent/gone.c", 3, 4, "f", "no file");
  diag_add(&l, "misuse", DIAG_ERROR, "s.c", p, 9, 1, "f", "past the end");
  diag_add(&l, "misuse", DIAG_ERROR, "s.c", p, 1, 0, "f", "no column");
  diag_add(&l, "misuse", DIAG_ERROR, "s.c", p, 0, 0, "f", "no line");
  diag_add(&l, "misuse", DIAG_ERROR, "s.c", p, 1, 40, "f", "column past the end");
  char *t = text_of(&l, false);
  assert_string_equal(t,
    "gone.c:3:4: error: no file [purist-misuse]\n"
    "s.c:9:1: error: past the end [purist-misuse]\n"
    "s.c:1: error: no column [purist-misuse]\n"
    "    1 | one\n"
    "s.c: error: no line [purist-misuse]\n"
    "s.c:1:40: error: column past the end [purist-misuse]\n"
    "    1 | one\n"
    "      |    ^\n"
    "5 errors generated.\n");
  free(t);
  free(p);
  diag_list_free(&l);
  tmpdir_free(dir);
}

/* Lines from 100000 on widen GCC's margin instead of breaking it. */
static void test_wide_margin(void **state)
{
  char *dir = tmpdir_new();
  char *src = xmalloc(100000 + 16);
  memset(src, '\n', 99999);
  strcpy(src + 99999, "int x;\n");
  char *p = tmpdir_write(dir, "big.c", src);
  diag_list l = {0};
  diag_add(&l, "cheat", DIAG_NOTE, "big.c", p, 100000, 5, "x", "far");
  char *t = text_of(&l, false);
  assert_string_equal(t,
    "big.c:100000:5: note: far [purist-cheat]\n"
    "100000 | int x;\n"
    "       |     ^\n"
    "1 note generated.\n");
  free(t);
  free(p);
  free(src);
  diag_list_free(&l);
  tmpdir_free(dir);
}

/* Singular and plural, zero counts left out, nothing for no findings. */
static void test_summary_line(void **state)
{
  diag_list l = {0};
  char *t = text_of(&l, false);
  assert_string_equal(t, "");
  free(t);
  diag_add(&l, "misuse", DIAG_ERROR, "a.c", "/nonexistent/a.c", 1, 1, "f", "m");
  t = text_of(&l, false);
  assert_non_null(strstr(t, "\n1 error generated.\n"));
  free(t);
  diag_add(&l, "misuse", DIAG_ERROR, "a.c", "/nonexistent/a.c", 2, 1, "f", "m");
  diag_add(&l, "dead-call", DIAG_WARNING, "a.c", "/nonexistent/a.c", 3, 1, "f", "m");
  t = text_of(&l, false);
  assert_non_null(strstr(t, "\n2 errors, 1 warning generated.\n"));
  free(t);
  diag_add(&l, "cheat", DIAG_NOTE, "a.c", "/nonexistent/a.c", 4, 1, "f", "m");
  diag_add(&l, "cheat", DIAG_NOTE, "a.c", "/nonexistent/a.c", 5, 1, "f", "m");
  diag_add(&l, "dead-call", DIAG_WARNING, "a.c", "/nonexistent/a.c", 6, 1, "f", "m");
  t = text_of(&l, false);
  assert_non_null(strstr(t, "\n2 errors, 2 warnings, 2 notes generated.\n"));
  free(t);
  diag_list_free(&l);
  diag_add(&l, "cheat", DIAG_NOTE, "a.c", "/nonexistent/a.c", 4, 1, "f", "m");
  diag_add_related(&l.v[0], "b.c", NULL, 1, 1, "related notes are not counted");
  t = text_of(&l, false);
  assert_non_null(strstr(t, "\n1 note generated.\n"));
  free(t);
  diag_list_free(&l);
}

/* The same finding in several functions (a header included into each, or
 * a macro) prints once, with a note naming them; a finding that differs
 * in its related notes, or another finding at the same place, does not
 * join it. */
static void test_repeats_in_functions(void **state)
{
  diag_list l = {0};
  const char *fns[] = {"fa", "fb", "fc", "fd", "fe", "ff"};
  for (int i = 0; i < 6; i++) {
    diag *d = diag_add(&l, "redundant-call", DIAG_NOTE, "t.h", "/nonexistent/t.h", 9, 3, fns[i], "twice");
    diag_add_related(d, "t.h", NULL, 8, 3, "the first call");
  }
  diag *odd = diag_add(&l, "redundant-call", DIAG_NOTE, "t.h", "/nonexistent/t.h", 9, 3, "fz", "twice");
  diag_add_related(odd, "t.h", NULL, 7, 3, "the first call");
  diag_add(&l, "dead-call", DIAG_WARNING, "t.h", "/nonexistent/t.h", 9, 3, "fa", "twice");
  diag_sort(&l);
  char *t = text_of(&l, false);
  assert_non_null(strstr(t, "t.h:9:3: note: the same in 6 functions: 'fa', 'fb', 'fc', 'fd' and 2 more"));
  assert_null(strstr(t, "'fz'"));
  assert_non_null(strstr(t, "\n1 warning, 2 notes generated.\n"));
  const char *p = t;
  int heads = 0;
  while ((p = strstr(p, "note: twice")) != NULL) { heads++; p++; }
  assert_int_equal(heads, 2);
  free(t);
  diag_list_free(&l);
}

/* A pseudo-terminal, to see what auto does on a terminal. */
static FILE *open_tty(int *master)
{
  *master = posix_openpt(O_RDWR | O_NOCTTY);
  if (*master < 0 || grantpt(*master) != 0 || unlockpt(*master) != 0) return NULL;
  return fopen(ptsname(*master), "w");
}

/* always/never win; auto needs a terminal, no NO_COLOR, and TERM not
 * dumb; NO_COLOR="" does not count as set. */
static void test_use_color(void **state)
{
  FILE *pipe_like = tmpfile();
  int master;
  FILE *tty = open_tty(&master);
  if (!tty) skip();
  setenv("TERM", "xterm", 1);
  unsetenv("NO_COLOR");
  assert_true(diag_use_color("always", pipe_like));
  assert_false(diag_use_color("never", tty));
  assert_false(diag_use_color("auto", pipe_like));
  assert_true(diag_use_color("auto", tty));
  assert_true(diag_use_color(NULL, tty));
  setenv("NO_COLOR", "1", 1);
  assert_false(diag_use_color("auto", tty));
  assert_true(diag_use_color("always", tty));
  setenv("NO_COLOR", "", 1);
  assert_true(diag_use_color("auto", tty));
  setenv("TERM", "dumb", 1);
  assert_false(diag_use_color("auto", tty));
  fclose(tty);
  close(master);
  fclose(pipe_like);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_golden_plain),
    cmocka_unit_test(test_golden_color),
    cmocka_unit_test(test_caret_tabs_and_utf8),
    cmocka_unit_test(test_missing_source_and_positions),
    cmocka_unit_test(test_wide_margin),
    cmocka_unit_test(test_summary_line),
    cmocka_unit_test(test_repeats_in_functions),
    cmocka_unit_test(test_use_color),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
