/* strbuf.c — see strbuf.h. */
#include "util/strbuf.h"
#include "util/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void sb_reserve(strbuf *b, size_t extra)
{
  if (b->n + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->n + extra + 1) cap *= 2;
  b->s = xrealloc(b->s, cap);
  b->cap = cap;
}

void sb_puts(strbuf *b, const char *s)
{
  size_t len = strlen(s);
  sb_reserve(b, len);
  memcpy(b->s + b->n, s, len + 1);
  b->n += len;
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
  sb_reserve(b, 64);   /* most fit: format once, straight into the buffer */
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
  va_end(ap);
  if (len <= 0) { b->s[b->n] = '\0'; return; }
  if ((size_t)len >= b->cap - b->n) {
    sb_reserve(b, (size_t)len);
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)len + 1, fmt, ap);
    va_end(ap);
  }
  b->n += (size_t)len;
}

const char *sb_str(const strbuf *b)
{
  return b->s ? b->s : "";
}

void sb_clear(strbuf *b)
{
  b->n = 0;
  if (b->s) b->s[0] = '\0';
}

void sb_free(strbuf *b)
{
  free(b->s);
  b->s = NULL;
  b->n = b->cap = 0;
}
