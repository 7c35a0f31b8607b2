/* cache_fs.c — the cache directory: entry paths, atomic writes, cleaning.
 *
 * Layout: DIR/CACHEDIR.TAG (so backup tools skip the cache, and so `cache
 * clean` knows the directory is purist's), and DIR/ab/cdef….m (manifests)
 * and DIR/ab/cdef….r (results), DIR/ab/cdef….t (a file's token
 * positions, issue 32), named by their key in hex, spread over
 * 256 subdirectories so no directory grows huge.
 *
 * Another local user must not steer the cache (issue 31 item 1): DIR is
 * opened once through safefs_dir_open (the user's own, closed to others,
 * on a path no one else can change), and every access is relative to that
 * descriptor: a shard is opened O_NOFOLLOW|O_DIRECTORY, an entry
 * O_NOFOLLOW, removed with unlinkat, written through a fresh O_EXCL file.
 * A symlink planted inside leads nowhere. */
#include "cache/cache_internal.h"
#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/safefs.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char cache_tag[] =
  "Signature: 8a477f597d28d172789f06886806bc55\n"
  "# This file is a cache directory tag created by purist (the summary cache).\n"
  "# For information about cache directory tags see https://bford.info/cachedir/\n";

void cache_warn(cache *c, const char *what, const char *path, int err)
{
  if (atomic_flag_test_and_set(&c->warned) || c->quiet) return;
  fprintf(stderr, "purist: warning: cache: cannot %s %s: %s; running without the cache\n", what, path,
          strerror(err));
}

char *cache_entry_path(const cache *c, cache_key k, const char *ext)
{
  (void)c;
  char hex[CACHE_KEY_HEX];
  cache_key_hex(k, hex);
  return xasprintf("%.2s/%s%s", hex, hex + 2, ext);
}

/* Opens the shard directory "ab" (a real directory of the user's, never a
 * symlink), creating it with create; -1 with errno. */
static int cache_shard_open(int dfd, const char *shard, bool create)
{
  if (create && mkdirat(dfd, shard, 0700) != 0 && errno != EEXIST) return -1;
  int fd = openat(dfd, shard, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_uid != geteuid())) {
    close(fd);
    errno = EPERM;
    return -1;
  }
  return fd;
}

static int cache_hex_digit(char ch)
{
  return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* The shard of entry rel ("ab/name"), opened once a run and kept (the
 * caller does not close it): a warm run reads a few entries of each TU,
 * and opening, checking and closing the shard for each read was a third
 * of its system calls. A shard is checked when opened; one replaced later
 * in the run is not seen, as a file renamed over after its open is not.
 * *name points into rel. -1 with errno if it cannot be opened (a missing
 * shard is not remembered: a write creates it). */
static int cache_entry_dir(const cache *c, const char *rel, bool create, const char **name)
{
  char shard[3] = { rel[0], rel[1], '\0' };
  *name = rel + 3;
  int hi = cache_hex_digit(rel[0]), lo = hi < 0 ? -1 : cache_hex_digit(rel[1]);
  if (lo < 0 || rel[2] != '/' || !c->shards) { errno = EINVAL; return -1; }
  atomic_int *slot = &c->shards[hi * 16 + lo];
  int fd = atomic_load(slot);
  if (fd >= 0) return fd;
  fd = cache_shard_open(c->dfd, shard, create);
  if (fd < 0) return -1;
  int none = -1;
  if (!atomic_compare_exchange_strong(slot, &none, fd)) {   /* another thread opened it first */
    close(fd);
    fd = none;
  }
  return fd;
}

unsigned char *cache_entry_read(const cache *c, const char *rel, size_t *len, const char **why)
{
  const char *name;
  int sfd = cache_entry_dir(c, rel, false, &name);
  *why = NULL;
  if (sfd < 0) {
    if (errno == ELOOP || errno == ENOTDIR || errno == EPERM) *why = "in a shard that is not a directory of yours";
    return NULL;
  }
  return cache_read_at(sfd, name, len, why);
}

void cache_entry_unlink(const cache *c, const char *rel)
{
  const char *name;
  int sfd = cache_entry_dir(c, rel, false, &name);
  if (sfd < 0) return;
  unlinkat(sfd, name, 0);
}

bool cache_touch(const cache *c, const char *rel)
{
  const char *name;
  int sfd = cache_entry_dir(c, rel, false, &name);
  if (sfd < 0) return false;
  /* now; a failure only makes the entry look older */
  return utimensat(sfd, name, NULL, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Writes all of data to a fresh temporary file (O_EXCL|O_NOFOLLOW) beside
 * name in dfd and renames it over name: readers see the old entry or the
 * new one, never a part. */
static int write_atomic_at(int dfd, const char *name, const void *data, size_t len)
{
  char *tmpbase = xasprintf("%s.tmp", name), *tmp = NULL;
  int fd = safefs_tmp_open(dfd, tmpbase, 0600, &tmp), rc = -1, err = 0;
  free(tmpbase);
  if (fd >= 0) {
    rc = file_write_all(fd, data, len);
    if (rc < 0) err = errno ? errno : ENOSPC;
    if (close(fd) != 0 && rc == 0) { rc = -1; err = errno; }
    if (rc == 0 && renameat(dfd, tmp, dfd, name) != 0) { rc = -1; err = errno; }
    if (rc < 0) unlinkat(dfd, tmp, 0);
  } else {
    err = errno;
  }
  free(tmp);
  errno = err;
  return rc;
}

void cache_write(cache *c, const char *rel, const void *data, size_t len)
{
  if (!atomic_load(&c->writable)) return;
  const char *name;
  int sfd = cache_entry_dir(c, rel, true, &name);
  int rc = sfd >= 0 ? write_atomic_at(sfd, name, data, len) : -1;
  /* A directory where the entry belongs (rename cannot replace it) made
   * every write fail and turned the cache off, run after run: it is in
   * our cache's place for an entry, so it goes, and the entry is written. */
  if (rc < 0 && sfd >= 0 && (errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST) &&
      cleanup_rmtree_at(sfd, name) == 0)
    rc = write_atomic_at(sfd, name, data, len);
  if (rc < 0 && sfd >= 0 && errno == ENOENT) {   /* the shard kept open was removed (cache clean) */
    char shard[3] = { rel[0], rel[1], '\0' };
    int fresh = cache_shard_open(c->dfd, shard, true);
    rc = fresh >= 0 ? write_atomic_at(fresh, name, data, len) : -1;
    if (fresh >= 0) { int e = errno; close(fresh); errno = e; }
  }
  if (rc == 0) {
    atomic_store(&c->grew, true);
    atomic_fetch_add(&c->wrote, ((uint64_t)len + 4095) / 4096 * 4096);   /* blocks of 4 KiB, as most file systems */
  }
  if (rc < 0) {
    int e = errno;
    char *sub = xasprintf("%s/%.2s", c->dir, rel);
    atomic_store(&c->writable, false);
    cache_warn(c, "write to", sub, e);
    free(sub);
  }
}

int cache_dir_open(const char *dir, char **why)
{
  *why = NULL;
  struct stat st;
  if (stat(dir, &st) != 0 && errno == ENOENT) return -1;
  return safefs_dir_open(dir, false, why);
}

int cache_dir_prepare(const char *dir, char **why)
{
  int dfd = safefs_dir_open(dir, true, why);
  if (dfd < 0) return -1;
  struct stat st;
  int rc;
  if (fstatat(dfd, "CACHEDIR.TAG", &st, AT_SYMLINK_NOFOLLOW) != 0) {
    rc = write_atomic_at(dfd, "CACHEDIR.TAG", cache_tag, sizeof cache_tag - 1);
  } else {   /* an existing cache: can we still add to it? */
    char *probe = NULL;
    int fd = safefs_tmp_open(dfd, ".probe", 0600, &probe);
    rc = fd < 0 ? -1 : 0;
    if (fd >= 0) { close(fd); unlinkat(dfd, probe, 0); }
    free(probe);
  }
  if (rc < 0) {
    *why = xasprintf("%s: %s", dir, strerror(errno));
    close(dfd);
    return -1;
  }
  return dfd;
}

static int is_hex2(const char *s)
{
  return strlen(s) == 2 && strspn(s, "0123456789abcdef") == 2;
}

/* The ".w" entries (a program's findings, cli/progmemo.c) were left out
 * of this list when they came: never counted, pruned or cleaned. ".i": a
 * project's files and their stamps (cache_stat.c). */
bool cache_entry_name_ours(const char *name)
{
  size_t n = strlen(name);
  if (strstr(name, ".tmp")) return true;
  return n > 2 && name[n - 2] == '.' && strchr("mrtkwi", name[n - 1]) != NULL;
}

/* Removes our files in shard directory name of dfd, then the directory if
 * empty. A shard that is a symlink or not the user's is left alone. */
static long clean_shard(int dfd, const char *shard)
{
  int sfd = cache_shard_open(dfd, shard, false);
  DIR *d = sfd >= 0 ? fdopendir(sfd) : NULL;
  if (!d) {
    if (sfd >= 0) close(sfd);
    return 0;
  }
  long n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!cache_entry_name_ours(e->d_name)) continue;
    /* cleanup_rmtree_at: also a directory named as an entry (it blocked
     * the entry's writes); clean used to leave it. */
    if (cleanup_rmtree_at(dirfd(d), e->d_name) == 0 && !strstr(e->d_name, ".tmp")) n++;
  }
  closedir(d);
  unlinkat(dfd, shard, AT_REMOVEDIR);
  return n;
}

long cache_clean(const char *dir, char **err)
{
  char *why = NULL;
  int dfd = cache_dir_open(dir, &why);
  if (dfd < 0 && !why) return 0;   /* nothing to clean */
  if (dfd < 0) {
    *err = xasprintf("%s; nothing removed", why);
    free(why);
    return -1;
  }
  struct stat st;
  if (fstatat(dfd, "CACHEDIR.TAG", &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
    *err = xasprintf("%s is not a purist cache (no CACHEDIR.TAG); nothing removed", dir);
    close(dfd);
    return -1;
  }
  DIR *d = fdopendir(dup(dfd));
  if (!d) {
    *err = xasprintf("%s: %s", dir, strerror(errno));
    close(dfd);
    return -1;
  }
  long n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (is_hex2(e->d_name)) n += clean_shard(dfd, e->d_name);
    else if (fe_ccview_disk_is_file(e->d_name)) unlinkat(dfd, e->d_name, 0);   /* the compiler's macros */
  closedir(d);
  unlinkat(dfd, CACHE_PRUNE_LOCK, 0);
  unlinkat(dfd, CACHE_USAGE_FILE, 0);
  unlinkat(dfd, "CACHEDIR.TAG", 0);
  close(dfd);
  rmdir(dir);   /* only if empty: anything else in it is not ours */
  return n;
}
