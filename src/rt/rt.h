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
 *   rt_guard.c   mprotect + SIGSEGV for const frames (reads of globals);
 *   rt_heap.c    malloc & co interposed: the live-block map; pthread_create;
 *   rt_wrap.c    the API of the generated wrappers (heap writes through
 *                pointer arguments, re-execution);
 *   rt_report.c  the findings table and the JSON report (async-signal-safe).
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
  atomic_ulong calls;     /* outermost frames entered */
  atomic_ulong checked;   /* … of which sampled (snapshots taken) */
  atomic_ulong wcalls;    /* calls through the generated wrapper */
  atomic_ulong wchecked;  /* … of which sampled */
  atomic_ulong replays;   /* … of which re-executed */
} prt_watch;

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
  uintptr_t *haddr;       /* open addressing: function address → watch index */
  int32_t *hidx;
  size_t hmask;
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
/* Writes a message line to stderr (async-signal-safe). */
void prt_say(const char *a, const char *b, const char *c);

/* --- rt_elf.c --- */
/* Resolves the watch list against the loaded objects and collects the
 * writable ranges and data symbols. Returns 0, -1 on a failure said on stderr. */
int prt_elf_load(void);
/* Watch index of a function address, or -1 (lock-free: tables are frozen). */
int prt_watch_find(const void *fn);
/* Index of the range holding a, or -1. */
int prt_range_find(uintptr_t a);
/* Index of the data symbol covering a, or -1. */
long prt_sym_find(uintptr_t a);

/* --- rt_hooks.c --- */
/* The calling thread is inside a watched frame / replaying a call. */
bool prt_in_frame(void);
void prt_set_replay(bool on);
/* The next outermost frame of this thread is checked whatever the sample. */
void prt_force_next(void);
/* After the call: -1 if no forced frame ran (the function is not
 * instrumented), 1 if it wrote static storage, 0 if not. */
int prt_forced_result(void);

/* --- rt_guard.c --- */
/* Makes the program's writable data inaccessible for const frame `w`;
 * returns true if it did. */
bool prt_guard_on(int w);
void prt_guard_off(void);

/* --- rt_heap.c --- */
/* The live heap block holding p: its start and size; false if none. */
bool prt_heap_block(const void *p, uintptr_t *start, size_t *size);

/* --- rt_report.c --- */
typedef enum { PRT_GLOBAL_WRITE, PRT_GLOBAL_READ, PRT_HEAP_WRITE, PRT_NONDET } prt_kind;
typedef enum { PRT_NOTE_THREADS = 1, PRT_NOTE_FULL = 2, PRT_NOTE_NOGUARD = 4 } prt_note;
/* Records a finding: for writes `idx` is the checked call's index (which
 * calls wrote: every one, or only the first ones — memoisation); `arg` is
 * the symbol index (globals) or the argument index (heap). */
void prt_record(prt_kind k, int w, long arg, unsigned long idx);
void prt_note_set(prt_note n);
/* Writes the report once (at exit or on a fatal signal). */
void prt_report_write(void);
/* Forgets the findings (a forked child starts its own report). */
void prt_report_reset(void);

#endif
