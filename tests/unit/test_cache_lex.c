/* test_cache_lex.c — the cache's token hash and positions (cache_lex.c)
 * and moving a summary's locations with them (cache_remap.c): an edit of
 * comments or spacing keeps the hash, anything the preprocessor can see
 * changes it, and a location that is not at a token is never moved. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "cache/cache_internal.h"

static clex_sum lex(const char *s)
{
  return cache_lex(s, strlen(s), NULL);
}

static void same(const char *a, const char *b)
{
  if (lex(a).hash != lex(b).hash) fail_msg("should hash alike:\n%s\n---\n%s", a, b);
}

static void differ(const char *a, const char *b)
{
  if (lex(a).hash == lex(b).hash) fail_msg("should hash apart:\n%s\n---\n%s", a, b);
}

/* Comments, blank lines, indentation and line splices between tokens do
 * not change the hash. */
static void test_comment_and_spacing_edits_keep_hash(void **state)
{
  (void)state;
  const char *base = "#ifndef H\n#define H\nint f(int x);\nstatic int g = 1;\n#endif\n";
  same(base, "/* licence */\n#ifndef H\n#define H\nint f(int x);\nstatic int g = 1;\n#endif\n");
  same(base, "#ifndef H\n#define H\n\n\nint f(int x); // why\nstatic int g = 1;\n#endif\n");
  same(base, "#ifndef H\n#define H\nint f(int  x);\nstatic int\tg = 1;\n#endif\n");
  same(base, "#ifndef H\n#define H\nint f(int /* the value */ x);\nstatic int g = 1;\n#endif\n");
  same(base, "#ifndef H\n#define H\r\nint f(int x);\r\nstatic int g = 1;\n#endif\n");
  same(base, "#ifndef H\n#define H\n/* a\n * long\n * comment */\nint f(int x);\nstatic int g = 1;\n#endif\n");
  same(base, "#ifndef H\n#define H\nint f(int x);\nstatic int g = 1; /* trailing\n   over two lines */\n#endif\n");
  same("int a; // x\\\ny\nint b;\n", "int a; // z\\\nw\nint b;\n");   /* a spliced line comment */
  same("#define M(a) a\n", "#define M(a) /* c */ a\n");
}

/* What the preprocessor sees changes the hash. */
static void test_token_edits_change_hash(void **state)
{
  (void)state;
  differ("int f(int x);\n", "int f(int y);\n");
  differ("int f(int x);\n", "int f(long x);\n");
  differ("#define F(x) x\n", "#define F (x) x\n");          /* function-like or object-like */
  differ("#define S(x) #x\nS(a+b)\n", "#define S(x) #x\nS(a + b)\n");   /* stringized spacing */
  differ("#define A 1\nint x;\n", "#define A 1 int x;\n");    /* where a directive ends */
  differ("#define A 1\\\nint x;\n", "#define A 1\nint x;\n");
  differ("char *s = \"a /* b */ c\";\n", "char *s = \"a /* B */ c\";\n");   /* not a comment in a string */
  differ("char *s = \"a // b\";\n", "char *s = \"a // c\";\n");
  differ("char c = '/'; int /* x */ y;\n", "char c = '*'; int /* x */ y;\n");
  differ("#if 0\nint old;\n#endif\n", "#if 0\nint older;\n#endif\n");   /* skipped text counts */
  differ("#include <a//b.h>\n", "#include <a//c.h>\n");        /* a header name is no comment */
  differ("s = \"x\\\" /* y */\";\n", "s = \"x\\\" /* z */\";\n");   /* an escaped quote */
  differ("a = R\"(x\"/*)\" b\";\n", "a = R\"(x\"/*)\" c\";\n");   /* a raw string */
  differ("#error don't /* x */\n", "#error don't /* y */\n");   /* an unclosed quote keeps its line */
  differ("int a;", "int a; int b;");
  same("int a;", "int a; // b");
}

/* The flags that forbid moving a file's locations. */
static void test_flags(void **state)
{
  (void)state;
  assert_int_equal(lex("int x = 1;\n").flags, 0);
  assert_int_equal(lex("int x = __LINE__;\n").flags, CLEX_LINE);
  assert_int_equal(lex("#define HERE __LINE__\nint x;\n").flags, 0);   /* expanded where it is used */
  assert_int_equal(lex("/* __LINE__ */ int x;\n").flags, 0);
  /* A macro of the file that expands to __LINE__, directly or through
   * another, used in the file: its value moves with the line. */
  assert_int_equal(lex("#define CAT(a, b) a ## b\n#define U(x) CAT(x, __LINE__)\nint U(v);\n").flags, CLEX_LINE);
  assert_int_equal(lex("#define A __LINE__\n#define B A\nint x = B;\n").flags, CLEX_LINE);
  assert_int_equal(lex("#define A __LINE__\n#define B A\nint x = 1;\n").flags, 0);
  assert_int_equal(lex("#define A \\\n  __LINE__\nint x = A;").flags, CLEX_LINE);
  assert_int_equal(lex("#line 10 \"a.c\"\nint x;\n").flags, CLEX_LINEDIR);
  assert_int_equal(lex("# 12 \"a.c\" 2\nint x;\n").flags, CLEX_LINEDIR);
  assert_int_equal(lex("int x; # 12\n").flags, 0);
  clex_sum t = lex("char *s = \"?\?/\";\n");
  assert_int_equal(t.flags, CLEX_TRIGRAPH);   /* the hash covers the bytes */
  assert_true(t.hash != lex("char *s = \"?\?/\"; \n").hash);
}

/* Positions are 1-based lines and byte columns, the end just past the
 * token, as clang counts them; splices and comments are not tokens. */
static void test_positions(void **state)
{
  (void)state;
  const char *s = "\xEF\xBB\xBFint /* c */ x;\n  y\\\nz \"s\\\nt\" // q\n";
  clex_toks t = {0};
  cache_lex(s, strlen(s), &t);
  assert_int_equal(t.n, 5);
  clex_tok want[] = { { 1, 4, 1, 7 }, { 1, 16, 1, 17 }, { 1, 17, 1, 18 }, { 2, 3, 3, 2 }, { 3, 3, 4, 3 } };
  for (size_t i = 0; i < 5; i++) {
    if (memcmp(&t.v[i], &want[i], sizeof want[i]) != 0)
      fail_msg("token %zu at %u:%u-%u:%u, want %u:%u-%u:%u", i, t.v[i].bl, t.v[i].bc, t.v[i].el, t.v[i].ec,
               want[i].bl, want[i].bc, want[i].el, want[i].ec);
  }
  vec_free(&t);
}

/* Binary noise is lexed without reading past the end. */
static void test_any_bytes(void **state)
{
  (void)state;
  const char *odd[] = { "\"", "'", "/*", "//", "\\", "\\\r", "R\"abc", "R\"(", "#include <", "??", ".", "1e", "%:" };
  for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
    clex_toks t = {0};
    clex_sum r = cache_lex(odd[i], strlen(odd[i]), &t);
    assert_true(r.hash != 0);
    vec_free(&t);
  }
  char nul[] = { 'i', 'n', 't', '\0', 'x', ';' };
  assert_true(cache_lex(nul, sizeof nul, NULL).hash == lex("int x;").hash);   /* a NUL is spacing to clang */
}

/* ---- moving a summary's locations ---- */

typedef struct { sum_tu *tu; cache_moved mv; cache_files files; } remap_case;

/* A summary of one function f declared in h.h (old text) with an effect
 * at (eline, ecol), and the moved file h.h (new text). */
static void remap_setup(remap_case *rc, const char *old, const char *new, uint32_t eline, uint32_t ecol)
{
  memset(rc, 0, sizeof *rc);
  rc->tu = summary_new();
  uint32_t h = strtab_intern(rc->tu->strs, "/p/h.h");
  sum_func f = { .name = strtab_intern(rc->tu->strs, "f"), .loc = { h, 1, 5 }, .neff = 1 };
  vec_push(&rc->tu->funcs, f);
  sum_effect e = { .kind = 1, .loc = { h, eline, ecol } };
  vec_push(&rc->tu->effs, e);
  sum_decl d = { .loc = { h, 1, 5 }, .beg_line = 1, .beg_col = 1, .end_line = 1, .end_col = 13, .attr_off = 0,
                 .nattr = 1 };
  vec_push(&rc->tu->decls, d);
  sum_attr a = { .kind = SUM_DECL_PURE, .beg_line = 1, .beg_col = 1, .end_line = 1, .end_col = 4 };
  vec_push(&rc->tu->attrs, a);
  sum_file sf = { h, 1234, 0 };
  vec_push(&rc->tu->files, sf);
  cache_file cf = { "/p/h.h", 1, 2, 3, false };
  vec_push(&rc->files, cf);
  rc->mv.path = "/p/h.h";
  cache_lex(old, strlen(old), &rc->mv.old);
  cache_lex(new, strlen(new), &rc->mv.cur);
  rc->mv.xxh64 = 77;
}

static void remap_done(remap_case *rc)
{
  summary_free(rc->tu);
  cache_moved_free(&rc->mv);
  vec_free(&rc->files);
}

/* A comment line above and a comment inside the line: every location
 * moves with its token, the end past the last one too, and the file's
 * contents hash becomes the new one (what fix checks). */
static void test_remap_moves_every_location(void **state)
{
  (void)state;
  remap_case rc;
  remap_setup(&rc, "int f(void);\nint g = 1;\n", "// top\nint /* c */ f(void);\n\nint   g = 1;\n", 2, 5);
  fe_msgs none = {0};
  const char *why = NULL;
  assert_int_equal(cache_remap(rc.tu, &none, &rc.mv, 1, &rc.files, &why), 0);
  sum_loc fl = rc.tu->funcs.v[0].loc;
  assert_int_equal(fl.line, 2);
  assert_int_equal(fl.col, 13);
  assert_int_equal(rc.tu->effs.v[0].loc.line, 4);
  assert_int_equal(rc.tu->effs.v[0].loc.col, 7);
  sum_decl *d = &rc.tu->decls.v[0];
  assert_int_equal(d->beg_line, 2);
  assert_int_equal(d->beg_col, 1);
  assert_int_equal(d->end_line, 2);
  assert_int_equal(d->end_col, 21);   /* just past ";" */
  assert_int_equal(rc.tu->attrs.v[0].end_col, 4);
  assert_int_equal(rc.tu->files.v[0].hash, 77);
  remap_done(&rc);
}

/* A location in spacing, a message naming the file, a location in a file
 * the variant did not check: refused, never moved by guess. */
static void test_remap_refuses_what_it_cannot_move(void **state)
{
  (void)state;
  remap_case rc;
  fe_msgs none = {0};
  const char *why = NULL;
  remap_setup(&rc, "int f(void);\nint g  = 1;\n", "\nint f(void);\nint g  = 1;\n", 2, 7);   /* 2:7 is spacing */
  assert_int_equal(cache_remap(rc.tu, &none, &rc.mv, 1, &rc.files, &why), -1);
  remap_done(&rc);

  remap_setup(&rc, "int f(void);\nint g = 1;\n", "\nint f(void);\nint g = 1;\n", 2, 5);
  fe_msgs msgs = {0};
  vec_push(&msgs, "/p/h.h:2:5: warning: something");
  assert_int_equal(cache_remap(rc.tu, &msgs, &rc.mv, 1, &rc.files, &why), -1);
  vec_free(&msgs);
  remap_done(&rc);

  remap_setup(&rc, "int f(void);\nint g = 1;\n", "\nint f(void);\nint g = 1;\n", 2, 5);
  rc.tu->effs.v[0].loc.file = strtab_intern(rc.tu->strs, "/p/other.h");   /* not checked under that name */
  assert_int_equal(cache_remap(rc.tu, &none, &rc.mv, 1, &rc.files, &why), -1);
  remap_done(&rc);

  remap_setup(&rc, "int f(void);\nint g = 1;\n", "\nint f(void);\nint g = 1;\n", 2, 5);
  strtab_intern(rc.tu->strs, "struct (unnamed at /p/h.h:1:1)");
  assert_int_equal(cache_remap(rc.tu, &none, &rc.mv, 1, &rc.files, &why), -1);
  remap_done(&rc);
}

/* Position tables survive encoding, and damage is refused. */
static void test_postab_round_trip(void **state)
{
  (void)state;
  const char *s = "int a;\n\n  long b = 1 +\\\n 2;\n";
  clex_toks t = {0}, back = {0};
  cache_lex(s, strlen(s), &t);
  cache_key k = { 1, 2 }, other = { 1, 3 };
  size_t len;
  unsigned char *rec = cache_postab_encode(&t, true, k, &len);
  bool gen = false;
  const char *why = NULL;
  assert_int_equal(cache_postab_decode(rec, len, k, &back, &gen, &why), 0);
  assert_true(gen);
  assert_int_equal(back.n, t.n);
  assert_memory_equal(back.v, t.v, t.n * sizeof *t.v);
  vec_free(&back);
  assert_int_equal(cache_postab_decode(rec, len, other, &back, &gen, &why), -1);
  for (size_t i = 0; i < len; i++) {
    rec[i] ^= 0x40;
    if (cache_postab_decode(rec, len, k, &back, &gen, &why) == 0) fail_msg("damage at byte %zu accepted", i);
    rec[i] ^= 0x40;
  }
  free(rec);
  vec_free(&t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_comment_and_spacing_edits_keep_hash),
    cmocka_unit_test(test_token_edits_change_hash),
    cmocka_unit_test(test_flags),
    cmocka_unit_test(test_positions),
    cmocka_unit_test(test_any_bytes),
    cmocka_unit_test(test_remap_moves_every_location),
    cmocka_unit_test(test_remap_refuses_what_it_cannot_move),
    cmocka_unit_test(test_postab_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
