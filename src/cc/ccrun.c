/* ccrun.c — the process side of `purist cc`, shared by the launcher's
 * front (src/front/: no libclang, what `purist cc` runs for every compile)
 * and the engine (launcher.c): runs the compile, has its units summarised
 * (by the summary server, ccserver.h, else by here()), and on a link step
 * moves the summaries to the sidecar. ccrun_main: cc.h. */
#include "cc/cc.h"
#include "cc/ccargs.h"
#include "cc/ccserver.h"
#include "elf/elfsec.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The compiler's pid, for the signal handler: a handler can reach nothing
 * else, so this is the one piece of process-wide state (set once, before
 * signals are unblocked). */
static volatile sig_atomic_t ccrun_child;

static const int ccrun_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
enum { NSIG_FWD = sizeof ccrun_signals / sizeof *ccrun_signals };

/* Passes a signal on to the compiler, which decides what it means (make
 * and ninja signal the whole process group anyway; a lone kill of the
 * launcher must not leave the compiler running). */
static void ccrun_forward(int sig)
{
  if (ccrun_child > 0) kill((pid_t)ccrun_child, sig);
}

/* Forks and execs the compiler; returns its wait status, or -1. Signals
 * are blocked around fork so none arrives before the handler knows the pid. */
static int ccrun_run(char **argv)
{
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  pid_t pid = fork();
  if (pid == 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    execvp(argv[0], argv);
    fprintf(stderr, "purist cc: %s: %s\n", argv[0], strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  if (pid > 0) {
    ccrun_child = pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ccrun_forward;
    for (int i = 0; i < NSIG_FWD; i++) sigaction(ccrun_signals[i], &sa, NULL);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (pid < 0) {
    fprintf(stderr, "purist cc: cannot start %s: %s\n", argv[0], strerror(errno));
    return -1;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  for (int i = 0; i < NSIG_FWD; i++) signal(ccrun_signals[i], SIG_DFL);
  return status;
}

/* A link step: the binary's summaries go to BINARY.purist unless
 * PURIST_CC_EMBED=1 keeps them inside (elfsec_sidecar_split). A failure
 * warns and leaves them inside: the binary is what the linker wrote. */
static void ccrun_sidecar(const char *binary)
{
  const char *env = getenv("PURIST_CC_EMBED");
  char *why = NULL;
  if (elfsec_sidecar_split(binary, env && strcmp(env, "1") == 0, &why) < 0)
    fprintf(stderr, "purist cc: warning: %s\n", why);
  free(why);
}

int ccrun_main(int argc, char **argv, const char *engine, void (*here)(int, char **))
{
  if (argc < 1) {
    fprintf(stderr, "purist cc: usage: purist cc COMPILER [ARGS...]\n");
    return 2;
  }
  int status = ccrun_run(argv);
  if (status < 0) return 127;
  if (WIFSIGNALED(status)) {   /* die the same way, so make sees the same */
    raise(WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  if (WEXITSTATUS(status) != 0) return WEXITSTATUS(status);
  ccargs a;
  ccargs_parse(argc, argv, &a);
  /* The summaries: by the summary server when it answers, else here. */
  if (a.units.n && ccclient_summaries(argc, argv, a.units.n, engine) < 0) here(argc, argv);
  if (a.linked) ccrun_sidecar(a.linked);
  ccargs_free(&a);
  return 0;
}
