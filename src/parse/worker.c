/* worker.c — a pipeline thread's side of its worker process (worker.h). */
#include "parse/worker.h"
#include "parse/worker_proto.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct worker {
  const worker_cfg *cfg;
  pid_t pid;          /* 0: no process (start one for the next TU) */
  int fd;             /* our end of the socket */
  bool local;         /* no worker could be started: parse in this process */
  CXIndex idx;        /* for local parsing */
};

worker *worker_new(const worker_cfg *cfg)
{
  worker *w = xcalloc(1, sizeof *w);
  w->cfg = cfg;
  w->fd = -1;
  w->local = getenv("PURIST_PARSE_IN_PROCESS") != NULL;   /* to compare costs, or debug a parse */
  return w;
}

/* The worker by fork alone (worker_cfg.fork_kb): the child already has
 * libclang loaded (here, once: the summary server did it before its
 * loop) and the knowledge base read. */
static int worker_fork(worker *w, int sv[2])
{
  lc_load(NULL);   /* a failure is the child's to say, for its TU */
  fflush(NULL);   /* nothing buffered is written twice */
  pid_t pid = fork();
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    close(sv[0]);
    if (dup2(sv[1], 0) < 0) _exit(2);
    close(sv[1]);
    _exit(worker_run(w->cfg->fork_kb));
  }
  close(sv[1]);
  if (pid < 0) {
    close(sv[0]);
    w->pid = 0;
    return -1;
  }
  w->pid = pid;
  w->fd = sv[0];
  return 0;
}

/* Starts the worker process: purist itself, with a socket on its fd 0, its
 * signals as a fresh process has them (pipeline threads block some). */
static int worker_spawn(worker *w)
{
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) return -1;
  if (w->cfg->fork_kb) return worker_fork(w, sv);
  VEC(char *) av = {0};
  vec_push(&av, "purist");
  vec_push(&av, WORKER_ARGV1);
  for (size_t i = 0; i < w->cfg->nkb; i++) vec_push(&av, (char *)w->cfg->kb_files[i]);
  vec_push(&av, NULL);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);   /* the copy is not close-on-exec */
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t none, def;
  sigemptyset(&none);
  sigemptyset(&def);
  sigaddset(&def, SIGPIPE);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGTERM);
  sigaddset(&def, SIGHUP);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &def);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  int rc = posix_spawn(&w->pid, "/proc/self/exe", &fa, &at, av.v, environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  vec_free(&av);
  close(sv[1]);
  if (rc != 0) {
    close(sv[0]);
    w->pid = 0;
    return -1;
  }
  w->fd = sv[0];
  return 0;
}

/* Ends the process (killing it if asked) and returns its wait status. */
static int worker_reap(worker *w, bool kill_it)
{
  int status = 0;
  if (kill_it) kill(w->pid, SIGKILL);
  close(w->fd);   /* a live worker reads end of file and exits */
  while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {}
  w->pid = 0;
  w->fd = -1;
  return status;
}

void worker_free(worker *w)
{
  if (!w) return;
  if (w->pid > 0) worker_reap(w, false);
  if (w->idx) clang_disposeIndex(w->idx);
  free(w);
}

static double worker_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Reads n bytes by the deadline (0: none): 0, -1 the worker is gone, -2
 * time is up. */
static int worker_read(worker *w, void *buf, size_t n, double deadline)
{
  char *p = buf;
  while (n) {
    int ms = -1;
    if (deadline > 0) {
      double left = deadline - worker_now();
      if (left <= 0) return -2;
      ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
    }
    struct pollfd pf = { w->fd, POLLIN, 0 };
    int pr = poll(&pf, 1, ms);
    if (pr < 0 && errno == EINTR) continue;
    if (pr < 0) return -1;
    if (pr == 0) continue;   /* the deadline is checked above */
    ssize_t r = read(w->fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

/* The reply to the request just sent, into b. */
static int worker_recv(worker *w, bytes *b, double deadline)
{
  unsigned char head[8];
  int rc = worker_read(w, head, 8, deadline);
  if (rc < 0) return rc;
  uint64_t n = 0;
  for (int i = 0; i < 8; i++) n |= (uint64_t)head[i] << (8 * i);
  if (n > ((uint64_t)1 << 40)) return -1;
  vec_reserve(b, (size_t)n + 1);
  if ((rc = worker_read(w, b->v, (size_t)n, deadline)) < 0) return rc;
  b->n = (size_t)n;
  return 0;
}

/* What ended the worker, for the TU's error. */
static char *worker_death(const fe_job *job, int status)
{
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char *name = sigabbrev_np(sig);
    return xasprintf("%s: error: crashed while parsing this file (SIG%s%s); it is not analysed", job->file,
                     name ? name : "?", sig == SIGSEGV ? ", probably nesting too deep for the stack"
                     : sig == SIGABRT ? ", perhaps out of memory: PURIST_PARSE_MEMORY_MIB caps a parse" : "");
  }
  return xasprintf("%s: error: the process parsing this file ended (exit status %d); it is not analysed",
                   job->file, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Sends the job, waits for the reply by the time limit. */
static fe_status worker_exchange(worker *w, const fe_job *job, sum_tu **out, fe_msgs *msgs, fe_deps *deps)
{
  bytes b = {0};
  wproto_job_encode(&b, job, deps != NULL);
  double deadline = w->cfg->timeout > 0 ? worker_now() + w->cfg->timeout : 0;
  int rc = wproto_send(w->fd, &b) < 0 ? -1 : (b.n = 0, worker_recv(w, &b, deadline));
  fe_status st = FE_FAILED;
  if (rc == 0 && wproto_reply_decode(b.v, b.n, &st, out, msgs, deps) == 0) {
    vec_free(&b);
    return st;
  }
  vec_free(&b);
  int status = worker_reap(w, true);
  if (rc == -2) {
    vec_push(msgs, xasprintf("%s: error: parsing took longer than %d s (--tu-timeout); it is not analysed",
                             job->file, w->cfg->timeout));
    return FE_TIMED_OUT;
  }
  if (rc == 0) {   /* the worker lived but said nonsense */
    vec_push(msgs, xasprintf("%s: error: the parse worker sent a malformed reply; it is not analysed", job->file));
    return FE_FAILED;
  }
  vec_push(msgs, worker_death(job, status));
  return FE_CRASHED;
}

fe_status worker_parse(void *ctx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs,
                       fe_deps *deps)
{
  worker *w = ctx;
  *out = NULL;
  if (!w->pid && !w->local && worker_spawn(w) < 0) w->local = true;
  if (w->local) {
    if (!w->idx) w->idx = clang_createIndex(0, 0);
    return fe_summarize_deps(w->idx, job, kb, out, msgs, deps);
  }
  return worker_exchange(w, job, out, msgs, deps);
}
