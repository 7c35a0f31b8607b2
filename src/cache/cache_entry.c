/* cache_entry.c — the three entry formats of the summary cache.
 *
 * Each entry file is one record: an 8-byte magic ("PURISTCM" manifest,
 * "PURISTCR" result, "PURISTCT" a file's token positions, "PURISTCK" a TU's
 * token hashes, "PURISTCW" a whole program's findings), a 32-bit format version, the payload's length (64
 * bits) and its XXH64, all little-endian, then the payload: LEB128 varints,
 * length-prefixed strings and 64-bit little-endian hashes. The checksum is
 * verified before the payload is read, and every read is bounds-checked,
 * so a damaged entry is refused, never misread. The payload starts with
 * the entry's own key (format 2): an entry found under another key (a
 * valid entry copied or renamed over another, by a tool or a person) is
 * refused, where it used to give one file another file's summary and
 * make its functions vanish. A result's payload ends with a summary
 * record (docs/summary-format.md), itself checksummed. Format 3 (issue
 * 32): a manifest's files carry their token hash and whether each is the
 * main file. Format 5: a result carries its summary's digest
 * (cache_summary_digest) before the messages. Format 6: so does each
 * manifest variant, after its result's key, with the summary's flags and
 * the TU's messages (cache.h, cache_lazy: an exact hit of a run that may
 * not need the summary reads no result). Format 7: token hashes are one
 * record per TU (its files' versions), not one entry per file. */
#include "cache/cache_internal.h"
#include "util/bytes.h"
#include <string.h>
#include <xxhash.h>
#include <zstd.h>

#define MAX_VARIANTS 8   /* per manifest: older builds of a TU drop out */
enum { HEAD_LEN = 28 };

static void put_str(bytes *b, const char *s, size_t n)
{
  bytes_uleb(b, n);
  bytes_raw(b, s, n);
}

/* A fresh NUL-terminated copy of a length-prefixed string, or NULL. */
static char *get_str(bytes_reader *r)
{
  uint64_t n = bytes_get_uleb(r);
  if (r->bad || (uint64_t)(r->end - r->p) < n) { r->bad = 1; return NULL; }
  char *s = xstrndup((const char *)r->p, (size_t)n);
  r->p += n;
  return s;
}

/* Wraps a payload in the header; returns the whole record. */
static unsigned char *entry_seal(const char *magic, bytes *payload, size_t *len)
{
  bytes b = {0};
  bytes_raw(&b, magic, 8);
  bytes_le(&b, CACHE_ENTRY_FORMAT, 4);
  bytes_le(&b, payload->n, 8);
  bytes_le(&b, XXH64(payload->v, payload->n, 0), 8);
  bytes_raw(&b, payload->v, payload->n);
  vec_free(payload);
  *len = b.n;
  return b.v;
}

/* Starts a payload with the key the entry is stored under. */
static void entry_put_key(bytes *b, cache_key k)
{
  bytes_le(b, k.hi, 8);
  bytes_le(b, k.lo, 8);
}

/* Checks a record's header, checksum and key; on success r covers the
 * payload past the key. */
static int entry_open_checked(const unsigned char *buf, size_t len, const char *magic, cache_key k,
                              bytes_reader *r, const char **why);

/* Checks a record's header and checksum; on success r covers the payload. */
static int entry_open(const unsigned char *buf, size_t len, const char *magic, bytes_reader *r, const char **why)
{
  bytes_reader h = { buf, buf + len, 0 };
  if (len < HEAD_LEN || memcmp(buf, magic, 8) != 0) { *why = "not a cache entry (bad magic)"; return -1; }
  h.p += 8;
  if (bytes_get_le(&h, 4) != CACHE_ENTRY_FORMAT) { *why = "written by another cache format"; return -1; }
  uint64_t n = bytes_get_le(&h, 8), sum = bytes_get_le(&h, 8);
  if (n != len - HEAD_LEN) { *why = "truncated or overlong"; return -1; }
  if (XXH64(buf + HEAD_LEN, (size_t)n, 0) != sum) { *why = "bad checksum"; return -1; }
  *r = (bytes_reader){ buf + HEAD_LEN, buf + len, 0 };
  return 0;
}

static int entry_open_checked(const unsigned char *buf, size_t len, const char *magic, cache_key k,
                              bytes_reader *r, const char **why)
{
  if (entry_open(buf, len, magic, r, why) < 0) return -1;
  uint64_t hi = bytes_get_le(r, 8), lo = bytes_get_le(r, 8);
  if (r->bad || hi != k.hi || lo != k.lo) { *why = "stored under another key (not this file's entry)"; return -1; }
  return 0;
}

unsigned char *cache_manifest_encode(const cache_manifest *m, cache_key k, size_t *len)
{
  bytes b = {0};
  entry_put_key(&b, k);
  size_t n = m->n < MAX_VARIANTS ? m->n : MAX_VARIANTS;
  bytes_uleb(&b, n);
  for (size_t i = 0; i < n; i++) {
    const cache_variant *v = &m->v[i];
    bytes_le(&b, v->result.hi, 8);
    bytes_le(&b, v->result.lo, 8);
    bytes_le(&b, v->digest[0], 8);
    bytes_le(&b, v->digest[1], 8);
    bytes_uleb(&b, v->sflags);
    bytes_uleb(&b, v->msgs.n);
    for (size_t k = 0; k < v->msgs.n; k++) put_str(&b, v->msgs.v[k], strlen(v->msgs.v[k]));
    bytes_uleb(&b, v->files.n);
    for (size_t f = 0; f < v->files.n; f++) {
      put_str(&b, v->files.v[f].path, strlen(v->files.v[f].path));
      bytes_uleb(&b, v->files.v[f].size);
      bytes_le(&b, v->files.v[f].hash, 8);
      bytes_le(&b, v->files.v[f].tok, 8);
      bytes_uleb(&b, v->files.v[f].main);
    }
  }
  return entry_seal("PURISTCM", &b, len);
}

static void variant_read(bytes_reader *r, cache_variant *v)
{
  v->result.hi = bytes_get_le(r, 8);
  v->result.lo = bytes_get_le(r, 8);
  v->digest[0] = bytes_get_le(r, 8);
  v->digest[1] = bytes_get_le(r, 8);
  uint64_t fl = bytes_get_uleb(r);
  if (fl > UINT32_MAX) r->bad = 1;
  v->sflags = (uint32_t)fl;
  uint64_t nm = bytes_get_uleb(r);
  for (uint64_t k = 0; !r->bad && k < nm; k++) {
    char *s = get_str(r);
    if (s) vec_push(&v->msgs, s);
  }
  uint64_t nf = bytes_get_uleb(r);
  for (uint64_t f = 0; !r->bad && f < nf; f++) {
    cache_file cf = { get_str(r), 0, 0, 0, false };
    cf.size = bytes_get_uleb(r);
    cf.hash = bytes_get_le(r, 8);
    cf.tok = bytes_get_le(r, 8);
    uint64_t main = bytes_get_uleb(r);
    if (main > 1) r->bad = 1;
    cf.main = main == 1;
    if (!cf.path) break;
    vec_push(&v->files, cf);
  }
}

int cache_manifest_decode(const unsigned char *buf, size_t len, cache_key k, cache_manifest *m, const char **why)
{
  bytes_reader r;
  memset(m, 0, sizeof *m);
  if (entry_open_checked(buf, len, "PURISTCM", k, &r, why) < 0) return -1;
  uint64_t n = bytes_get_uleb(&r);
  for (uint64_t i = 0; !r.bad && i < n; i++) {
    cache_variant v = {0};
    variant_read(&r, &v);
    vec_push(m, v);
  }
  if (r.bad || r.p != r.end) {
    cache_manifest_free(m);
    *why = "malformed payload";
    return -1;
  }
  return 0;
}

void cache_manifest_free(cache_manifest *m)
{
  for (size_t i = 0; i < m->n; i++) {
    for (size_t f = 0; f < m->v[i].files.n; f++) free(m->v[i].files.v[f].path);
    vec_free(&m->v[i].files);
    fe_msgs_free(&m->v[i].msgs);
  }
  vec_free(m);
}

unsigned char *cache_result_encode(const sum_tu *sum, const uint64_t digest[2], const fe_msgs *msgs, cache_key k,
                                   size_t *len)
{
  bytes b = {0};
  entry_put_key(&b, k);
  bytes_le(&b, digest[0], 8);   /* format 5: what the summary says, for cli/progmemo.c */
  bytes_le(&b, digest[1], 8);
  bytes_uleb(&b, msgs->n);
  for (size_t i = 0; i < msgs->n; i++) put_str(&b, msgs->v[i], strlen(msgs->v[i]));
  size_t slen = 0;
  unsigned char *rec = summary_encode(sum, &slen);
  put_str(&b, (const char *)rec, slen);
  free(rec);
  return entry_seal("PURISTCR", &b, len);
}

int cache_result_open(const unsigned char *buf, size_t len, cache_key k, fe_msgs *msgs, size_t *sum_off,
                      size_t *sum_len, uint64_t digest[2], const char **why)
{
  bytes_reader r;
  if (entry_open_checked(buf, len, "PURISTCR", k, &r, why) < 0) return -1;
  digest[0] = bytes_get_le(&r, 8);
  digest[1] = bytes_get_le(&r, 8);
  fe_msgs got = {0};
  uint64_t n = bytes_get_uleb(&r);
  for (uint64_t i = 0; !r.bad && i < n; i++) {
    char *s = get_str(&r);
    if (s) vec_push(&got, s);
  }
  uint64_t slen = bytes_get_uleb(&r);
  if (r.bad || (uint64_t)(r.end - r.p) != slen) {
    fe_msgs_free(&got);
    *why = "malformed payload";
    return -1;
  }
  *sum_off = (size_t)(r.p - buf);
  *sum_len = (size_t)slen;
  for (size_t i = 0; i < got.n; i++) vec_push(msgs, got.v[i]);
  vec_free(&got);
  return 0;
}

int cache_result_decode(const unsigned char *buf, size_t len, cache_key k, sum_tu **sum, fe_msgs *msgs,
                        const char **why)
{
  fe_msgs got = {0};
  size_t off, slen;
  uint64_t d[2];
  *sum = NULL;
  if (cache_result_open(buf, len, k, &got, &off, &slen, d, why) < 0) return -1;
  size_t pos = 0;
  char *err = NULL;
  /* entry_open checked the entry's checksum, which covers the record */
  *sum = summary_decode_verified(buf + off, slen, &pos, &err);
  if (*sum && pos != slen) { summary_free(*sum); *sum = NULL; }
  free(err);
  if (!*sum) {
    fe_msgs_free(&got);
    *why = "malformed payload";
    return -1;
  }
  for (size_t i = 0; i < got.n; i++) vec_push(msgs, got.v[i]);
  vec_free(&got);
  return 0;
}

unsigned char *cache_prog_encode(const void *blob, size_t n, cache_key k, size_t *len)
{
  bytes b = {0};
  entry_put_key(&b, k);
  put_str(&b, blob, n);
  return entry_seal("PURISTCW", &b, len);
}

int cache_prog_decode(const unsigned char *buf, size_t len, cache_key k, const unsigned char **blob, size_t *n,
                      const char **why)
{
  bytes_reader r;
  if (entry_open_checked(buf, len, "PURISTCW", k, &r, why) < 0) return -1;
  uint64_t m = bytes_get_uleb(&r);
  if (r.bad || (uint64_t)(r.end - r.p) != m) { *why = "malformed payload"; return -1; }
  *blob = r.p;
  *n = (size_t)m;
  return 0;
}

/* A TU's token record: a count, then per file version its size, XXH3-64,
 * token hash (never 0) and CLEX_* flags. */
unsigned char *cache_toks_encode(const cache_toks *t, cache_key k, size_t *len)
{
  bytes b = {0};
  entry_put_key(&b, k);
  bytes_uleb(&b, t->n);
  for (size_t i = 0; i < t->n; i++) {
    bytes_uleb(&b, t->v[i].size);
    bytes_le(&b, t->v[i].hash, 8);
    bytes_le(&b, t->v[i].tok, 8);
    bytes_uleb(&b, t->v[i].flags);
  }
  return entry_seal("PURISTCK", &b, len);
}

int cache_toks_decode(const unsigned char *buf, size_t len, cache_key k, cache_toks *t, const char **why)
{
  bytes_reader r;
  memset(t, 0, sizeof *t);
  if (entry_open_checked(buf, len, "PURISTCK", k, &r, why) < 0) return -1;
  uint64_t n = bytes_get_uleb(&r);
  if (r.bad || n > (uint64_t)(r.end - r.p) / 18) r.bad = 1;   /* 18: the shortest entry's bytes */
  for (uint64_t i = 0; !r.bad && i < n; i++) {
    cache_tok e;
    e.size = bytes_get_uleb(&r);
    e.hash = bytes_get_le(&r, 8);
    e.tok = bytes_get_le(&r, 8);
    uint64_t fl = bytes_get_uleb(&r);
    if (fl > UINT32_MAX || !e.tok) r.bad = 1;
    e.flags = (unsigned)fl;
    if (!r.bad) vec_push(t, e);
  }
  if (r.bad || r.p != r.end) {
    vec_free(t);
    *why = "malformed payload";
    return -1;
  }
  return 0;
}

/* Positions are deltas: a token's line from the previous token's first
 * line, its end line from its first; columns as they are. The table is
 * one zstd frame (level 3: a quarter of the plain size; a 50 KB source's
 * table packs to 11 KB). */
unsigned char *cache_postab_encode(const clex_toks *t, bool generated, cache_key k, size_t *len)
{
  bytes raw = {0};
  bytes_uleb(&raw, generated);
  bytes_uleb(&raw, t->n);
  uint32_t line = 1;
  for (size_t i = 0; i < t->n; i++) {
    const clex_tok *p = &t->v[i];
    bytes_uleb(&raw, p->bl - line);
    bytes_uleb(&raw, p->bc);
    bytes_uleb(&raw, p->el - p->bl);
    bytes_uleb(&raw, p->ec);
    line = p->bl;
  }
  bytes b = {0};
  entry_put_key(&b, k);
  size_t cap = ZSTD_compressBound(raw.n);
  vec_reserve(&b, b.n + cap);
  size_t z = ZSTD_compress(b.v + b.n, cap, raw.v, raw.n, 3);
  if (ZSTD_isError(z)) z = 0;   /* cannot happen with a bound-sized buffer; then an empty, refused table */
  b.n += z;
  vec_free(&raw);
  return entry_seal("PURISTCT", &b, len);
}

/* The table's body, unpacked from the zstd frame at r (NULL if none). */
static unsigned char *postab_unpack(bytes_reader *r, size_t *n)
{
  size_t zlen = (size_t)(r->end - r->p);
  unsigned long long want = ZSTD_getFrameContentSize(r->p, zlen);
  /* 256 MiB: the table of a 50 MB source; a frame claiming more is damage. */
  if (want == ZSTD_CONTENTSIZE_ERROR || want == ZSTD_CONTENTSIZE_UNKNOWN || want == 0 || want > ((uint64_t)256 << 20))
    return NULL;
  unsigned char *raw = xmalloc((size_t)want);
  size_t got = ZSTD_decompress(raw, (size_t)want, r->p, zlen);
  if (ZSTD_isError(got) || got != want) {
    free(raw);
    return NULL;
  }
  *n = got;
  return raw;
}

int cache_postab_decode(const unsigned char *buf, size_t len, cache_key k, clex_toks *t, bool *generated,
                        const char **why)
{
  bytes_reader z;
  memset(t, 0, sizeof *t);
  if (entry_open_checked(buf, len, "PURISTCT", k, &z, why) < 0) return -1;
  size_t n_raw = 0;
  unsigned char *raw = postab_unpack(&z, &n_raw);
  if (!raw) { *why = "malformed payload (zstd cannot unpack it)"; return -1; }
  bytes_reader r = { raw, raw + n_raw, 0 };
  uint64_t gen = bytes_get_uleb(&r), n = bytes_get_uleb(&r);
  /* Each token takes four bytes at least: a count past that is damage. */
  if (gen > 1 || n > (uint64_t)(r.end - r.p) / 4) r.bad = 1;
  uint64_t line = 1;
  for (uint64_t i = 0; !r.bad && i < n; i++) {
    uint64_t dl = bytes_get_uleb(&r), bc = bytes_get_uleb(&r), del = bytes_get_uleb(&r), ec = bytes_get_uleb(&r);
    line += dl;
    if (line + del > UINT32_MAX || bc > UINT32_MAX || ec > UINT32_MAX) { r.bad = 1; break; }
    clex_tok p = { (uint32_t)line, (uint32_t)bc, (uint32_t)(line + del), (uint32_t)ec };
    vec_push(t, p);
  }
  bool bad = r.bad || r.p != r.end;
  free(raw);
  if (bad) {
    vec_free(t);
    *why = "malformed payload";
    return -1;
  }
  *generated = gen == 1;
  return 0;
}

/* The files a project's runs read, with stamps (".i", "PURISTCI",
 * cache_stat.c): per file its path, size, contents and token hashes, the
 * lexer's flags and whether the token hash is known, and its stamp. */
unsigned char *cache_stat_encode(const cache_memo *m, cache_key k, size_t *len)
{
  bytes b = {0};
  entry_put_key(&b, k);
  bytes_uleb(&b, m->n);
  for (size_t i = 0; i < m->n; i++) {
    const cache_memo_ent *e = &m->v[i];
    put_str(&b, e->path, strlen(e->path));
    bytes_uleb(&b, e->size);
    bytes_le(&b, e->hash, 8);
    bytes_le(&b, e->tok, 8);
    bytes_uleb(&b, (uint64_t)e->lexflags << 1 | e->tok_done);
    bytes_uleb(&b, e->stamp.dev);
    bytes_uleb(&b, e->stamp.ino);
    bytes_le(&b, (uint64_t)e->stamp.mtime, 8);
    bytes_le(&b, (uint64_t)e->stamp.ctime, 8);
    bytes_le(&b, (uint64_t)e->stamp.seen, 8);
  }
  return entry_seal("PURISTCI", &b, len);
}

int cache_stat_decode(const unsigned char *buf, size_t len, cache_key k, cache_memo *m, const char **why)
{
  bytes_reader r;
  memset(m, 0, sizeof *m);
  if (entry_open_checked(buf, len, "PURISTCI", k, &r, why) < 0) return -1;
  uint64_t n = bytes_get_uleb(&r);
  if (n > len) r.bad = 1;   /* each takes bytes: a count past that is damage */
  for (uint64_t i = 0; !r.bad && i < n; i++) {
    cache_memo_ent e = {0};
    e.path = get_str(&r);
    e.size = bytes_get_uleb(&r);
    e.hash = bytes_get_le(&r, 8);
    e.tok = bytes_get_le(&r, 8);
    uint64_t fl = bytes_get_uleb(&r);
    if (fl >> 1 > UINT32_MAX) r.bad = 1;
    e.tok_done = fl & 1;
    e.lexflags = (unsigned)(fl >> 1);
    e.ok = 1;
    e.stamp.dev = bytes_get_uleb(&r);
    e.stamp.ino = bytes_get_uleb(&r);
    e.stamp.size = e.size;
    e.stamp.mtime = (int64_t)bytes_get_le(&r, 8);
    e.stamp.ctime = (int64_t)bytes_get_le(&r, 8);
    e.stamp.seen = (int64_t)bytes_get_le(&r, 8);
    if (!e.path) break;
    vec_push(m, e);
  }
  if (r.bad || r.p != r.end) {
    for (size_t i = 0; i < m->n; i++) free(m->v[i].path);
    vec_free(m);
    *why = "malformed payload";
    return -1;
  }
  return 0;
}
