/* main.c — calls each watched function a few times from another TU (so
 * the wrappers see the calls, and the heap block split writes into). */
#include "api.h"
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
  int *half = calloc(4, sizeof *half);
  long total = 0;
  for (int i = 0; i < 4; i++) {
    total += honest(i) + reads_level_r(i) + split(i + 3, half) + *half;
    total += memo_r(i) + memo_u(i) + counted(i) + reads_level(i);
  }
  printf("total %ld\n", total);
  free(half);
  return 0;
}
