/* cache_key.c — what a cache entry is keyed on, and hashing files. */
#include "cache/cache_internal.h"
#include "util/fileio.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

/* Bumped when the meaning of an entry changes (layout of keys or records). */
#define CACHE_KEY_VERSION "purist-cache-2"   /* 2: token keys (issue 32) */

void cache_key_hex(cache_key k, char out[CACHE_KEY_HEX])
{
  snprintf(out, CACHE_KEY_HEX, "%016llx%016llx", (unsigned long long)k.hi, (unsigned long long)k.lo);
}

/* Adds a length-prefixed string, so "ab"+"c" and "a"+"bc" differ. */
static void key_str(XXH3_state_t *st, const char *s)
{
  uint64_t n = strlen(s);
  XXH3_128bits_update(st, &n, sizeof n);
  XXH3_128bits_update(st, s, n);
}

static void key_u64(XXH3_state_t *st, uint64_t x)
{
  XXH3_128bits_update(st, &x, sizeof x);
}

static cache_key key_done(XXH3_state_t *st)
{
  XXH128_hash_t h = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  return (cache_key){ h.high64, h.low64 };
}

static XXH3_state_t *key_start(const char *what)
{
  XXH3_state_t *st = XXH3_createState();
  if (!st) { fputs("purist: out of memory\n", stderr); exit(2); }
  XXH3_128bits_reset(st);
  key_str(st, what);
  return st;
}

/* XXH3-64 of a file's bytes, read in chunks (the same value as hashing
 * the whole text at once); 0 if it cannot be read. Streaming matters for
 * purist's own executable, hashed on every run: reading it whole into a
 * growing buffer cost 25 ms of a 0.5 s warm `check FILE` on git. */
static uint64_t key_file_hash(const char *path)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  XXH3_state_t *st = XXH3_createState();
  if (!st) { close(fd); return 0; }
  XXH3_64bits_reset(st);
  static const size_t chunk = 1 << 16;
  unsigned char *buf = xmalloc(chunk);
  ssize_t n;
  while ((n = read(fd, buf, chunk)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    XXH3_64bits_update(st, buf, (size_t)n);
  }
  uint64_t h = n < 0 ? 0 : XXH3_64bits_digest(st);
  free(buf);
  XXH3_freeState(st);
  close(fd);
  return h;
}

/* The version number does not change with every build of purist during
 * development, so the executable's own bytes are hashed too: a rebuilt
 * purist never trusts summaries an older build made. */
uint64_t cache_env_hash(const kb *k)
{
  XXH3_state_t *st = key_start(CACHE_KEY_VERSION);
  key_str(st, PURIST_VERSION);
  key_str(st, PURIST_RESOURCE_DIR);
  key_u64(st, lc_identity());   /* libclang's version and file, without loading it */
  key_u64(st, key_file_hash("/proc/self/exe"));
  key_u64(st, kb_digest(k));
  /* Include paths from the environment choose headers as -I does (ccache
   * hashes them too); a header found elsewhere is not in any manifest. */
  static const char *const env_paths[] = { "CPATH", "C_INCLUDE_PATH", "SDKROOT" };
  for (size_t i = 0; i < sizeof env_paths / sizeof *env_paths; i++) {
    const char *v = getenv(env_paths[i]);
    key_str(st, v ? v : "\x01unset");
  }
  cache_key h = key_done(st);
  return h.hi ^ h.lo;
}

/* --strict is not in the key: it changes how the linker reads effects on
 * doomed paths (src/link, src/report/reason.c), never what the front end
 * records, so one summary serves both. */
cache_key cache_key1(const cache *c, const fe_job *job, bool tokens, uint64_t main_size, uint64_t main)
{
  XXH3_state_t *st = key_start(tokens ? "manifest-tokens" : "manifest");
  key_u64(st, c->env);
  key_str(st, job->dir);
  key_str(st, job->file);
  key_u64(st, (uint64_t)job->argc);
  for (int i = 0; i < job->argc; i++) key_str(st, job->argv[i]);
  key_u64(st, fe_ccview_digest(job));   /* the build compiler's macros, or clang's (0) */
  if (!tokens) key_u64(st, main_size);
  key_u64(st, main);
  return key_done(st);
}

/* The entries' format is in the key: a table is found by its file's
 * path and bytes alone, so after a format change (which refuses the old
 * table as "another cache format") an old table must not stand in the
 * way of writing a new one: the store only touches a table it finds,
 * and the first comment edit of each file after an upgrade was a parse. */
cache_key cache_key_postab(const char *path, uint64_t size, uint64_t hash)
{
  XXH3_state_t *st = key_start("positions");
  key_u64(st, CACHE_ENTRY_FORMAT);
  key_str(st, path);
  key_u64(st, size);
  key_u64(st, hash);
  return key_done(st);
}

/* A TU's token record is named by its job (what key1 holds but the main
 * file's contents: the record lists the versions of it), and purist's
 * lexer (env). Its entries are keyed by bytes inside it. */
cache_key cache_key_jobtoks(const cache *c, const fe_job *job)
{
  XXH3_state_t *st = key_start("job-tokens");
  key_u64(st, c->env);
  key_str(st, job->dir);
  key_str(st, job->file);
  key_u64(st, (uint64_t)job->argc);
  for (int i = 0; i < job->argc; i++) key_str(st, job->argv[i]);
  return key_done(st);
}

cache_key cache_key2(cache_key k1, const cache_files *files)
{
  XXH3_state_t *st = key_start("result");
  key_u64(st, k1.hi);
  key_u64(st, k1.lo);
  key_u64(st, files->n);
  for (size_t i = 0; i < files->n; i++) {
    key_str(st, files->v[i].path);
    key_u64(st, files->v[i].size);
    key_u64(st, files->v[i].hash);
    key_u64(st, files->v[i].main);
  }
  return key_done(st);
}

/* The memo's slot for path, or NULL; the caller holds c->lock. A 64-bit
 * collision of two paths only costs hashing the second file every time. */
static cache_memo_ent *memo_find(cache *c, const char *path, uint64_t key)
{
  uint32_t *i = ptrmap_get(&c->memo_idx, key);
  if (!i) return NULL;
  cache_memo_ent *e = &c->memo.v[*i - 1];
  return strcmp(e->path, path) == 0 ? e : NULL;
}

/* The token hash of bytes text (size, hash): from the job's token record
 * if it has them (cache_toks.c), else lexed; the job's store records it.
 * A warm run lexed every main file again to find its manifest (16 % of a
 * warm `check FILE` on git), and a parse's store lexed each header. */
static clex_sum memo_lex(cache *c, cache_jobtoks *jt, const unsigned char *text, size_t len, uint64_t hash)
{
  clex_sum s = {0};
  if (jt && cache_jobtoks_find(c, jt, len, hash, &s)) return s;
  return cache_lex((const char *)text, len, NULL);
}

/* Reads the file and hashes its bytes (and its tokens if tok), with its
 * stamp: the clock is read before the file is opened (cache_stamp). */
static cache_memo_ent memo_read(cache *c, cache_jobtoks *jt, const char *path, bool tok)
{
  size_t len = 0;
  const char *why;   /* a FIFO or device where a source was: a miss (libclang reports it) */
  struct timespec now;
  struct stat st;
  clock_gettime(CLOCK_REALTIME, &now);
  unsigned char *text = cache_read_file_st(path, false, &len, &why, &st);
  atomic_fetch_add(&c->read_files, 1);
  cache_memo_ent got = { NULL, len, text ? XXH3_64bits(text, len) : 0, 0, text != NULL, false, false, 0, {0} };
  if (text) got.stamp = cache_stamp_of(&st, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
  if (text && tok) {
    clex_sum s = memo_lex(c, jt, text, len, got.hash);
    got.tok = s.hash;
    got.lexflags = s.flags;
    got.tok_done = true;
  }
  free(text);
  return got;
}

/* The memo's entry for path, reading the file if it has none (or lacks
 * the token hash and tok asks for it). Reads and hashes outside the lock,
 * so threads hash different files at once; two threads may hash the same
 * file, and the first result stays. A token hash read after the bytes
 * changed is 0: it describes other contents. */
static cache_memo_ent memo_get(cache *c, cache_jobtoks *jt, const char *path, bool tok)
{
  uint64_t key = XXH3_64bits(path, strlen(path)) | 1;
  pthread_mutex_lock(&c->lock);
  cache_memo_ent *e = memo_find(c, path, key);
  cache_memo_ent got = e ? *e : (cache_memo_ent){0};
  pthread_mutex_unlock(&c->lock);
  if (e && (!tok || got.tok_done)) return got;
  /* Not read yet this run: an earlier run's record, if the file's stamp
   * says it is still the same (cache_stat.c), else the file itself. */
  const cache_memo_ent *k = e ? NULL : cache_stat_known(c, path, key);
  cache_memo_ent fresh = k && (!tok || k->tok_done) ? *k : memo_read(c, jt, path, tok);
  fresh.postab = false;
  pthread_mutex_lock(&c->lock);
  e = memo_find(c, path, key);
  if (!e && !ptrmap_get(&c->memo_idx, key)) {
    fresh.path = xstrdup(path);
    vec_push(&c->memo, fresh);
    ptrmap_put(&c->memo_idx, key, (uint32_t)c->memo.n);
    got = fresh;
  } else if (!e) {
    got = fresh;   /* a collision of two paths' hashes: not memoised */
  } else {
    if (!e->tok_done && fresh.tok_done) {
      bool same = e->ok && fresh.ok && e->size == fresh.size && e->hash == fresh.hash;
      e->tok = same ? fresh.tok : 0;
      e->lexflags = same ? fresh.lexflags : 0;
      e->tok_done = true;
    }
    got = *e;
  }
  pthread_mutex_unlock(&c->lock);
  return got;
}

int cache_file_hash(cache *c, const char *path, uint64_t *size, uint64_t *hash)
{
  cache_memo_ent got = memo_get(c, NULL, path, false);
  *size = got.size;
  *hash = got.hash;
  return got.ok ? 0 : -1;
}

int cache_file_tokens(cache *c, cache_jobtoks *jt, const char *path, uint64_t *size, uint64_t *hash, uint64_t *tok,
                      unsigned *lexflags)
{
  cache_memo_ent got = memo_get(c, jt, path, true);
  *size = got.size;
  *hash = got.hash;
  *tok = got.tok;
  *lexflags = got.lexflags;
  return got.ok ? 0 : -1;
}

bool cache_postab_mark(cache *c, const char *path)
{
  uint64_t key = XXH3_64bits(path, strlen(path)) | 1;
  pthread_mutex_lock(&c->lock);
  cache_memo_ent *e = memo_find(c, path, key);
  bool was = e && e->postab;
  if (e) e->postab = true;
  pthread_mutex_unlock(&c->lock);
  return was;
}

bool cache_file_matches(cache *c, const cache_file *f)
{
  if (f->size == CACHE_DIR_WATCH) return cache_dir_matches(f);
  /* Hashed already this run (another TU read it): the memo is this run's
   * view of the file, so no stat again (80,000 of them a warm run on git). */
  uint64_t key = XXH3_64bits(f->path, strlen(f->path)) | 1;
  pthread_mutex_lock(&c->lock);
  const cache_memo_ent *e = memo_find(c, f->path, key);
  int known = e ? (e->ok && e->size == f->size && e->hash == f->hash) : -1;
  pthread_mutex_unlock(&c->lock);
  if (known >= 0) return known;
  struct stat st;   /* the size first, unless the index knows the file (then its stamp is stat'ed) */
  if (!ptrmap_get(&c->known_idx, key) && (stat(f->path, &st) != 0 || (uint64_t)st.st_size != f->size)) return false;
  uint64_t size, hash;
  return cache_file_hash(c, f->path, &size, &hash) == 0 && size == f->size && hash == f->hash;
}
