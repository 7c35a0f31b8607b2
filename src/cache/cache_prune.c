/* cache_prune.c — keeping the cache under its size limit, least recently
 * used first (ccache's rule): a hit touches the entries it read
 * (cache_touch), so an entry's mtime is when it was last written or used,
 * and pruning removes the oldest until the cache holds at most nine tenths
 * of the limit (so the next runs do not prune again at once).
 *
 * Several runs share one cache: pruning holds an exclusive flock on
 * DIR/prune.lock, and a run that finds it held skips pruning (the other
 * run is doing it). Removing an entry another run is about to read is
 * harmless: the read misses and parses again.
 *
 * Knowing whether the limit is passed used to take a scan of the whole
 * cache after every run that wrote (a stat per entry: 90,000 of them,
 * 0.35 s, in a cache shared by a few projects, for a one-file run after
 * an edit). DIR/usage now keeps the figure: each run that wrote adds what
 * it wrote (under an flock of that file), and only a figure past the
 * limit, a missing or damaged one, or one counted more than a day ago
 * takes a scan, which writes the exact figure. Runs with no limit add
 * too. What is lost (a run killed between its writes and its update, a
 * run that removed entries it did not count) is corrected by the daily
 * scan; what is counted twice (an entry rewritten) only brings a scan
 * sooner. */
#include "cache/cache_internal.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <stdio.h>
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
    if (!cache_entry_name_ours(e->d_name)) continue;
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

#define USAGE_RESCAN_SECONDS (24 * 3600)

/* Opens DIR/usage (created if missing), a regular file of the user's,
 * never through a symlink, and locks it; -1 if it cannot be. */
static int usage_open_locked(int dfd)
{
  int fd = openat(dfd, CACHE_USAGE_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  struct stat st;
  if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
    close(fd);
    return -1;
  }
  if (fd >= 0 && flock(fd, LOCK_EX) != 0) {   /* held by another run for an update: microseconds */
    close(fd);
    return -1;
  }
  return fd;
}

/* The figure in the usage file open at fd: 0, or -1 if none or damaged. */
static int usage_read(int fd, uint64_t *bytes, long long *counted)
{
  char buf[96];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return -1;
  buf[n] = '\0';
  unsigned long long b;
  int end = 0;
  if (sscanf(buf, "purist-cache-usage 1 %llu %lld\n%n", &b, counted, &end) != 2 || end != n) return -1;
  *bytes = b;
  return 0;
}

static void usage_write(int fd, uint64_t bytes, long long counted)
{
  char buf[96];
  int n = snprintf(buf, sizeof buf, "purist-cache-usage 1 %llu %lld\n", (unsigned long long)bytes, counted);
  if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) != n) (void)ftruncate(fd, 0);   /* damaged: a scan next time */
}

long cache_prune_grown(cache *c, uint64_t max, cache_usage *u, char **err)
{
  memset(u, 0, sizeof *u);
  if (!c->dir) return 0;
  uint64_t added = atomic_load(&c->wrote), bytes = 0;
  long long counted = 0, now = (long long)time(NULL);
  int fd = usage_open_locked(c->dfd);
  bool known = fd >= 0 && usage_read(fd, &bytes, &counted) == 0 && counted <= now &&
               now - counted < USAGE_RESCAN_SECONDS;
  if (known && (!max || bytes + added <= max)) {
    usage_write(fd, bytes + added, counted);
    close(fd);   /* releases the lock */
    u->bytes = bytes + added;
    return 0;
  }
  if (!max) {   /* no limit and no figure: the next run with a limit counts */
    if (fd >= 0) close(fd);
    return 0;
  }
  /* Counted again while holding the usage lock, so no run adds to a
   * figure that is being replaced. */
  long removed = cache_prune(c->dir, max, u, err);
  if (fd >= 0 && removed >= 0 && u->files) usage_write(fd, u->bytes, now);
  if (fd >= 0) close(fd);
  return removed;
}
