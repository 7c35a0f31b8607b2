/* main.c — four threads, each digesting its own heap buffer many times. */
#include "digest.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { unsigned char *buf; unsigned sum; int seed; } job;

static void *work(void *arg)
{
  job *j = arg;
  for (int i = 0; i < 64; i++) j->buf[i] = (unsigned char)(j->seed + i);
  for (int r = 0; r < 2000; r++) j->sum += digest(j->buf, 1 + r % 64);
  return NULL;
}

int main(void)
{
  pthread_t t[4];
  job *jobs = calloc(4, sizeof *jobs);
  for (int i = 0; i < 4; i++) {
    jobs[i].buf = malloc(64);
    jobs[i].seed = i;
    pthread_create(&t[i], NULL, work, &jobs[i]);
  }
  unsigned total = 0;
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    total += jobs[i].sum;
    free(jobs[i].buf);
  }
  free(jobs);
  printf("%u\n", total);
  return 0;
}
