/* ccclient.c — the launcher's side of the summary server (ccserver.h). */
#include "cc/cc.h"
#include "cc/ccserver.h"
#include "parse/worker_proto.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

extern char **environ;

/* How long the launcher waits for a unit's summary: the parse's own limit
 * (the launcher's --tu-timeout, 300 s) and some slack. */
enum { CCCLIENT_UNIT_WAIT = 330 };
/* How long a connection may take (ms): a server of ours accepts at once;
 * a socket that does not answer in this time is not one. */
enum { CCCLIENT_CONNECT_WAIT = 3000 };

static void cc_hash_stat(XXH3_state_t *h, const char *path)
{
  struct stat st;
  if (stat(path, &st) != 0) memset(&st, 0, sizeof st);
  unsigned long long v[] = { st.st_dev, st.st_ino, (unsigned long long)st.st_size,
                             (unsigned long long)st.st_mtim.tv_sec, (unsigned long long)st.st_mtim.tv_nsec,
                             (unsigned long long)st.st_ctim.tv_sec, (unsigned long long)st.st_ctim.tv_nsec };
  XXH3_64bits_update(h, path, strlen(path) + 1);
  XXH3_64bits_update(h, v, sizeof v);
}

/* The mount namespace of process pid ("self" for ours) as dev:ino; 0
 * if it cannot be read. */
static unsigned long long cc_mntns(const char *pid)
{
  char *p = xasprintf("/proc/%s/ns/mnt", pid);
  struct stat st;
  int rc = stat(p, &st);
  free(p);
  return rc == 0 ? ((unsigned long long)st.st_dev << 32) ^ (unsigned long long)st.st_ino : 0;
}

/* The server's name: what decides that a running server serves this
 * compile as this process would (ccserver.h). NULL if the executable
 * cannot be found. */
static char *cc_name(const char *engine)
{
  char exe[PATH_MAX];
  if (!realpath(engine, exe)) return NULL;
  XXH3_state_t *h = XXH3_createState();
  XXH3_64bits_reset(h);
  cc_hash_stat(h, exe);
  static const char *const vars[] = { "PURIST_KB", "PURIST_CC_SERVER_IDLE", "PURIST_CC_SERVER_STATS",
                                      "LD_LIBRARY_PATH", "LD_PRELOAD" };
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i]);
    XXH3_64bits_update(h, vars[i], strlen(vars[i]) + 1);
    XXH3_64bits_update(h, v ? v : "", v ? strlen(v) + 1 : 0);
  }
  const char *kbs = getenv("PURIST_KB");
  char *copy = xstrdup(kbs ? kbs : ""), *save = NULL;
  for (char *f = strtok_r(copy, ":", &save); f; f = strtok_r(NULL, ":", &save)) cc_hash_stat(h, f);
  free(copy);
  /* The mount namespace: a compile in a container sharing our network
   * namespace sees other files at the same paths (issue 31 item 6). */
  unsigned long long ns = cc_mntns("self");
  XXH3_64bits_update(h, &ns, sizeof ns);
  unsigned long long x = XXH3_64bits_digest(h);
  XXH3_freeState(h);
  return xasprintf("purist-cc-%u-%016llx", (unsigned)getuid(), x);
}

/* Connects fd to sa within CCCLIENT_CONNECT_WAIT ms without ever blocking:
 * a socket another user bound and never accepts on (its backlog full)
 * must not hang the build (issue 31 item 5). 0, or -1. */
static int cc_connect_timed(int fd, const struct sockaddr_un *sa, socklen_t len)
{
  for (int waited = 0;; waited += 20) {
    if (connect(fd, (const struct sockaddr *)sa, len) == 0) return 0;
    if (errno == EINPROGRESS) {
      struct pollfd pf = { fd, POLLOUT, 0 };
      int err = 0;
      socklen_t el = sizeof err;
      if (poll(&pf, 1, CCCLIENT_CONNECT_WAIT) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0 || err)
        return -1;
      return 0;
    }
    if (errno != EAGAIN && errno != EINTR) return -1;
    if (waited >= CCCLIENT_CONNECT_WAIT) return -1;   /* a backlog that stays full: not a server of ours */
    struct timespec ts = { 0, 20 * 1000000L };
    nanosleep(&ts, NULL);
  }
}

/* A connection to the server, checked before anything is sent to be this
 * user's and of this mount namespace (a server elsewhere would summarise
 * other files at the same paths, item 6); -1 if none. */
static int cc_connect(const char *name)
{
  struct sockaddr_un sa = { .sun_family = AF_UNIX };
  size_t n = strlen(name);
  if (n + 2 > sizeof sa.sun_path) return -1;
  memcpy(sa.sun_path + 1, name, n);   /* sun_path[0] = 0: the abstract namespace */
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  struct ucred cr;
  socklen_t cl = sizeof cr;
  char pid[32];
  bool ok = cc_connect_timed(fd, &sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) == 0 &&
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) == 0 && cr.uid == getuid() && cr.pid > 0;
  if (ok) snprintf(pid, sizeof pid, "%ld", (long)cr.pid);
  ok = ok && cc_mntns(pid) != 0 && cc_mntns(pid) == cc_mntns("self");
  if (ok) ok = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0;
  if (!ok) {
    close(fd);
    return -1;
  }
  return fd;
}

/* Starts a server (this executable) in a session of its own, its standard
 * streams on /dev/null, and waits until it listens; 0 on success. */
static int cc_start(const char *engine, const char *name)
{
  char *av[] = { "purist", CCSERVER_ARGV1, (char *)name, NULL };
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t none, def;
  sigemptyset(&none);
  sigfillset(&def);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &def);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSID);
  pid_t pid;
  int rc = posix_spawn(&pid, engine, &fa, &at, av, environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void cc_str(bytes *b, const char *s)
{
  bytes_raw(b, s, strlen(s) + 1);
}

/* The request: a version tag, the directory, the umask, the argv and the
 * environment, each a NUL-terminated string (counts in decimal). */
static int cc_request(bytes *b, int argc, char **argv)
{
  char *cwd = getcwd(NULL, 0);
  if (!cwd) return -1;
  mode_t um = umask(0);
  umask(um);
  char num[32];
  cc_str(b, "purist-cc-1");
  cc_str(b, cwd);
  free(cwd);
  snprintf(num, sizeof num, "%o", (unsigned)um);
  cc_str(b, num);
  snprintf(num, sizeof num, "%d", argc);
  cc_str(b, num);
  for (int i = 0; i < argc; i++) cc_str(b, argv[i]);
  size_t n = 0;
  while (environ[n]) n++;
  snprintf(num, sizeof num, "%zu", n);
  cc_str(b, num);
  for (size_t i = 0; i < n; i++) cc_str(b, environ[i]);
  return 0;
}

/* Sends our standard error (where the child's warnings go) with one byte. */
static int cc_send_stderr(int fd)
{
  char tag = 'R';
  struct iovec iov = { &tag, 1 };
  union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } u;
  memset(&u, 0, sizeof u);
  struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
  struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  int two = 2;
  memcpy(CMSG_DATA(c), &two, sizeof two);
  ssize_t w;
  while ((w = sendmsg(fd, &mh, MSG_NOSIGNAL)) < 0 && errno == EINTR) {}
  return w == 1 ? 0 : -1;
}

/* The reply byte within secs: 1 done, 0 the server is gone, -2 no answer in time. */
static int cc_wait(int fd, long secs)
{
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    long left = secs - (long)(t.tv_sec - t0.tv_sec);
    if (left <= 0) return -2;
    struct pollfd pf = { fd, POLLIN, 0 };
    int pr = poll(&pf, 1, left > 1000000 ? 1000000000 : (int)left * 1000);
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) continue;
    char c;
    ssize_t r = read(fd, &c, 1);
    if (r < 0 && errno == EINTR) continue;
    return r == 1 && c == CCSERVER_DONE ? 1 : 0;
  }
}

int ccclient_summaries(int argc, char **argv, size_t nunits, const char *engine)
{
  const char *env = getenv("PURIST_CC_SERVER");
  if (env && strcmp(env, "0") == 0) return -1;
  if (!engine) engine = "/proc/self/exe";
  char *name = cc_name(engine);
  if (!name) return -1;
  int fd = cc_connect(name);
  if (fd < 0 && cc_start(engine, name) == 0) fd = cc_connect(name);
  free(name);
  if (fd < 0) return -1;
  bytes b = {0};
  int rc = cc_request(&b, argc, argv) == 0 && cc_send_stderr(fd) == 0 && wproto_send(fd, &b) == 0
           ? cc_wait(fd, (long)nunits * CCCLIENT_UNIT_WAIT) : 0;
  vec_free(&b);
  close(fd);
  if (rc == -2) {   /* asking again here could hang as long again */
    fprintf(stderr, "purist cc: warning: the summary server gave no answer in %ld s: objects may lack their purist summary\n",
            (long)nunits * CCCLIENT_UNIT_WAIT);
    return 0;
  }
  return rc == 1 ? 0 : -1;
}
