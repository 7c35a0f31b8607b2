/* rt_init.c — the runtime's start-up: configuration from the environment,
 * the watch list, the report at exit and on fatal signals.
 *
 * Without $PURIST_WATCH nothing is watched: every hook returns at its first
 * test and the program runs as if the runtime were not there. */
#include "rt/rt.h"
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The one instance of the runtime's state (see rt.h for why it is global). */
prt_state prt;

PRT_NOINST void *prt_alloc(size_t n)
{
  if (n == 0) n = 1;
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

PRT_NOINST char *prt_strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = prt_alloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

PRT_NOINST void prt_say(const char *a, const char *b, const char *c)
{
  const char *parts[] = { "purist-rt: ", a, b, c, "\n" };
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
    if (parts[i] && write(2, parts[i], strlen(parts[i])) < 0) return;
}

static int cmp_watch(const void *a, const void *b)
{
  return strcmp(((const prt_watch *)a)->name, ((const prt_watch *)b)->name);
}

/* Reads the whole watch list file into runtime memory; NULL on failure. */
PRT_NOINST static char *rt_read_file(const char *path, size_t *len)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    if (fd >= 0) close(fd);
    return NULL;
  }
  char *buf = prt_alloc((size_t)st.st_size + 1);
  size_t got = 0;
  while (buf && got < (size_t)st.st_size) {
    ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  *len = got;
  return buf;
}

/* The watch list: one function a line, `NAME const` or `NAME pure`; blank
 * lines and lines starting with '#' are skipped. */
PRT_NOINST static int rt_load_watch(const char *path)
{
  size_t len = 0;
  char *buf = rt_read_file(path, &len);
  if (!buf) {
    prt_say(path, ": cannot read the watch list: ", strerror(errno));
    return -1;
  }
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += buf[i] == '\n';
  prt.watch = prt_alloc(lines * sizeof *prt.watch);
  if (!prt.watch) return -1;
  for (char *line = buf, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    char *sp = strchr(line, ' ');
    if (!*line || *line == '#' || !sp) continue;
    *sp = '\0';
    prt_watch *w = &prt.watch[prt.nwatch++];
    w->name = line;
    w->is_const = !strncmp(sp + 1, "const", 5);
  }
  if (prt.nwatch) qsort(prt.watch, prt.nwatch, sizeof *prt.watch, cmp_watch);
  return 0;
}

/* Fatal signals whose default action ends the process: the report is
 * written, then the signal is re-raised with its default action, so the
 * exit status is the one the program would have had. */
static const int rt_fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGABRT, SIGBUS, SIGFPE,
                                SIGSEGV, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2 };

PRT_NOINST static void rt_on_fatal(int sig)
{
  prt_sys_pause();   /* never resumed: the process ends */
  prt_report_write();
  struct sigaction d;
  memset(&d, 0, sizeof d);
  d.sa_handler = SIG_DFL;
  sigemptyset(&d.sa_mask);
  prt_sig_real(sig, &d, NULL);   /* past the interposer: SIGSEGV may be ours (rt_signal.c) */
  raise(sig);   /* blocked until this handler returns; a fault re-faults */
}

/* Catches only the signals the program has left at their default: a
 * handler the program installs later replaces ours, as it would have. */
PRT_NOINST static void rt_catch_fatal(void)
{
  for (size_t i = 0; i < sizeof rt_fatal / sizeof *rt_fatal; i++) {
    struct sigaction old, sa;
    if (sigaction(rt_fatal[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = rt_on_fatal;
    sigemptyset(&sa.sa_mask);
    sigaction(rt_fatal[i], &sa, NULL);
  }
}

PRT_NOINST static void rt_after_fork_child(void)
{
  char was = prt_sys_pause();   /* forked inside a checked frame: these calls are ours */
  prt_report_reset();
  prt_alive_mark();   /* the child's own report and mark */
  prt_sys_after_fork(was);
  prt_sys_resume(was);
}

PRT_NOINST static unsigned long rt_env_ulong(const char *name, unsigned long dflt)
{
  const char *v = getenv(name);
  if (!v || !*v) return dflt;
  char *end;
  int saved = errno;
  errno = 0;
  unsigned long n = strtoul(v, &end, 10);
  /* strtoul takes "-1" as ULONG_MAX and caps an overflow there: both refused */
  /* Past LONG_MAX the report's "sample" would be no JSON integer. */
  int bad = *end || n == 0 || n > LONG_MAX || errno == ERANGE || v[strspn(v, " \t")] == '-' ||
            v[strspn(v, " \t")] == '+';
  errno = saved;
  if (bad) {
    prt_say(name, "=", "wants a positive number; using the default");
    return dflt;
  }
  return n;
}

/* PURIST_RT_DEBUG: which objects and how many pages are watched. */
PRT_NOINST static void rt_debug_print(void)
{
  char num[32];
  for (size_t i = 0; i < prt.nobjs; i++) prt_say("watching the data of ", prt.objs[i], "");
  snprintf(num, sizeof num, "%zu", prt.npages);
  prt_say("pages of writable data: ", num, "");
}

__attribute__((constructor(101))) PRT_NOINST static void rt_init(void)
{
  const char *watch = getenv("PURIST_WATCH");
  if (!watch || !*watch) return;     /* not under `purist verify`: nothing watched */
  prt.sample = rt_env_ulong("PURIST_SAMPLE", 1);
  const char *ab = getenv("PURIST_ABORT");
  prt.abort_on_error = ab && !strcmp(ab, "1");
  /* A copy: programs that set their process title (redis-server) overwrite
   * the environment strings, and the report is written at exit. */
  const char *dir = getenv("PURIST_REPORT");
  prt.report_dir = dir ? prt_strdup(dir) : NULL;
  ssize_t n = readlink("/proc/self/exe", prt.exe, sizeof prt.exe - 1);
  prt.exe[n > 0 ? n : 0] = '\0';
  if (rt_load_watch(watch) < 0 || prt_elf_load() < 0) return;
  if (getenv("PURIST_RT_DEBUG")) rt_debug_print();
  pthread_atfork(NULL, NULL, rt_after_fork_child);
  rt_catch_fatal();
  atomic_store(&prt.heap_on, 1);
  prt_alive_mark();
  prt.active = true;   /* last: the hooks see complete tables */
}

/* At exit (return from main or exit()); _exit() and exec are interposed
 * (rt_exit.c). */
__attribute__((destructor)) PRT_NOINST static void rt_fini(void)
{
  if (prt.active) prt_report_write();
}
