/* replace.c — see replace.h. Every step calls fault_write_step (fault.h). */
#include "util/replace.h"
#include "util/fault.h"
#include "util/fileio.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* dst's directory ("." if none) and base name; caller frees *dir. */
static const char *replace_split(const char *dst, char **dir)
{
  const char *slash = strrchr(dst, '/');
  *dir = slash ? xasprintf("%.*s", (int)(slash == dst ? 1 : slash - dst), dst) : xstrdup(".");
  return slash ? slash + 1 : dst;
}

/* The pid in a temporary file's name ".NAME.purist-PID", or 0. */
static long replace_temp_pid(const char *name)
{
  const char *tag = name[0] == '.' ? strstr(name, ".purist-") : NULL;
  if (!tag || tag == name) return 0;
  char *end;
  long pid = strtol(tag + 8, &end, 10);
  return *end || pid <= 0 ? 0 : pid;
}

void file_replace_clean_dir(const char *dir)
{
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    long pid = replace_temp_pid(e->d_name);
    if (!pid || pid == (long)getpid()) continue;
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
      char *p = xasprintf("%s/%s", dir, e->d_name);
      unlink(p);
      free(p);
    }
  }
  closedir(d);
}

/* Gives fd the original's owner and group, then its mode (after: a chown
 * clears the set-id bits). Root running fix must not hand other users'
 * files to root; a user who may not keep the owner gets an error (EPERM)
 * rather than a file that changed hands. */
static int replace_owner_mode(int fd, const struct stat *like)
{
  struct stat now;
  if (fstat(fd, &now) != 0) return -1;
  if ((now.st_uid != like->st_uid || now.st_gid != like->st_gid) && fchown(fd, like->st_uid, like->st_gid) != 0)
    return -1;
  return fchmod(fd, like->st_mode & 07777);
}

/* Writes, in two halves (a kill between them is a step), then syncs. */
static int replace_fill(int fd, const char *buf, size_t len, const struct stat *like)
{
  if (replace_owner_mode(fd, like) != 0) return -1;
  size_t half = len / 2;
  if (file_write_all(fd, buf, half) != 0) return -1;
  fault_write_step("half written");
  if (file_write_all(fd, buf + half, len - half) != 0) return -1;
  fault_write_step("written");
  if (fsync(fd) != 0) return -1;
  fault_write_step("synced");
  return 0;
}

/* Gives the unnamed file fd the name tmp. */
static int replace_link(int fd, const char *tmp)
{
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) return 0;
  return linkat(fd, "", AT_FDCWD, tmp, AT_EMPTY_PATH);
}

/* Is path still the file whose stat was like, unmodified? */
static bool replace_same(const char *path, const struct stat *like)
{
  struct stat now;
  return stat(path, &now) == 0 && now.st_dev == like->st_dev && now.st_ino == like->st_ino
      && now.st_size == like->st_size && now.st_mtim.tv_sec == like->st_mtim.tv_sec
      && now.st_mtim.tv_nsec == like->st_mtim.tv_nsec && now.st_ctim.tv_sec == like->st_ctim.tv_sec
      && now.st_ctim.tv_nsec == like->st_ctim.tv_nsec;
}

int file_replace(const char *dst, const char *buf, size_t len, const struct stat *like, bool unchanged)
{
  char *dir;
  const char *base = replace_split(dst, &dir);
  char *tmp = xasprintf("%s/.%s.purist-%ld", dir, base, (long)getpid());
  unlink(tmp);   /* our own, from an earlier failure in this process */
  int named = 0;
  int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) {   /* a file system without O_TMPFILE */
    fd = open(tmp, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0600);
    named = 1;
  }
  int rc = fd < 0 ? -1 : 0;
  if (rc == 0) fault_write_step("temporary file created");
  if (rc == 0) rc = replace_fill(fd, buf, len, like);
  if (rc == 0 && !named) {
    rc = replace_link(fd, tmp);
    named = rc == 0;
    if (rc == 0) fault_write_step("linked");
  }
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && rc == 0) { rc = -1; saved = errno; }
  /* Last, so the window in which an edit is lost is a stat and a rename,
   * not the whole write and fsync (issue 23, second probe). */
  if (rc == 0 && unchanged && !replace_same(dst, like)) { rc = -1; saved = ECANCELED; }
  if (rc == 0 && rename(tmp, dst) != 0) { rc = -1; saved = errno; }
  if (rc == 0) fault_write_step("renamed");
  if (rc != 0 && named) unlink(tmp);
  free(tmp);
  free(dir);
  errno = saved;
  return rc;
}
