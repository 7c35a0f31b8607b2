/* bytes.c — see bytes.h. */
#include "util/bytes.h"
#include <string.h>

void bytes_uleb(bytes *b, uint64_t x)
{
  do {
    unsigned char c = x & 0x7f;
    x >>= 7;
    vec_push(b, (unsigned char)(c | (x ? 0x80 : 0)));
  } while (x);
}

void bytes_le(bytes *b, uint64_t x, int n)
{
  for (int i = 0; i < n; i++) vec_push(b, (unsigned char)(x >> (8 * i)));
}

void bytes_raw(bytes *b, const void *p, size_t n)
{
  if (!n) return;
  vec_reserve(b, b->n + n);
  memcpy(b->v + b->n, p, n);
  b->n += n;
}

uint64_t bytes_get_uleb_slow(bytes_reader *r)
{
  uint64_t x = 0;
  for (int shift = 0; !r->bad && shift < 64; shift += 7) {
    if (r->p >= r->end) break;
    unsigned char c = *r->p++;
    x |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) return x;
  }
  r->bad = 1;
  return 0;
}

uint64_t bytes_get_le(bytes_reader *r, int n)
{
  if (r->bad || r->end - r->p < n) { r->bad = 1; return 0; }
  uint64_t x = 0;
  for (int i = 0; i < n; i++) x |= (uint64_t)r->p[i] << (8 * i);
  r->p += n;
  return x;
}
