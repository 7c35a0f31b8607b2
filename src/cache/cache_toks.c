/* cache_toks.c — a TU's token record (".k", entry format 7).
 *
 * A manifest is named by its main file's token hash, and a store records
 * each file's token hash, so a run lexes every file whose hash it does
 * not know: not read this run (the memo), not vouched for by the index
 * (cache_stat.c: a fresh checkout, another copy of the project, a file
 * edited just before the last run). These records spare those lexes.
 * They used to be one entry per file version (".k" named by its bytes):
 * 193 of the 317 files a cold run on Lua created, each a temporary file
 * renamed into a shard directory, 10-15 % of the run's CPU. Now a stored
 * TU writes one record (named by its job) listing every file version it
 * read; a lookup that needs a token hash reads its own job's record once.
 *
 * Every entry is a fact about bytes (size and XXH3-64, as the manifests
 * trust them), whichever job or run wrote it, so a record that is stale
 * or was overwritten by another run is at worst incomplete: the file is
 * lexed. A damaged record is removed silently and its files lexed. */
#include "cache/cache_internal.h"
#include <string.h>

static void jobtoks_load(cache *c, cache_jobtoks *jt)
{
  if (jt->loaded) return;
  jt->loaded = true;
  if (!c->dir || !jt->job) return;
  cache_key k = cache_key_jobtoks(c, jt->job);
  char *rel = cache_entry_path(c, k, ".k");
  size_t len = 0;
  const char *why = NULL;
  unsigned char *buf = cache_entry_read(c, rel, &len, &why);
  if (buf && cache_toks_decode(buf, len, k, &jt->v, &why) < 0) cache_entry_unlink(c, rel);
  free(buf);
  free(rel);
}

static const cache_tok *jobtoks_lookup(const cache_toks *t, uint64_t size, uint64_t hash)
{
  for (size_t i = 0; i < t->n; i++)
    if (t->v[i].size == size && t->v[i].hash == hash) return &t->v[i];
  return NULL;
}

bool cache_jobtoks_find(cache *c, cache_jobtoks *jt, uint64_t size, uint64_t hash, clex_sum *out)
{
  jobtoks_load(c, jt);
  const cache_tok *e = jobtoks_lookup(&jt->v, size, hash);
  if (!e) return false;
  out->hash = e->tok;
  out->flags = e->flags;
  return true;
}

/* Does the record say all of now (and nothing more)? Then a store of an
 * unchanged TU (a header's real edit re-parses it) writes nothing. */
static bool jobtoks_same(const cache_toks *had, const cache_toks *now)
{
  if (had->n != now->n) return false;
  for (size_t i = 0; i < now->n; i++) {
    const cache_tok *e = jobtoks_lookup(had, now->v[i].size, now->v[i].hash);
    if (!e || e->tok != now->v[i].tok || e->flags != now->v[i].flags) return false;
  }
  return true;
}

void cache_jobtoks_store(cache *c, cache_jobtoks *jt, const cache_toks *now)
{
  if (!c->dir || !jt->job || !now->n) return;
  jobtoks_load(c, jt);
  if (jobtoks_same(&jt->v, now)) return;
  cache_key k = cache_key_jobtoks(c, jt->job);
  size_t len;
  unsigned char *rec = cache_toks_encode(now, k, &len);
  char *rel = cache_entry_path(c, k, ".k");
  cache_write(c, rel, rec, len);
  free(rel);
  free(rec);
}

void cache_jobtoks_free(cache_jobtoks *jt)
{
  vec_free(&jt->v);
  jt->loaded = false;
}
