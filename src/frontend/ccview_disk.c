/* ccview_disk.c — the GCC view's macros kept on disk between processes.
 *
 * `purist cc` is one process per compile, so ccview.c's per-process memo
 * never hits: every compile ran `gcc -dM -E` once more (8 ms of CPU, a
 * tenth of what `purist cc` adds to a small TU; issue 24 item 3). The
 * output is kept in DIR/ccview-HASH.dm, where HASH covers the command
 * (compiler and the flags that change its macros), the compiler's
 * executable as found (its real path, inode, size, modification and
 * change times: an upgrade or a reinstall gives another key), the
 * environment GCC reads to find its passes, and the directory when a
 * relative compiler path or a response file depends on it. A file that
 * cannot be read or written costs only the cache: the compiler is asked.
 *
 * Another user must not steer it (issue 31 item 2): the directory is
 * opened through safefs_dir_open (the user's own, on a path no one else
 * can change), files are opened relative to it with O_NOFOLLOW, a file not
 * owned by the user is ignored, and the temporary is a fresh O_EXCL file. */
#include "frontend/fe_internal.h"
#include "util/fileio.h"
#include "util/safefs.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static char *ccd_dir;   /* set by the launcher or the summary cache's opener, before any thread or fork */

void fe_ccview_disk_cache(const char *dir)
{
  if (dir && ccd_dir && !strcmp(dir, ccd_dir)) return;
  free(ccd_dir);
  ccd_dir = dir ? xstrdup(dir) : NULL;
}

bool fe_ccview_disk_is_file(const char *name)
{
  return !strncmp(name, "ccview-", 7) && (strstr(name, ".dm.tmp") || (strlen(name) > 10 && !strcmp(name + strlen(name) - 3, ".dm")));
}

/* The executable argv0 names, found as execvp would from dir; NULL if none. */
static char *ccd_which(const char *argv0, const char *dir)
{
  char buf[PATH_MAX];
  if (strchr(argv0, '/')) {
    char *p = argv0[0] == '/' ? xstrdup(argv0) : xasprintf("%s/%s", dir, argv0);
    char *r = realpath(p, buf) ? xstrdup(buf) : NULL;
    free(p);
    return r;
  }
  const char *path = getenv("PATH");
  char *copy = xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL, *r = NULL;
  for (char *d = strtok_r(copy, ":", &save); d && !r; d = strtok_r(NULL, ":", &save)) {
    char *p = xasprintf("%s/%s", *d ? d : ".", argv0);
    if (access(p, X_OK) == 0 && realpath(p, buf)) r = xstrdup(buf);
    free(p);
  }
  free(copy);
  return r;
}

/* The file's name for this command, or NULL (no cache, or no such compiler). */
static char *ccd_file(char *const *argv, const char *dir)
{
  if (!ccd_dir || !argv[0]) return NULL;
  char *exe = ccd_which(argv[0], dir);
  struct stat st;
  if (!exe || stat(exe, &st) != 0) { free(exe); return NULL; }
  XXH3_state_t *h = XXH3_createState();
  XXH3_128bits_reset(h);
  bool dir_matters = strchr(argv[0], '/') && argv[0][0] != '/';
  for (int i = 0; argv[i]; i++) {
    XXH3_128bits_update(h, argv[i], strlen(argv[i]) + 1);
    if (argv[i][0] == '@') dir_matters = true;
  }
  if (dir_matters) XXH3_128bits_update(h, dir, strlen(dir) + 1);
  XXH3_128bits_update(h, exe, strlen(exe) + 1);
  long long stamp[6] = { (long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                         (long long)st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, (long long)st.st_ctim.tv_nsec };
  XXH3_128bits_update(h, stamp, sizeof stamp);
  static const char *const env[] = { "GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH", "CPATH",
                                     "C_INCLUDE_PATH", "SOURCE_DATE_EPOCH", "GCC_COMPARE_DEBUG", NULL };
  for (int i = 0; env[i]; i++) {
    const char *v = getenv(env[i]);
    XXH3_128bits_update(h, v ? v : "\001", v ? strlen(v) + 1 : 1);
  }
  XXH128_hash_t k = XXH3_128bits_digest(h);
  XXH3_freeState(h);
  free(exe);
  return xasprintf("ccview-%016llx%016llx.dm", (unsigned long long)k.high64,
                   (unsigned long long)k.low64);
}

/* The cache directory, opened and verified (made if create); -1 if it
 * cannot be used: then nothing is kept, the compiler is asked. */
static int ccd_open(bool create)
{
  char *why = NULL;
  int dfd = safefs_dir_open(ccd_dir, create, &why);
  free(why);
  return dfd;
}

/* The regular file name of the user's in dfd (never through a symlink,
 * never another user's), at most 16 MiB; NULL if none. */
static char *ccd_read(int dfd, const char *name, size_t *len)
{
  int fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0) return NULL;
  if (fstat(fd, &st) != 0 || st.st_uid != geteuid()) {
    close(fd);
    return NULL;
  }
  const char *why;
  return file_read_regular_fd(fd, (size_t)16 << 20, len, &why);
}

char *fe_ccview_disk_get(char *const *argv, const char *dir, size_t *len)
{
  char *f = ccd_file(argv, dir);
  int dfd = f ? ccd_open(false) : -1;
  char *text = dfd >= 0 ? ccd_read(dfd, f, len) : NULL;
  if (dfd >= 0) close(dfd);
  free(f);
  if (text && (*len == 0 || !strstr(text, "#define "))) {   /* not what -dM writes: ask again */
    free(text);
    text = NULL;
  }
  return text;
}

void fe_ccview_disk_put(char *const *argv, const char *dir, const char *text, size_t len)
{
  char *f = ccd_file(argv, dir), *tmp = NULL;
  int dfd = f ? ccd_open(true) : -1;
  if (dfd < 0) { free(f); return; }
  /* Written beside it, then renamed: a parallel build's readers see the
   * whole file or none. */
  char *base = xasprintf("%s.tmp", f);
  int fd = safefs_tmp_open(dfd, base, 0600, &tmp);
  bool ok = fd >= 0 && file_write_all(fd, text, len) == 0;
  if (fd >= 0 && close(fd) != 0) ok = false;
  if (tmp && (!ok || renameat(dfd, tmp, dfd, f) != 0)) unlinkat(dfd, tmp, 0);
  close(dfd);
  free(base);
  free(tmp);
  free(f);
}
