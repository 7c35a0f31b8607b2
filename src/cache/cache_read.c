/* cache_read.c — reading the cache's entries and the files a manifest
 * names without ever blocking or reading without bound.
 *
 * A cache directory is only a directory: anyone may put a FIFO where an
 * entry was (open() would wait for a writer forever) or a symbolic link
 * to /dev/zero (a read that never ends). So entries are opened with
 * O_NOFOLLOW and O_NONBLOCK, must be regular files (fstat), and are read
 * up to the size fstat reports, at most CACHE_MAX_READ; their header's
 * length must then match (cache_entry.c). Anything else is a miss. */
#include "cache/cache_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a non-regular file is, for the warning. */
static const char *cache_kind(mode_t m)
{
  if (S_ISFIFO(m)) return "not a regular file (a FIFO)";
  if (S_ISCHR(m)) return "not a regular file (a character device)";
  if (S_ISBLK(m)) return "not a regular file (a block device)";
  if (S_ISDIR(m)) return "not a regular file (a directory)";
  if (S_ISSOCK(m)) return "not a regular file (a socket)";
  return "not a regular file";
}

/* Reads exactly n bytes (fewer if the file shrank): the count read, or -1. */
static ssize_t cache_read_n(int fd, unsigned char *buf, size_t n)
{
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, buf + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (ssize_t)got;
}

/* Reads the regular file open at fd (closed here); with own, a file that
 * is not the user's is refused (another user's entry would steer us). */
static unsigned char *cache_read_fd(int fd, bool own, size_t *len, const char **why, struct stat *out)
{
  struct stat st;
  unsigned char *buf = NULL;
  if (fstat(fd, &st) < 0) *why = "cannot be read";
  else if (!S_ISREG(st.st_mode)) *why = cache_kind(st.st_mode);
  else if (own && st.st_uid != geteuid()) *why = "owned by another user";
  else if ((uint64_t)st.st_size > CACHE_MAX_READ) *why = "larger than any entry purist writes";
  else {
    size_t n = (size_t)st.st_size;
    buf = xmalloc(n + 1);
    ssize_t got = cache_read_n(fd, buf, n);
    if (got < 0) {
      *why = "cannot be read";
      free(buf);
      buf = NULL;
    } else {
      buf[got] = '\0';
      *len = (size_t)got;
      if (out) *out = st;
    }
  }
  close(fd);
  return buf;
}

/* Why an open failed, or NULL when the file is simply not there. */
static const char *cache_open_why(bool nofollow)
{
  if (errno == ELOOP && nofollow) return "a symbolic link, not a regular file";
  if (errno != ENOENT && errno != ENOTDIR) return "cannot be opened";
  return NULL;
}

unsigned char *cache_read_file_st(const char *path, bool nofollow, size_t *len, const char **why, struct stat *st)
{
  *why = NULL;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
  if (fd < 0) { *why = cache_open_why(nofollow); return NULL; }
  return cache_read_fd(fd, false, len, why, st);
}

unsigned char *cache_read_file(const char *path, bool nofollow, size_t *len, const char **why)
{
  return cache_read_file_st(path, nofollow, len, why, NULL);
}

unsigned char *cache_read_at(int dfd, const char *name, size_t *len, const char **why)
{
  *why = NULL;
  int fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) { *why = cache_open_why(true); return NULL; }
  return cache_read_fd(fd, true, len, why, NULL);
}

void cache_warn_odd(cache *c, const char *path, const char *why)
{
  if (atomic_flag_test_and_set(&c->odd_warned) || c->quiet) return;
  fprintf(stderr, "purist: warning: cache: %s is %s; treated as a miss\n", path, why);
}
