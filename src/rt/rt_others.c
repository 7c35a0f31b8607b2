/* rt_others.c — did another thread run while a call was re-executed?
 *
 * The re-execution check (rt_wrap.c) calls a function twice and compares
 * the results; another thread writing what the function reads makes them
 * differ although the function is deterministic (a racing writer whose
 * loop calls nothing instrumented: the hooks' activity counts cannot see
 * it). A difference counts only if no other thread ran during both calls:
 *   - the other threads' context switches (getrusage: the process's minus
 *     the caller's) are the same after the second call as before the
 *     first: none of them blocked, woke or was preempted meanwhile; and
 *   - none of them is running or runnable after it (state R in
 *     /proc/self/task/TID/stat): one that ran all along switches nothing.
 * The first costs two system calls per re-executed call of a threaded
 * process; the second is asked only when the results differ (rare).
 * Everything here is async-signal-safe and allocates nothing. */
#include "rt/rt.h"
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

PRT_NOINST unsigned long prt_others_switches(void)
{
  struct rusage all, me;
  if (getrusage(RUSAGE_SELF, &all) != 0 || getrusage(RUSAGE_THREAD, &me) != 0) return 0;
  return (unsigned long)(all.ru_nvcsw + all.ru_nivcsw) - (unsigned long)(me.ru_nvcsw + me.ru_nivcsw);
}

/* The state letter of thread `tid` of this process, or 0 if unreadable. */
PRT_NOINST static char rt_thread_state(const char *tid)
{
  char path[64] = "/proc/self/task/", buf[512];
  size_t n = strlen(path), t = strlen(tid);
  if (n + t + 6 > sizeof path) return 0;
  memcpy(path + n, tid, t);
  memcpy(path + n + t, "/stat", 6);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t got = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (got <= 0) return 0;
  buf[got] = '\0';
  char *p = strrchr(buf, ')');   /* the name may hold anything but ends at the last ')' */
  return p && p[1] == ' ' ? p[2] : 0;
}

struct rt_dirent {
  unsigned long ino;
  long off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};

PRT_NOINST bool prt_others_running(void)
{
  int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return true;
  char me[24], buf[4096];
  long self = syscall(SYS_gettid);
  int k = 0;
  char d[24];
  do d[k++] = (char)('0' + self % 10); while ((self /= 10) != 0);
  for (int i = 0; i < k; i++) me[i] = d[k - 1 - i];
  me[k] = '\0';
  bool running = false;
  for (long got; !running && (got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
    for (long off = 0; off < got && !running;) {
      const struct rt_dirent *e = (const struct rt_dirent *)(buf + off);
      off += e->reclen;
      if (e->name[0] < '0' || e->name[0] > '9' || !strcmp(e->name, me)) continue;
      char st = rt_thread_state(e->name);
      running = st == 'R' || st == 0;
    }
  close(fd);
  return running;
}
