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

/* One file of the cache: its shard and name, what it occupies, when last used. */
typedef struct { char shard[3]; char *name; uint64_t bytes; struct timespec used; } prune_file;
typedef VEC(prune_file) prune_files;

/* What a file occupies on disk (as du counts it), at least its size
 * rounded to a block: a cache limit is about disk space. */
static uint64_t prune_bytes(const struct stat *st)
{
  uint64_t disk = (uint64_t)st->st_blocks * 512, apparent = ((uint64_t)st->st_size + 511) / 512 * 512;
  return disk > apparent ? disk : apparent;
}

/* Is name one of the cache's entries (.m, .r, .t) or a temporary (.tmp…)? */
static bool prune_is_ours(const char *name)
{
  size_t n = strlen(name);
  if (strstr(name, ".tmp")) return true;
  return n > 2 && name[n - 2] == '.' && strchr("mrtk", name[n - 1]) != NULL;   /* cache_fs.c's too */
}

/* Appends the entries of shard directory shard of dfd to fs (when fs is
 * not NULL) and adds them to u. A shard that is a symlink, or not the
 * user's, is not looked into (cache_fs.c). */
static void prune_scan_shard(int dfd, const char *shard, prune_files *fs, cache_usage *u)
{
  int sfd = openat(dfd, shard, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat sst;
  if (sfd >= 0 && (fstat(sfd, &sst) != 0 || sst.st_uid != geteuid())) { close(sfd); sfd = -1; }
  DIR *d = sfd >= 0 ? fdopendir(sfd) : NULL;
  if (!d) {
    if (sfd >= 0) close(sfd);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!prune_is_ours(e->d_name)) continue;
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)) {
      uint64_t b = prune_bytes(&st);
      u->bytes += b;
      u->files++;
      if (strstr(e->d_name, ".m") && !strstr(e->d_name, ".tmp")) u->manifests++;
      if (fs) {
        prune_file f = { { shard[0], shard[1], '\0' }, xstrdup(e->d_name), b, st.st_mtim };
        vec_push(fs, f);
      }
    }
  }
  closedir(d);
}

/* Every entry of the cache open at dfd (shards ab/ of two hex digits). */
static int prune_scan(int dfd, const char *dir, prune_files *fs, cache_usage *u, char **err)
{
  memset(u, 0, sizeof *u);
  int fd = dup(dfd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0) close(fd);
    *err = xasprintf("%s: %s", dir, strerror(errno));
    return -1;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strlen(e->d_name) != 2 || strspn(e->d_name, "0123456789abcdef") != 2) continue;
    prune_scan_shard(dfd, e->d_name, fs, u);
  }
  closedir(d);
  return 0;
}

/* Opens the cache in dir for reading its usage: 0 with *dfd -1 if there
 * is none, -1 with *err if it is not one purist may use. */
static int prune_open(const char *dir, int *dfd, char **err)
{
  char *why = NULL;
  *dfd = cache_dir_open(dir, &why);
  if (*dfd >= 0 || !why) return 0;
  *err = why;
  return -1;
}

int cache_usage_of(const char *dir, cache_usage *u, char **err)
{
  int dfd;
  memset(u, 0, sizeof *u);
  if (prune_open(dir, &dfd, err) < 0) return -1;
  if (dfd < 0) return 0;
  int rc = prune_scan(dfd, dir, NULL, u, err);
  close(dfd);
  return rc;
}

/* Oldest use first; equal times by name, so the order is deterministic. */
static int prune_cmp(const void *a, const void *b)
{
  const prune_file *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec) return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
  if (x->used.tv_nsec != y->used.tv_nsec) return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
  int s = strcmp(x->shard, y->shard);
  return s ? s : strcmp(x->name, y->name);
}

/* Removes the oldest files of fs until u->bytes <= target. */
static long prune_oldest(int dfd, prune_files *fs, cache_usage *u, uint64_t target)
{
  qsort(fs->v, fs->n, sizeof *fs->v, prune_cmp);
  long removed = 0;
  for (size_t i = 0; i < fs->n && u->bytes > target; i++) {
    int sfd = openat(dfd, fs->v[i].shard, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int rc = sfd >= 0 ? unlinkat(sfd, fs->v[i].name, 0) : -1;
    if (sfd >= 0) close(sfd);
    if (rc != 0) continue;
    u->bytes -= fs->v[i].bytes;
    u->files--;
    removed++;
  }
  return removed;
}

long cache_prune(const char *dir, uint64_t max, cache_usage *u, char **err)
{
  int dfd;
  memset(u, 0, sizeof *u);
  if (prune_open(dir, &dfd, err) < 0) return -1;
  if (dfd < 0) return 0;
  /* The lock: never through a symlink, never a file of someone else's. */
  int fd = openat(dfd, CACHE_PRUNE_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  struct stat st;
  if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
    close(fd);
    fd = -1;
    errno = EPERM;
  }
  if (fd < 0) {
    *err = xasprintf("%s: cannot create %s: %s", dir, CACHE_PRUNE_LOCK, strerror(errno));
    close(dfd);
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {   /* another run is pruning */
    close(fd);
    close(dfd);
    return 0;
  }
  prune_files fs = {0};
  long removed = 0;
  if (prune_scan(dfd, dir, &fs, u, err) < 0) removed = -1;
  else if (u->bytes > max) removed = prune_oldest(dfd, &fs, u, max / 10 * 9);
  for (size_t i = 0; i < fs.n; i++) free(fs.v[i].name);
  vec_free(&fs);
  close(fd);   /* releases the lock */
  close(dfd);
  return removed;
}
