/* cache_prune.c — keeping the cache under its size limit, least recently
 * used first (ccache's rule): a hit touches the entries it read
 * (cache_touch), so an entry's mtime is when it was last written or used,
 * and pruning removes the oldest until the cache holds at most nine tenths
 * of the limit (so the next runs do not prune again at once).
 *
 * Several runs share one cache: pruning holds an exclusive flock on
 * DIR/prune.lock, and a run that finds it held skips pruning (the other
 * run is doing it). Removing an entry another run is about to read is
 * harmless: the read misses and parses again. */
#include "cache/cache_internal.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* One file of the cache: its path, what it occupies, when last used. */
typedef struct { char *path; uint64_t bytes; struct timespec used; } prune_file;
typedef VEC(prune_file) prune_files;

/* What a file occupies on disk (as du counts it), at least its size
 * rounded to a block: a cache limit is about disk space. */
static uint64_t prune_bytes(const struct stat *st)
{
  uint64_t disk = (uint64_t)st->st_blocks * 512, apparent = ((uint64_t)st->st_size + 511) / 512 * 512;
  return disk > apparent ? disk : apparent;
}

/* Is name one of the cache's entries (.m, .r) or a temporary (.tmp…)? */
static bool prune_is_ours(const char *name)
{
  size_t n = strlen(name);
  if (strstr(name, ".tmp")) return true;
  return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'm' || name[n - 1] == 'r');
}

/* Appends the entries of shard directory sub to fs (when fs is not NULL)
 * and adds them to u. */
static void prune_scan_shard(const char *sub, prune_files *fs, cache_usage *u)
{
  DIR *d = opendir(sub);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!prune_is_ours(e->d_name)) continue;
    char *p = xasprintf("%s/%s", sub, e->d_name);
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
      uint64_t b = prune_bytes(&st);
      u->bytes += b;
      u->files++;
      if (strstr(e->d_name, ".m") && !strstr(e->d_name, ".tmp")) u->manifests++;
      if (fs) {
        prune_file f = { p, b, st.st_mtim };
        vec_push(fs, f);
        p = NULL;
      }
    }
    free(p);
  }
  closedir(d);
}

/* Every entry of the cache in dir (shards ab/ of two hex digits). */
static int prune_scan(const char *dir, prune_files *fs, cache_usage *u, char **err)
{
  memset(u, 0, sizeof *u);
  DIR *d = opendir(dir);
  if (!d) {
    if (errno == ENOENT) return 0;
    *err = xasprintf("%s: %s", dir, strerror(errno));
    return -1;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strlen(e->d_name) != 2 || strspn(e->d_name, "0123456789abcdef") != 2) continue;
    char *sub = xasprintf("%s/%s", dir, e->d_name);
    prune_scan_shard(sub, fs, u);
    free(sub);
  }
  closedir(d);
  return 0;
}

int cache_usage_of(const char *dir, cache_usage *u, char **err)
{
  return prune_scan(dir, NULL, u, err);
}

/* Oldest use first; equal times by path, so the order is deterministic. */
static int prune_cmp(const void *a, const void *b)
{
  const prune_file *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec) return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
  if (x->used.tv_nsec != y->used.tv_nsec) return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
  return strcmp(x->path, y->path);
}

/* Removes the oldest files of fs until u->bytes <= target. */
static long prune_oldest(prune_files *fs, cache_usage *u, uint64_t target)
{
  qsort(fs->v, fs->n, sizeof *fs->v, prune_cmp);
  long removed = 0;
  for (size_t i = 0; i < fs->n && u->bytes > target; i++) {
    if (unlink(fs->v[i].path) != 0) continue;
    u->bytes -= fs->v[i].bytes;
    u->files--;
    removed++;
  }
  return removed;
}

long cache_prune(const char *dir, uint64_t max, cache_usage *u, char **err)
{
  char *lockp = xasprintf("%s/%s", dir, CACHE_PRUNE_LOCK);
  int fd = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  free(lockp);
  if (fd < 0) {
    *err = xasprintf("%s: cannot create %s: %s", dir, CACHE_PRUNE_LOCK, strerror(errno));
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {   /* another run is pruning */
    close(fd);
    memset(u, 0, sizeof *u);
    return 0;
  }
  prune_files fs = {0};
  long removed = 0;
  if (prune_scan(dir, &fs, u, err) < 0) removed = -1;
  else if (u->bytes > max) removed = prune_oldest(&fs, u, max / 10 * 9);
  for (size_t i = 0; i < fs.n; i++) free(fs.v[i].path);
  vec_free(&fs);
  close(fd);   /* releases the lock */
  return removed;
}

void cache_touch(const char *path)
{
  utimensat(AT_FDCWD, path, NULL, 0);   /* now; a failure only makes the entry look older */
}
