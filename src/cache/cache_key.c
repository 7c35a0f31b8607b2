/* cache_key.c — what a cache entry is keyed on, and hashing files. */
#include "cache/cache_internal.h"
#include "util/fileio.h"
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

/* Bumped when the meaning of an entry changes (layout of keys or records). */
#define CACHE_KEY_VERSION "purist-cache-1"

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

/* The version number does not change with every build of purist during
 * development, so the executable's own bytes are hashed too: a rebuilt
 * purist never trusts summaries an older build made. */
uint64_t cache_env_hash(const kb *k)
{
  XXH3_state_t *st = key_start(CACHE_KEY_VERSION);
  key_str(st, PURIST_VERSION);
  key_str(st, PURIST_RESOURCE_DIR);
  key_u64(st, lc_identity());   /* libclang's version and file, without loading it */
  size_t len = 0;
  char *exe = file_read_all("/proc/self/exe", &len);
  key_u64(st, exe ? XXH3_64bits(exe, len) : 0);
  free(exe);
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
cache_key cache_key1(const cache *c, const fe_job *job, uint64_t main_size, uint64_t main_hash)
{
  XXH3_state_t *st = key_start("manifest");
  key_u64(st, c->env);
  key_str(st, job->dir);
  key_str(st, job->file);
  key_u64(st, (uint64_t)job->argc);
  for (int i = 0; i < job->argc; i++) key_str(st, job->argv[i]);
  key_u64(st, fe_ccview_digest(job));   /* the build compiler's macros, or clang's (0) */
  key_u64(st, main_size);
  key_u64(st, main_hash);
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

/* Reads and hashes outside the lock, so threads hash different files at
 * once; two threads may hash the same file, and the first result stays. */
int cache_file_hash(cache *c, const char *path, uint64_t *size, uint64_t *hash)
{
  uint64_t key = XXH3_64bits(path, strlen(path)) | 1;
  pthread_mutex_lock(&c->lock);
  cache_memo_ent *e = memo_find(c, path, key);
  cache_memo_ent got = e ? *e : (cache_memo_ent){0};
  pthread_mutex_unlock(&c->lock);
  if (!e) {
    size_t len = 0;
    const char *why;   /* a FIFO or device where a source was: a miss (libclang reports it) */
    unsigned char *text = cache_read_file(path, false, &len, &why);
    got = (cache_memo_ent){ NULL, len, text ? XXH3_64bits(text, len) : 0, text != NULL };
    free(text);
    pthread_mutex_lock(&c->lock);
    if (!memo_find(c, path, key) && !ptrmap_get(&c->memo_idx, key)) {
      got.path = xstrdup(path);
      vec_push(&c->memo, got);
      ptrmap_put(&c->memo_idx, key, (uint32_t)c->memo.n);
    }
    pthread_mutex_unlock(&c->lock);
  }
  *size = got.size;
  *hash = got.hash;
  return got.ok ? 0 : -1;
}

bool cache_file_matches(cache *c, const cache_file *f)
{
  struct stat st;
  if (stat(f->path, &st) != 0 || (uint64_t)st.st_size != f->size) return false;
  uint64_t size, hash;
  return cache_file_hash(c, f->path, &size, &hash) == 0 && size == f->size && hash == f->hash;
}
