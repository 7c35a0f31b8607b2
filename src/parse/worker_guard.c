/* worker_guard.c — what a parse worker may take (issue 23 item 14).
 *
 * `#include "/dev/zero"` (or /dev/urandom, or a FIFO) made the worker
 * read for ever, growing by gigabytes until the time limit. Two guards:
 *   - the worker's address space is capped (RLIMIT_AS, PURIST_PARSE_MEMORY_MIB,
 *     default 4096; 0 lifts the cap): a parse that needs more fails its
 *     TU alone, fast, instead of pushing the machine into swap;
 *   - opening anything but a regular file, a directory or /dev/null for
 *     reading fails (ENXIO, "No such device or address"), so libclang
 *     reports the #include as an error and never reads a device or waits
 *     on a FIFO. The C library's open() is interposed here, in the
 *     executable, which libclang's calls reach first; it is active in
 *     worker processes only.
 * Under AddressSanitizer (which reserves terabytes of address space) the
 * memory cap is left off. */
#undef _FORTIFY_SOURCE   /* fortify defines open() inline: ours replaces it */
#include "parse/worker.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define WG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WG_ASAN 1
#endif
#endif

static bool wg_on;

/* May path be opened for reading by a parse? */
static bool wg_allowed(int dirfd, const char *path, int flags)
{
  struct stat st;
  if (!wg_on || (flags & O_ACCMODE) != O_RDONLY || fstatat(dirfd, path, &st, 0) != 0) return true;
  if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return true;
  return S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3;   /* /dev/null: empty */
}

static int wg_open(int dirfd, const char *path, int flags, mode_t mode)
{
  if (!wg_allowed(dirfd, path, flags)) {
    errno = ENXIO;
    return -1;
  }
  return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

/* The mode argument exists only with O_CREAT or O_TMPFILE. */
#define WG_MODE(flags, ap, mode)                                  \
  do {                                                            \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                        \
      va_start(ap, flags);                                        \
      mode = (mode_t)va_arg(ap, int);                             \
      va_end(ap);                                                 \
    }                                                             \
  } while (0)

int open(const char *path, int flags, ...)
{
  va_list ap;
  mode_t mode = 0;
  WG_MODE(flags, ap, mode);
  return wg_open(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
  va_list ap;
  mode_t mode = 0;
  WG_MODE(flags, ap, mode);
  return wg_open(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
  va_list ap;
  mode_t mode = 0;
  WG_MODE(flags, ap, mode);
  return wg_open(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
  va_list ap;
  mode_t mode = 0;
  WG_MODE(flags, ap, mode);
  return wg_open(dirfd, path, flags, mode);
}

void worker_guard_init(void)
{
  wg_on = true;
#ifndef WG_ASAN
  const char *env = getenv("PURIST_PARSE_MEMORY_MIB");
  char *end;
  long mib = env && *env ? strtol(env, &end, 10) : WORKER_MEMORY_MIB;
  if (env && *env && (*end || mib < 0)) mib = WORKER_MEMORY_MIB;
  if (mib > 0) {
    struct rlimit rl = { (rlim_t)mib << 20, (rlim_t)mib << 20 };
    struct rlimit old;
    if (getrlimit(RLIMIT_AS, &old) == 0 && old.rlim_max != RLIM_INFINITY && old.rlim_max < rl.rlim_max)
      rl.rlim_cur = rl.rlim_max = old.rlim_max;
    setrlimit(RLIMIT_AS, &rl);
  }
#endif
}
