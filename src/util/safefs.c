/* safefs.c — see safefs.h. */
#include "util/safefs.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

enum { SAFEFS_MAX_LINKS = 40 };

char *safefs_owner_name(unsigned uid)
{
  struct passwd pw, *res = NULL;
  char buf[1024];
  if (getpwuid_r((uid_t)uid, &pw, buf, sizeof buf, &res) == 0 && res)
    return xasprintf("user %s (uid %u)", res->pw_name, uid);
  return xasprintf("uid %u", uid);
}

/* Is gid the user's private group (user private groups, umask 002: the
 * group has the user's name and no other member)? Its write bit then lets
 * in no one else. */
static bool safefs_group_private(gid_t gid)
{
  struct passwd pw, *pres = NULL;
  struct group gr, *gres = NULL;
  char pbuf[1024], gbuf[4096];
  if (getpwuid_r(geteuid(), &pw, pbuf, sizeof pbuf, &pres) != 0 || !pres || pres->pw_gid != gid) return false;
  if (getgrgid_r(gid, &gr, gbuf, sizeof gbuf, &gres) != 0 || !gres || strcmp(gres->gr_name, pres->pw_name)) return false;
  for (char **m = gres->gr_mem; m && *m; m++)
    if (strcmp(*m, pres->pw_name)) return false;
  return true;
}

/* Can someone other than the user (and root) write the file st describes? */
static bool safefs_open_to_others(const struct stat *st)
{
  if (st->st_mode & S_IWOTH) return true;
  return (st->st_mode & S_IWGRP) && !safefs_group_private(st->st_gid);
}

bool safefs_trusted(const struct stat *st, char **why)
{
  uid_t me = geteuid();
  if (st->st_uid != me && st->st_uid != 0) {
    char *who = safefs_owner_name(st->st_uid);
    *why = xasprintf("is owned by %s", who);
    free(who);
    return false;
  }
  /* A sticky directory (/tmp): others may add entries, never rename ours. */
  bool sticky_dir = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);
  if (safefs_open_to_others(st) && !sticky_dir) {
    *why = xstrdup(st->st_mode & S_IWOTH ? "is writable by others" : "is writable by its group");
    return false;
  }
  return true;
}

/* The last directory must be the user's own and closed to others (a
 * sticky /tmp itself is no place for a cache). */
static bool safefs_own(const struct stat *st, char **why)
{
  if (st->st_uid != geteuid()) {
    char *who = safefs_owner_name(st->st_uid);
    *why = xasprintf("is owned by %s, not by you", who);
    free(who);
    return false;
  }
  if (safefs_open_to_others(st)) {
    *why = xstrdup(st->st_mode & S_IWOTH ? "is writable by others" : "is writable by its group");
    return false;
  }
  return true;
}

/* One walk: the descriptor of the directory reached so far, its path (for
 * messages) and what is left to walk. */
typedef struct {
  int fd;
  char *done;      /* "" for the root */
  char *pending;   /* owned */
  const char *at;  /* into pending */
  int links;
} safefs_walk;

/* Fails the walk: *why names the path and the fault; errno kept. */
static int safefs_fail(safefs_walk *w, const char *name, const char *fault, char **why)
{
  int e = errno;
  *why = name ? xasprintf("%s/%s %s", w->done, name, fault) : xasprintf("%s %s", *w->done ? w->done : "/", fault);
  errno = e;
  return -1;
}

/* Replaces the walk's pending path by link target + the rest. */
static int safefs_follow(safefs_walk *w, const char *name, char **why)
{
  char target[PATH_MAX];
  ssize_t n = readlinkat(w->fd, name, target, sizeof target - 1);
  if (n < 0) return safefs_fail(w, name, strerror(errno), why);
  target[n] = '\0';
  if (++w->links > SAFEFS_MAX_LINKS) { errno = ELOOP; return safefs_fail(w, name, "has too many links", why); }
  char *next = xasprintf("%s/%s", target, w->at);
  if (target[0] == '/') {   /* from the root again */
    int root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) { free(next); return safefs_fail(w, NULL, strerror(errno), why); }
    close(w->fd);
    w->fd = root;
    w->done[0] = '\0';
  }
  free(w->pending);
  w->pending = next;
  w->at = next;
  return 0;
}

/* Goes down into directory name (checked), or up for "..". */
static int safefs_enter(safefs_walk *w, const char *name, char **why)
{
  int fd = openat(w->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  char *fault = NULL;
  if (fd < 0 || fstat(fd, &st) != 0) {
    if (fd >= 0) close(fd);
    return safefs_fail(w, name, strerror(errno), why);
  }
  if (!safefs_trusted(&st, &fault)) {
    close(fd);
    errno = EPERM;
    int rc = safefs_fail(w, name, fault, why);
    free(fault);
    return rc;
  }
  close(w->fd);
  w->fd = fd;
  if (!strcmp(name, "..")) {
    char *slash = strrchr(w->done, '/');
    if (slash) *slash = '\0';
  } else {
    char *d = xasprintf("%s/%s", w->done, name);
    free(w->done);
    w->done = d;
  }
  return 0;
}

/* Walks one component of the pending path. */
static int safefs_step(safefs_walk *w, const char *name, bool create, char **why)
{
  struct stat st;
  if (!strcmp(name, ".") || !*name) return 0;
  if (!strcmp(name, "..")) return safefs_enter(w, name, why);
  if (fstatat(w->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT || !create) return safefs_fail(w, name, errno == ENOENT ? "does not exist" : strerror(errno), why);
    if (mkdirat(w->fd, name, 0700) != 0 && errno != EEXIST) return safefs_fail(w, name, strerror(errno), why);
    if (fstatat(w->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return safefs_fail(w, name, strerror(errno), why);
  }
  if (S_ISLNK(st.st_mode)) {
    if (st.st_uid != geteuid() && st.st_uid != 0) {   /* a link another user put in a sticky /tmp */
      char *who = safefs_owner_name(st.st_uid), *fault = xasprintf("is a symbolic link owned by %s", who);
      errno = EPERM;
      int rc = safefs_fail(w, name, fault, why);
      free(fault);
      free(who);
      return rc;
    }
    return safefs_follow(w, name, why);
  }
  if (!S_ISDIR(st.st_mode)) { errno = ENOTDIR; return safefs_fail(w, name, "is not a directory", why); }
  return safefs_enter(w, name, why);
}

int safefs_dir_open(const char *path, bool create, char **why)
{
  char cwd[PATH_MAX];
  if (path[0] != '/' && !getcwd(cwd, sizeof cwd)) { *why = xasprintf("%s: %s", path, strerror(errno)); return -1; }
  safefs_walk w = { open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), xstrdup(""), NULL, NULL, 0 };
  w.pending = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", cwd, path);
  w.at = w.pending;
  int rc = w.fd < 0 ? safefs_fail(&w, NULL, strerror(errno), why) : 0;
  while (rc == 0 && *w.at) {
    size_t n = strcspn(w.at, "/");
    char *name = xstrndup(w.at, n);
    w.at += n;
    while (*w.at == '/') w.at++;
    rc = safefs_step(&w, name, create, why);
    free(name);
  }
  struct stat st;
  char *fault = NULL;
  if (rc == 0 && fstat(w.fd, &st) != 0) rc = safefs_fail(&w, NULL, strerror(errno), why);
  if (rc == 0 && !safefs_own(&st, &fault)) {
    errno = EPERM;
    rc = safefs_fail(&w, NULL, fault, why);
    free(fault);
  }
  int e = errno;
  if (rc != 0 && w.fd >= 0) close(w.fd);
  free(w.done);
  free(w.pending);
  errno = e;
  return rc == 0 ? w.fd : -1;
}

int safefs_tmp_open(int dfd, const char *name, int mode, char **tmp)
{
  static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int tries = 0; tries < 100; tries++) {
    unsigned char r[6];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
      uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20) ^ (uint64_t)(uintptr_t)&r ^ (uint64_t)tries * 7919;
      for (size_t i = 0; i < sizeof r; i++) r[i] = (unsigned char)(x >> (i * 8));
    }
    char suf[7];
    for (size_t i = 0; i < sizeof r; i++) suf[i] = digits[r[i] % (sizeof digits - 1)];
    suf[6] = '\0';
    *tmp = xasprintf("%s.%s", name, suf);
    int fd = openat(dfd, *tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd >= 0) return fd;
    int e = errno;
    free(*tmp);
    *tmp = NULL;
    errno = e;
    if (e != EEXIST) return -1;
  }
  errno = EEXIST;
  return -1;
}
