/* rt_heap.c — the live heap blocks, and the moment a process gets threads.
 *
 * malloc, calloc, realloc and free are interposed (the runtime comes before
 * the C library in the program's search order) and forward to glibc's
 * __libc_* entry points, which need no dlsym and so no allocation. While a
 * watch list is active every live block is kept in an open-addressing map
 * from start address to size, under one mutex (malloc is called from every
 * thread). Blocks from memalign/posix_memalign/aligned_alloc and from before
 * start-up are not in the map: pointers into them are not checked.
 *
 * pthread_create is interposed to notice the second thread (rt_guard.c). */
#include "rt/rt.h"
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

#define RT_TOMB ((uintptr_t)1)
/* An interior pointer is looked for this far before it, in malloc's 16-byte steps. */
#define RT_BACK_LIMIT (64u * 1024u)

typedef struct { uintptr_t key; size_t size; } rt_blk;

static pthread_mutex_t h_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_blk *h_tab;
static size_t h_cap, h_used;           /* h_used counts tombstones too */
static uintptr_t h_min = UINTPTR_MAX, h_max;

PRT_NOINST static size_t rt_slot(uintptr_t k) { return (k * 0x9E3779B97F4A7C15ull) >> 17 & (h_cap - 1); }

PRT_NOINST static void rt_put(uintptr_t k, size_t size);

/* Doubles the table (or rebuilds it without tombstones). */
PRT_NOINST static bool rt_grow(void)
{
  size_t old_cap = h_cap;
  rt_blk *old = h_tab;
  size_t cap = old_cap ? old_cap * 2 : 4096;
  rt_blk *t = prt_alloc(cap * sizeof *t);
  if (!t) return false;
  h_tab = t;
  h_cap = cap;
  h_used = 0;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].key > RT_TOMB) rt_put(old[i].key, old[i].size);
  if (old) munmap(old, old_cap * sizeof *old);
  return true;
}

PRT_NOINST static void rt_put(uintptr_t k, size_t size)
{
  if ((h_used + 1) * 2 > h_cap && !rt_grow()) return;
  size_t h = rt_slot(k);
  while (h_tab[h].key > RT_TOMB && h_tab[h].key != k) h = (h + 1) & (h_cap - 1);
  if (h_tab[h].key <= RT_TOMB) h_used += h_tab[h].key == 0;
  h_tab[h].key = k;
  h_tab[h].size = size;
  if (k < h_min) h_min = k;
  if (k + size > h_max) h_max = k + size;
}

/* Slot of k, or -1. */
PRT_NOINST static long rt_get(uintptr_t k)
{
  if (!h_cap) return -1;
  for (size_t h = rt_slot(k);; h = (h + 1) & (h_cap - 1)) {
    if (h_tab[h].key == k) return (long)h;
    if (h_tab[h].key == 0) return -1;
  }
}

PRT_NOINST static void rt_track(void *p, size_t size)
{
  if (!p || !atomic_load_explicit(&prt.heap_on, memory_order_relaxed)) return;
  pthread_mutex_lock(&h_lock);
  rt_put((uintptr_t)p, size);
  pthread_mutex_unlock(&h_lock);
}

PRT_NOINST static void rt_untrack(void *p)
{
  if (!p || !atomic_load_explicit(&prt.heap_on, memory_order_relaxed)) return;
  pthread_mutex_lock(&h_lock);
  long h = rt_get((uintptr_t)p);
  if (h >= 0) h_tab[h].key = RT_TOMB;
  pthread_mutex_unlock(&h_lock);
}

PRT_NOINST bool prt_heap_block(const void *p, uintptr_t *start, size_t *size)
{
  uintptr_t a = (uintptr_t)p;
  bool found = false;
  pthread_mutex_lock(&h_lock);
  if (a >= h_min && a < h_max) {
    uintptr_t lo = a > RT_BACK_LIMIT ? a - RT_BACK_LIMIT : 0;
    for (uintptr_t k = a & ~(uintptr_t)15; k >= lo && k > RT_TOMB && !found; k -= 16) {
      long h = rt_get(k);
      if (h < 0) continue;
      found = a < k + h_tab[h].size || (a == k && h_tab[h].size == 0);
      if (found) { *start = k; *size = h_tab[h].size; }
      else break;   /* the nearest block before a ends before it */
    }
  }
  pthread_mutex_unlock(&h_lock);
  return found;
}

/* fork: the child must not inherit a lock held by another thread. */
PRT_NOINST static void rt_fork_prepare(void) { pthread_mutex_lock(&h_lock); }
PRT_NOINST static void rt_fork_release(void) { pthread_mutex_unlock(&h_lock); }

__attribute__((constructor(102))) PRT_NOINST static void rt_heap_init(void)
{
  pthread_atfork(rt_fork_prepare, rt_fork_release, rt_fork_release);
}

PRT_API void *malloc(size_t n)
{
  void *p = __libc_malloc(n);
  rt_track(p, n);
  return p;
}

PRT_API void *calloc(size_t n, size_t m)
{
  void *p = __libc_calloc(n, m);
  rt_track(p, n * m);   /* no overflow: calloc failed if n * m overflows */
  return p;
}

PRT_API void *realloc(void *old, size_t n)
{
  rt_untrack(old);
  void *p = __libc_realloc(old, n);
  if (p) rt_track(p, n);
  else if (old && n) rt_track(old, 0);   /* failed: old lives on, size unknown */
  return p;
}

PRT_API void free(void *p)
{
  rt_untrack(p);
  __libc_free(p);
}

typedef int (*rt_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

PRT_API int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
  static _Atomic(rt_create_fn) real;
  rt_create_fn f = atomic_load(&real);
  if (!f) {
    f = (rt_create_fn)dlsym(RTLD_NEXT, "pthread_create");
    atomic_store(&real, f);
  }
  atomic_store(&prt.threaded, 1);
  return f(t, attr, fn, arg);
}
