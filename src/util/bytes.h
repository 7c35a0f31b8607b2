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

uint64_t bytes_get_uleb(bytes_reader *r);
uint64_t bytes_get_le(bytes_reader *r, int n);

#endif
