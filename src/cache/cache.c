/* cache.c — looking up and storing summaries (see cache.h). */
#include "cache/cache_internal.h"
#include "util/fileio.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

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
  c->shards = xmalloc(CACHE_SHARDS * sizeof *c->shards);
  for (size_t i = 0; i < CACHE_SHARDS; i++) atomic_init(&c->shards[i], -1);
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
  for (size_t i = 0; i < c->known.n; i++) free(c->known.v[i].path);
  vec_free(&c->known);
  ptrmap_free(&c->known_idx);
  pthread_mutex_destroy(&c->lock);
  free(c->dir);
  for (size_t i = 0; c->shards && i < CACHE_SHARDS; i++)
    if (atomic_load(&c->shards[i]) >= 0) close(atomic_load(&c->shards[i]));
  free(c->shards);
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

/* A hit's files, for a caller that asks what the TU read: the main file,
 * then the variant's others, as they are now. */
static void cache_hit_deps(const fe_job *job, const cache_files *files, fe_deps *deps)
{
  if (!deps) return;
  fe_dep m = { xstrdup(job->file), 0, 0, true };
  vec_push(deps, m);
  for (size_t i = 0; i < files->n; i++) {
    if (files->v[i].main || files->v[i].size == CACHE_DIR_WATCH) continue;   /* a watch is no file read */
    fe_dep d = { xstrdup(files->v[i].path), files->v[i].size, files->v[i].hash, false };
    vec_push(deps, d);
  }
}

/* Is // a comment in the job's language? Not in C89/C90 (-ansi, -std=c89,
 * iso9899:1990/199409), where the lexer's comments are not clang's: there
 * only bytes may match. gnu89 has // comments but is treated alike. */
static bool cache_tokens_ok(const fe_job *job)
{
  static const char *const c89[] = { "c89", "c90", "gnu89", "gnu90", "iso9899:1990", "iso9899:199409", NULL };
  for (int i = 0; i < job->argc; i++) {
    const char *a = job->argv[i], *v = NULL;
    if (!strcmp(a, "-ansi") || !strncmp(a, "-traditional", 12) || !strcmp(a, "-trigraphs")) return false;
    if (!strncmp(a, "-std=", 5)) v = a + 5;
    else if (!strncmp(a, "--std=", 6)) v = a + 6;
    else if ((!strcmp(a, "-std") || !strcmp(a, "--std")) && i + 1 < job->argc) v = job->argv[i + 1];
    for (int k = 0; v && c89[k]; k++)
      if (!strcmp(v, c89[k])) return false;
  }
  return true;
}

/* Indices of a variant's files whose tokens only are the same. */
typedef VEC(size_t) cache_moved_ix;

/* Checks a variant's files now: -1 if one changed, else 0, moved listing
 * those whose tokens only are the same (indices into v->files). A file
 * whose lines decide a value (__LINE__, #line) never moves. */
static int cache_variant_check(cache *c, cache_jobtoks *jt, const cache_variant *v, bool tokens,
                               cache_moved_ix *moved)
{
  for (size_t i = 0; i < v->files.n; i++) {
    const cache_file *f = &v->files.v[i];
    if (cache_file_matches(c, f)) continue;
    uint64_t size, hash, tok;
    unsigned fl;
    if (!tokens || !f->tok || cache_file_tokens(c, jt, f->path, &size, &hash, &tok, &fl) < 0 || tok != f->tok ||
        (fl & (CLEX_LINE | CLEX_LINEDIR)))
      return -1;
    vec_push(moved, i);
  }
  return 0;
}

static void cache_put(cache *c, cache_key k1, const cache_files *files, const sum_tu *sum, const fe_msgs *msgs);

/* Opens result entry buf (key k) into lz without decoding its summary:
 * where the record lies, its digest and flags; lz keeps buf. The TU's
 * messages are not kept: the manifest's variant gave them. 0, or -1 with
 * *why (buf is then the caller's). */
static int cache_lazy_open(cache_lazy *lz, unsigned char *buf, size_t len, cache_key k, const char **why)
{
  size_t off, slen;
  uint32_t flags;
  uint64_t digest[2];
  fe_msgs got = {0};
  if (cache_result_open(buf, len, k, &got, &off, &slen, digest, why) < 0) return -1;
  fe_msgs_free(&got);
  if (summary_peek_flags(buf + off, slen, &flags) < 0) {
    *why = "malformed payload";
    return -1;
  }
  if (digest[0] != lz->digest[0] || digest[1] != lz->digest[1] || flags != lz->sflags) {
    *why = "not the summary its manifest names";
    return -1;
  }
  lz->buf = buf;
  lz->off = off;
  lz->len = slen;
  return 0;
}

int cache_lazy_load(cache_lazy *lz, const char *file, char **note)
{
  if (note) *note = NULL;
  cache *c = lz->c;
  if (!c) return 0;
  lz->c = NULL;
  cache_key k = { lz->rkey[0], lz->rkey[1] };
  char *path = cache_entry_path(c, k, ".r");
  size_t len = 0;
  unsigned char *buf = cache_read(c, path, &len);
  const char *why = NULL;
  int rc = buf ? cache_lazy_open(lz, buf, len, k, &why) : -1;
  if (buf && rc < 0) {   /* as cache_discard says it */
    cache_entry_unlink(c, path);
    if (note && !c->quiet)
      *note = xasprintf("purist: note: cache: discarded a damaged entry for %s (%s/%s: %s); analysing the file again",
                        file, c->dir, path, why);
    free(buf);
  }
  free(path);
  return rc;
}

/* Did the TU fail to parse (lz's flags, or its decoded summary, say so)? */
static bool cache_lazy_failed(const cache_lazy *lz, const sum_tu *s)
{
  uint32_t flags = lz && !s ? lz->sflags : s ? s->flags : 0;
  return (flags & STF_PARSE_FAILED) != 0;
}

/* An exact hit of a run that may not need the summary: everything such a
 * run reads comes from the variant; the result is only touched (kept from
 * pruning, and known to be there). false if it is not there. */
static bool cache_lazy_hit(cache *c, const cache_variant *v, cache_lazy *lz, fe_msgs *msgs)
{
  char *path = cache_entry_path(c, v->result, ".r");
  bool there = cache_touch(c, path);
  free(path);
  if (!there) return false;
  lz->c = c;
  lz->rkey[0] = v->result.hi;
  lz->rkey[1] = v->result.lo;
  lz->digest[0] = v->digest[0];
  lz->digest[1] = v->digest[1];
  lz->sflags = v->sflags;
  for (size_t i = 0; i < v->msgs.n; i++) vec_push(msgs, xstrdup(v->msgs.v[i]));
  return true;
}

/* Every file's contents hash (sum_file.hash) is left out: a comment edit
 * changes it and nothing else, and only fix reads it (to refuse a file
 * edited since), never the link, the solve or check. */
void cache_summary_digest(const sum_tu *s, uint64_t out[2])
{
  sum_tu *w = (sum_tu *)s;   /* the hashes are put back before returning */
  uint64_t *kept = xmalloc((w->files.n ? w->files.n : 1) * sizeof *kept);
  for (size_t i = 0; i < w->files.n; i++) {
    kept[i] = w->files.v[i].hash;
    w->files.v[i].hash = 0;
  }
  size_t len;
  unsigned char *rec = summary_encode(w, &len);
  for (size_t i = 0; i < w->files.n; i++) w->files.v[i].hash = kept[i];
  free(kept);
  XXH128_hash_t h = XXH3_128bits(rec, len);
  free(rec);
  out[0] = h.high64;
  out[1] = h.low64 | 1;   /* never 0, 0: that means no summary */
}

sum_tu *cache_lazy_decode(cache_lazy *lz)
{
  if (cache_lazy_load(lz, NULL, NULL) < 0 || !lz->buf) return NULL;
  size_t pos = 0;
  char *err = NULL;
  sum_tu *s = summary_decode_verified(lz->buf + lz->off, lz->len, &pos, &err);   /* the entry's checksum held */
  if (s && pos != lz->len) { summary_free(s); s = NULL; }
  free(err);
  free(lz->buf);
  lz->buf = NULL;
  return s;
}

void cache_lazy_free(cache_lazy *lz)
{
  free(lz->buf);
  lz->buf = NULL;
}


/* A hit on a variant some files of which changed in comments or spacing
 * only: the result's locations move with their tokens, and the result is
 * stored again under the files' bytes now (the next run hits exactly).
 * -1 if a location cannot be moved exactly. */
static int cache_moved_hit(cache *c, cache_key k1, const cache_variant *v, const size_t *moved, size_t nmoved,
                           sum_tu *sum, const fe_msgs *msgs, cache_files *now)
{
  cache_moved *mv = xcalloc(nmoved, sizeof *mv);
  for (size_t i = 0; i < v->files.n; i++) vec_push(now, v->files.v[i]);   /* paths shared with v */
  int rc = 0;
  for (size_t i = 0; i < nmoved && rc == 0; i++) {
    cache_file *f = &now->v[moved[i]];
    rc = cache_file_hash(c, f->path, &f->size, &f->hash);
    mv[i].path = f->path;
    /* A file the summary never names holds none of its locations. */
    if (rc == 0 && strtab_find(sum->strs, f->path) != UINT32_MAX)
      rc = cache_moved_load(c, &v->files.v[moved[i]], f->size, f->hash, &mv[i]);
  }
  const char *why = NULL;   /* not shown: a refused move is an ordinary miss */
  if (rc == 0) rc = cache_remap(sum, msgs, mv, nmoved, &v->files, &why);
  if (rc == 0) {
    cache_put(c, k1, now, sum, msgs);
    cache_postab_store(c, now, sum);
  }
  for (size_t i = 0; i < nmoved; i++) cache_moved_free(&mv[i]);
  free(mv);
  return rc;
}

/* The result of the first variant whose files are all unchanged, or
 * changed in comments and spacing only (tokens). */
static int cache_try_variants(cache *c, cache_jobtoks *jt, cache_key k1, bool tokens, const cache_manifest *m,
                              const fe_job *job, sum_tu **out, fe_msgs *msgs, fe_msgs *notes, fe_deps *deps,
                              cache_lazy *lz)
{
  for (size_t i = 0; i < m->n; i++) {
    const cache_variant *v = &m->v[i];
    cache_moved_ix moved = {0};
    if (cache_variant_check(c, jt, v, tokens, &moved) < 0) { vec_free(&moved); continue; }
    if (lz && !moved.n && (v->digest[0] || v->digest[1])) {   /* exact: the variant says it all */
      vec_free(&moved);
      if (!cache_lazy_hit(c, v, lz, msgs)) continue;
      cache_hit_deps(job, &v->files, deps);
      return 0;
    }
    char *path = cache_entry_path(c, v->result, ".r");
    size_t len = 0;
    unsigned char *buf = cache_read(c, path, &len);
    const char *why = NULL;
    fe_msgs got = {0};
    int rc = !buf ? -1 : cache_result_decode(buf, len, v->result, out, &got, &why);
    if (buf && rc < 0) cache_discard(c, path, why, job, notes);
    cache_files now = {0};
    if (rc == 0 && moved.n && cache_moved_hit(c, k1, v, moved.v, moved.n, *out, &got, &now) < 0) {
      summary_free(*out);
      *out = NULL;
      fe_msgs_free(&got);
      rc = -1;
    }
    if (rc == 0 && !moved.n) cache_touch(c, path);   /* used: the last to be pruned */
    if (rc == 0) cache_hit_deps(job, moved.n ? &now : &v->files, deps);
    if (rc == 0 && moved.n) atomic_fetch_add(&c->moved, 1);
    if (rc == 0) {
      for (size_t k = 0; k < got.n; k++) vec_push(msgs, got.v[k]);
      vec_free(&got);
    }
    vec_free(&now);
    vec_free(&moved);
    free(buf);
    free(path);
    if (rc == 0) return 0;
  }
  return -1;
}

/* Looks the job up; 0 on a hit (*out and msgs filled). */
static int cache_lookup(cache *c, cache_jobtoks *jt, cache_key k1, bool tokens, const fe_job *job, sum_tu **out,
                        fe_msgs *msgs, fe_msgs *notes, fe_deps *deps, cache_lazy *lz)
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
      rc = cache_try_variants(c, jt, k1, tokens, &m, job, out, msgs, notes, deps, lz);
      if (rc == 0) cache_touch(c, path);
      cache_manifest_free(&m);
    }
  }
  free(buf);
  free(path);
  return rc;
}

/* key1 for the job's main file as it is now; -1 if it cannot be read. */
static int cache_main_key(cache *c, cache_jobtoks *jt, const fe_job *job, bool tokens, cache_key *k1)
{
  uint64_t size, hash, tok = 0;
  unsigned fl;
  int rc = tokens ? cache_file_tokens(c, jt, job->file, &size, &hash, &tok, &fl) : cache_file_hash(c, job->file, &size, &hash);
  if (rc < 0 || (tokens && !tok)) return -1;
  *k1 = cache_key1(c, job, tokens, size, tokens ? tok : hash);
  return 0;
}

/* Stores a result and puts its variant first in the manifest, which
 * keeps the others (up to a limit): switching back to an earlier version
 * of a header is a hit again. Two runs updating one manifest at once may
 * lose a variant, which costs a parse later, never a wrong summary. */
static void cache_put(cache *c, cache_key k1, const cache_files *files, const sum_tu *sum, const fe_msgs *msgs)
{
  cache_variant v = { cache_key2(k1, files), *files, {0, 0}, sum->flags, *msgs };
  cache_summary_digest(sum, v.digest);
  size_t len;
  unsigned char *rec = cache_result_encode(sum, v.digest, msgs, v.result, &len);
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
  cache_manifest_free(&prev);
  vec_free(&m);
}

/* Stores a fresh parse's result. Each file is recorded with the bytes
 * libclang parsed and, when the file on disk still has them, its token
 * hash; the main file's names the manifest (key1), so a parse that read
 * a main file which has changed since is not stored. The token hashes
 * go to the job's token record too (cache_toks.c). */
static void cache_store(cache *c, cache_jobtoks *jt, const fe_job *job, bool tokens, const sum_tu *sum,
                        const fe_msgs *msgs, const fe_deps *deps)
{
  cache_files files = {0};
  cache_strs owned = {0};
  cache_toks toks = {0};
  const fe_dep *main_dep = NULL;
  uint64_t main_tok = 0;
  for (size_t i = 0; i < deps->n; i++) {
    const fe_dep *d = &deps->v[i];
    cache_file f = { d->path, d->size, d->hash, 0, d->main };
    uint64_t size, hash, tok;
    unsigned fl;
    if (tokens && cache_file_tokens(c, jt, d->path, &size, &hash, &tok, &fl) == 0 && size == d->size &&
        hash == d->hash && tok) {
      f.tok = tok;
      cache_tok t = { size, hash, tok, fl };
      vec_push(&toks, t);
    }
    if (d->main && !main_dep) { main_dep = d; main_tok = f.tok; }
    else f.main = false;
    vec_push(&files, f);
  }
  /* A TU with errors is the same TU with the same errors only while no
   * header it did not find has appeared (cache_absent.c). */
  bool ok = !(sum->flags & STF_PARSE_FAILED) || cache_absent_watch(job, deps, msgs, &files, &owned) == 0;
  if (ok && main_dep && (!tokens || main_tok)) {
    cache_put(c, cache_key1(c, job, tokens, main_dep->size, tokens ? main_tok : main_dep->hash), &files, sum, msgs);
    if (tokens) cache_postab_store(c, &files, sum);
    if (tokens) cache_jobtoks_store(c, jt, &toks);
  }
  vec_free(&toks);
  vec_free(&files);   /* its paths belong to deps, or to owned */
  for (size_t i = 0; i < owned.n; i++) free(owned.v[i]);
  vec_free(&owned);
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
  return cache_summarize_lazy(c, parse, job, k, out, msgs, want, NULL);
}

fe_status cache_summarize_lazy(cache *c, fe_parser parse, const fe_job *job, const kb *k, sum_tu **out,
                               fe_msgs *msgs, fe_deps *want, cache_lazy *lz)
{
  fe_msgs notes = {0};
  bool on = c->dir != NULL, tokens = cache_tokens_ok(job);
  cache_jobtoks jt = { job, false, {0} };
  cache_key k1;
  if (lz) memset(lz, 0, sizeof *lz);
  if (on && cache_main_key(c, &jt, job, tokens, &k1) == 0 &&
      cache_lookup(c, &jt, k1, tokens, job, out, msgs, &notes, want, lz) == 0) {
    cache_jobtoks_free(&jt);
    atomic_fetch_add(&c->hits, 1);
    cache_prepend(msgs, &notes);
    if (lz && *out) cache_summary_digest(*out, lz->digest);
    return cache_lazy_failed(lz, *out) ? FE_ERRORS : FE_OK;
  }
  if (on) atomic_fetch_add(&c->misses, 1);
  atomic_fetch_add(&c->parsed, 1);
  fe_deps deps = {0};
  fe_status st = parse.run(parse.ctx, job, k, out, msgs, on || want ? &deps : NULL);
  /* A TU with errors is stored too, with the directories where a header
   * it did not find could appear (cache_absent.c): its errors show from
   * the entry as they would from a parse. A timeout or a crash is not
   * stored: it may not happen again. */
  if (on && (st == FE_OK || (st == FE_ERRORS && *out && ((*out)->flags & STF_PARSE_FAILED))))
    cache_store(c, &jt, job, tokens, *out, msgs, &deps);
  cache_jobtoks_free(&jt);
  if (want) {
    for (size_t i = 0; i < deps.n; i++) vec_push(want, deps.v[i]);
    vec_free(&deps);
  }
  fe_deps_free(&deps);
  cache_prepend(msgs, &notes);
  if (lz && *out) cache_summary_digest(*out, lz->digest);
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
  else fprintf(f, "purist: cache: %zu hits, %zu misses, %zu parsed", atomic_load(&c->hits),
               atomic_load(&c->misses), parsed);
  size_t moved = atomic_load(&c->moved);
  if (c->dir && moved) fprintf(f, " (%zu of the hits after edits of comments or spacing only)", moved);
  if (c->dir) fputc('\n', f);
}
