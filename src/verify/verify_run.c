/* verify_run.c — the user's command under the runtime.
 *
 * The runtime is configured through the environment, which every process
 * the command starts inherits (ctest, make, shells, test programs):
 *   PURIST_WATCH   the watch list;
 *   PURIST_REPORT  the directory each process writes purist-rt.<pid>.json to;
 *   LD_BIND_NOW=1  no lazy binding: the program's GOT is not written during
 *                  a watched call (and is read-only with -z now and RELRO);
 * PURIST_SAMPLE and PURIST_ABORT pass through from the user's environment. */
#include "verify/verify.h"
#include "util/cleanup.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int verify_session_new(verify_session *s, char **err)
{
  memset(s, 0, sizeof *s);
  const char *tmp = getenv("TMPDIR");
  /* The PID in the name: a later run removes what one killed by SIGKILL
   * left (cleanup_sweep_stale). */
  cleanup_sweep_stale(tmp && *tmp ? tmp : "/tmp");
  s->dir = xasprintf("%s/purist-verify.%ld-XXXXXX", tmp && *tmp ? tmp : "/tmp", (long)getpid());
  if (!mkdtemp(s->dir)) {
    *err = xasprintf("%s: cannot make a scratch directory: %s", s->dir, strerror(errno));
    free(s->dir);
    s->dir = NULL;
    return -1;
  }
  s->watch = xasprintf("%s/watch", s->dir);
  s->reports = xasprintf("%s/reports", s->dir);
  if (mkdir(s->reports, 0700) != 0) {
    *err = xasprintf("%s: %s", s->reports, strerror(errno));
    return -1;
  }
  return 0;
}

void verify_session_free(verify_session *s)
{
  DIR *d = s->reports ? opendir(s->reports) : NULL;
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    char *path = xasprintf("%s/%s", s->reports, e->d_name);
    unlink(path);
    free(path);
  }
  if (d) closedir(d);
  if (s->reports) rmdir(s->reports);
  if (s->watch) unlink(s->watch);
  if (s->dir) rmdir(s->dir);
  free(s->dir);
  free(s->watch);
  free(s->reports);
  memset(s, 0, sizeof *s);
}

/* The command while it runs, for the handler: SIGTERM (what timeout(1)
 * sends) and SIGHUP are passed on to it, so it ends and purist reports
 * and removes its scratch directory, instead of dying at once and leaving
 * both the command and the directory behind. */
static volatile pid_t verify_child;

static void verify_forward(int sig)
{
  pid_t pid = verify_child;
  if (pid > 0) kill(pid, sig);
}

int verify_spawn_wait(char *const *argv, char *const *env, char **err)
{
  pid_t pid;
  posix_spawnattr_t at;   /* the child gets ^C back even while we ignore it */
  sigset_t def;
  sigemptyset(&def);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGQUIT);
  posix_spawnattr_init(&at);
  posix_spawnattr_setsigdefault(&at, &def);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
  int rc = posix_spawnp(&pid, argv[0], NULL, &at, argv, env ? env : environ);
  posix_spawnattr_destroy(&at);
  if (rc != 0) {
    *err = xasprintf("%s: cannot run it: %s", argv[0], strerror(rc));
    return -1;
  }
  struct sigaction fwd = { .sa_handler = verify_forward }, old_term, old_hup;
  sigemptyset(&fwd.sa_mask);
  verify_child = pid;
  sigaction(SIGTERM, &fwd, &old_term);
  sigaction(SIGHUP, &fwd, &old_hup);
  int st;
  int wrc;
  while ((wrc = waitpid(pid, &st, 0)) < 0 && errno == EINTR) {}
  int saved = errno;
  verify_child = 0;
  sigaction(SIGTERM, &old_term, NULL);
  sigaction(SIGHUP, &old_hup, NULL);
  if (wrc < 0) {
    *err = xasprintf("%s: %s", argv[0], strerror(saved));
    return -1;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
}

static bool run_ours(const char *var)
{
  static const char *const ours[] = { "PURIST_WATCH=", "PURIST_REPORT=", "LD_BIND_NOW=" };
  for (size_t i = 0; i < sizeof ours / sizeof *ours; i++)
    if (!strncmp(var, ours[i], strlen(ours[i]))) return true;
  return false;
}

int verify_run(const verify_session *s, char *const *argv, char **err)
{
  VEC(char *) env = {0};
  for (char **e = environ; *e; e++)
    if (!run_ours(*e)) vec_push(&env, *e);
  char *mine[] = { xasprintf("PURIST_WATCH=%s", s->watch), xasprintf("PURIST_REPORT=%s", s->reports),
                   "LD_BIND_NOW=1" };
  for (size_t i = 0; i < 3; i++) vec_push(&env, mine[i]);
  vec_push(&env, NULL);
  /* As system() does: a ^C at the terminal is for the command; purist
   * stays to report what was seen until then. */
  struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGINT, &ign, &old_int);
  sigaction(SIGQUIT, &ign, &old_quit);
  int st = verify_spawn_wait(argv, env.v, err);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGQUIT, &old_quit, NULL);
  free(mine[0]);
  free(mine[1]);
  vec_free(&env);
  return st;
}
