/* fileio.h — whole-file reads, complete writes, and files replaced
 * atomically (written beside their target, then renamed over it). */
#ifndef PURIST_FILEIO_H
#define PURIST_FILEIO_H
#include <stddef.h>
#include <stdio.h>

/* Reads the whole file into a fresh buffer (NUL-terminated for text use;
 * *len excludes the NUL). Returns NULL with errno set on failure. */
char *file_read_all(const char *path, size_t *len);

/* Reads a file that must be a regular one of at most max bytes (a
 * response file, say): a FIFO or a device is refused without blocking on
 * it, never read. NULL with *why ("not a regular file", "larger than N
 * MiB", or strerror) on failure. */
char *file_read_regular(const char *path, size_t max, size_t *len, const char **why);
/* The same for a file already open at fd (opened O_NONBLOCK); closes fd. */
char *file_read_regular_fd(int fd, size_t max, size_t *len, const char **why);

/* Writes all len bytes to fd, retrying short writes and EINTR. Returns 0,
 * or -1 (errno set by write; 0 if write wrote nothing). */
int file_write_all(int fd, const void *buf, size_t len);

/* Opens a temporary file beside path for writing ("PATH.tmp.PID", beside
 * a symlink's target; an existing file's mode is kept); *tmp gets its name
 * (caller passes it to file_atomic_commit). A path that exists and is not
 * a regular file (/dev/null, a FIFO) is opened in place, *tmp NULL. NULL
 * with errno set if it cannot be created. */
FILE *file_atomic_open(const char *path, char **tmp);
/* Closes f and, if ok and every write succeeded, renames tmp over path, so
 * a reader sees the old file or the new one, never a part; otherwise
 * removes tmp. Frees tmp. Returns 0, or -1 with errno saying why. */
int file_atomic_commit(FILE *f, char *tmp, const char *path, int ok);

#endif
