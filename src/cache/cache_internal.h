/* cache_internal.h — what the cache's files share (not for other modules). */
#ifndef PURIST_CACHE_INTERNAL_H
#define PURIST_CACHE_INTERNAL_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/stat.h>
#include "cache/cache.h"
#include "cache/cache_lex.h"
#include "util/ptrmap.h"

/* A 128-bit XXH3 key; hex, it names an entry file. */
typedef struct { uint64_t hi, lo; } cache_key;
#define CACHE_KEY_HEX 33   /* 32 digits and a NUL */
void cache_key_hex(cache_key k, char out[CACHE_KEY_HEX]);

/* A file's contents as recorded in a manifest: its bytes (size, XXH3-64)
 * and its tokens (cache_lex; 0: unknown, only the bytes may match). */
typedef struct { char *path; uint64_t size, hash, tok; bool main; } cache_file;
typedef VEC(cache_file) cache_files;

/* A manifest variant: the files of one build of the TU, and its result:
 * its key and (format 6) what a run that may not need the summary reads
 * of it — the summary's digest (cache_summary_digest) and flags, and the
 * TU's messages — so an exact hit need not read the result (cache_lazy). */
typedef struct {
  cache_key result;
  cache_files files;
  uint64_t digest[2];
  uint32_t sflags;   /* the summary's STF_* flags */
  fe_msgs msgs;
} cache_variant;
typedef VEC(cache_variant) cache_manifest;

/* The contents hash of each file, computed once per run; its token hash
 * when asked for (tok_done), which is 0 if the file changed in between. */
/* What stat says of a file when it was read (cache_stat.c): trusted in a
 * later run, instead of reading the file, only while all of it is the
 * same and the file's times are well before the moment it was read. */
typedef struct {
  uint64_t dev, ino, size;
  int64_t mtime, ctime;   /* ns since the epoch */
  int64_t seen;           /* ns: the clock before the file was opened; 0: no stamp */
} cache_stamp;

typedef struct {
  char *path;
  uint64_t size, hash, tok;
  int ok;
  bool tok_done;
  bool postab;       /* its position table is known to be stored */
  unsigned lexflags; /* CLEX_* */
  cache_stamp stamp; /* when it was read and hashed */
} cache_memo_ent;
typedef VEC(cache_memo_ent) cache_memo;

#define CACHE_SHARDS 256   /* entries live in DIR/ab/…: one directory per first byte of the key */

struct cache {
  char *dir;                 /* NULL: no cache; else its path, for messages */
  int dfd;                   /* the verified directory (safefs_dir_open); every access is relative to it */
  atomic_int *shards;        /* per shard directory "00".."ff": its descriptor, opened and verified
                                once a run (cache_fs.c), -1 before; NULL without a directory */
  bool quiet;
  uint64_t env;              /* purist's build and the knowledge base */
  atomic_bool writable;      /* cleared after a failed write */
  atomic_flag warned;        /* one warning a run about the directory */
  atomic_flag odd_warned;    /* one warning a run about a file that is not regular */
  atomic_size_t hits, misses, parsed;
  atomic_size_t moved;       /* hits whose locations were moved (cache_remap) */
  atomic_bool grew;          /* an entry was written this run */
  atomic_uint_fast64_t wrote; /* what this run's writes occupy on disk, about (cache_prune_grown) */
  pthread_mutex_t lock;      /* guards the memo */
  ptrmap memo_idx;           /* XXH3 of a path → 1 + index in memo */
  cache_memo memo;
  /* The files an earlier run read, with their stamps (cache_stat.c): a
   * file whose stamp still holds is not read again. Loaded before the
   * workers start, read-only while they run. */
  cache_memo known;
  ptrmap known_idx;
  cache_key known_key;       /* the index's entry */
  atomic_size_t read_files;  /* files read (not known) this run: the index is written again */
};

/* A TU's token record (".k", entry format 7; cache_toks.c): the token
 * hash and CLEX_* flags of each version of a file (size, XXH3-64) the TU
 * read when it was last stored, so a later run that cannot trust its
 * index need not lex them again. One record per TU, not one entry per
 * file: a cold run's small files were 10-15 % of it. */
typedef struct { uint64_t size, hash, tok; unsigned flags; } cache_tok;
typedef VEC(cache_tok) cache_toks;
/* One job's record while the job is looked up and stored: read on the
 * first token hash it is asked for, or when the job is stored. */
typedef struct {
  const fe_job *job;
  bool loaded;
  cache_toks v;
} cache_jobtoks;

/* cache_key.c */
/* purist's own build (version, libclang, the executable's bytes) and kb. */
uint64_t cache_env_hash(const kb *k);
/* Hash and size of a file's current contents (memoised); -1 if unreadable. */
int cache_file_hash(cache *c, const char *path, uint64_t *size, uint64_t *hash);
/* The same and the file's token hash and CLEX_* flags (memoised). */
/* A token hash not yet known this run is taken from jt's record (if jt),
 * else the file is lexed. */
int cache_file_tokens(cache *c, cache_jobtoks *jt, const char *path, uint64_t *size, uint64_t *hash, uint64_t *tok,
                      unsigned *lexflags);
/* Marks (once a run) that the file's position table is stored; true if
 * it already was marked. */
bool cache_postab_mark(cache *c, const char *path);
/* Do the file's current contents match? size first (a stat), then hash. */
bool cache_file_matches(cache *c, const cache_file *f);
/* key1 names the manifest: with tokens, main is the main file's token
 * hash (an edit of its comments finds the same manifest), else its bytes'. */
cache_key cache_key1(const cache *c, const fe_job *job, bool tokens, uint64_t main_size, uint64_t main);
/* The key of a file's position table: its path and bytes. */
cache_key cache_key_postab(const char *path, uint64_t size, uint64_t hash);
cache_key cache_key2(cache_key k1, const cache_files *files);
/* The key of a TU's token record (".k"): the job, not its files' bytes. */
cache_key cache_key_jobtoks(const cache *c, const fe_job *job);

/* The entries' format version (cache_entry.c); 3: token hashes (issue 32);
 * 4: TUs with errors are stored, with directory watches (cache_absent.c);
 * 5: a result carries its summary's digest (cli/progmemo.c); 6: so does
 * each manifest variant, with the summary's flags and the TU's messages;
 * 7: token hashes in one record per TU (cache_toks.c), not a file each. */
#define CACHE_ENTRY_FORMAT 7
/* cache_entry.c: the entry formats, each a checksummed record carrying
 * the key it is stored under (k), which decoding checks. */
unsigned char *cache_manifest_encode(const cache_manifest *m, cache_key k, size_t *len);
/* Returns 0, or -1 with a static reason ("bad checksum", …). */
int cache_manifest_decode(const unsigned char *buf, size_t len, cache_key k, cache_manifest *m, const char **why);
void cache_manifest_free(cache_manifest *m);
/* digest: cache_summary_digest(sum), which the caller computed. */
unsigned char *cache_result_encode(const sum_tu *sum, const uint64_t digest[2], const fe_msgs *msgs, cache_key k,
                                   size_t *len);
int cache_result_decode(const unsigned char *buf, size_t len, cache_key k, sum_tu **sum, fe_msgs *msgs,
                        const char **why);
/* The same without decoding the summary: msgs filled, and where its
 * record lies in buf (checksummed with the entry: decode it verified). */
int cache_result_open(const unsigned char *buf, size_t len, cache_key k, fe_msgs *msgs, size_t *sum_off,
                      size_t *sum_len, uint64_t digest[2], const char **why);
/* A whole program's findings (".w", cache_prog.c): an opaque blob. */
unsigned char *cache_prog_encode(const void *blob, size_t n, cache_key k, size_t *len);
/* blob points into buf. 0, or -1 with a static reason. */
int cache_prog_decode(const unsigned char *buf, size_t len, cache_key k, const unsigned char **blob, size_t *n,
                      const char **why);

/* A TU's token record (".k"). */
unsigned char *cache_toks_encode(const cache_toks *t, cache_key k, size_t *len);
/* t filled (caller frees), or -1 with a static reason and t empty. */
int cache_toks_decode(const unsigned char *buf, size_t len, cache_key k, cache_toks *t, const char **why);

/* cache_toks.c */
/* The token hash and flags of the file version (size, hash) from jt's
 * record (read now if it was not); false if it has none. */
bool cache_jobtoks_find(cache *c, cache_jobtoks *jt, uint64_t size, uint64_t hash, clex_sum *out);
/* Writes jt's record as now (every file version of the TU just stored),
 * unless the record already says all of it. */
void cache_jobtoks_store(cache *c, cache_jobtoks *jt, const cache_toks *now);
void cache_jobtoks_free(cache_jobtoks *jt);

/* A position table (".t"): where each token of one version of a file is,
 * and whether its first lines say it is generated. */
unsigned char *cache_postab_encode(const clex_toks *t, bool generated, cache_key k, size_t *len);
int cache_postab_decode(const unsigned char *buf, size_t len, cache_key k, clex_toks *t, bool *generated,
                        const char **why);

/* cache_absent.c: a manifest file whose size is CACHE_DIR_WATCH is a
 * directory where a header clang did not find could appear; its hash is
 * the directory's stamp (inode, modification time). */
#define CACHE_DIR_WATCH UINT64_MAX
typedef VEC(char *) cache_strs;
/* Does watched directory f still have its recorded stamp? */
bool cache_dir_matches(const cache_file *f);
/* For a TU with errors: appends to files a watch of each directory where a
 * header msgs say was not found could appear (their paths go to owned,
 * which the caller frees). -1 if one cannot be watched (store nothing). */
int cache_absent_watch(const fe_job *job, const fe_deps *deps, const fe_msgs *msgs, cache_files *files,
                       cache_strs *owned);

/* cache_remap.c */
typedef struct {
  const char *path;
  uint32_t id;          /* its string in the summary, 0 if none (cache_remap sets it) */
  clex_toks old, cur;   /* the same tokens: where they were, where they are */
  uint64_t xxh64;       /* its contents now, for sum_file.hash (fix checks it) */
  bool gen_changed;     /* its first lines now say otherwise about being generated */
} cache_moved;
/* Moves sum's locations in the moved files (whose tokens are unchanged)
 * to the tokens' new places. 0, or -1 with *why if some location cannot
 * be moved exactly (sum is then partly changed: the caller drops it).
 * files: every file the variant checked. */
int cache_remap(sum_tu *sum, const fe_msgs *msgs, cache_moved *mv, size_t n, const cache_files *files,
                const char **why);

/* cache_postab.c */
/* Stores (once a run per file) the position table of each file of files
 * that holds sum's declarations (sum->files) or is its main file, unless
 * the cache has it. A moved file without one is a miss. */
void cache_postab_store(cache *c, const cache_files *files, const sum_tu *sum);
/* Fills m for moved file f, whose bytes are now (size, hash): its stored
 * table and its tokens now. -1 if either cannot be had. */
int cache_moved_load(cache *c, const cache_file *f, uint64_t size, uint64_t hash, cache_moved *m);
void cache_moved_free(cache_moved *m);

/* cache_stat.c */
/* Does stat st of a file say it still has the contents recorded with
 * stamp r? All of device, inode, size, modification and change times the
 * same, and both times at least CACHE_STAMP_MARGIN before r was taken (a
 * change made while or after the file was read, in the same tick of the
 * file system's clock, would leave the times as they were). */
#define CACHE_STAMP_MARGIN ((int64_t)2000000000)   /* 2 s: whole-second and FAT (2 s) times too */
bool cache_stamp_trusted(const cache_stamp *r, const struct stat *st);
/* The stamp of st, taken at seen (ns). */
cache_stamp cache_stamp_of(const struct stat *st, int64_t seen);
/* The index of the files runs of this project read (".i" entry, keyed by
 * purist's build and name, the project's root) is loaded into c->known by
 * cache_stat_begin and written by cache_stat_end if the run read a file. */
/* The known entry for path, if its stamp still holds (one stat). */
const cache_memo_ent *cache_stat_known(cache *c, const char *path, uint64_t key);
unsigned char *cache_stat_encode(const cache_memo *m, cache_key k, size_t *len);
int cache_stat_decode(const unsigned char *buf, size_t len, cache_key k, cache_memo *m, const char **why);

/* cache_read.c */
#define CACHE_MAX_READ ((uint64_t)1 << 30)
/* The whole regular file at path (NUL-terminated; caller frees), read
 * without blocking and without following a final symlink if nofollow.
 * NULL with *why NULL if it does not exist, else with *why saying what is
 * wrong with it ("not a regular file (a FIFO)"). */
unsigned char *cache_read_file(const char *path, bool nofollow, size_t *len, const char **why);
/* The same, and what fstat said of the file before it was read. */
unsigned char *cache_read_file_st(const char *path, bool nofollow, size_t *len, const char **why, struct stat *st);
/* The same for name in directory dfd, never through a symlink, and only a
 * file of the user's ("owned by another user" otherwise). */
unsigned char *cache_read_at(int dfd, const char *name, size_t *len, const char **why);
/* Warns once a run (unless quiet) that path is not a usable file. */
void cache_warn_odd(cache *c, const char *path, const char *why);

/* cache_prune.c */
#define CACHE_PRUNE_LOCK "prune.lock"
#define CACHE_USAGE_FILE "usage"   /* what the cache holds, kept up to date by each run that writes */
/* Is name one of the cache's files in a shard: an entry (.m, .r, .t, .k,
 * .w, .i) or a temporary left by a crash (cache_fs.c)? */
bool cache_entry_name_ours(const char *name);

/* cache_fs.c: entries are named "ab/cdef….ext" relative to the cache's
 * directory descriptor; the shard "ab" is opened without following a
 * symlink, so nothing in the cache leads outside it. */
/* "ab/cdef….ext" for key abcdef…; caller frees. */
char *cache_entry_path(const cache *c, cache_key k, const char *ext);
/* The entry's contents (see cache_read_at); NULL on a miss, *why set if
 * the file is there but not usable. */
unsigned char *cache_entry_read(const cache *c, const char *rel, size_t *len, const char **why);
/* Removes an entry (a damaged one). */
void cache_entry_unlink(const cache *c, const char *rel);
/* Marks an entry used now (its mtime), for least-recently-used pruning;
 * false if there is no such entry (or it cannot be touched). */
bool cache_touch(const cache *c, const char *rel);
/* Writes data to entry rel through a fresh temporary file renamed into
 * place; on failure warns once and stops further writes. */
void cache_write(cache *c, const char *rel, const void *data, size_t len);
/* Opens (creating it private if missing) and prepares the cache directory
 * dir: its tag, a check that it is writable. The descriptor, or -1 with
 * *why (caller frees). */
int cache_dir_prepare(const char *dir, char **why);
/* Opens the existing cache directory dir for stats, prune or clean: -1
 * with errno ENOENT (and *why NULL) if there is none, else with *why. */
int cache_dir_open(const char *dir, char **why);
/* Warns once (unless quiet) that the cache cannot be used, and why. */
void cache_warn(cache *c, const char *what, const char *path, int err);

#endif
