/* rt_count.c — per-thread call counters and sampling countdowns.
 *
 * Every call of a watched function is counted and moves its sampling
 * countdown on. Shared atomic counters would make every call a locked
 * read-modify-write on a cache line all threads fight over; instead each
 * thread owns a block of counters (rt.h, prt_tblock) it updates with plain
 * stores, and the report sums the blocks. Blocks are linked into a list
 * that only grows (lock-free push) and are never freed: when a thread ends
 * its block is given up (pthread key destructor) and the next new thread
 * takes it over, counts and all, so a program that starts many short
 * threads keeps as many blocks as it ever had threads at once. */
#include "rt/rt.h"
#include <pthread.h>
#include <string.h>

PRT_TLS prt_tblock *prt_t_block;

static _Atomic(prt_tblock *) c_head;   /* every block ever made */
static pthread_once_t c_once = PTHREAD_ONCE_INIT;
static pthread_key_t c_key;

/* Thread exit: the block goes back to the pool. A hook running in a later
 * destructor claims one again (and is given up again). */
PRT_NOINST static void rt_tblock_release(void *p)
{
  prt_tblock *b = p;
  prt_t_block = NULL;
  atomic_store_explicit(&b->owned, 0, memory_order_release);
}

PRT_NOINST static void rt_key_make(void)
{
  pthread_key_create(&c_key, rt_tblock_release);
}

/* A block nobody owns, taken over; NULL if none. */
PRT_NOINST static prt_tblock *rt_tblock_reuse(void)
{
  for (prt_tblock *b = atomic_load_explicit(&c_head, memory_order_acquire); b; b = b->next) {
    int free_ = 0;
    if (atomic_compare_exchange_strong(&b->owned, &free_, 1)) return b;
  }
  return NULL;
}

/* A new block, pushed onto the list. */
PRT_NOINST static prt_tblock *rt_tblock_new(void)
{
  prt_tblock *b = prt_alloc(sizeof *b + prt.nwatch * sizeof(prt_tcount));
  if (!b) return NULL;
  atomic_init(&b->owned, 1);
  b->next = atomic_load_explicit(&c_head, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(&c_head, &b->next, b, memory_order_release,
                                                memory_order_relaxed)) {}
  return b;
}

PRT_NOINST prt_tblock *prt_tblock_claim(void)
{
  pthread_once(&c_once, rt_key_make);
  prt_tblock *b = rt_tblock_reuse();
  if (!b) b = rt_tblock_new();
  if (!b) return NULL;
  prt_t_block = b;
  pthread_setspecific(c_key, b);
  return b;
}

PRT_NOINST unsigned long prt_calls_total(int w)
{
  unsigned long n = 0;
  for (prt_tblock *b = atomic_load_explicit(&c_head, memory_order_acquire); b; b = b->next)
    n += atomic_load_explicit(&b->c[w].calls, memory_order_relaxed);
  return n;
}

PRT_NOINST unsigned long prt_foreign_activity(void)
{
  unsigned long n = 0;
  for (prt_tblock *b = atomic_load_explicit(&c_head, memory_order_acquire); b; b = b->next)
    if (b != prt_t_block) n += atomic_load_explicit(&b->hooks, memory_order_relaxed);
  return n;
}

PRT_NOINST void prt_counts_reset(void)
{
  for (prt_tblock *b = atomic_load_explicit(&c_head, memory_order_acquire); b; b = b->next) {
    for (size_t i = 0; i < prt.nwatch; i++) {
      atomic_store_explicit(&b->c[i].calls, 0, memory_order_relaxed);
      b->c[i].left = b->c[i].wleft = 0;
    }
    /* the threads that owned the others do not exist in this process */
    if (b != prt_t_block) atomic_store_explicit(&b->owned, 0, memory_order_relaxed);
  }
}
