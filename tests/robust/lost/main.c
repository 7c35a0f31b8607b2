/* main.c — calls the watched function, then ends in the way argv[1] says:
 *   exit     return from main (the report is written at exit);
 *   _exit    _exit(3), no destructors;
 *   exec     execv("/bin/true"): the image is replaced;
 *   exec-missing  execl of a file that does not exist, then exit;
 *   kill     SIGKILL to itself: nothing can be written;
 *   handler  its own SIGSEGV handler calls _exit after a fault;
 *   fork     one call, fork, one more call in each process;
 *   quick_exit    quick_exit(0);
 *   exit_group    the raw exit_group system call, status 0: nothing can be written;
 *   nofile   RLIMIT_NOFILE 3 (soft and hard): no descriptor left for the report;
 *   nofile-soft   soft limit 3, hard as it was: the runtime may raise it;
 *   longjmp  a watched call left by longjmp, then two more calls;
 *   longjmp-inside  a watched function longjmps within its own frame. */
#include "api.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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
  if (!strcmp(how, "quick_exit")) quick_exit(0);
  if (!strcmp(how, "exit_group")) syscall(SYS_exit_group, 0);
  if (!strncmp(how, "nofile", 6)) {
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = 3;
    if (!strcmp(how, "nofile")) rl.rlim_max = 3;
    for (int fd = 3; fd < 64; fd++) close(fd);
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) return 2;
    return 0;
  }
  if (!strcmp(how, "longjmp-inside")) {
    sink += jumps_inside(1) + jumps_inside(2);
    return 0;
  }
  if (!strcmp(how, "longjmp")) {
    static jmp_buf env;
    if (!setjmp(env)) sink = leave(&env);
    sink += counted(5) + counted(6);
    return 0;
  }
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
