/* main.c — calls every watched function a few times (from another TU, so
 * the wrappers see the calls) and prints what does not depend on time. */
#include "api.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
  int *heap = calloc(8, sizeof *heap);
  const char *words[] = { "a", "bb", "ccc", "dddd" };
  long total = 0;
  for (int i = 0; i < 4; i++) {
    heap[i + 1] = i;
    total += square(i) + sum_array(heap, 8) + counted_len(words[i]) + scaled(i);
    printf("%d %s %d\n", i, level_name(i), fill_first(heap, i));
    total += now_tick(i) > 0;
  }
  printf("total %ld\n", total);
  free(heap);
  if (argc > 1 && !strcmp(argv[1], "die")) raise(SIGTERM);   /* a death by signal */
  return argc > 1 ? atoi(argv[1]) : 0;
}
