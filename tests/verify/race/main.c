/* main.c — a racing writer thread, then a blocked one.
 * Phase 1: a thread increments a shared counter in a loop that calls
 * nothing, while main calls level_of on it: results differ between a call
 * and its re-execution because of the other thread, not of level_of.
 * Phase 2: the other thread waits in read() on a pipe while main calls
 * tick_of: its results differ with no other thread running. */
#include "calc.h"
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Through pointers: the compiler must not merge the calls. */
static int (*volatile level_p)(const volatile int *, int) = level_of;
static unsigned long (*volatile tick_p)(int) = tick_of;

static volatile int stop;

static void *writer(void *arg)
{
  volatile int *shared = arg;
  while (!stop) (*shared)++;   /* calls nothing */
  return NULL;
}

static void *sleeper(void *arg)
{
  char c;
  return read(*(int *)arg, &c, 1) == 1 ? NULL : arg;
}

int main(void)
{
  /* mmap'd memory: not a heap block, not static data (neither is watched) */
  volatile int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) return 2;
  pthread_t t;
  pthread_create(&t, NULL, writer, (void *)shared);
  while (*shared == 0) {}   /* the writer runs */
  long n = 0;
  for (int i = 0; i < 5000; i++) n += level_p(shared, 0) >= 0;
  stop = 1;
  pthread_join(t, NULL);
  int fds[2];
  if (pipe(fds)) return 2;
  pthread_create(&t, NULL, sleeper, &fds[0]);
  usleep(100000);   /* it waits in read() */
  unsigned long ticks = 0;
  for (int i = 0; i < 50; i++) ticks += tick_p(i) > 0;
  if (write(fds[1], "x", 1) != 1) return 2;
  pthread_join(t, NULL);
  printf("%ld %lu\n", n, ticks);
  return 0;
}
