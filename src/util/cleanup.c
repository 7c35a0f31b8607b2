/* cleanup.c — see cleanup.h. Everything reachable from the handler uses
 * only async-signal-safe calls (openat, getdents64, unlinkat, kill,
 * nanosleep, sigaction, raise) and stack buffers. */
#include "util/cleanup.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { CLEANUP_MAX_CHILDREN = 1024, CLEANUP_MAX_DEPTH = 200 };

/* Process-wide by necessity: the signal handler has no other way in. */
static char cleanup_dir[4096];
static atomic_int cleanup_armed;
static atomic_int cleanup_dying_flag;
static _Atomic pid_t cleanup_children[CLEANUP_MAX_CHILDREN];
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction cleanup_old[3];

static int cleanup_rm_at(int dirfd, const char *name, int depth);

/* Empties the open directory fd (depth levels below the top). Entries
 * are read in batches and removed; the directory is read again from the
 * start until a pass finds nothing, since removing entries while reading
 * may make getdents skip some. */
static int cleanup_empty_dir(int fd, int depth)
{
  char buf[2048];
  int rc = 0;
  for (;;) {
    int removed = 0;
    ssize_t n;
    lseek(fd, 0, SEEK_SET);
    while ((n = getdents64(fd, buf, sizeof buf)) > 0)
      for (ssize_t off = 0; off < n;) {
        struct dirent64 *d = (struct dirent64 *)(buf + off);
        off += d->d_reclen;
        if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) continue;
        if (cleanup_rm_at(fd, d->d_name, depth + 1) == 0) removed++;
        else rc = -1;
      }
    if (n < 0) return -1;
    if (!removed) return rc;
  }
}

/* Removes name (relative to dirfd): a file or symlink at once, a directory
 * after emptying it. */
static int cleanup_rm_at(int dirfd, const char *name, int depth)
{
  if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT) return 0;
  if (errno != EISDIR && errno != EPERM) return -1;
  if (depth > CLEANUP_MAX_DEPTH) { errno = ELOOP; return -1; }
  int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? 0 : -1;
  int rc = cleanup_empty_dir(fd, depth);
  close(fd);
  if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT) rc = -1;
  return rc;
}

int cleanup_rmtree(const char *path)
{
  return cleanup_rm_at(AT_FDCWD, path, 0);
}

int cleanup_rmtree_at(int dirfd, const char *name)
{
  return cleanup_rm_at(dirfd, name, 0);
}

static void cleanup_sleep_ms(long ms)
{
  struct timespec ts = { 0, ms * 1000000L };
  nanosleep(&ts, NULL);
}

/* Kills every tracked compiler group, gives the workers up to two seconds
 * to reap them (so nothing writes into the tree while it is removed),
 * removes the tree, and dies of the same signal. */
static void cleanup_on_signal(int sig)
{
  atomic_store(&cleanup_dying_flag, 1);
  for (int i = 0; i < CLEANUP_MAX_CHILDREN; i++) {
    pid_t p = atomic_load(&cleanup_children[i]);
    if (p > 0) kill(-p, SIGKILL);
  }
  for (int wait = 0; wait < 200; wait++) {
    int busy = 0;
    for (int i = 0; i < CLEANUP_MAX_CHILDREN && !busy; i++) busy = atomic_load(&cleanup_children[i]) > 0;
    if (!busy) break;
    cleanup_sleep_ms(10);
  }
  if (atomic_load(&cleanup_armed))
    for (int tries = 0; tries < 5 && cleanup_rmtree(cleanup_dir) != 0; tries++) cleanup_sleep_ms(20);
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, NULL);
  raise(sig);   /* delivered when the handler returns: the default action ends the process */
}

int cleanup_install(const char *dir)
{
  size_t len = strlen(dir);
  if (len >= sizeof cleanup_dir) return -1;
  memcpy(cleanup_dir, dir, len + 1);
  atomic_store(&cleanup_armed, 1);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = cleanup_on_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; i++) sigaddset(&sa.sa_mask, cleanup_signals[i]);   /* one cleanup at a time */
  for (int i = 0; i < 3; i++) {
    sigaction(cleanup_signals[i], NULL, &cleanup_old[i]);
    /* A signal the caller ignores (nohup, a background job of a script)
     * stays ignored, as in any well-behaved tool. */
    if (cleanup_old[i].sa_handler != SIG_IGN) sigaction(cleanup_signals[i], &sa, NULL);
  }
  return 0;
}

void cleanup_uninstall(void)
{
  for (int i = 0; i < 3; i++) sigaction(cleanup_signals[i], &cleanup_old[i], NULL);
  atomic_store(&cleanup_armed, 0);
}

int cleanup_child_add(pid_t pid)
{
  int slot = -1;
  for (int i = 0; i < CLEANUP_MAX_CHILDREN && slot < 0; i++) {
    pid_t zero = 0;
    if (atomic_compare_exchange_strong(&cleanup_children[i], &zero, pid)) slot = i;
  }
  /* Stored before the flag is read, and the handler sets the flag before it
   * reads the slots: one of the two always sees the other. */
  if (atomic_load(&cleanup_dying_flag)) kill(-pid, SIGKILL);
  return slot;
}

void cleanup_child_done(int slot)
{
  if (slot >= 0) atomic_store(&cleanup_children[slot], 0);
}

bool cleanup_dying(void)
{
  return atomic_load(&cleanup_dying_flag) != 0;
}

/* The PID in a scratch directory's name after prefix ("PID-…"), or 0. */
static long cleanup_stale_pid(const char *name, const char *prefix)
{
  size_t n = strlen(prefix);
  if (strncmp(name, prefix, n) != 0) return 0;
  char *end;
  long pid = strtol(name + n, &end, 10);
  return pid > 0 && *end == '-' ? pid : 0;
}

void cleanup_sweep_stale(const char *tmp)
{
  DIR *d = opendir(tmp);
  if (!d) return;
  time_t now = time(NULL);
  for (struct dirent *e; (e = readdir(d));) {
    long pid = cleanup_stale_pid(e->d_name, "purist-verify.");
    if (!pid) pid = cleanup_stale_pid(e->d_name, "purist-impact-");
    if (!pid || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
    char path[4096];
    struct stat st;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", tmp, e->d_name) >= sizeof path) continue;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || now - st.st_mtime < 60) continue;
    cleanup_rmtree(path);
  }
  closedir(d);
}
