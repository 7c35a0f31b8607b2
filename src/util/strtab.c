/* strtab.c — open-addressing hash table over chunked string storage.
 * Invariant: slots hold id+1 (0 = empty); load factor stays below 1/2. */
#include "util/strtab.h"
#include "util/vec.h"
#include <string.h>
#include <xxhash.h>

enum { CHUNK = 1 << 20 };

typedef struct { const char *s; uint32_t len; uint32_t hash; } strtab_entry;

struct strtab {
  VEC(strtab_entry) ents;
  uint32_t *slots;
  size_t nslots;          /* power of two */
  VEC(char *) chunks;
  size_t chunk_used, chunk_cap;
};

static uint32_t strtab_hash(const char *s, size_t len)
{
  return (uint32_t)XXH3_64bits(s, len);
}

/* Copies s into chunk storage, NUL-terminated. */
static const char *strtab_store(strtab *t, const char *s, size_t len)
{
  if (t->chunk_used + len + 1 > t->chunk_cap) {
    size_t cap = len + 1 > CHUNK ? len + 1 : CHUNK;
    vec_push(&t->chunks, xmalloc(cap));
    t->chunk_used = 0;
    t->chunk_cap = cap;
  }
  char *d = t->chunks.v[t->chunks.n - 1] + t->chunk_used;
  memcpy(d, s, len);
  d[len] = '\0';
  t->chunk_used += len + 1;
  return d;
}

/* Rehashes into a table of at least want slots (a power of two, 1024 at
 * least, twice the current count otherwise). */
static void strtab_resize(strtab *t, size_t want)
{
  size_t n = 1024;
  while (n < want) n *= 2;
  uint32_t *slots = xcalloc(n, sizeof *slots);
  for (size_t i = 0; i < t->ents.n; i++) {
    size_t j = t->ents.v[i].hash & (n - 1);
    while (slots[j]) j = (j + 1) & (n - 1);
    slots[j] = (uint32_t)i + 1;
  }
  free(t->slots);
  t->slots = slots;
  t->nslots = n;
}

static void strtab_grow(strtab *t)
{
  strtab_resize(t, t->nslots ? t->nslots * 2 : 1024);
}

strtab *strtab_new(void)
{
  strtab *t = xcalloc(1, sizeof *t);
  strtab_intern_n(t, "", 0);
  return t;
}

strtab *strtab_new_sized(size_t nstr, size_t bytes)
{
  strtab *t = xcalloc(1, sizeof *t);
  vec_reserve(&t->ents, nstr + 1);
  strtab_resize(t, 2 * (nstr + 1) + 1);
  /* One chunk for all the strings (each NUL-terminated), not a 1 MiB one
   * per table: a summary's strings are tens of kilobytes. */
  size_t cap = bytes + nstr + 1;
  if (cap < CHUNK) {
    vec_push(&t->chunks, xmalloc(cap));
    t->chunk_cap = cap;
  }
  strtab_intern_n(t, "", 0);
  return t;
}

void strtab_free(strtab *t)
{
  if (!t) return;
  for (size_t i = 0; i < t->chunks.n; i++) free(t->chunks.v[i]);
  vec_free(&t->chunks);
  vec_free(&t->ents);
  free(t->slots);
  free(t);
}

static size_t strtab_probe(const strtab *t, const char *s, size_t len, uint32_t h)
{
  size_t j = h & (t->nslots - 1);
  while (t->slots[j]) {
    const strtab_entry *e = &t->ents.v[t->slots[j] - 1];
    if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0) break;
    j = (j + 1) & (t->nslots - 1);
  }
  return j;
}

/* strtab_intern_n with the string's hash h (strtab_hash) known. */
static uint32_t strtab_intern_h(strtab *t, const char *s, size_t len, uint32_t h)
{
  if ((t->ents.n + 1) * 2 > t->nslots) strtab_grow(t);
  size_t j = strtab_probe(t, s, len, h);
  if (t->slots[j]) return t->slots[j] - 1;
  strtab_entry e = { strtab_store(t, s, len), (uint32_t)len, h };
  vec_push(&t->ents, e);
  t->slots[j] = (uint32_t)t->ents.n;
  return (uint32_t)t->ents.n - 1;
}

uint32_t strtab_intern_n(strtab *t, const char *s, size_t len)
{
  return strtab_intern_h(t, s, len, strtab_hash(s, len));
}

uint32_t strtab_intern_from(strtab *t, const strtab *src, uint32_t id)
{
  if (id >= src->ents.n) return strtab_intern_n(t, "", 0);
  const strtab_entry *e = &src->ents.v[id];
  return strtab_intern_h(t, e->s, e->len, e->hash);
}

uint32_t strtab_intern(strtab *t, const char *s)
{
  return strtab_intern_n(t, s, strlen(s));
}

uint32_t strtab_find(const strtab *t, const char *s)
{
  size_t len = strlen(s);
  size_t j = strtab_probe(t, s, len, strtab_hash(s, len));
  return t->slots[j] ? t->slots[j] - 1 : UINT32_MAX;
}

const char *strtab_get(const strtab *t, uint32_t id)
{
  return id < t->ents.n ? t->ents.v[id].s : "";
}

size_t strtab_len(const strtab *t, uint32_t id)
{
  return id < t->ents.n ? t->ents.v[id].len : 0;
}

uint32_t strtab_count(const strtab *t)
{
  return (uint32_t)t->ents.n;
}
