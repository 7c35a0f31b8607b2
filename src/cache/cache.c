/* cache.c — looking up and storing summaries (see cache.h). */
#include "cache/cache_internal.h"
#include "util/fileio.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

cache *cache_new(const char *dir, const kb *k, bool quiet)
{
  cache *c = xcalloc(1, sizeof *c);
  c->quiet = quiet;
  atomic_flag_clear(&c->warned);
  atomic_flag_clear(&c->odd_warned);
  pthread_mutex_init(&c->lock, NULL);
  c->dfd = -1;
  if (!dir) return c;
  char *why = NULL;
  c->dfd = cache_dir_prepare(dir, &why);
  if (c->dfd < 0) {
    /* One line, naming the directory at fault: another user's cache is
     * never used (issue 31 item 1). */
    if (!c->quiet)
      fprintf(stderr, "purist: warning: cache: cannot use the cache directory %s: %s; running without the cache\n", dir, why);
    free(why);
    return c;
  }
  c->dir = xstrdup(dir);
  c->env = cache_env_hash(k);
  atomic_store(&c->writable, true);
  return c;
}

void cache_free(cache *c)
{
  if (!c) return;
  for (size_t i = 0; i < c->memo.n; i++) free(c->memo.v[i].path);
  vec_free(&c->memo);
  ptrmap_free(&c->memo_idx);
  pthread_mutex_destroy(&c->lock);
  free(c->dir);
  if (c->dfd >= 0) close(c->dfd);
  free(c);
}

/* A damaged entry: removed (a rebuild replaces it) and reported with the
 * TU's messages, so the note appears in job order. */
static void cache_discard(cache *c, const char *path, const char *why, const fe_job *job, fe_msgs *notes)
{
  cache_entry_unlink(c, path);
  if (!c->quiet)
    vec_push(notes, xasprintf("purist: note: cache: discarded a damaged entry for %s (%s/%s: %s); "
                              "analysing the file again", job->file, c->dir, path, why));
}

/* Reads a whole entry file; NULL if there is none or it is not a regular
 * file (said once a run): either way a miss. */
static unsigned char *cache_read(cache *c, const char *path, size_t *len)
{
  const char *why;
  unsigned char *buf = cache_entry_read(c, path, len, &why);
  if (!buf && why) {
    char *full = xasprintf("%s/%s", c->dir, path);
    cache_warn_odd(c, full, why);
    free(full);
  }
  return buf;
}

/* A hit's files, for a caller that asks what the TU read: the main file
 * (key1 covers it, so it is in no variant), then the variant's. */
static void cache_hit_deps(const fe_job *job, const cache_variant *v, fe_deps *deps)
{
  if (!deps) return;
  fe_dep m = { xstrdup(job->file), 0, 0, true };
  vec_push(deps, m);
  for (size_t i = 0; i < v->files.n; i++) {
    fe_dep d = { xstrdup(v->files.v[i].path), v->files.v[i].size, v->files.v[i].hash, false };
    vec_push(deps, d);
  }
}

/* The result of the first variant whose files are all unchanged. */
static int cache_try_variants(cache *c, const cache_manifest *m, const fe_job *job, sum_tu **out,
                              fe_msgs *msgs, fe_msgs *notes, fe_deps *deps)
{
  for (size_t i = 0; i < m->n; i++) {
    const cache_variant *v = &m->v[i];
    size_t f = 0;
    while (f < v->files.n && cache_file_matches(c, &v->files.v[f])) f++;
    if (f < v->files.n) continue;
    char *path = cache_entry_path(c, v->result, ".r");
    size_t len = 0;
    unsigned char *buf = cache_read(c, path, &len);
    const char *why = NULL;
    int rc = buf ? cache_result_decode(buf, len, v->result, out, msgs, &why) : -1;
    if (buf && rc < 0) cache_discard(c, path, why, job, notes);
    if (rc == 0) cache_touch(c, path);   /* used: the last to be pruned */
    if (rc == 0) cache_hit_deps(job, v, deps);
    free(buf);
    free(path);
    if (rc == 0) return 0;
  }
  return -1;
}

/* Looks the job up; 0 on a hit (*out and msgs filled). */
static int cache_lookup(cache *c, cache_key k1, const fe_job *job, sum_tu **out, fe_msgs *msgs,
                        fe_msgs *notes, fe_deps *deps)
{
  char *path = cache_entry_path(c, k1, ".m");
  size_t len = 0;
  unsigned char *buf = cache_read(c, path, &len);
  int rc = -1;
  if (buf) {
    cache_manifest m;
    const char *why = NULL;
    if (cache_manifest_decode(buf, len, k1, &m, &why) < 0) {
      cache_discard(c, path, why, job, notes);
    } else {
      rc = cache_try_variants(c, &m, job, out, msgs, notes, deps);
      if (rc == 0) cache_touch(c, path);
      cache_manifest_free(&m);
    }
  }
  free(buf);
  free(path);
  return rc;
}

/* The files a variant lists: everything the TU read but the main file,
 * which key1 covers. Returns -1 if libclang reported no main file. */
static int cache_variant_files(const fe_deps *deps, cache_files *files, const fe_dep **main_dep)
{
  *main_dep = NULL;
  for (size_t i = 0; i < deps->n; i++) {
    if (deps->v[i].main) { *main_dep = &deps->v[i]; continue; }
    cache_file f = { deps->v[i].path, deps->v[i].size, deps->v[i].hash };
    vec_push(files, f);
  }
  return *main_dep ? 0 : -1;
}

/* Stores a fresh result and puts its variant first in the manifest, which
 * keeps the others (up to a limit): switching back to an earlier version
 * of a header is a hit again. Two runs updating one manifest at once may
 * lose a variant, which costs a parse later, never a wrong summary. */
static void cache_store(cache *c, const fe_job *job, const sum_tu *sum, const fe_msgs *msgs,
                        const fe_deps *deps)
{
  cache_variant v = {0};
  const fe_dep *main_dep;
  if (cache_variant_files(deps, &v.files, &main_dep) < 0) { vec_free(&v.files); return; }
  /* Keyed on the main file as libclang read it, not as it was before. */
  cache_key k1 = cache_key1(c, job, main_dep->size, main_dep->hash);
  v.result = cache_key2(k1, &v.files);
  size_t len;
  unsigned char *rec = cache_result_encode(sum, msgs, v.result, &len);
  char *rpath = cache_entry_path(c, v.result, ".r");
  cache_write(c, rpath, rec, len);
  free(rpath);
  free(rec);
  char *mpath = cache_entry_path(c, k1, ".m");
  size_t mlen = 0;
  unsigned char *old = cache_read(c, mpath, &mlen);
  cache_manifest m = {0}, prev = {0};
  const char *why;
  vec_push(&m, v);
  if (old && cache_manifest_decode(old, mlen, k1, &prev, &why) == 0)
    for (size_t i = 0; i < prev.n; i++)
      if (prev.v[i].result.hi != v.result.hi || prev.v[i].result.lo != v.result.lo) vec_push(&m, prev.v[i]);
  free(old);
  unsigned char *enc = cache_manifest_encode(&m, k1, &mlen);
  cache_write(c, mpath, enc, mlen);
  free(enc);
  free(mpath);
  vec_free(&v.files);   /* its paths belong to deps */
  cache_manifest_free(&prev);
  vec_free(&m);
}

/* Puts the notes before the TU's own messages. */
static void cache_prepend(fe_msgs *msgs, fe_msgs *notes)
{
  for (size_t i = 0; i < msgs->n; i++) vec_push(notes, msgs->v[i]);
  vec_free(msgs);
  *msgs = *notes;
}

fe_status cache_summarize(cache *c, fe_parser parse, const fe_job *job, const kb *k, sum_tu **out,
                          fe_msgs *msgs, fe_deps *want)
{
  fe_msgs notes = {0};
  uint64_t size, hash;
  bool on = c->dir != NULL;
  if (on && cache_file_hash(c, job->file, &size, &hash) == 0 &&
      cache_lookup(c, cache_key1(c, job, size, hash), job, out, msgs, &notes, want) == 0) {
    atomic_fetch_add(&c->hits, 1);
    cache_prepend(msgs, &notes);
    return FE_OK;
  }
  if (on) atomic_fetch_add(&c->misses, 1);
  atomic_fetch_add(&c->parsed, 1);
  fe_deps deps = {0};
  fe_status st = parse.run(parse.ctx, job, k, out, msgs, on || want ? &deps : NULL);
  /* A TU with errors is not stored: the fix may be a header that did not
   * exist (and so is in no manifest), and its errors should show anyway. */
  if (on && st == FE_OK) cache_store(c, job, *out, msgs, &deps);
  if (want) {
    for (size_t i = 0; i < deps.n; i++) vec_push(want, deps.v[i]);
    vec_free(&deps);
  }
  fe_deps_free(&deps);
  cache_prepend(msgs, &notes);
  return st;
}

bool cache_grew(const cache *c)
{
  return atomic_load(&c->grew);
}

const char *cache_dir_of(const cache *c)
{
  return c->dir;
}

void cache_print_stats(const cache *c, FILE *f)
{
  size_t parsed = atomic_load(&c->parsed);
  if (!c->dir) fprintf(f, "purist: cache: off, %zu parsed\n", parsed);
  else fprintf(f, "purist: cache: %zu hits, %zu misses, %zu parsed\n", atomic_load(&c->hits),
               atomic_load(&c->misses), parsed);
}
