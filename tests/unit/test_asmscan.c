/* test_asmscan.c — unit tests of src/impact/asmscan.h (calls per function
 * in compiler assembly) and of the tree path mapping (src/impact/tree.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "impact/asmscan.h"
#include "impact/tree.h"

static unsigned calls_of(const asmscan_fns *f, const char *name)
{
  for (size_t i = 0; i < f->n; i++)
    if (!strcmp(f->v[i].name, name)) return f->v[i].calls;
  fail_msg("no function %s", name);
  return 0;
}

/* GCC x86-64: direct and PLT calls, a tail call, a conditional jump to a
 * local label (not a call), a switch's indirect jmp (not a call), and the
 * cold part folded into its function. */
static void test_x86_gcc(void **state)
{
  const char *s =
    "\t.text\n\t.globl\tget\n\t.type\tget, @function\nget:\n.LFB1:\n"
    "\tcall\tlookup@PLT\n\tcall\t*%rax\n\tjg\t.L3\n\tleaq\t.L10(%rip), %rdx\n"
    "\tnotrack jmp\t*%rax\n\tjmp\tother\n\tret\n"
    "\t.section\t.text.unlikely\n\t.type\tget.cold, @function\nget.cold:\n.L3:\n\tcall\tabort@PLT\n"
    "\t.text\n\t.size\tget, .-get\n\t.section\t.text.unlikely\n\t.size\tget.cold, .-get.cold\n"
    "\t.type\tdata_table, @object\ndata_table:\n\t.long\t1\n"
    "\t.type\ttail, @function\ntail:\n\taddl\t$1, %edi\n\tjmp\tlookup@PLT\n\t.size\ttail, .-tail\n"
    "stray:\n\tcall\tnothing\n";
  asmscan_fns f = {0};
  asmscan_text(s, &f);
  assert_int_equal(f.n, 2);
  assert_string_equal(f.v[0].name, "get");
  assert_int_equal(calls_of(&f, "get"), 4);   /* lookup, *%rax, other (tail), abort (cold) */
  assert_int_equal(calls_of(&f, "tail"), 1);
  asmscan_fns_free(&f);
}

/* AArch64: bl and blr are calls, b to a symbol is a tail call, b.ne to a
 * local label is not. */
static void test_aarch64(void **state)
{
  const char *s =
    "\t.type\tf, %function\nf:\n\tbl\tg\n\tblr\tx1\n\tb.ne\t.L2\n\tb\th\n.L2:\n\tret\n\t.size\tf, .-f\n";
  asmscan_fns f = {0};
  asmscan_text(s, &f);
  assert_int_equal(calls_of(&f, "f"), 3);
  asmscan_fns_free(&f);
}

/* Clones and split parts count for the C function. */
static void test_base_name(void **state)
{
  char *n = asmscan_base_name("scale.constprop.0", strlen("scale.constprop.0"));
  assert_string_equal(n, "scale");
  free(n);
}

/* Paths under the root move into the copy, glued to an option or not;
 * other paths, and a sibling that only shares the prefix, stay. */
static void test_tree_map(void **state)
{
  tree_copy t = { .tree = "/tmp/x/tree", .src_root = "/src/proj" };
  const char *cases[][2] = {
    { "/src/proj/a.c", "/tmp/x/tree/a.c" },
    { "-I/src/proj/include", "-I/tmp/x/tree/include" },
    { "-isystem/src/proj/inc", "-isystem/tmp/x/tree/inc" },
    { "-ffile-prefix-map=/src/proj=.", "-ffile-prefix-map=/tmp/x/tree=." },
    { "/src/project/a.c", "/src/project/a.c" },
    { "-I/usr/include", "-I/usr/include" },
    { "-DX=/src/projection", "-DX=/src/projection" },
    { "include", "include" } };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *m = tree_map_arg(&t, cases[i][0]);
    assert_string_equal(m, cases[i][1]);
    free(m);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_x86_gcc),
    cmocka_unit_test(test_aarch64),
    cmocka_unit_test(test_base_name),
    cmocka_unit_test(test_tree_map),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
