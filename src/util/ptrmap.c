/* ptrmap.c — see ptrmap.h. Load factor is kept at or below 1/2. */
#include "util/ptrmap.h"
#include "util/xalloc.h"
#include <string.h>

static size_t ptrmap_slot(uint64_t key, size_t cap)
{
  key ^= key >> 33;             /* pointers share low and high bits: mix */
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return (size_t)key & (cap - 1);
}

uint32_t *ptrmap_get(const ptrmap *m, uint64_t key)
{
  if (!key) return m->has_zero ? (uint32_t *)&m->zero_val : NULL;
  if (!m->cap) return NULL;
  for (size_t i = ptrmap_slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) return &m->vals[i];
    if (m->keys[i] == 0) return NULL;
  }
}

static void ptrmap_grow(ptrmap *m)
{
  ptrmap g = { xcalloc(m->cap ? m->cap * 2 : 64, sizeof(uint64_t)), NULL, m->cap ? m->cap * 2 : 64, 0,
               m->has_zero, m->zero_val };
  g.vals = xmalloc(g.cap * sizeof(uint32_t));
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) ptrmap_put(&g, m->keys[i], m->vals[i]);
  ptrmap_free(m);
  *m = g;
}

void ptrmap_put(ptrmap *m, uint64_t key, uint32_t val)
{
  if (!key) { m->has_zero = 1; m->zero_val = val; return; }
  if ((m->n + 1) * 2 > m->cap) ptrmap_grow(m);
  size_t i = ptrmap_slot(key, m->cap);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) { m->keys[i] = key; m->n++; }
  m->vals[i] = val;
}

void ptrmap_clear(ptrmap *m)
{
  if (m->cap) memset(m->keys, 0, m->cap * sizeof *m->keys);
  m->n = 0;
  m->has_zero = 0;
}

void ptrmap_free(ptrmap *m)
{
  free(m->keys);
  free(m->vals);
  m->keys = NULL; m->vals = NULL; m->cap = m->n = 0;
  m->has_zero = 0;
}
