/* xalloc.c — see xalloc.h. */
#include "util/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void xalloc_die(size_t n)
{
  fprintf(stderr, "purist: out of memory (%zu bytes)\n", n);
  exit(2);
}

void *xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p) xalloc_die(n);
  return p;
}

void *xcalloc(size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) xalloc_die(n * size);
  return p;
}

void *xrealloc(void *p, size_t n)
{
  void *q = realloc(p, n ? n : 1);
  if (!q) xalloc_die(n);
  return q;
}

char *xstrdup(const char *s)
{
  return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
  char *d = xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *xasprintf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  char *s = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}
