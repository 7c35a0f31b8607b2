/* cheat.h — recognising deliberate cheats (issue 14), for misuse.c,
 * discarded.c and fix: memoisation wherever its cache lives, and constant
 * data not marked const. Internal to src/checks. */
#ifndef PURIST_CHEAT_H
#define PURIST_CHEAT_H
#include <stdbool.h>
#include "checks/noreturn.h"
#include "link/link.h"
#include "util/ptrmap.h"

typedef VEC(uint32_t) cheat_ids;

/* Where the cache of a memoising function lives. */
typedef enum {
  MEMO_STATIC,   /* a static (or file-static) written under an "already computed?" test */
  MEMO_THREAD,   /* a thread-local written that way: one cache per thread */
  MEMO_ONCE,     /* filled under a once-guard: an atomic test (g_once_init_enter), pthread_once, call_once */
  MEMO_CALLEE    /* the function calls memoising functions (chain: first callee … the one with the cache) */
} cheat_memo_kind;

typedef struct {
  uint8_t kind;          /* cheat_memo_kind (of the function holding the cache, for MEMO_CALLEE: see inner) */
  uint8_t inner;         /* MEMO_CALLEE: the kind of the innermost memo */
  uint8_t cache_obj;     /* SO_* of the cache */
  uint32_t cache;        /* the cache object's name (string id) */
  sum_loc cache_loc;     /* where it is written (or, for pthread_once, read) */
  uint32_t once;         /* MEMO_ONCE: the once primitive called (0: an atomic test only) */
  bool arg_value;        /* a cache write stores a value computed from the arguments (SEF_ARG_VALUE) */
  sum_loc arg_loc;       /* … the first such write */
  cheat_ids caches;      /* every cache object written under the guard */
  cheat_ids feeders;     /* callees computing the cached value */
  cheat_ids chain;       /* MEMO_CALLEE: function indices from the callee to the memoising one */
} cheat_memo;

/* The program-wide facts cheats are judged by. */
typedef struct {
  ptrmap writers;        /* object key → 1 + the one function writing it or taking its address,
                            LINK_MANY_WRITERS if several (link_obj_writers) */
  bool whole_program;    /* a main is defined, or --whole-program */
  nr_ctx *nr;            /* the classes of paths that return (noreturn.h), owned */
} cheat_ctx;

void cheat_ctx_init(cheat_ctx *c, const link_prog *p, bool whole_program);
void cheat_ctx_free(cheat_ctx *c);


/* Is every effect and call of function fi stronger than `decl` part of
 * memoisation? Fills m (free with cheat_memo_free). */
bool cheat_find_memo(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl, cheat_memo *m);
void cheat_memo_free(cheat_memo *m);

/* A witness w of fi (its first effect or call beyond decl) that is the
 * own work of a memo shape that fails for another reason (a cache
 * written under its test, `if (!cache) cache = probe (); return cache +
 * other;`): fi's first effect or call beyond decl outside that shape (the
 * read of `other`), which is what breaks the attribute; else w. */
link_why cheat_memo_other_cause(const link_prog *p, uint32_t fi, purity decl, link_why w);

/* Reads of globals nothing writes (decl must be const). */
typedef enum {
  FROZEN_NONE,     /* not that */
  FROZEN_CHEAT,    /* a static, or a whole program's global: a note */
  FROZEN_LIBRARY   /* an external global of a library, which its clients can write: a misuse */
} cheat_frozen_verdict;
cheat_frozen_verdict cheat_frozen(const link_prog *p, const cheat_ctx *c, uint32_t fi, purity decl,
                                  uint32_t *name, sum_loc *at);

#endif
