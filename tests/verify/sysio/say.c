#include "say.h"
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/* The reproducer: declared const, writes a line to stderr. */
int say(int x)
{
  fprintf(stderr, "say %d\n", x);
  return x + 1;
}

/* Appends one line to a file: open, write, close. */
int append_line(const char *path, int x)
{
  FILE *f = fopen(path, "a");
  if (!f) return -1;
  fprintf(f, "line %d\n", x);
  return fclose(f);
}

/* Reads one byte from fd_in, writes it back doubled to fd_out. */
int relay(int fd_in, int fd_out, int x)
{
  unsigned char c;
  if (read(fd_in, &c, 1) != 1) return -1;
  unsigned char d = (unsigned char)(c + x);
  return (int)write(fd_out, &d, 1);
}

/* Blocks a signal: the mask must stay blocked after the call. */
int mask_block(int sig)
{
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  return sigprocmask(SIG_BLOCK, &s, NULL);
}

int square(int x) { return x * x; }
