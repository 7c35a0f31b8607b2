/* fault.c — see fault.h. */
#include "util/fault.h"
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The step to stop after: 0 for none. A value that is not a positive
 * number is refused once, loudly: a test that sets it wants it obeyed. */
static long fault_limit(void)
{
  static atomic_long limit = -1;
  long l = atomic_load(&limit);
  if (l >= 0) return l;
  const char *s = getenv("PURIST_FAULT_AFTER_WRITE_STEP");
  char *end = NULL;
  l = s && *s ? strtol(s, &end, 10) : 0;
  if (s && *s && (*end || l <= 0)) {
    fprintf(stderr, "purist: PURIST_FAULT_AFTER_WRITE_STEP=%s is not a positive number: ignored\n", s);
    l = 0;
  }
  atomic_store(&limit, l);
  return l;
}

void fault_write_step(const char *what)
{
  static atomic_long steps;
  long limit = fault_limit();
  if (!limit) return;
  if (atomic_fetch_add(&steps, 1) + 1 == limit) {
    /* Say where, so a failing walk can be read; then die as kill -9 does. */
    char msg[160];
    int n = snprintf(msg, sizeof msg, "purist: fault injected after write step %ld (%s)\n", limit, what);
    if (n > 0) (void)!write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    /* PURIST_FAULT_STOP=1: stopped instead (SIGSTOP), so a test can act
     * in the middle of a write and let it go on (SIGCONT). */
    const char *stop = getenv("PURIST_FAULT_STOP");
    raise(stop && !strcmp(stop, "1") ? SIGSTOP : SIGKILL);
  }
}
