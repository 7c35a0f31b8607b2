/* ccserver.c — the summary server's process (ccserver.h). */
#include "cc/cc.h"
#include "cc/ccserver.h"
#include "cc/launcher.h"
#include "parse/worker_proto.h"
#include "util/xalloc.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { CCSERVER_IDLE = 30, CCSERVER_MAX_REQUEST = 64 << 20 };

typedef struct {
  const kb *k;
  const char *const *kb_files;
  size_t nkb;
} ccserver_kb;

/* The descriptor the client sent with its first byte, or -1. */
static int cs_recv_fd(int c)
{
  char tag;
  struct iovec iov = { &tag, 1 };
  union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } u;
  struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
  ssize_t r;
  while ((r = recvmsg(c, &mh, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {}
  struct cmsghdr *h = r == 1 ? CMSG_FIRSTHDR(&mh) : NULL;
  if (!h || h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS || h->cmsg_len != CMSG_LEN(sizeof(int)))
    return -1;
  int fd;
  memcpy(&fd, CMSG_DATA(h), sizeof fd);
  return fd;
}

/* The next NUL-terminated string of [*p, end), or NULL. */
static char *cs_next(char **p, char *end)
{
  char *s = *p, *z = s < end ? memchr(s, 0, (size_t)(end - s)) : NULL;
  if (!z) return NULL;
  *p = z + 1;
  return s;
}

/* A count (decimal) of at most max, or -1. */
static long cs_count(char **p, char *end, long max)
{
  char *s = cs_next(p, end), *e;
  long n = s ? strtol(s, &e, 10) : -1;
  return s && *s && !*e && n >= 0 && n <= max ? n : -1;
}

/* One request, in the forked child: takes on the compile's directory,
 * environment, umask and standard error, makes the summaries, answers.
 * Returns the child's exit status (the client sees no answer unless 0). */
static int cs_serve(int c, const ccserver_kb *skb)
{
  int efd = cs_recv_fd(c);
  unsigned char head[8];
  if (efd < 0 || wproto_read_full(c, head, 8) < 0) return 1;
  uint64_t n = 0;
  for (int i = 0; i < 8; i++) n |= (uint64_t)head[i] << (8 * i);
  if (n > CCSERVER_MAX_REQUEST) return 1;
  char *buf = xmalloc((size_t)n + 1), *p = buf, *end = buf + n;
  if (wproto_read_full(c, buf, (size_t)n) < 0) return 1;
  const char *tag = cs_next(&p, end), *cwd = cs_next(&p, end), *um = cs_next(&p, end);
  long argc = cs_count(&p, end, 1 << 20);
  if (!tag || strcmp(tag, "purist-cc-1") || !cwd || !um || argc < 1) return 1;
  char **argv = xcalloc((size_t)argc + 1, sizeof *argv);
  for (long i = 0; i < argc; i++)
    if (!(argv[i] = cs_next(&p, end))) return 1;
  long envc = cs_count(&p, end, 1 << 20);
  if (envc < 0 || chdir(cwd) != 0 || dup2(efd, 2) < 0) return 1;
  close(efd);
  clearenv();
  for (long i = 0; i < envc; i++) {
    char *e = cs_next(&p, end);
    if (!e) return 1;
    if (strchr(e, '=')) putenv(e);   /* buf lives as long as the process */
  }
  umask((mode_t)strtoul(um, NULL, 8) & 0777);
  launcher_summaries((int)argc, argv, skb->k, skb->kb_files, skb->nkb);
  fflush(NULL);
  char done = CCSERVER_DONE;
  return write(c, &done, 1) == 1 ? 0 : 1;
}

static double cs_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Is the peer this user, in this mount namespace (issue 31 item 6: a
 * client in a container that shares our network namespace sees other
 * files at the same paths; it summarises itself)? */
static bool cs_same_user_and_ns(const struct ucred *cr)
{
  if (cr->uid != getuid() || cr->pid <= 0) return false;
  char path[64];
  struct stat me, peer;
  snprintf(path, sizeof path, "/proc/%ld/ns/mnt", (long)cr->pid);
  return stat("/proc/self/ns/mnt", &me) == 0 && stat(path, &peer) == 0 && me.st_dev == peer.st_dev &&
         me.st_ino == peer.st_ino;
}

/* Accepts requests until idle seconds pass without one; a child per
 * request (a crash or a hang there costs that compile its summary, not the
 * server). Children are waited for, so their CPU counts in the stats. */
static void cs_loop(int lfd, const ccserver_kb *skb, int idle)
{
  double last = cs_now();
  for (;;) {
    while (waitpid(-1, NULL, WNOHANG) > 0) {}
    struct pollfd pf = { lfd, POLLIN, 0 };
    int pr = poll(&pf, 1, 1000);
    if (pr < 0 && errno != EINTR) return;
    if (pr <= 0) {
      if (cs_now() - last >= idle) return;
      continue;
    }
    int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0) continue;
    last = cs_now();
    struct ucred cr;
    socklen_t cl = sizeof cr;
    pid_t pid = getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &cl) == 0 && cs_same_user_and_ns(&cr) ? fork() : -1;
    if (pid == 0) {
      close(lfd);
      _exit(cs_serve(c, skb));
    }
    close(c);   /* refused or not forked: the client summarises itself */
  }
}

/* PURIST_CC_SERVER_STATS: the CPU of the server and its children. */
static void cs_stats(const char *file)
{
  struct rusage s, ch;
  getrusage(RUSAGE_SELF, &s);
  getrusage(RUSAGE_CHILDREN, &ch);
  FILE *f = fopen(file, "a");
  if (!f) return;
  fprintf(f, "%.3f %.3f\n", (double)s.ru_utime.tv_sec + (double)ch.ru_utime.tv_sec
                                + ((double)s.ru_utime.tv_usec + (double)ch.ru_utime.tv_usec) / 1e6,
          (double)s.ru_stime.tv_sec + (double)ch.ru_stime.tv_sec
              + ((double)s.ru_stime.tv_usec + (double)ch.ru_stime.tv_usec) / 1e6);
  fclose(f);
}

static int cs_idle(void)
{
  const char *env = getenv("PURIST_CC_SERVER_IDLE");
  char *e;
  long s = env ? strtol(env, &e, 10) : -1;
  return env && *env && !*e && s >= 1 && s <= 86400 ? (int)s : CCSERVER_IDLE;
}

int ccserver_main(int argc, char **argv)
{
  closefrom(3);   /* a build's pipes and jobserver stay no longer open than the build */
  struct sockaddr_un sa = { .sun_family = AF_UNIX };
  size_t len = argc == 3 ? strlen(argv[2]) : 0;
  if (!len || len + 2 > sizeof sa.sun_path) return 2;
  memcpy(sa.sun_path + 1, argv[2], len);
  char *list, *why = NULL;
  const char **files;
  size_t nkb;
  kb *k = launcher_kb_load(&list, &files, &nkb, &why);
  if (!k) return 1;   /* the launcher says why when it tries itself */
  int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (lfd < 0) return 1;
  if (bind(lfd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len)) != 0)
    return errno == EADDRINUSE ? 0 : 1;   /* another launcher started it just now */
  if (listen(lfd, 128) != 0) return 1;
  /* A relative PURIST_CC_SERVER_STATS is the launcher's directory's, not
   * the / the server moves to (issue 31 item 14). */
  const char *senv = getenv("PURIST_CC_SERVER_STATS");
  char *cwd = senv && *senv && senv[0] != '/' ? getcwd(NULL, 0) : NULL;
  char *stats = cwd ? xasprintf("%s/%s", cwd, senv) : senv ? xstrdup(senv) : NULL;
  free(cwd);
  pid_t pid = fork();   /* the launcher waits for this process only */
  if (pid != 0) _exit(pid > 0 ? 0 : 1);
  if (chdir("/") != 0) _exit(1);
  ccserver_kb skb = { k, files, nkb };
  /* libclang once, here: each request's child and its parse worker are
   * forks of this process and find it loaded (a failure is said by the
   * worker, for each TU). */
  lc_load(NULL);
  cs_loop(lfd, &skb, cs_idle());
  close(lfd);   /* new launchers start a new server rather than wait */
  while (wait(NULL) > 0 || errno == EINTR) {}
  if (stats && *stats) cs_stats(stats);
  free(stats);
  kb_free(k);
  free(files);
  free(list);
  return 0;
}
