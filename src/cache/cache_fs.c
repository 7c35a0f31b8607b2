/* cache_fs.c — the cache directory: entry paths, atomic writes, cleaning.
 *
 * Layout: DIR/CACHEDIR.TAG (so backup tools skip the cache, and so `cache
 * clean` knows the directory is purist's), and DIR/ab/cdef….m (manifests)
 * and DIR/ab/cdef….r (results), named by their key in hex, spread over
 * 256 subdirectories so no directory grows huge. */
#include "cache/cache_internal.h"
#include "impact/cleanup.h"
#include "util/fileio.h"
#include <dirent.h>
#include <errno.h>
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
  char hex[CACHE_KEY_HEX];
  cache_key_hex(k, hex);
  return xasprintf("%s/%.2s/%s%s", c->dir, hex, hex + 2, ext);
}

/* mkdir -p; 0 or -1 with errno. */
static int mkdir_p(const char *dir)
{
  struct stat st;
  if (stat(dir, &st) == 0) return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
  char *parent = xstrdup(dir);
  char *slash = strrchr(parent, '/');
  int rc = 0;
  if (slash && slash != parent) {
    *slash = '\0';
    rc = mkdir_p(parent);
  }
  free(parent);
  if (rc == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) rc = -1;
  return rc;
}

/* Writes all of data to a fresh temporary file beside path and renames it
 * over path: readers see the old entry or the new one, never a part. */
static int write_atomic(const char *path, const void *data, size_t len)
{
  char *tmp = xasprintf("%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp), rc = -1, err = 0;
  if (fd >= 0) {
    rc = file_write_all(fd, data, len);
    if (rc < 0) err = errno ? errno : ENOSPC;
    if (close(fd) != 0 && rc == 0) { rc = -1; err = errno; }
    if (rc == 0 && rename(tmp, path) != 0) { rc = -1; err = errno; }
    if (rc < 0) unlink(tmp);
  } else {
    err = errno;
  }
  free(tmp);
  errno = err;
  return rc;
}

void cache_write(cache *c, const char *path, const void *data, size_t len)
{
  if (!atomic_load(&c->writable)) return;
  char *sub = xstrndup(path, (size_t)(strrchr(path, '/') - path));
  int rc = mkdir(sub, 0777) == 0 || errno == EEXIST ? write_atomic(path, data, len) : -1;
  /* A directory where the entry belongs (rename cannot replace it) made
   * every write fail and turned the cache off, run after run: it is in
   * our cache's place for an entry, so it goes, and the entry is written. */
  if (rc < 0 && (errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST) && cleanup_rmtree(path) == 0)
    rc = write_atomic(path, data, len);
  if (rc == 0) atomic_store(&c->grew, true);
  if (rc < 0) {
    atomic_store(&c->writable, false);
    cache_warn(c, "write to", sub, errno);
  }
  free(sub);
}

int cache_dir_prepare(const char *dir)
{
  if (mkdir_p(dir) < 0) return -1;
  char *tag = xasprintf("%s/CACHEDIR.TAG", dir);
  int rc;
  if (access(tag, F_OK) != 0) {
    rc = write_atomic(tag, cache_tag, sizeof cache_tag - 1);
  } else {   /* an existing cache: can we still add to it? */
    char *probe = xasprintf("%s/.probeXXXXXX", dir);
    int fd = mkstemp(probe);
    rc = fd < 0 ? -1 : 0;
    if (fd >= 0) { close(fd); unlink(probe); }
    free(probe);
  }
  free(tag);
  return rc;
}

static int is_hex2(const char *s)
{
  return strlen(s) == 2 && strspn(s, "0123456789abcdef") == 2;
}

/* Is name one of ours: an entry (.m, .r) or a temporary left by a crash? */
static int is_entry_name(const char *name)
{
  size_t n = strlen(name);
  if (strstr(name, ".tmp")) return 1;
  return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'm' || name[n - 1] == 'r');
}

/* Removes our files in one shard directory, then the directory if empty. */
static long clean_shard(const char *sub)
{
  DIR *d = opendir(sub);
  if (!d) return 0;
  long n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!is_entry_name(e->d_name)) continue;
    char *p = xasprintf("%s/%s", sub, e->d_name);
    /* cleanup_rmtree: also a directory named as an entry (it blocked the
     * entry's writes); clean used to leave it. */
    if (cleanup_rmtree(p) == 0 && !strstr(e->d_name, ".tmp")) n++;
    free(p);
  }
  closedir(d);
  rmdir(sub);
  return n;
}

long cache_clean(const char *dir, char **err)
{
  char *tag = xasprintf("%s/CACHEDIR.TAG", dir);
  struct stat st;
  if (stat(dir, &st) != 0) { free(tag); return 0; }   /* nothing to clean */
  if (!S_ISDIR(st.st_mode) || access(tag, F_OK) != 0) {
    *err = xasprintf("%s is not a purist cache (no CACHEDIR.TAG); nothing removed", dir);
    free(tag);
    return -1;
  }
  DIR *d = opendir(dir);
  if (!d) {
    *err = xasprintf("%s: %s", dir, strerror(errno));
    free(tag);
    return -1;
  }
  long n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!is_hex2(e->d_name)) continue;
    char *sub = xasprintf("%s/%s", dir, e->d_name);
    n += clean_shard(sub);
    free(sub);
  }
  closedir(d);
  char *lock = xasprintf("%s/prune.lock", dir);
  unlink(lock);
  free(lock);
  unlink(tag);
  rmdir(dir);   /* only if empty: anything else in it is not ours */
  free(tag);
  return n;
}
