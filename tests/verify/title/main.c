/* main.c — changes its process title the way servers do (redis,
 * PostgreSQL, nginx): the environment strings are moved to the heap and
 * their original block, after argv, is overwritten with the new title.
 * Anything that kept a pointer into that block now reads the title. */
#include "tally.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* Moves environ to the heap and fills the old argv+environ area with 'x'. */
static void retitle(int argc, char **argv)
{
  char *end = argv[argc - 1] + strlen(argv[argc - 1]) + 1;
  int n = 0;
  while (environ[n]) n++;
  char **moved = malloc((size_t)(n + 1) * sizeof *moved);
  for (int i = 0; i < n; i++) {
    if (environ[i] == end) end += strlen(environ[i]) + 1;
    moved[i] = strdup(environ[i]);
  }
  moved[n] = NULL;
  memset(argv[0], 'x', (size_t)(end - argv[0]) - 1);
  end[-1] = '\0';
  environ = moved;
}

int main(int argc, char **argv)
{
  int v[4] = { 1, 2, 3, 4 }, s = 0;
  retitle(argc, argv);
  for (int i = 0; i < 5; i++) s += tally(v, 1 + i % 4);
  printf("sum %d, %d calls\n", s, tally_calls);
  return 0;
}
