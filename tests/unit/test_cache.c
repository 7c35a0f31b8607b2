/* test_cache.c — unit tests of the summary cache (src/cache): the entry
 * formats refuse every damaged byte, keys change with every input that
 * determines a summary, and cache_summarize really parses only on a miss
 * (libclang on tiny files in a scratch directory). Decodes read buffers
 * allocated to their exact length, so AddressSanitizer sees any overread. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cache/cache_internal.h"
#include "util/fileio.h"
#include "tmpdir.h"

/* ---- helpers ---- */

/* A small summary: one function with a name and a main file. */
static sum_tu *sample_summary(void)
{
  sum_tu *tu = summary_new();
  tu->main_file = strtab_intern(tu->strs, "/src/a.c");
  sum_func f = { .name = strtab_intern(tu->strs, "sq"), .loc = { tu->main_file, 3, 5 }, .flags = SFF_BODY };
  vec_push(&tu->funcs, f);
  return tu;
}

/* An exact-length copy, so reading past len is an ASan error. */
static unsigned char *exact(const unsigned char *buf, size_t len)
{
  unsigned char *c = malloc(len ? len : 1);
  memcpy(c, buf, len);
  return c;
}

static void assert_same_summary(const sum_tu *a, const sum_tu *b)
{
  size_t la, lb;
  unsigned char *ea = summary_encode(a, &la), *eb = summary_encode(b, &lb);
  assert_int_equal(la, lb);
  assert_memory_equal(ea, eb, la);
  free(ea);
  free(eb);
}

static fe_job make_job(const char *dir, const char *file, char **argv, int argc)
{
  fe_job j = { .dir = (char *)dir, .file = (char *)file, .argv = argv, .argc = argc };
  return j;
}

/* ---- entry formats ---- */

/* A result keeps the summary and the TU's messages, in order. */
static const cache_key K1 = { 0x0123456789abcdefull, 0xfedcba9876543210ull };
static const cache_key K2 = { 0x0123456789abcdefull, 0xfedcba9876543211ull };

static void test_result_round_trip(void **state)
{
  sum_tu *tu = sample_summary();
  fe_msgs msgs = {0};
  vec_push(&msgs, xstrdup("a.c: warning: compiler flags: unknown argument '-fbogus'"));
  vec_push(&msgs, xstrdup("second line"));
  size_t len;
  unsigned char *rec = cache_result_encode(tu, (uint64_t[2]){ 1, 1 }, &msgs, K1, &len);
  sum_tu *back = NULL;
  fe_msgs got = {0};
  const char *why = NULL;
  assert_int_equal(cache_result_decode(rec, len, K1, &back, &got, &why), 0);
  assert_same_summary(tu, back);
  assert_int_equal(got.n, 2);
  assert_string_equal(got.v[0], msgs.v[0]);
  assert_string_equal(got.v[1], msgs.v[1]);
  summary_free(back);
  summary_free(tu);
  fe_msgs_free(&got);
  fe_msgs_free(&msgs);
  free(rec);
}

/* Every single flipped byte and every truncation of a result is refused. */
static void test_result_damage_refused(void **state)
{
  sum_tu *tu = sample_summary();
  fe_msgs msgs = {0};
  vec_push(&msgs, xstrdup("m"));
  size_t len;
  unsigned char *rec = cache_result_encode(tu, (uint64_t[2]){ 1, 1 }, &msgs, K1, &len);
  for (size_t i = 0; i <= len; i++) {
    unsigned char *b = exact(rec, len);
    size_t n = len;
    if (i < len) b[i] ^= 0x41; else n = len / 2;
    sum_tu *back = NULL;
    fe_msgs got = {0};
    const char *why = NULL;
    if (cache_result_decode(b, n, K1, &back, &got, &why) == 0) fail_msg("damage at byte %zu accepted", i);
    assert_null(back);
    assert_int_equal(got.n, 0);
    assert_non_null(why);
    free(b);
  }
  for (size_t n = 0; n < len; n++) {
    unsigned char *b = exact(rec, n);
    sum_tu *back = NULL;
    fe_msgs got = {0};
    const char *why = NULL;
    if (cache_result_decode(b, n, K1, &back, &got, &why) == 0) fail_msg("truncation to %zu accepted", n);
    free(b);
  }
  summary_free(tu);
  fe_msgs_free(&msgs);
  free(rec);
}

/* Issue 23 item 10: a valid entry found under another key (copied over
 * another file's entry) is refused: it would give a file another file's
 * summary, and its own functions would vanish. */
static void test_entry_under_another_key_refused(void **state)
{
  sum_tu *tu = sample_summary();
  fe_msgs msgs = {0};
  size_t len;
  unsigned char *rec = cache_result_encode(tu, (uint64_t[2]){ 1, 1 }, &msgs, K1, &len);
  sum_tu *back = NULL;
  fe_msgs got = {0};
  const char *why = NULL;
  assert_int_equal(cache_result_decode(rec, len, K2, &back, &got, &why), -1);
  assert_null(back);
  assert_string_equal(why, "stored under another key (not this file's entry)");
  free(rec);
  cache_manifest m = {0}, d;
  rec = cache_manifest_encode(&m, K1, &len);
  why = NULL;
  assert_int_equal(cache_manifest_decode(rec, len, K2, &d, &why), -1);
  assert_non_null(why);
  free(rec);
  summary_free(tu);
}

static cache_variant variant(uint64_t id, int nfiles)
{
  cache_variant v = { { id, ~id }, {0}, { id * 5, id * 11 | 1 }, (uint32_t)id, {0} };
  for (int i = 0; i < nfiles % 2; i++) vec_push(&v.msgs, xasprintf("t.c:%d:1: error: message %d", i + 1, i));
  for (int i = 0; i < nfiles; i++) {
    cache_file f = { xasprintf("/inc/h%d.h", i), (uint64_t)(100 + i), id * 31 + (uint64_t)i, id * 7 + (uint64_t)i,
                     i == 0 };
    vec_push(&v.files, f);
  }
  return v;
}

/* A file's stamp is trusted only when every part of it is the same and
 * both its times lie more than the margin before the moment it was read:
 * a change in the same tick of the file system's clock as that reading
 * (git's racily clean entries) is never taken for the recorded bytes. */
static void test_stamp_trusted_only_when_old_and_same(void **state)
{
  (void)state;
  const int64_t s = 1000000000, seen = 1700000000 * s;
  struct stat st = {0};
  st.st_dev = 7;
  st.st_ino = 42;
  st.st_size = 100;
  st.st_mtim.tv_sec = 1700000000 - 60;
  st.st_ctim.tv_sec = 1700000000 - 30;
  cache_stamp r = cache_stamp_of(&st, seen);
  assert_true(cache_stamp_trusted(&r, &st));
  struct stat o = st;
  o.st_size = 101;                    /* the size */
  assert_false(cache_stamp_trusted(&r, &o));
  o = st;
  o.st_mtim.tv_nsec = 1;              /* the modification time, by a nanosecond */
  assert_false(cache_stamp_trusted(&r, &o));
  o = st;
  o.st_ctim.tv_sec += 100;            /* touch -d put the modification time back: the change time moved */
  assert_false(cache_stamp_trusted(&r, &o));
  o = st;
  o.st_ino = 43;                      /* another file renamed over it */
  assert_false(cache_stamp_trusted(&r, &o));
  o = st;
  o.st_dev = 8;
  assert_false(cache_stamp_trusted(&r, &o));
  /* Racy: modified, or its inode changed, less than the margin before the
   * reading: the same stamp again does not prove the same bytes. */
  o = st;
  o.st_mtim.tv_sec = 1700000000 - 1;
  cache_stamp racy = cache_stamp_of(&o, seen);
  assert_false(cache_stamp_trusted(&racy, &o));
  o = st;
  o.st_ctim.tv_sec = 1700000000;       /* in the same second as the reading */
  racy = cache_stamp_of(&o, seen);
  assert_false(cache_stamp_trusted(&racy, &o));
  o = st;                              /* a later run's reading makes it trusted */
  o.st_mtim.tv_sec = 1700000000 - 1;
  cache_stamp later = cache_stamp_of(&o, seen + 3 * s);
  assert_true(cache_stamp_trusted(&later, &o));
  cache_stamp none = r;                /* no reading recorded */
  none.seen = 0;
  assert_false(cache_stamp_trusted(&none, &st));
}

/* Fails unless decode refuses rec with any one byte damaged, and (if
 * cut) rec truncated at any length. decode returns 0 on success and
 * frees what it decoded. */
static void assert_damage_refused(const unsigned char *rec, size_t len, int (*decode)(const unsigned char *, size_t),
                                  bool cut)
{
  for (size_t i = 0; i < len; i++) {
    unsigned char *b = exact(rec, len);
    b[i] ^= 0x10;
    if (decode(b, len) == 0) fail_msg("damage at byte %zu accepted", i);
    free(b);
  }
  for (size_t n = 0; cut && n < len; n++)
    if (decode(rec, n) == 0) fail_msg("truncation to %zu bytes accepted", n);
}

static int decode_index(const unsigned char *b, size_t len)
{
  cache_memo d;
  const char *why;
  if (cache_stat_decode(b, len, K1, &d, &why) < 0) return -1;
  for (size_t i = 0; i < d.n; i++) free(d.v[i].path);
  vec_free(&d);
  return 0;
}

static int decode_toks(const unsigned char *b, size_t len)
{
  cache_toks d;
  const char *why;
  int rc = cache_toks_decode(b, len, K1, &d, &why);
  if (rc < 0 && d.n) fail_msg("a refused record left entries");
  vec_free(&d);
  return rc;
}

/* The index of files round-trips, and refuses every damaged byte. */
static void test_stat_index_round_trip(void **state)
{
  (void)state;
  cache_memo m = {0};
  for (int i = 0; i < 3; i++) {
    cache_memo_ent e = { xasprintf("/p/f%d.h", i), (uint64_t)(10 + i), (uint64_t)(77 * i + 1), (uint64_t)i, 1, i != 1,
                         false, (unsigned)i, { 1, (uint64_t)(100 + i), (uint64_t)(10 + i), -5 + i, 9 + i, 123456789 } };
    vec_push(&m, e);
  }
  size_t len;
  unsigned char *rec = cache_stat_encode(&m, K1, &len);
  cache_memo back;
  const char *why = NULL;
  assert_int_equal(cache_stat_decode(rec, len, K1, &back, &why), 0);
  assert_int_equal(back.n, m.n);
  for (size_t i = 0; i < m.n; i++) {
    assert_string_equal(back.v[i].path, m.v[i].path);
    assert_int_equal(back.v[i].size, m.v[i].size);
    assert_int_equal(back.v[i].hash, m.v[i].hash);
    assert_int_equal(back.v[i].tok, m.v[i].tok);
    assert_int_equal(back.v[i].tok_done, m.v[i].tok_done);
    assert_int_equal(back.v[i].lexflags, m.v[i].lexflags);
    assert_memory_equal(&back.v[i].stamp, &m.v[i].stamp, sizeof m.v[i].stamp);
  }
  cache_memo other;
  assert_int_equal(cache_stat_decode(rec, len, K2, &other, &why), -1);   /* another project's index */
  assert_damage_refused(rec, len, decode_index, false);
  for (size_t i = 0; i < m.n; i++) {
    free(m.v[i].path);
    free(back.v[i].path);
  }
  vec_free(&m);
  vec_free(&back);
  free(rec);
}

/* A TU's token record round-trips, and refuses every damaged byte and
 * another job's key. */
static void test_token_record_round_trip(void **state)
{
  (void)state;
  cache_toks t = {0};
  for (int i = 0; i < 3; i++) {
    cache_tok e = { (uint64_t)(1 + 300 * i), 0x1111111111111111ull * (uint64_t)(i + 1), 0xabcdull + (uint64_t)i,
                    (unsigned)i };
    vec_push(&t, e);
  }
  size_t len;
  unsigned char *rec = cache_toks_encode(&t, K1, &len);
  cache_toks back;
  const char *why = NULL;
  assert_int_equal(cache_toks_decode(rec, len, K1, &back, &why), 0);
  assert_int_equal(back.n, t.n);
  for (size_t i = 0; i < t.n; i++) {
    assert_int_equal(back.v[i].size, t.v[i].size);
    assert_int_equal(back.v[i].hash, t.v[i].hash);
    assert_int_equal(back.v[i].tok, t.v[i].tok);
    assert_int_equal(back.v[i].flags, t.v[i].flags);
  }
  vec_free(&back);
  assert_int_equal(cache_toks_decode(rec, len, K2, &back, &why), -1);
  assert_int_equal(back.n, 0);
  assert_damage_refused(rec, len, decode_toks, true);
  vec_free(&t);
  free(rec);
}

/* A manifest keeps its variants in order, at most 8 (the newest). */
static void test_manifest_round_trip_and_cap(void **state)
{
  cache_manifest m = {0};
  for (int i = 0; i < 11; i++) vec_push(&m, variant((uint64_t)i + 1, i % 3));
  size_t len;
  unsigned char *rec = cache_manifest_encode(&m, K1, &len);
  cache_manifest back;
  const char *why = NULL;
  assert_int_equal(cache_manifest_decode(rec, len, K1, &back, &why), 0);
  assert_int_equal(back.n, 8);
  for (size_t i = 0; i < back.n; i++) {
    assert_int_equal(back.v[i].result.hi, m.v[i].result.hi);
    assert_int_equal(back.v[i].result.lo, m.v[i].result.lo);
    assert_int_equal(back.v[i].digest[0], m.v[i].digest[0]);
    assert_int_equal(back.v[i].digest[1], m.v[i].digest[1]);
    assert_int_equal(back.v[i].sflags, m.v[i].sflags);
    assert_int_equal(back.v[i].msgs.n, m.v[i].msgs.n);
    for (size_t k = 0; k < back.v[i].msgs.n; k++) assert_string_equal(back.v[i].msgs.v[k], m.v[i].msgs.v[k]);
    assert_int_equal(back.v[i].files.n, m.v[i].files.n);
    for (size_t f = 0; f < back.v[i].files.n; f++) {
      assert_string_equal(back.v[i].files.v[f].path, m.v[i].files.v[f].path);
      assert_int_equal(back.v[i].files.v[f].size, m.v[i].files.v[f].size);
      assert_int_equal(back.v[i].files.v[f].hash, m.v[i].files.v[f].hash);
      assert_int_equal(back.v[i].files.v[f].tok, m.v[i].files.v[f].tok);
      assert_int_equal(back.v[i].files.v[f].main, m.v[i].files.v[f].main);
    }
  }
  for (size_t i = 0; i < len; i++) {   /* and no damaged byte gets through */
    unsigned char *b = exact(rec, len);
    b[i] ^= 0x10;
    cache_manifest d;
    if (cache_manifest_decode(b, len, K1, &d, &why) == 0) fail_msg("damage at byte %zu accepted", i);
    free(b);
  }
  cache_manifest_free(&back);
  cache_manifest_free(&m);
  free(rec);
}

/* ---- keys ---- */

/* key1 changes with the directory, the file, each flag, the flags' split
 * and the main file's contents; key2 with any included file's hash. */
static void test_keys_cover_inputs(void **state)
{
  cache c = { .env = 42 };
  char *a1[] = { "-Iinc", "-DX=1" }, *a2[] = { "-Iinc", "-DX=2" }, *a3[] = { "-Iinc-DX=1" };
  fe_job j = make_job("/p", "/p/a.c", a1, 2);
  cache_key base = cache_key1(&c, &j, false, 10, 99);
  cache_key same = cache_key1(&c, &j, false, 10, 99);
  assert_memory_equal(&base, &same, sizeof base);
  cache_key other[7];
  fe_job j2 = make_job("/q", "/p/a.c", a1, 2), j3 = make_job("/p", "/p/b.c", a1, 2);
  fe_job j4 = make_job("/p", "/p/a.c", a2, 2), j5 = make_job("/p", "/p/a.c", a3, 1);
  other[0] = cache_key1(&c, &j2, false, 10, 99);
  other[1] = cache_key1(&c, &j3, false, 10, 99);
  other[2] = cache_key1(&c, &j4, false, 10, 99);
  other[3] = cache_key1(&c, &j5, false, 10, 99);
  other[4] = cache_key1(&c, &j, false, 10, 98);
  other[5] = cache_key1(&c, &j, false, 11, 99);
  c.env = 43;   /* another purist build or knowledge base */
  other[6] = cache_key1(&c, &j, false, 10, 99);
  for (int i = 0; i < 7; i++)
    if (!memcmp(&other[i], &base, sizeof base)) fail_msg("input %d does not change key1", i);
  /* With tokens the main file's token hash names the manifest, whatever
   * its size (an edit of comments changes the size), and never a
   * bytes-keyed one. */
  c.env = 42;
  cache_key t1 = cache_key1(&c, &j, true, 10, 99), t2 = cache_key1(&c, &j, true, 12, 99);
  cache_key t3 = cache_key1(&c, &j, true, 10, 98);
  assert_memory_equal(&t1, &t2, sizeof t1);
  assert_true(memcmp(&t1, &t3, sizeof t1) != 0);
  assert_true(memcmp(&t1, &base, sizeof t1) != 0);
  cache_variant v = variant(5, 3);
  cache_key r1 = cache_key2(base, &v.files);
  v.files.v[2].hash++;
  cache_key r2 = cache_key2(base, &v.files);
  assert_true(memcmp(&r1, &r2, sizeof r1) != 0);
  cache_manifest m = {0};
  vec_push(&m, v);
  cache_manifest_free(&m);
}

/* ---- the cache on real files ---- */

typedef struct { char *dir, *cdir, *main, *hdr; kb *k; CXIndex idx; } scratch;

static int scratch_setup(void **state)
{
  scratch *s = calloc(1, sizeof *s);
  s->dir = tmpdir_new();
  s->cdir = xasprintf("%s/cache", s->dir);
  s->hdr = tmpdir_write(s->dir, "h.h", "#define K 3\nstatic int g;\n");
  s->main = tmpdir_write(s->dir, "a.c", "#include \"h.h\"\nint sq(int x) { return x * K; }\nint rd(void) { return g; }\n");
  s->k = kb_new();
  s->idx = clang_createIndex(0, 0);
  *state = s;
  return s->dir && s->hdr && s->main ? 0 : -1;
}

static int scratch_teardown(void **state)
{
  scratch *s = *state;
  clang_disposeIndex(s->idx);
  kb_free(s->k);
  free(s->main);
  free(s->hdr);
  free(s->cdir);
  tmpdir_free(s->dir);
  free(s);
  return 0;
}

/* One cache_summarize; returns the status, fills *sum (caller frees). */
static fe_status summarize(scratch *s, cache *c, sum_tu **sum, fe_msgs *msgs)
{
  fe_job j = make_job(s->dir, s->main, NULL, 0);
  return cache_summarize(c, (fe_parser){ fe_parse_in_process, s->idx }, &j, s->k, sum, msgs, NULL);
}

static void assert_counts(cache *c, size_t hits, size_t misses, size_t parsed)
{
  assert_int_equal(atomic_load(&c->hits), hits);
  assert_int_equal(atomic_load(&c->misses), misses);
  assert_int_equal(atomic_load(&c->parsed), parsed);
}

static void rewrite(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* A second run is a hit with the same summary; a header changed without
 * changing its size (content hashes decide) is a miss; changed back, the
 * first variant hits again. */
static void test_hit_miss_and_variants(void **state)
{
  scratch *s = *state;
  sum_tu *first = NULL, *again = NULL, *t = NULL;
  fe_msgs msgs = {0};
  cache *c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &first, &msgs), FE_OK);
  assert_counts(c, 0, 1, 1);
  cache_free(c);
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &again, &msgs), FE_OK);
  assert_counts(c, 1, 0, 0);
  assert_same_summary(first, again);
  cache_free(c);
  rewrite(s->hdr, "#define K 4\nstatic int g;\n");   /* same size */
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 0, 1, 1);
  summary_free(t);
  cache_free(c);
  rewrite(s->hdr, "#define K 3\nstatic int g;\n");
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 1, 0, 0);
  assert_same_summary(first, t);
  assert_int_equal(msgs.n, 0);
  summary_free(t);
  cache_free(c);
  summary_free(first);
  summary_free(again);
}

/* An edit of comments and spacing in the header and the main file (issue
 * 32): a hit whose locations are where a fresh parse puts them, the same
 * summary byte for byte; then a token edit misses. */
static void test_comment_edit_moves(void **state)
{
  scratch *s = *state;
  sum_tu *first = NULL, *t = NULL, *fresh = NULL;
  fe_msgs msgs = {0};
  cache *c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &first, &msgs), FE_OK);
  cache_free(c);
  rewrite(s->hdr, "/* licence\n */\n#define K 3\n\nstatic   int g; // g\n");
  rewrite(s->main, "// top\n#include \"h.h\"\nint sq(int x) { return /* K */ x * K; }\n\n"
                   "int rd(void) {\n  return g; }\n");
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 1, 0, 0);
  assert_int_equal(atomic_load(&c->moved), 1);
  cache_free(c);
  c = cache_new(NULL, s->k, true);
  assert_int_equal(summarize(s, c, &fresh, &msgs), FE_OK);
  cache_free(c);
  assert_same_summary(fresh, t);
  summary_free(t);
  c = cache_new(s->cdir, s->k, true);   /* stored again as it is now: an exact hit */
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 1, 0, 0);
  assert_int_equal(atomic_load(&c->moved), 0);
  assert_same_summary(fresh, t);
  summary_free(t);
  cache_free(c);
  rewrite(s->hdr, "/* licence\n */\n#define K 4\n\nstatic   int g; // g\n");
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 0, 1, 1);
  assert_int_equal(msgs.n, 0);
  summary_free(t);
  cache_free(c);
  summary_free(first);
  summary_free(fresh);
}

/* Every result file damaged: a note, a parse, a correct summary; then a
 * hit again. */
/* Damages every cache file matching pattern (under dir) at byte 40 by
 * inverting it: writing a fixed byte left the record intact whenever it
 * already held that byte (a path's random letter: about 1 run in 60). */
static void damage_byte_40(const char *dir, const char *pattern)
{
  char *pat = xasprintf("%s/%s", dir, pattern);
  glob_t g;
  assert_int_equal(glob(pat, 0, NULL, &g), 0);
  for (size_t i = 0; i < g.gl_pathc; i++) {
    FILE *f = fopen(g.gl_pathv[i], "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 40, SEEK_SET), 0);
    int b = fgetc(f);
    assert_true(b != EOF);
    assert_int_equal(fseek(f, 40, SEEK_SET), 0);
    assert_int_equal(fputc(b ^ 0xff, f), b ^ 0xff);
    assert_int_equal(fclose(f), 0);
  }
  globfree(&g);
  free(pat);
}

static void test_damaged_entry_rebuilt(void **state)
{
  scratch *s = *state;
  sum_tu *first = NULL, *t = NULL;
  fe_msgs msgs = {0};
  cache *c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &first, &msgs), FE_OK);
  cache_free(c);
  damage_byte_40(s->cdir, "*/*.r");
  c = cache_new(s->cdir, s->k, false);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 0, 1, 1);
  assert_int_equal(msgs.n, 1);
  assert_non_null(strstr(msgs.v[0], "discarded a damaged entry"));
  assert_non_null(strstr(msgs.v[0], "bad checksum"));
  assert_same_summary(first, t);
  summary_free(t);
  fe_msgs_free(&msgs);
  cache_free(c);
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 1, 0, 0);
  summary_free(t);
  cache_free(c);
  summary_free(first);
}

/* How many token records (".k") the cache holds. */
static int count_token_records(const scratch *s)
{
  char *cmd = xasprintf("exit $(find %s -name '*.k' | wc -l)", s->cdir);
  int rc = system(cmd);
  free(cmd);
  return WEXITSTATUS(rc);
}

/* The job's token record, rewritten by edit (NULL: removed). */
static void edit_token_record(const scratch *s, cache *c, void (*edit)(cache_toks *))
{
  fe_job j = make_job(s->dir, s->main, NULL, 0);
  cache_key k = cache_key_jobtoks(c, &j);
  char *rel = cache_entry_path(c, k, ".k");
  char *full = xasprintf("%s/%s", s->cdir, rel);
  size_t len;
  const char *why = NULL;
  unsigned char *buf = cache_read_file(full, true, &len, &why);
  cache_toks t;
  assert_non_null(buf);
  assert_int_equal(cache_toks_decode(buf, len, k, &t, &why), 0);
  assert_int_equal(t.n, 2);   /* a.c and h.h: one record for the TU */
  free(buf);
  if (edit) {
    edit(&t);
    unsigned char *rec = cache_toks_encode(&t, k, &len);
    FILE *f = fopen(full, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(rec, 1, len, f), len);
    fclose(f);
    free(rec);
  } else {
    unlink(full);
  }
  vec_free(&t);
  free(full);
  free(rel);
}

static void wrong_tokens(cache_toks *t)
{
  for (size_t i = 0; i < t->n; i++) t->v[i].tok ^= 0x5a5a;
}

/* One token record per stored TU (format 7), not one per file; a run
 * that must learn a file's token hash takes it from the record: a record
 * that says another hash (valid, under its own key) names another
 * manifest, a miss — a run that ignored the record would lex and hit.
 * No record: lexed, the same hit. Without the index (not used here) each
 * run needs the main file's token hash. */
static void test_token_record_used(void **state)
{
  scratch *s = *state;
  sum_tu *t = NULL;
  fe_msgs msgs = {0};
  cache *c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  summary_free(t);
  assert_int_equal(count_token_records(s), 1);
  edit_token_record(s, c, NULL);   /* gone: lexed, a hit; nothing stored, nothing written */
  cache_free(c);
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 1, 0, 0);
  summary_free(t);
  assert_int_equal(count_token_records(s), 0);
  rewrite(s->hdr, "#define K 4\nstatic int g;\n");   /* a parse: the record is written again */
  cache_free(c);
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 0, 1, 1);
  summary_free(t);
  assert_int_equal(count_token_records(s), 1);
  edit_token_record(s, c, wrong_tokens);
  cache_free(c);
  c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 0, 1, 1);   /* the record was read, and believed */
  summary_free(t);
  cache_free(c);
}

/* A damaged token record is removed without a word and its files lexed:
 * the same hit. */
static void test_token_record_damaged(void **state)
{
  scratch *s = *state;
  sum_tu *t = NULL;
  fe_msgs msgs = {0};
  cache *c = cache_new(s->cdir, s->k, true);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  summary_free(t);
  cache_free(c);
  damage_byte_40(s->cdir, "*/*.k");
  c = cache_new(s->cdir, s->k, false);
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 1, 0, 0);
  assert_int_equal(msgs.n, 0);
  assert_int_equal(count_token_records(s), 0);
  summary_free(t);
  cache_free(c);
}

/* A TU with errors is parsed every time, with the same messages. */
static void test_errors_cached(void **state)
{
  scratch *s = *state;
  rewrite(s->main, "int broken( { return 0; }\n");
  char *first = NULL;
  for (int run = 0; run < 2; run++) {
    sum_tu *t = NULL;
    fe_msgs msgs = {0};
    cache *c = cache_new(s->cdir, s->k, true);
    assert_int_equal(summarize(s, c, &t, &msgs), FE_ERRORS);   /* from the entry too */
    if (run == 0) assert_counts(c, 0, 1, 1);
    else assert_counts(c, 1, 0, 0);
    assert_non_null(t);
    assert_true(t->flags & STF_PARSE_FAILED);
    assert_true(msgs.n > 0);
    assert_non_null(strstr(msgs.v[0], "error"));
    if (run == 0) first = xstrdup(msgs.v[0]);
    else assert_string_equal(first, msgs.v[0]);   /* the same message, from the entry */
    summary_free(t);
    fe_msgs_free(&msgs);
    cache_free(c);
  }
  free(first);
}

/* A cache directory that cannot exist (below a regular file): no cache,
 * every TU parsed, nothing written. */
static void test_unusable_dir_runs_without(void **state)
{
  scratch *s = *state;
  char *bad = xasprintf("%s/sub", s->main);
  cache *c = cache_new(bad, s->k, true);
  sum_tu *t = NULL;
  fe_msgs msgs = {0};
  assert_int_equal(summarize(s, c, &t, &msgs), FE_OK);
  assert_counts(c, 0, 0, 1);
  char line[128] = "";
  FILE *f = fmemopen(line, sizeof line, "w");
  cache_print_stats(c, f);
  fclose(f);
  assert_string_equal(line, "purist: cache: off, 1 parsed\n");
  summary_free(t);
  cache_free(c);
  free(bad);
}

/* clean removes the entries and the directory, and refuses a directory
 * that is not a purist cache. */
static void test_clean(void **state)
{
  scratch *s = *state;
  sum_tu *t = NULL;
  fe_msgs msgs = {0};
  cache *c = cache_new(s->cdir, s->k, true);
  summarize(s, c, &t, &msgs);
  summary_free(t);
  cache_free(c);
  char *err = NULL;
  /* a manifest, a result, the main file's positions, the TU's token record */
  assert_int_equal(cache_clean(s->cdir, &err), 4);
  struct stat st;
  assert_int_not_equal(stat(s->cdir, &st), 0);
  assert_int_equal(cache_clean(s->cdir, &err), 0);   /* nothing there: nothing to do */
  assert_int_equal(cache_clean(s->dir, &err), -1);   /* no CACHEDIR.TAG */
  assert_non_null(strstr(err, "not a purist cache"));
  free(err);
  assert_int_equal(access(s->main, F_OK), 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_result_round_trip),
    cmocka_unit_test(test_result_damage_refused),
    cmocka_unit_test(test_manifest_round_trip_and_cap),
    cmocka_unit_test(test_token_record_round_trip),
    cmocka_unit_test(test_stamp_trusted_only_when_old_and_same),
    cmocka_unit_test(test_stat_index_round_trip),
    cmocka_unit_test(test_entry_under_another_key_refused),
    cmocka_unit_test(test_keys_cover_inputs),
    cmocka_unit_test_setup_teardown(test_hit_miss_and_variants, scratch_setup, scratch_teardown),
    cmocka_unit_test_setup_teardown(test_comment_edit_moves, scratch_setup, scratch_teardown),
    cmocka_unit_test_setup_teardown(test_damaged_entry_rebuilt, scratch_setup, scratch_teardown),
    cmocka_unit_test_setup_teardown(test_token_record_used, scratch_setup, scratch_teardown),
    cmocka_unit_test_setup_teardown(test_token_record_damaged, scratch_setup, scratch_teardown),
    cmocka_unit_test_setup_teardown(test_errors_cached, scratch_setup, scratch_teardown),
    cmocka_unit_test_setup_teardown(test_unusable_dir_runs_without, scratch_setup, scratch_teardown),
    cmocka_unit_test_setup_teardown(test_clean, scratch_setup, scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
