/* main.c — a worker thread keeps writing a global (through a function of
 * its own) while the main thread calls the honest pure function; after the
 * worker has ended, the lying one. */
#include "calc.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static volatile long ticks;
static atomic_int stop;

static void tick(void) { ticks = ticks + 1; }

static void *worker(void *arg)
{
  (void)arg;
  while (!atomic_load(&stop)) tick();
  return NULL;
}

int main(void)
{
  int v[64];
  for (int i = 0; i < 64; i++) v[i] = (i * 37) % 101;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  while (ticks == 0) {}   /* the worker runs: its writes overlap the calls */
  long s = 0, start = ticks;
  int r = 0;
  for (; r < 64 || ticks - start < 100000; r++) s += span(v, 1 + r % 64);
  atomic_store(&stop, 1);
  pthread_join(t, NULL);
  printf("spans: %s\n", s > 0 ? "done" : "none");
  int sum = 0;
  for (int i = 0; i < 5; i++) sum += tally(v, 1 + i);
  printf("%d %d\n", sum, calc_calls);
  return 0;
}
