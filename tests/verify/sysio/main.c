/* Output, file I/O, a pipe between a parent and a forked child, and
 * signals, through functions that wrongly promise purity: the run under
 * `purist verify` must be byte-identical to the plain one. */
#include "say.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Called through pointers so that the compiler does not take the false
 * promises at their word (it would drop or merge the calls): the program
 * does what its source says, and verify must catch the lies. */
static int (*volatile say_p)(int) = say;
static int (*volatile append_p)(const char *, int) = append_line;
static int (*volatile relay_p)(int, int, int) = relay;
static int (*volatile mask_p)(int) = mask_block;

static volatile sig_atomic_t got_usr1, got_sys;
static void on_usr1(int sig) { (void)sig; got_usr1++; }
static void on_sys(int sig) { (void)sig; got_sys++; }

/* The child answers each byte the parent sends, through relay(). */
static int child_loop(int in, int out)
{
  for (int i = 0; i < 5; i++)
    if (relay_p(in, out, 1) != 1) return 3;
  return 0;
}

int main(int argc, char **argv)
{
  const char *file = argc > 1 ? argv[1] : "out.txt";
  for (int i = 0; i < 3; i++) printf("say -> %d\n", say_p(i));
  for (int i = 0; i < 4; i++) append_p(file, i);
  int down[2], up[2];
  if (pipe(down) || pipe(up)) return 2;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(down[1]);
    close(up[0]);
    _exit(child_loop(down[0], up[1]));
  }
  close(down[0]);
  close(up[1]);
  for (int i = 0; i < 5; i++) {
    unsigned char c = (unsigned char)('a' + i), r = 0;
    if (write(down[1], &c, 1) != 1 || read(up[0], &r, 1) != 1) return 4;
    printf("relayed %c -> %c\n", c, r);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  printf("child status %d\n", WEXITSTATUS(st));
  signal(SIGUSR1, on_usr1);
  mask_p(SIGUSR1);
  raise(SIGUSR1);   /* blocked: pending, not handled */
  printf("after raise: handled %d\n", (int)got_usr1);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);   /* delivered now */
  printf("after unblock: handled %d\n", (int)got_usr1);
  /* The program's own SIGSYS handler (the runtime's traps system calls
   * with SIGSYS): set, read back, and called for a SIGSYS of its own. */
  signal(SIGSYS, on_sys);
  struct sigaction back;
  sigaction(SIGSYS, NULL, &back);
  raise(SIGSYS);
  printf("sigsys handler read back %d, handled %d\n", back.sa_handler == on_sys, (int)got_sys);
  long total = 0;
  for (int i = 0; i < 1000; i++) total += square(i);
  printf("total %ld\n", total);
  fprintf(stderr, "done\n");
  return 7;
}
