/* fileio.c — see fileio.h. */
#include "util/fileio.h"
#include "util/safefs.h"
#include "util/vec.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *file_read_all(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  VEC(char) b = {0};
  char chunk[1 << 16];
  size_t n;
  errno = 0;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    vec_reserve(&b, b.n + n + 1);
    memcpy(b.v + b.n, chunk, n);
    b.n += n;
  }
  int bad = ferror(f), err = errno ? errno : EIO;   /* EISDIR for a directory: say so */
  fclose(f);
  if (bad) {
    vec_free(&b);
    errno = err;
    return NULL;
  }
  vec_reserve(&b, b.n + 1);
  b.v[b.n] = '\0';
  *len = b.n;
  return b.v;
}

/* At most max + 1 bytes of fd (one more tells "too large"), NUL-terminated. */
static char *file_read_capped(int fd, size_t max, size_t *len)
{
  VEC(char) b = {0};
  char chunk[1 << 16];
  for (;;) {
    size_t want = max + 1 - b.n < sizeof chunk ? max + 1 - b.n : sizeof chunk;
    ssize_t n = want ? read(fd, chunk, want) : 0;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) { int e = errno; vec_free(&b); errno = e; return NULL; }
    if (n == 0) break;
    vec_reserve(&b, b.n + (size_t)n + 1);
    memcpy(b.v + b.n, chunk, (size_t)n);
    b.n += (size_t)n;
  }
  vec_reserve(&b, b.n + 1);
  b.v[b.n] = '\0';
  *len = b.n;
  return b.v;
}

char *file_read_regular(const char *path, size_t max, size_t *len, const char **why)
{
  /* O_NONBLOCK: opening a FIFO with no writer would otherwise wait. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *why = strerror(errno);
    return NULL;
  }
  return file_read_regular_fd(fd, max, len, why);
}

char *file_read_regular_fd(int fd, size_t max, size_t *len, const char **why)
{
  struct stat st;
  *why = NULL;
  if (fstat(fd, &st) != 0) *why = strerror(errno);
  else if (S_ISDIR(st.st_mode)) *why = "is a directory";
  else if (!S_ISREG(st.st_mode)) *why = "not a regular file";
  else if ((uint64_t)st.st_size > max) *why = "too large";
  /* The read stops past max too: /proc/self/pagemap says size 0 and
   * holds 256 GiB (issue 23, second probe). */
  char *text = *why ? NULL : file_read_capped(fd, max, len);
  if (!*why && !text) *why = strerror(errno);
  else if (text && *len > max) { free(text); text = NULL; *why = "too large"; }
  close(fd);
  return text;
}

int file_write_all(int fd, const void *buf, size_t len)
{
  const char *p = buf;
  while (len) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    len -= (size_t)w;
  }
  return 0;
}

/* May we follow the symbolic link st describes: one the user or root
 * made (another user's link is never followed, issue 31 item 4)? */
static bool file_link_trusted(const struct stat *st)
{
  return st->st_uid == geteuid() || st->st_uid == 0;
}

/* Where an output path really leads: a symlink's target, so the rename
 * replaces the file the link names and keeps the link. */
static char *file_atomic_target(const char *path)
{
  struct stat st;
  char *real = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && file_link_trusted(&st) ? realpath(path, NULL) : NULL;
  return real ? real : xstrdup(path);
}

FILE *file_atomic_open(const char *path, char **tmp)
{
  struct stat st;
  /* /dev/null, a FIFO, a terminal: written in place (renaming over a
   * device would replace it by a file) — unless reached through a link
   * another user made, which is replaced, never written through. */
  bool foreign_link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !file_link_trusted(&st);
  if (!foreign_link && stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    *tmp = NULL;
    return fopen(path, "w");
  }
  char *target = file_atomic_target(path);
  char *base = xasprintf("%s.tmp.%ld", target, (long)getpid());
  free(target);
  /* A fresh file (O_EXCL|O_NOFOLLOW, issue 31 item 4): in a directory
   * another user can write, a link planted at a predictable name must not
   * make us write through it. */
  int fd = safefs_tmp_open(AT_FDCWD, base, 0666, tmp);
  free(base);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f && fd >= 0) {
    int saved = errno;
    close(fd);
    unlink(*tmp);
    errno = saved;
  }
  if (!f) {
    int saved = errno;
    free(*tmp);
    *tmp = NULL;
    errno = saved;
    return NULL;
  }
  if (stat(path, &st) == 0) fchmod(fileno(f), st.st_mode & 07777);   /* keep an existing file's mode */
  return f;
}

int file_atomic_commit(FILE *f, char *tmp, const char *path, int ok)
{
  int saved = errno;
  if (ok && (fflush(f) != 0 || ferror(f))) { ok = 0; saved = errno ? errno : EIO; }
  if (fclose(f) != 0 && ok) { ok = 0; saved = errno; }
  if (tmp) {   /* else written in place (not a regular file) */
    char *target = file_atomic_target(path);
    if (ok && rename(tmp, target) != 0) { ok = 0; saved = errno; }
    free(target);
    if (!ok) unlink(tmp);
  }
  free(tmp);
  errno = saved;
  return ok ? 0 : -1;
}
