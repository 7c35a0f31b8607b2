/* cache_prog.c — a whole program's findings, stored under a hash of
 * everything they depend on (cache.h; cli/progmemo.c computes the key and
 * the blob). An entry ".w" is checksummed and carries its key like every
 * other entry, and is pruned with them (least recently used). */
#include "cache/cache_internal.h"
#include <string.h>
#include <xxhash.h>

/* The entry's key: the caller's, with purist's build and knowledge base. */
static cache_key cache_prog_key(const cache *c, const uint64_t key[2])
{
  uint64_t v[4] = { 0x70726f6772616d31ull /* "program1" */, c->env, key[0], key[1] };
  XXH128_hash_t h = XXH3_128bits(v, sizeof v);
  cache_key k = { h.high64, h.low64 };
  return k;
}

int cache_prog_get(cache *c, const uint64_t key[2], unsigned char **mem, const unsigned char **blob, size_t *n)
{
  *mem = NULL;
  if (!c || !c->dir) return -1;
  cache_key k = cache_prog_key(c, key);
  char *path = cache_entry_path(c, k, ".w");
  size_t len = 0;
  const char *why = NULL;
  unsigned char *buf = cache_entry_read(c, path, &len, &why);
  int rc = -1;
  if (buf && cache_prog_decode(buf, len, k, blob, n, &why) == 0) {
    rc = 0;
    *mem = buf;
    buf = NULL;
    cache_touch(c, path);   /* used: the last to be pruned */
  } else if (buf) {
    cache_entry_unlink(c, path);   /* damaged: the run computes and stores it again */
  }
  free(buf);
  free(path);
  return rc;
}

void cache_prog_put(cache *c, const uint64_t key[2], const void *blob, size_t n)
{
  if (!c || !c->dir) return;
  cache_key k = cache_prog_key(c, key);
  size_t len;
  unsigned char *rec = cache_prog_encode(blob, n, k, &len);
  char *path = cache_entry_path(c, k, ".w");
  cache_write(c, path, rec, len);
  free(path);
  free(rec);
}
