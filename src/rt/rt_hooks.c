/* rt_hooks.c — the -finstrument-functions hooks and the static-storage check.
 *
 * Every instrumented function calls the enter hook on entry and the exit
 * hook on return. A thread's *outermost* watched frame is where checking
 * happens (what nested watched functions do is the outer one's doing):
 * on a sampled entry each page of the watched ranges is copied; on exit
 * each page is compared with its copy (memcmp), a changed one byte by byte,
 * and every data symbol covering a changed byte is recorded as written, with
 * the index of the checked call (every call vs. the first ones only is
 * decided from those indices when the report is written).
 *
 * Fast paths: not active (no watch list) → one load; not a watched
 * function → a bounds test and mostly one probe of a table frozen before
 * main (inline, rt.h); a watched call not sampled → a per-thread counter
 * and countdown (rt_count.c): no lock, no atomic read-modify-write, no
 * division, no system call.
 *
 * Threads: the data is shared, so a change seen at exit may be another
 * thread's. In a threaded process each thread counts its hook calls
 * (prt_activity); a checked frame sums the other threads' counts at entry
 * and after its comparison, holds the symbols it found written until then,
 * and drops them if the sums differ: another thread ran instrumented code
 * meanwhile (a violation on every call is still seen in the calls where the
 * other threads were idle or blocked). Writes by other threads' code that
 * is not instrumented, or by a function they were already in and that calls
 * nothing instrumented, are still attributed to the frame.
 *
 * Why a copy and no hash: the copy is needed anyway to name the changed
 * bytes, and comparing with it at exit reads each page once where hashing
 * at entry and exit reads it twice more (and cannot miss a change). */
#include "rt/rt.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

/* Per-thread frame state. */
static PRT_TLS int t_depth;           /* watched frames open on this thread */
#define RT_CFA_MAX 64                 /* watched frames whose stack level is kept */
/* Per open watched frame: the function's stack pointer when it called the
 * enter hook (the hook's CFA). A longjmp to a level above it leaves it. */
static PRT_TLS uintptr_t t_cfa[RT_CFA_MAX];
static PRT_TLS bool t_replay;         /* a wrapper is re-executing a call: hooks stand aside */
static PRT_TLS bool t_force;          /* check the next outermost frame whatever the sample */
static PRT_TLS bool t_checking;       /* the outermost frame is checked */
static PRT_TLS bool t_guarded;        /* … and its data is protected (const) */
static PRT_TLS bool t_wrote;          /* the last checked frame wrote static storage */
static PRT_TLS bool t_unsafe;         /* … made a system call that must not be repeated,
                                         or its system calls could not be seen */
static PRT_TLS bool t_forced;         /* the open frame was forced by a wrapper */
static PRT_TLS bool t_forced_done;    /* … and has ended */
static PRT_TLS int t_outer;           /* watch index of the outermost frame */
static PRT_TLS unsigned long t_idx;   /* its checked-call index */
static PRT_TLS unsigned char *t_copy; /* per page: contents at entry */
static PRT_TLS bool t_shared;         /* threaded at entry: writes are held */
static PRT_TLS unsigned long t_others;/* the other threads' hook calls at entry */
#define RT_HELD 64                    /* symbols held per frame; more are dropped */
static PRT_TLS long t_held[RT_HELD];
static PRT_TLS int t_nheld;
/* A checked frame is being opened or closed: a signal handler that runs
 * instrumented code meanwhile must not start a frame over the snapshot in
 * use (its calls are neither counted nor checked). */
static PRT_TLS volatile sig_atomic_t t_busy;
static PRT_TLS sigset_t t_mask;       /* the signal mask before a checked frame */

/* Asynchronous signals wait while a checked frame runs: a handler's writes
 * are not the function's (a SIGALRM handler's counter was reported as
 * written by the const function it interrupted), and in a guarded const
 * frame every access of the handler faults and is single-stepped, so a
 * 100 µs interval timer's handler took longer than the interval and the
 * program never went on (issue 23 item 15). The synchronous signals (a
 * fault, a trap, abort) stay open: the guard and the program need them. */
PRT_NOINST static void rt_held_set(sigset_t *all)
{
  sigfillset(all);
  static const int sync[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS };
  for (size_t i = 0; i < sizeof sync / sizeof *sync; i++) sigdelset(all, sync[i]);
}

PRT_NOINST static void rt_signals_hold(void)
{
  sigset_t all;
  rt_held_set(&all);
  pthread_sigmask(SIG_BLOCK, &all, &t_mask);
}

static pthread_once_t rt_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t rt_key;

PRT_NOINST static void rt_snap_free(void *p)
{
  munmap(p, prt.npages * PRT_PAGE);
}

PRT_NOINST static void rt_key_make(void)
{
  pthread_key_create(&rt_key, rt_snap_free);
}

/* This thread's snapshot buffers, made on first use and unmapped when the
 * thread ends. */
PRT_NOINST static bool rt_snap_buffers(void)
{
  if (t_copy) return true;
  pthread_once(&rt_key_once, rt_key_make);
  unsigned char *m = prt_alloc(prt.npages * PRT_PAGE);
  if (!m) return false;
  t_copy = m;
  pthread_setspecific(rt_key, m);
  return true;
}

PRT_NOINST static void rt_snap_take(void)
{
  unsigned char *to = t_copy;
  for (size_t r = 0; r < prt.nranges; r++) {   /* ranges are page-aligned: one copy each */
    size_t n = prt.ranges[r].hi - prt.ranges[r].lo;
    memcpy(to, (const void *)prt.ranges[r].lo, n);
    to += n;
  }
}

/* Records the symbols covering the bytes of one page that differ from the copy. */
PRT_NOINST static void rt_page_diff(uintptr_t page, const unsigned char *old)
{
  const unsigned char *now = (const unsigned char *)page;
  for (size_t i = 0; i < PRT_PAGE; i++) {
    if (now[i] == old[i]) continue;
    long s = prt_sym_find(page + i);
    if (s < 0) continue;   /* padding, GOT: no object of the program */
    if (!t_shared) prt_record(PRT_GLOBAL_WRITE, t_outer, s, t_idx);
    else if (t_nheld < RT_HELD) t_held[t_nheld++] = s;
    t_wrote = true;
    uintptr_t end = prt.syms[s].addr + prt.syms[s].size;   /* one record per symbol */
    if (end > page + i + 1) i = end >= page + PRT_PAGE ? PRT_PAGE : end - page - 1;
  }
}

PRT_NOINST static void rt_snap_compare(void)
{
  size_t pg = 0;
  for (size_t r = 0; r < prt.nranges; r++)
    for (uintptr_t a = prt.ranges[r].lo; a < prt.ranges[r].hi; a += PRT_PAGE, pg++)
      if (memcmp((const void *)a, t_copy + pg * PRT_PAGE, PRT_PAGE)) rt_page_diff(a, t_copy + pg * PRT_PAGE);
}

/* A checked outermost frame begins: the snapshot, then the guard. */
__attribute__((noinline)) PRT_NOINST static void rt_frame_check(int w, bool force)
{
  prt_watch *W = &prt.watch[w];
  t_checking = rt_snap_buffers();
  if (!t_checking) return;
  rt_signals_hold();
  t_forced = force;
  t_outer = w;
  t_idx = atomic_fetch_add_explicit(&W->checked, 1, memory_order_relaxed);
  t_wrote = false;
  t_shared = atomic_load_explicit(&prt.threaded, memory_order_relaxed);
  t_nheld = 0;
  if (t_shared) t_others = prt_foreign_activity();
  rt_snap_take();
  t_guarded = W->is_const && prt_guard_on(w);   /* the snapshot reads the data */
  /* Last: from here on the thread's system calls are the function's. */
  t_unsafe = !prt_sys_frame_begin(w);
}

/* An outermost frame begins: counted, and checked when the wrapper forces
 * it, the sample picks it, or the function has had fewer than two checked
 * calls (a write on the first only, with none on the second, is what tells
 * memoisation from a violation). */
PRT_NOINST static inline void rt_frame_begin(int w)
{
  bool force = t_force, due = false;
  t_force = false;
  t_forced = false;
  prt_tblock *b = prt_tblock_mine();
  if (b) {
    prt_tcount *c = &b->c[w];
    atomic_store_explicit(&c->calls, atomic_load_explicit(&c->calls, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    due = prt_tick(&c->left);
  }
  if (force || due || atomic_load_explicit(&prt.watch[w].checked, memory_order_relaxed) < 2) {
    t_busy = 1;
    rt_frame_check(w, force);
    t_busy = 0;
  }
}

PRT_NOINST static void rt_frame_end(void)
{
  if (!t_checking) return;
  t_busy = 1;
  t_unsafe |= prt_sys_frame_end();   /* first: the runtime's own calls pass */
  if (t_guarded) prt_guard_off();
  t_guarded = false;
  rt_snap_compare();
  if (t_shared && prt_foreign_activity() != t_others) {
    /* maybe not ours: dropped (t_wrote stays, so a wrapper does not re-execute) */
  } else
    for (int i = 0; i < t_nheld; i++) prt_record(PRT_GLOBAL_WRITE, t_outer, t_held[i], t_idx);
  t_checking = false;
  t_forced_done = t_forced;
  t_forced = false;
  t_busy = 0;
  pthread_sigmask(SIG_SETMASK, &t_mask, NULL);   /* what waited is delivered now */
}

PRT_API void __cyg_profile_func_enter(void *fn, void *site)
{
  if (!prt.active) return;
  if (atomic_load_explicit(&prt.threaded, memory_order_relaxed)) prt_activity();
  int w = prt_watch_find(fn);
  if (w < 0 || t_replay || t_busy) return;
#if defined(__GNUC__) && !defined(__clang__)
  if (t_depth < RT_CFA_MAX) t_cfa[t_depth] = (uintptr_t)__builtin_dwarf_cfa();
#endif
  if (t_depth++ == 0) rt_frame_begin(w);
}

PRT_API void __cyg_profile_func_exit(void *fn, void *site)
{
  if (!prt.active) return;
  if (atomic_load_explicit(&prt.threaded, memory_order_relaxed)) prt_activity();
  if (t_depth == 0 || t_replay || t_busy) return;
  if (prt_watch_find(fn) < 0) return;
  if (--t_depth == 0) rt_frame_end();
}

PRT_NOINST bool prt_in_frame(void) { return t_depth > 0 || t_replay; }

PRT_NOINST void prt_jump_unwinds(uintptr_t target)
{
#if defined(__GNUC__) && !defined(__clang__)
  if (!prt.active || t_replay || t_busy || t_depth == 0) return;
  /* A frame whose level is at or above the target (setjmp inside it) stays
   * open; so does everything past RT_CFA_MAX, whose levels are unknown. */
  while (t_depth > 0 && t_depth <= RT_CFA_MAX && t_cfa[t_depth - 1] < target) t_depth--;
  if (t_depth == 0) rt_frame_end();
#else
  (void)target;   /* no CFA without GCC: the frame stays open, and is noted at exit */
#endif
}
PRT_NOINST void prt_set_replay(bool on) { t_replay = on; }
PRT_NOINST sigset_t *prt_frame_mask(void) { return &t_mask; }

PRT_NOINST int prt_frame_sigmask(int how, const sigset_t *set, sigset_t *old)
{
  sigset_t prog = t_mask;
  if (set) {
    if (how == SIG_BLOCK) sigorset(&prog, &t_mask, set);
    else if (how == SIG_UNBLOCK) for (int s = 1; s < NSIG; s++) { if (sigismember(set, s) == 1) sigdelset(&prog, s); }
    else if (how == SIG_SETMASK) prog = *set;
    else return EINVAL;
    sigdelset(&prog, SIGKILL);
    sigdelset(&prog, SIGSTOP);
  }
  if (old) *old = t_mask;
  t_mask = prog;
  sigset_t real;
  rt_held_set(&real);
  sigorset(&real, &real, &prog);
  pthread_sigmask(SIG_SETMASK, &real, NULL);   /* the caller has paused the frame: the real one */
  return 0;
}
PRT_NOINST void prt_force_next(void)
{
  t_force = true;
  t_forced_done = false;
  t_wrote = false;
  t_unsafe = true;   /* until a checked frame says otherwise */
}

PRT_NOINST int prt_forced_result(void)
{
  t_force = false;   /* the wrapped function may not be instrumented */
  return !t_forced_done ? -1 : t_wrote || t_unsafe ? 1 : 0;
}
