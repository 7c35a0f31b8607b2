/* fuzz_cachelex.c — the summary cache's token lexer (cache_lex) and its
 * position tables (cache_postab_decode) on arbitrary bytes (issue 32).
 *
 * The first byte chooses what the rest is:
 *   even: a source file. The lexer must not crash nor read past the end;
 *         its tokens come in order, each ending at or after its start;
 *         a comment line put before the text keeps the hash (unless a
 *         trigraph makes the hash cover the bytes) and moves every token
 *         one line down; the positions encode and decode to themselves.
 *   odd:  the body of a position table, packed with zstd (or, second
 *         byte odd, taken as the packed frame itself), to which a valid
 *         header (this format, length, XXH64) and key are put first, so
 *         mutations reach the decoder past the checksum: it refuses or
 *         decodes, saying why when it refuses. */
#include "cache/cache_internal.h"
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <zstd.h>

static const char prefix[] = "/* a comment line */\n";

static void fuzz_order(const clex_toks *t)
{
  for (size_t i = 0; i < t->n; i++) {
    const clex_tok *k = &t->v[i];
    if (k->bl == 0 || k->bc == 0) abort();
    if (k->el < k->bl || (k->el == k->bl && k->ec <= k->bc)) abort();   /* a token is never empty */
    if (i && (k->bl < t->v[i - 1].el || (k->bl == t->v[i - 1].el && k->bc < t->v[i - 1].ec))) abort();
  }
}

static void fuzz_source(const uint8_t *data, size_t size)
{
  clex_toks t = {0}, moved = {0}, back = {0};
  clex_sum s = cache_lex((const char *)data, size, &t);
  if (s.hash == 0) abort();
  fuzz_order(&t);
  /* A BOM only counts at the very start; a prefix would push it down. */
  if (!(s.flags & CLEX_TRIGRAPH) && !(size >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))) {
    size_t n = sizeof prefix - 1 + size;
    char *buf = malloc(n ? n : 1);
    if (!buf) abort();
    memcpy(buf, prefix, sizeof prefix - 1);
    if (size) memcpy(buf + sizeof prefix - 1, data, size);
    clex_sum s2 = cache_lex(buf, n, &moved);
    if (s2.hash != s.hash || s2.flags != s.flags || moved.n != t.n) abort();
    for (size_t i = 0; i < t.n; i++)
      if (moved.v[i].bl != t.v[i].bl + 1 || moved.v[i].el != t.v[i].el + 1 || moved.v[i].bc != t.v[i].bc ||
          moved.v[i].ec != t.v[i].ec)
        abort();
    free(buf);
  }
  cache_key k = { 7, 9 };
  size_t len;
  unsigned char *rec = cache_postab_encode(&t, size & 1, k, &len);
  bool gen;
  const char *why = NULL;
  if (cache_postab_decode(rec, len, k, &back, &gen, &why) != 0 || back.n != t.n || gen != (size & 1)) abort();
  if (t.n && memcmp(back.v, t.v, t.n * sizeof *t.v) != 0) abort();
  free(rec);
  vec_free(&t);
  vec_free(&moved);
  vec_free(&back);
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
  for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void fuzz_table(const uint8_t *data, size_t size)
{
  unsigned char *packed = NULL;
  if (size && !(data[0] & 1)) {   /* a body: pack it as the cache does */
    size_t cap = ZSTD_compressBound(size - 1);
    packed = malloc(cap ? cap : 1);
    if (!packed) abort();
    size_t z = ZSTD_compress(packed, cap, data + 1, size - 1, 1);
    if (ZSTD_isError(z)) abort();
    data = packed;
    size = z;
  } else if (size) {
    data++;
    size--;
  }
  size_t plen = 16 + size, len = 28 + plen;
  unsigned char *rec = malloc(len);
  if (!rec) abort();
  memcpy(rec, "PURISTCT", 8);
  put_le(rec + 8, CACHE_ENTRY_FORMAT, 4);
  put_le(rec + 12, plen, 8);
  put_le(rec + 28, 7, 8);   /* the key, hi then lo */
  put_le(rec + 36, 9, 8);
  if (size) memcpy(rec + 44, data, size);
  put_le(rec + 20, XXH64(rec + 28, plen, 0), 8);
  clex_toks t = {0};
  bool gen;
  const char *why = NULL;
  if (cache_postab_decode(rec, len, (cache_key){ 7, 9 }, &t, &gen, &why) != 0 && !why) abort();
  vec_free(&t);
  free(rec);
  free(packed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) return 0;
  if (data[0] & 1) fuzz_table(data + 1, size - 1);
  else fuzz_source(data + 1, size - 1);
  return 0;
}
