/* rt_wrap.c — what the generated wrappers call (src/verify/verify_wrap.c
 * writes them; `-Wl,--wrap=NAME` routes the program's calls of NAME from
 * other objects through __wrap_NAME). On a sampled call:
 *   prt_wrap_begin   decides, and forces the hooks to check the frame;
 *   prt_wrap_arg     hashes the live heap block a pointer argument points into;
 *   prt_wrap_after   compares those blocks (a change is a heap write), and
 *                    says whether the call may be run again: only when it
 *                    wrote nothing the checks see and made no system call
 *                    that changes anything (rt_sys.c saw them all), so
 *                    that re-running it changes nothing for the program;
 *   prt_wrap_replayed records whether the second result was the same: a
 *                    difference counts only if no other thread ran during
 *                    the two calls (rt_others.c).
 * The declarations in the generated file must match these. */
#include "rt/rt.h"
#define XXH_INLINE_ALL
#include <xxhash.h>

#define RT_WRAP_ARGS 16

typedef struct { uintptr_t start; size_t size; uint64_t hash; unsigned arg; } rt_argblk;

static PRT_TLS rt_argblk w_blk[RT_WRAP_ARGS];
static PRT_TLS unsigned w_n;
static PRT_TLS bool w_threaded;        /* threaded when the first call began */
static PRT_TLS unsigned long w_switches; /* … the other threads' context switches then */

PRT_API int prt_wrap_begin(void *fn)
{
  if (!prt.active) return -1;
  int w = prt_watch_find(fn);
  if (w < 0 || prt_in_frame()) return -1;   /* nested calls: the outer frame covers them */
  prt_tblock *b = prt_tblock_mine();
  if (!b || !prt_tick(&b->c[w].wleft)) return -1;   /* same phase as the hooks' countdown */
  atomic_fetch_add_explicit(&prt.watch[w].wchecked, 1, memory_order_relaxed);
  w_n = 0;
  w_threaded = atomic_load_explicit(&prt.threaded, memory_order_relaxed);
  if (w_threaded) w_switches = prt_others_switches();
  prt_force_next();
  return w;
}

PRT_API void prt_wrap_arg(int w, unsigned arg, const void *p)
{
  uintptr_t start;
  size_t size;
  if (w < 0 || w_n == RT_WRAP_ARGS || !prt_heap_block(p, &start, &size)) return;
  rt_argblk *b = &w_blk[w_n++];
  b->start = start;
  b->size = size;
  b->arg = arg;
  b->hash = XXH3_64bits((const void *)start, size);
}

PRT_API int prt_wrap_after(int w)
{
  if (w < 0) return 0;
  bool wrote = false;
  for (unsigned i = 0; i < w_n; i++) {
    rt_argblk *b = &w_blk[i];
    uintptr_t start;
    size_t size;
    /* The block must still be live: a function that frees it is no pure one either. */
    bool live = prt_heap_block((const void *)b->start, &start, &size) && start == b->start;
    if (!live || XXH3_64bits((const void *)b->start, b->size) != b->hash) {
      prt_record(PRT_HEAP_WRITE, w, b->arg, 0);
      wrote = true;
    }
  }
  w_n = 0;
  int frame = prt_forced_result();   /* always: it also clears the forcing */
  if (wrote || frame != 0) return 0;
  prt_set_replay(true);
  return 1;
}

PRT_API void prt_wrap_replayed(int w, int same)
{
  prt_set_replay(false);
  atomic_fetch_add_explicit(&prt.watch[w].replays, 1, memory_order_relaxed);
  if (same) return;
  /* Another thread may have written what the function read between the calls. */
  if ((w_threaded && prt_others_switches() != w_switches) || prt_others_running()) {
    prt_note_set(PRT_NOTE_RACED);
    return;
  }
  prt_record(PRT_NONDET, w, 0, 0);
}
