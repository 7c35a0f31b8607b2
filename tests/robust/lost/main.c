/* main.c — calls the watched function, then ends in the way argv[1] says:
 *   exit     return from main (the report is written at exit);
 *   _exit    _exit(3), no destructors;
 *   exec     execv("/bin/true"): the image is replaced;
 *   exec-missing  execl of a file that does not exist, then exit;
 *   kill     SIGKILL to itself: nothing can be written;
 *   handler  its own SIGSEGV handler calls _exit after a fault;
 *   fork     one call, fork, one more call in each process. */
#include "api.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_segv(int sig)
{
  (void)sig;
  _exit(4);
}

int main(int argc, char **argv)
{
  const char *how = argc > 1 ? argv[1] : "exit";
  volatile int sink = counted(1) + counted(2);
  if (!strcmp(how, "fork")) {
    sink = counted(3);
    pid_t pid = fork();
    if (pid < 0) return 2;
    sink += counted(4);
    if (pid == 0) return 0;
    int st;
    waitpid(pid, &st, 0);
    return 0;
  }
  if (!strcmp(how, "_exit")) _exit(3);
  if (!strcmp(how, "exec")) {
    char *args[] = { "true", NULL };
    execv("/bin/true", args);
    return 2;
  }
  if (!strcmp(how, "exec-missing")) execl("/nonexistent/prog", "prog", (char *)NULL);
  if (!strcmp(how, "kill")) raise(SIGKILL);
  if (!strcmp(how, "handler")) {
    signal(SIGSEGV, on_segv);
    volatile int *nowhere = NULL;
    sink = *nowhere;
  }
  printf("%d\n", sink > 0);
  return 0;
}
