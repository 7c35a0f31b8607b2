/* front.c — the `purist` executable: a small front that links no libclang.
 *
 * `purist cc` runs once for every compile of a build; loading libclang and
 * LLVM there (dynamic relocation, static constructors, their page faults:
 * about 25 ms of CPU) cost as much as a small TU's parse (issue 24 item
 * 3). So `purist` itself only runs the compile and talks to the summary
 * server (cc/ccserver.h); everything else, and the summaries when no
 * server answers, is done by purist-engine beside it (the analyser as it
 * always was), which this front execs with the same arguments. */
#include "cc/cc.h"
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define FRONT_ENGINE "purist-engine"

/* The engine: purist-engine in this executable's directory. */
static char front_engine[PATH_MAX];

static int front_find_engine(void)
{
  char exe[PATH_MAX];
  if (!realpath("/proc/self/exe", exe)) return -1;
  char *slash = strrchr(exe, '/');
  *slash = '\0';
  int n = snprintf(front_engine, sizeof front_engine, "%s/%s", exe, FRONT_ENGINE);
  return n > 0 && (size_t)n < sizeof front_engine ? 0 : -1;
}

/* No server answered: the engine summarises the units (`purist-engine
 * __cc-summarize ARGS`); its warnings go to our standard error. */
static void front_summarize(int argc, char **argv)
{
  char **av = calloc((size_t)argc + 3, sizeof *av);
  if (!av) return;
  av[0] = "purist";
  av[1] = LAUNCHER_SUMMARIZE_ARGV1;
  memcpy(av + 2, argv, (size_t)argc * sizeof *av);
  pid_t pid;
  int rc = posix_spawn(&pid, front_engine, NULL, NULL, av, environ), status;
  free(av);
  if (rc != 0) {
    fprintf(stderr, "purist cc: warning: objects built without a purist summary: cannot run %s: %s\n",
            front_engine, strerror(rc));
    return;
  }
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
}

int main(int argc, char **argv)
{
  if (front_find_engine() < 0) {
    fprintf(stderr, "purist: cannot find the purist executable's directory: %s\n", strerror(errno));
    return 127;
  }
  bool help = argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"));
  if (argc > 1 && !strcmp(argv[1], "cc") && !help)
    return ccrun_main(argc - 2, argv + 2, front_engine, front_summarize);   /* the compile's own argv */
  execv(front_engine, argv);
  fprintf(stderr, "purist: cannot run %s: %s\n", front_engine, strerror(errno));
  return 127;
}
