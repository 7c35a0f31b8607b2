/* ptrmap.h — a map from non-zero 64-bit keys (usually pointers) to uint32.
 * Used for "have I seen this declaration / file before" in the front end
 * and for symbol tables in the linker. Open addressing, linear probing. */
#ifndef PURIST_PTRMAP_H
#define PURIST_PTRMAP_H
#include <stdint.h>
#include <stddef.h>

typedef struct {
  uint64_t *keys;    /* 0 = empty slot */
  uint32_t *vals;
  size_t cap, n;     /* cap is a power of two */
} ptrmap;

/* Returns a pointer to the value slot for key, or NULL if absent. */
uint32_t *ptrmap_get(const ptrmap *m, uint64_t key);
/* Inserts or overwrites. key must not be 0. */
void ptrmap_put(ptrmap *m, uint64_t key, uint32_t val);
void ptrmap_clear(ptrmap *m);   /* keeps the storage */
void ptrmap_free(ptrmap *m);

#endif
