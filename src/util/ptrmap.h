/* ptrmap.h — a map from 64-bit keys (usually pointers) to uint32.
 * Used for "have I seen this declaration / file before" in the front end
 * and for symbol tables in the linker. Open addressing, linear probing.
 * Key 0 marks an empty slot, so it is kept beside the table: a NULL
 * pointer (libclang's CXFile of a command-line macro) is an ordinary key,
 * not a lookup that lands on an empty slot's stale value. */
#ifndef PURIST_PTRMAP_H
#define PURIST_PTRMAP_H
#include <stdint.h>
#include <stddef.h>

typedef struct {
  uint64_t *keys;    /* 0 = empty slot */
  uint32_t *vals;
  size_t cap, n;     /* cap is a power of two; n counts the table only */
  uint8_t has_zero;  /* key 0 is present, with value zero_val */
  uint32_t zero_val;
} ptrmap;

/* Returns a pointer to the value slot for key, or NULL if absent. */
uint32_t *ptrmap_get(const ptrmap *m, uint64_t key);
/* Inserts or overwrites. */
void ptrmap_put(ptrmap *m, uint64_t key, uint32_t val);
void ptrmap_clear(ptrmap *m);   /* keeps the storage */
void ptrmap_free(ptrmap *m);

#endif
