/* main.c — a program with its own SIGSEGV and SIGTRAP handlers, set after
 * the runtime has put its own in place for a checked const call: the
 * program must read back its handlers, get its faults and traps, and the
 * read check must still work afterwards. `./prog crash` ends by a fault
 * with SIGSEGV at its default action. */
#include "calc.h"
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static sigjmp_buf back;
static volatile sig_atomic_t faults, traps;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
  (void)sig; (void)si; (void)ctx;
  faults++;
  siglongjmp(back, 1);
}

static void on_trap(int sig)
{
  (void)sig;
  traps++;
}

int main(int argc, char **argv)
{
  long total = doubled(1);   /* a checked const call */
  struct sigaction sa, now;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGSEGV, NULL, &now);
  printf("own handler read back: %d\n", now.sa_sigaction == on_segv);
  signal(SIGTRAP, on_trap);
  raise(SIGTRAP);
  char *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (int i = 0; i < 3; i++) {
    if (!sigsetjmp(back, 1)) total += *(volatile char *)page;
    total += doubled(i) + weighted(i);
  }
  printf("faults %d traps %d total %ld\n", (int)faults, (int)traps, total);
  if (argc > 1 && !strcmp(argv[1], "crash")) {
    signal(SIGSEGV, SIG_DFL);
    total += *(volatile char *)page;
  }
  return 0;
}
