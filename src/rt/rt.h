/* rt.h — libpurist-rt's internals: the dynamic verifier's runtime (issue 6).
 *
 * The runtime is loaded into the user's program (linked with the flags of
 * `purist rt-flags --ldflags`). It watches the functions named in the watch
 * list file $PURIST_WATCH (written by `purist verify`) and writes what it
 * saw to $PURIST_REPORT/purist-rt.<pid>.json at exit:
 *   rt_init.c    configuration, start-up, the death-signal handlers;
 *   rt_elf.c     symbol resolution from the ELF symbol tables (libelf) and
 *                the writable segments of the program's own objects;
 *   rt_hooks.c   the -finstrument-functions hooks: per-thread frame depth,
 *                sampling, static-storage snapshots (writes);
 *   rt_count.c   per-thread call counters and sampling countdowns;
 *   rt_guard.c   mprotect + SIGSEGV for const frames (reads of globals);
 *   rt_signal.c  SIGSEGV/SIGTRAP installed once; sigaction/signal interposed;
 *   rt_heap.c    malloc & co interposed: the live-block map; pthread_create;
 *   rt_wrap.c    the API of the generated wrappers (heap writes through
 *                pointer arguments, re-execution);
 *   rt_report.c  the findings table and the JSON report (async-signal-safe);
 *   rt_exit.c    _exit, _Exit and exec* interposed: the report first;
 *   rt_sys.c     system calls in checked frames (syscall user dispatch),
 *                the vDSO's time calls interposed;
 *   rt_systab.c  system call names and what each breaks (pure, const);
 *   rt_others.c  did another thread run (the re-execution check)?
 *
 * Process-wide state is inherent here: the hooks, malloc and the signal
 * handlers are called by the program with no context argument, so the
 * runtime's state (struct prt_state, one instance `prt`) is global. It is
 * written only during start-up (before main, single-threaded) except for
 * atomic counters and the findings table, which has its own lock.
 *
 * Nothing in the runtime calls malloc: its memory comes from mmap
 * (prt_alloc), so it never sees its own allocations and stays usable from
 * inside malloc and signal handlers. */
#ifndef PURIST_RT_H
#define PURIST_RT_H
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRT_NOINST __attribute__((no_instrument_function))
/* The library is built with hidden visibility; these are what programs see. */
#define PRT_API __attribute__((visibility("default"), no_instrument_function))
/* initial-exec: no __tls_get_addr (which may allocate) on the fast path;
 * the runtime is always loaded at start-up, so static TLS is available. */
#define PRT_TLS __thread __attribute__((tls_model("initial-exec")))
#define PRT_PAGE 4096u

/* One watched function (a line of the watch list). */
typedef struct {
  const char *name;
  bool is_const;          /* const: the read check applies */
  bool found;             /* resolved to at least one address */
  atomic_ulong checked;   /* outermost frames sampled (snapshots taken);
                             the calls are counted per thread (rt_count.c) */
  atomic_ulong wchecked;  /* calls through the generated wrapper sampled */
  atomic_ulong replays;   /* … of which re-executed */
} prt_watch;

/* A slot of the address table: a watched function's address and index. */
typedef struct {
  uintptr_t addr;         /* 0: empty */
  long w;
} prt_slot;

/* A writable, page-aligned range of one of the program's own objects. */
typedef struct {
  uintptr_t lo, hi;
  int prot;               /* its protection, restored after a const frame */
} prt_range;

/* A data symbol (STT_OBJECT) in a writable range. */
typedef struct {
  uintptr_t addr;
  size_t size;
  const char *name;
  uint16_t obj;           /* index into prt_state.objs */
  bool local;             /* STB_LOCAL: a static */
} prt_sym;

typedef struct {
  bool active;            /* a watch list was given: everything below is set */
  bool abort_on_error;    /* PURIST_ABORT=1 */
  unsigned long sample;   /* PURIST_SAMPLE: check one call in N */
  const char *report_dir; /* PURIST_REPORT */
  char exe[4096];         /* the program, for the report */
  prt_watch *watch;       /* sorted by name */
  size_t nwatch;
  prt_slot *htab;         /* open addressing: function address → watch index */
  size_t hmask;
  uintptr_t fn_lo, fn_hi; /* the lowest and highest watched address */
  prt_range *ranges;      /* sorted by address */
  size_t nranges, npages;
  prt_sym *syms;          /* sorted by address */
  size_t nsyms;
  const char **objs;      /* object paths */
  size_t nobjs;
  atomic_int threaded;    /* a second thread was created */
  atomic_int heap_on;     /* the live-block map is kept */
} prt_state;

extern prt_state prt;

/* --- rt_init.c --- */
/* Memory from mmap, zeroed, never freed (start-up tables); NULL on failure. */
void *prt_alloc(size_t n);
/* A copy of s in prt_alloc memory; NULL on failure. */
char *prt_strdup(const char *s);
/* Writes a message line to stderr (async-signal-safe). */
void prt_say(const char *a, const char *b, const char *c);

/* --- rt_elf.c --- */
/* Resolves the watch list against the loaded objects and collects the
 * writable ranges and data symbols. Returns 0, -1 on a failure said on stderr. */
int prt_elf_load(void);
/* Watch index of a function address, or -1 (lock-free: the table is
 * frozen before main). Inline: every hook call of every instrumented
 * function asks, so the common miss costs a compare or two, no call. */
PRT_NOINST static inline int prt_watch_find(const void *fn)
{
  uintptr_t a = (uintptr_t)fn;
  if (a < prt.fn_lo || a > prt.fn_hi) return -1;   /* also: nothing resolved (lo > hi) */
  for (size_t h = (a * 0x9E3779B97F4A7C15ull) >> 20 & prt.hmask;; h = (h + 1) & prt.hmask) {
    const prt_slot *s = &prt.htab[h];
    if (s->addr == a) return (int)s->w;
    if (!s->addr) return -1;
  }
}
/* Index of the range holding a, or -1. */
int prt_range_find(uintptr_t a);
/* Index of the data symbol covering a, or -1. */
long prt_sym_find(uintptr_t a);

/* --- rt_hooks.c --- */
/* The calling thread is inside a watched frame / replaying a call. */
bool prt_in_frame(void);
/* A longjmp to the stack level target (the stack pointer setjmp saved) is
 * about to leave every watched frame entered below it: they are closed
 * (the outermost checked one compared, as at its return), so the calls
 * after it are checked again (rt_jump.c). */
void prt_jump_unwinds(uintptr_t target);
void prt_set_replay(bool on);
/* The signal mask the open checked frame restores at its end (the
 * program's own; asynchronous signals are held meanwhile). */
sigset_t *prt_frame_mask(void);
/* pthread_sigmask for the program inside a checked frame: applied to the
 * mask the frame restores, asynchronous signals still held. Returns 0 or
 * an error number. */
int prt_frame_sigmask(int how, const sigset_t *set, sigset_t *old);
/* The next outermost frame of this thread is checked whatever the sample. */
void prt_force_next(void);
/* After the call: -1 if no forced frame ran (the function is not
 * instrumented), 1 if it wrote static storage, 0 if not. */
int prt_forced_result(void);

/* --- rt_count.c --- */
/* One thread's counters for one watched function. Only the owning thread
 * writes them; `calls` is atomic (relaxed: a plain load and store on
 * x86-64) because the report sums every thread's from another thread or a
 * signal handler. */
typedef struct {
  atomic_ulong calls;     /* outermost frames entered */
  unsigned long left;     /* calls until the hooks' next sampled one */
  unsigned long wleft;    /* … the wrapper's next sampled one */
} prt_tcount;

/* A thread's counters, one per watched function; blocks are never freed:
 * a thread that ends gives its block up for the next new thread, counts
 * and all (the totals are sums over blocks). */
typedef struct prt_tblock {
  struct prt_tblock *next;
  atomic_int owned;
  atomic_ulong hooks;     /* the owner's hook calls once the process is threaded */
  prt_tcount c[];
} prt_tblock;

extern PRT_TLS prt_tblock *prt_t_block;
/* Claims or makes the calling thread's block; NULL if out of memory. */
prt_tblock *prt_tblock_claim(void);
/* The calling thread's block (made on first use), or NULL. */
PRT_NOINST static inline prt_tblock *prt_tblock_mine(void)
{
  prt_tblock *b = prt_t_block;
  return b ? b : prt_tblock_claim();
}
/* Moves a countdown on by one call and says whether this call is sampled:
 * calls 0, N, 2N… (N = PURIST_SAMPLE) — a countdown, not a modulo (a
 * 64-bit division costs tens of cycles on every call). */
PRT_NOINST static inline bool prt_tick(unsigned long *left)
{
  if (*left) {
    --*left;
    return false;
  }
  *left = prt.sample - 1;
  return true;
}
/* Counts a hook call of the calling thread (threaded processes only): how
 * a checked frame tells that another thread ran instrumented code. */
PRT_NOINST static inline void prt_activity(void)
{
  prt_tblock *b = prt_tblock_mine();
  if (b) atomic_store_explicit(&b->hooks, atomic_load_explicit(&b->hooks, memory_order_relaxed) + 1,
                               memory_order_relaxed);
}
/* The hook calls of every thread but the caller, summed (they only grow). */
unsigned long prt_foreign_activity(void);
/* The outermost frames of watched function w entered, over all threads. */
unsigned long prt_calls_total(int w);
/* Forgets every count (a forked child: only the calling thread lives on). */
void prt_counts_reset(void);

/* --- rt_guard.c --- */
/* Makes the program's writable data inaccessible for const frame `w`;
 * returns true if it did. */
bool prt_guard_on(int w);
void prt_guard_off(void);

/* Lifts the protection for a system call made for the program (the kernel
 * refuses a protected buffer), and puts it back. */
void prt_guard_pause(void);
void prt_guard_resume(void);

/* --- rt_signal.c --- */
/* Installs the system call check's SIGSYS handler, once; false if refused. */
bool prt_sig_own_sys(void (*sys)(int, siginfo_t *, void *));
/* Installs the read check's SIGSEGV and SIGTRAP handlers, once for the
 * process; false if the system refused. */
bool prt_sig_own(void (*segv)(int, siginfo_t *, void *), void (*trap)(int, siginfo_t *, void *));
/* Hands a signal that is not the read check's to the program's handler
 * (or to the default action), from inside our handler. */
void prt_sig_chain(int sig, siginfo_t *si, void *uctx);
/* The C library's sigaction, past the interposed one. */
int prt_sig_real(int sig, const struct sigaction *act, struct sigaction *old);

/* --- rt_heap.c --- */
/* The live heap block holding p: its start and size; false if none. */
bool prt_heap_block(const void *p, uintptr_t *start, size_t *size);

/* --- rt_systab.c --- */
/* What a system call inside a watched call breaks (docs/decisions.md). */
typedef enum {
  PRT_SYS_HARMLESS,       /* allocation, locks: not reported, may be repeated */
  PRT_SYS_QUERY_CONST,    /* reads the process's own settings: breaks const only */
  PRT_SYS_QUERY,          /* reads the outside world, changes nothing: breaks both */
  PRT_SYS_EFFECT          /* changes something: breaks both, never repeated */
} prt_sys_class;
/* The name of x86-64 system call nr, or NULL. */
const char *prt_sys_name(long nr);
/* a: the six arguments (some calls' class depends on them). */
prt_sys_class prt_sys_classify(long nr, const long a[6]);
/* System call nr may wait or be interrupted by a signal. */
bool prt_sys_class_waits(long nr);

/* --- rt_sys.c --- */
#define PRT_SYS_VDSO (1L << 20)   /* in a finding's arg: a vDSO call, no system call */
/* A checked outermost frame of watch index w begins: the thread's system
 * calls trap from now on. False if they cannot be seen (said once). */
bool prt_sys_frame_begin(int w);
/* … ends: true if it made a system call that must not be repeated. */
bool prt_sys_frame_end(void);
/* The runtime's own work inside a frame: its system calls pass (pause
 * returns what resume puts back). */
char prt_sys_pause(void);
void prt_sys_resume(char was);
/* The calling thread is in a frame whose system calls are watched. */
bool prt_sys_watched(void);
/* An interposed function stands for system call nr: recorded for the frame. */
void prt_sys_note(long nr, const long a[6]);
/* In a forked child (was: the selector at the fork, from prt_sys_pause). */
void prt_sys_after_fork(char was);

/* --- rt_others.c --- */
/* Context switches of every thread but the caller so far. */
unsigned long prt_others_switches(void);
/* Another thread is running or runnable now, or cannot be told. */
bool prt_others_running(void);

/* --- rt_report.c --- */
typedef enum { PRT_GLOBAL_WRITE, PRT_GLOBAL_READ, PRT_HEAP_WRITE, PRT_NONDET, PRT_SYSCALL } prt_kind;
typedef enum { PRT_NOTE_THREADS = 1, PRT_NOTE_FULL = 2, PRT_NOTE_NOGUARD = 4, PRT_NOTE_UNRETURNED = 8,
               PRT_NOTE_NOSYS = 16, PRT_NOTE_RACED = 32 } prt_note;
/* Records a finding: for writes `idx` is the checked call's index (which
 * calls wrote: every one, or only the first ones — memoisation); `arg` is
 * the symbol index (globals) or the argument index (heap). */
void prt_record(prt_kind k, int w, long arg, unsigned long idx);
void prt_note_set(prt_note n);
/* The finding (k, w, arg) exists and has no call site yet. */
bool prt_site_missing(prt_kind k, int w, long arg);
/* Sets its call site: a link-time address in object prt.objs[obj]. */
void prt_site_set(prt_kind k, int w, long arg, int obj, uintptr_t addr);
/* Writes the report once (at exit or on a fatal signal), then removes
 * this process's mark. */
void prt_report_write(void);
/* Marks this process as running under the runtime: PURIST_REPORT/
 * purist-rt.<pid>.alive, holding the program's path. A mark without a
 * report tells `purist verify` that the process was killed (SIGKILL) or
 * otherwise ended without writing one. Also makes this pid the report's. */
void prt_alive_mark(void);
/* Does this process own the report (not a vfork child in its memory)? */
bool prt_report_mine(void);
/* Before an exec: writes what is known to a report named for the moment
 * (path, cap) and removes the mark; false if nothing was written. */
bool prt_report_before_exec(char *path, size_t cap);
/* The exec failed: removes that report and marks the process again. */
void prt_report_exec_failed(const char *path);
/* Forgets the findings (a forked child starts its own report). */
void prt_report_reset(void);

#endif
