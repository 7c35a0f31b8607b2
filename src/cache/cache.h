/* cache.h — the summary cache: a TU whose inputs have not changed is not
 * parsed again.
 *
 * Design (ccache's "direct mode"): key1 hashes what is known before a parse
 * — purist's build, the knowledge base, the job's directory, main file,
 * flags and the main file's tokens. key1 names a manifest listing, for
 * each variant seen, the files the TU read with their content and token
 * hashes and the key of the result (the summary and the TU's messages). A
 * lookup is a hit when every file of a variant still has the recorded
 * contents, or its tokens (an edit of comments or spacing: the result's
 * locations are then moved to the tokens' new places, cache_remap.c).
 * Entries are written to a temporary file and renamed into place, so
 * concurrent runs never see half an entry; every entry carries a checksum,
 * and a damaged one is discarded, reported and rebuilt. The on-disk layout
 * is in docs/decisions.md ("Summary cache").
 *
 * The folder (docs/layout.md) calls the jobs' type (frontend/fe.h) and
 * util/; the parse pipeline (parse/) is what calls it. */
#ifndef PURIST_CACHE_H
#define PURIST_CACHE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "frontend/fe.h"

typedef struct cache cache;

/* A cache in directory dir (created if missing), or, with dir NULL, none:
 * every TU is parsed and only counted. A directory that cannot be created
 * or written is reported once on stderr (unless quiet) and the run goes on
 * without a cache. kb's digest is part of every key. */
cache *cache_new(const char *dir, const kb *k, bool quiet);
void cache_free(cache *c);

/* fe_summarize (run by parse) through the cache: on a hit, the stored summary and the
 * messages the parse printed; on a miss, a parse whose complete result
 * (FE_OK) is stored. A damaged entry adds a note to msgs. If deps is not
 * NULL it gets the files the TU read, on a hit too (the manifest's list,
 * the main file first); their size and hash are then those recorded.
 * Thread-safe: workers share one cache. */
fe_status cache_summarize(cache *c, fe_parser parse, const fe_job *job, const kb *k, sum_tu **out,
                          fe_msgs *msgs, fe_deps *deps);

/* A result a run may not need decoded (cache_summarize_lazy). An exact
 * hit is not even read: the manifest's variant names the result and
 * carries its summary's digest, flags and the TU's messages, which is
 * all a run whose findings are kept needs (cli/progmemo.c); the result
 * is read when the run turns out to need the summary (cache_lazy_load). */
typedef struct {
  unsigned char *buf;        /* the result entry's bytes (read and verified), or NULL */
  size_t off, len;           /* the summary record: buf[off .. off + len) */
  uint64_t digest[2];        /* cache_summary_digest of the summary; 0, 0: no summary */
  uint32_t sflags;           /* the summary's STF_* flags */
  cache *c;                  /* not NULL: the result, entry rkey of c, is not read yet */
  uint64_t rkey[2];
} cache_lazy;
/* cache_summarize, leaving the summary of an exact hit unread in lz
 * (*out NULL; cache_lazy_load, then cache_lazy_decode give it); any other
 * summary is decoded as usual. lz->digest is set either way. */
fe_status cache_summarize_lazy(cache *c, fe_parser parse, const fe_job *job, const kb *k, sum_tu **out,
                               fe_msgs *msgs, fe_deps *deps, cache_lazy *lz);
/* Reads the result lz names, if not read yet: 0 when lz holds a summary
 * record to decode (or no summary at all), -1 if the result is gone or
 * damaged (removed; lz then holds nothing: the caller parses the TU
 * again). For a damaged one *note (caller frees; NULL if note is NULL or
 * the cache is quiet) says so, naming file, the TU's main file. */
int cache_lazy_load(cache_lazy *lz, const char *file, char **note);
/* The summary lz holds once loaded (NULL if none or damaged), which it
 * gives up. */
sum_tu *cache_lazy_decode(cache_lazy *lz);
void cache_lazy_free(cache_lazy *lz);
/* The digest of a summary's encoding, its files' contents hashes left
 * out (as cache_lazy's). */
void cache_summary_digest(const sum_tu *s, uint64_t out[2]);

/* --- the files a project's runs read (cache_stat.c) --------------------- */
/* Before the lookups of a run on project name (its root): loads the index
 * of the files earlier runs read, with their stamps, so an unchanged file
 * is not read again. Once a run, before any lookup; not thread-safe. */
void cache_stat_begin(cache *c, const char *name);
/* After the lookups: writes the index again if this run read a file. */
void cache_stat_end(cache *c);

/* --- a whole program's findings (cache_prog.c) -------------------------- */
/* The blob stored under key (the caller's hash of everything the findings
 * depend on; purist's build and knowledge base are added), or NULL; the
 * caller frees *mem, into which *blob points. */
int cache_prog_get(cache *c, const uint64_t key[2], unsigned char **mem, const unsigned char **blob, size_t *n);
void cache_prog_put(cache *c, const uint64_t key[2], const void *blob, size_t n);

/* One line: "purist: cache: H hits, M misses, P parsed" (or "off"), and
 * " (N of the hits after edits of comments or spacing only)" if N > 0. */
void cache_print_stats(const cache *c, FILE *f);

/* --- size and pruning (cache_prune.c) --------------------------------- */

/* The default limit: 1 GiB, as ccache's default order of magnitude. */
#define CACHE_DEFAULT_MAX_SIZE ((uint64_t)1 << 30)

typedef struct {
  uint64_t bytes;      /* on disk, as du counts */
  uint64_t files;      /* entries and temporaries */
  uint64_t manifests;  /* one per TU variant family: about the number of files cached */
} cache_usage;

/* What the cache in dir holds (all zero if it does not exist); -1 with
 * *err (caller frees) if it cannot be read. */
int cache_usage_of(const char *dir, cache_usage *u, char **err);
/* If the cache in dir holds more than max bytes, removes the entries used
 * least recently until it holds at most 9/10 of max. Under an exclusive
 * lock; when another process holds it, returns 0 at once (u zeroed).
 * Returns the number of files removed (u: what is left), or -1 with *err. */
long cache_prune(const char *dir, uint64_t max, cache_usage *u, char **err);
/* After a run that wrote (cache_grew): keeps DIR/usage, what the cache
 * holds, up to date with what this run wrote, and prunes (cache_prune)
 * when that passes max, or when the figure is missing, damaged or a day
 * old (it is then counted again). max 0: no limit, only the figure kept.
 * Returns as cache_prune. */
long cache_prune_grown(cache *c, uint64_t max, cache_usage *u, char **err);
/* Did this run store an entry (so the cache may have grown)? */
bool cache_grew(const cache *c);
/* The cache's directory, or NULL when there is none. */
const char *cache_dir_of(const cache *c);

/* Removes every entry of the cache in dir and the directory itself if
 * nothing else is in it. Returns the number of entries removed, or -1 with
 * *err (caller frees) if dir is not a purist cache or cannot be cleaned. */
long cache_clean(const char *dir, char **err);

#endif
