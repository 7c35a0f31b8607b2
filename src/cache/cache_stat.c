/* cache_stat.c — the files a project's runs read, with their stamps, so a
 * later run need not read a file stat says is unchanged (git's index
 * does the same for a work tree).
 *
 * A warm one-file run reads every file each TU's manifest lists (1,150
 * files, 12 MB on git) and each main file's token hash (".k"), only to
 * find them unchanged. The index (".i" entry, one per project and build
 * of purist) records, for each file read, its contents hash, its token
 * hash if known, and its stamp: device, inode, size, modification and
 * change times, and the clock just before the file was opened. A later
 * run trusts the record instead of reading the file only while stat
 * gives the same stamp and both times lie at least CACHE_STAMP_MARGIN
 * before that clock reading (cache_stamp_trusted).
 *
 * Why the margin (git's "racily clean" entries): a file system stamps a
 * change with its own clock's tick, which may be coarse (a jiffy, a
 * second, two on FAT). A change made while or just after the file was
 * read, within the tick of the time already recorded, would leave the
 * stamp as it was, and the record would describe the bytes before the
 * change. A change after the clock reading gets a time no earlier than
 * that reading less one tick, so a recorded time more than a tick (2 s)
 * older than the reading cannot also be the time of such a change. A
 * file too recent is read again by the next run, which records it with
 * a later reading, and trusts it from then on. Setting the modification
 * time back (touch -d) changes the change time, which no tool sets back
 * short of the clock itself. What it does not see: a file system whose
 * clock runs behind the machine's by more than the margin (a network file
 * system), or one that keeps no change time; --no-cache reads everything. */
#include "cache/cache_internal.h"
#include <string.h>
#include <xxhash.h>

static int64_t stamp_ns(struct timespec t)
{
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

cache_stamp cache_stamp_of(const struct stat *st, int64_t seen)
{
  cache_stamp s = { (uint64_t)st->st_dev, (uint64_t)st->st_ino, (uint64_t)st->st_size,
                    stamp_ns(st->st_mtim), stamp_ns(st->st_ctim), seen };
  return s;
}

bool cache_stamp_trusted(const cache_stamp *r, const struct stat *st)
{
  cache_stamp now = cache_stamp_of(st, r->seen);
  return r->seen != 0 && now.dev == r->dev && now.ino == r->ino && now.size == r->size && now.mtime == r->mtime &&
         now.ctime == r->ctime && r->mtime < r->seen - CACHE_STAMP_MARGIN && r->ctime < r->seen - CACHE_STAMP_MARGIN;
}

/* The index's key: purist's build (token hashes are its lexer's) and the
 * project's name. */
static cache_key stat_key(const cache *c, const char *name)
{
  XXH3_state_t *st = XXH3_createState();
  XXH3_128bits_reset(st);
  uint64_t head[2] = { 0x7374617473313031ull /* "stats101" */, c->env };
  XXH3_128bits_update(st, head, sizeof head);
  XXH3_128bits_update(st, name, strlen(name));
  XXH128_hash_t h = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  return (cache_key){ h.high64, h.low64 };
}

static uint64_t stat_path_key(const char *path)
{
  return XXH3_64bits(path, strlen(path)) | 1;   /* as the memo's (cache_key.c) */
}

void cache_stat_begin(cache *c, const char *name)
{
  if (!c->dir || c->known_key.hi || c->known_key.lo) return;   /* once a run */
  c->known_key = stat_key(c, name);
  char *rel = cache_entry_path(c, c->known_key, ".i");
  size_t len = 0;
  const char *why = NULL;
  unsigned char *buf = cache_entry_read(c, rel, &len, &why);
  if (buf && cache_stat_decode(buf, len, c->known_key, &c->known, &why) < 0) {
    cache_entry_unlink(c, rel);   /* damaged: every file is read, and the index written again */
    memset(&c->known, 0, sizeof c->known);
  }
  free(buf);
  free(rel);
  for (size_t i = 0; i < c->known.n; i++) {
    uint64_t k = stat_path_key(c->known.v[i].path);
    if (!ptrmap_get(&c->known_idx, k)) ptrmap_put(&c->known_idx, k, (uint32_t)(i + 1));
  }
}

const cache_memo_ent *cache_stat_known(cache *c, const char *path, uint64_t key)
{
  uint32_t *i = ptrmap_get(&c->known_idx, key);
  if (!i) return NULL;
  const cache_memo_ent *e = &c->known.v[*i - 1];
  struct stat st;
  if (strcmp(e->path, path) != 0 || stat(path, &st) != 0 || !cache_stamp_trusted(&e->stamp, &st)) return NULL;
  return e;
}

void cache_stat_end(cache *c)
{
  if (!c->dir || !atomic_load(&c->read_files)) return;   /* nothing learnt: the index stands */
  cache_memo all = {0};
  pthread_mutex_lock(&c->lock);
  for (size_t i = 0; i < c->memo.n; i++)
    if (c->memo.v[i].ok && c->memo.v[i].stamp.seen) vec_push(&all, c->memo.v[i]);   /* paths shared */
  for (size_t i = 0; i < c->known.n; i++) {   /* files this run did not need: kept */
    const cache_memo_ent *e = &c->known.v[i];
    uint32_t *m = ptrmap_get(&c->memo_idx, stat_path_key(e->path));
    if (!m || strcmp(c->memo.v[*m - 1].path, e->path) != 0) vec_push(&all, *e);
  }
  pthread_mutex_unlock(&c->lock);
  size_t len;
  unsigned char *rec = cache_stat_encode(&all, c->known_key, &len);
  char *rel = cache_entry_path(c, c->known_key, ".i");
  cache_write(c, rel, rec, len);
  free(rel);
  free(rec);
  vec_free(&all);
}
