/* bytes.h — binary records: a growable byte buffer with LEB128 varints and
 * little-endian integers, and a bounds-checked reader for them. The
 * summary format and the cache's entries are written with these. */
#ifndef PURIST_BYTES_H
#define PURIST_BYTES_H
#include <stddef.h>
#include <stdint.h>
#include "util/vec.h"

typedef VEC(unsigned char) bytes;

/* Appends x as an unsigned LEB128 varint (7 bits a byte, low first). */
void bytes_uleb(bytes *b, uint64_t x);
/* Appends the n low bytes of x, least significant first. */
void bytes_le(bytes *b, uint64_t x, int n);
void bytes_raw(bytes *b, const void *p, size_t n);

/* Reads [p, end). After a read past end or a malformed varint, bad is set
 * and every further read returns 0 without moving. */
typedef struct { const unsigned char *p, *end; int bad; } bytes_reader;

/* The general case of bytes_get_uleb: several bytes, the end, damage. */
uint64_t bytes_get_uleb_slow(bytes_reader *r);
/* Reads an unsigned LEB128 varint. Inline, with the one-byte case first:
 * most of a summary's varints are small, and a warm run decodes tens of
 * megabytes of them (a call per varint was a quarter of its instructions). */
static inline uint64_t bytes_get_uleb(bytes_reader *r)
{
  if (!r->bad && r->p < r->end && *r->p < 0x80) return *r->p++;
  if (!r->bad && r->end - r->p >= 2 && r->p[1] < 0x80) {   /* two bytes: ids, lines, columns */
    uint64_t x = (uint64_t)(r->p[0] & 0x7f) | (uint64_t)r->p[1] << 7;
    r->p += 2;
    return x;
  }
  return bytes_get_uleb_slow(r);
}
uint64_t bytes_get_le(bytes_reader *r, int n);

#endif
