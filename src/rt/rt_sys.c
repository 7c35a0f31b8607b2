/* rt_sys.c — the system calls a checked watched call makes (issue 33).
 *
 * Linux's syscall user dispatch (prctl PR_SET_SYSCALL_USER_DISPATCH,
 * kernel 5.11 or later) makes every system call of a thread raise SIGSYS
 * while a selector byte of that thread says BLOCK. The byte is set to
 * BLOCK when a checked outermost frame begins (rt_hooks.c) and to ALLOW
 * when it ends, so only the watched function's own system calls trap. The
 * SIGSYS handler records the call (rt_systab.c says what it breaks), then
 * makes it for the program, unchanged, with the selector at ALLOW, and puts
 * the result where the program expects it (RAX of the interrupted
 * context). The one region from which system calls always pass is the C
 * library's signal return trampoline (__restore_rt): every handler
 * installed through the C library returns through it, ours and the
 * program's, so no rt_sigreturn ever traps.
 *
 * Calls made again from inside the handler return into the handler, on its
 * stack; those that cannot (clone with a new stack or shared memory,
 * clone3, vfork) are instead resumed where the program made them, with the
 * selector left at ALLOW for the rest of that frame (recorded all the same).
 * rt_sigprocmask is applied to the mask the frame will restore (rt_hooks.c
 * holds asynchronous signals during checked frames), not made, as a mask
 * set inside a handler is undone by its return. While a const frame's data
 * is protected (rt_guard.c) the protection is lifted for the call: the
 * kernel would refuse a buffer in it (EFAULT) where the plain run succeeds.
 *
 * The runtime's own system calls inside a frame (the guard's handlers, a
 * report written at a fatal signal, exec and _exit) set the selector to
 * ALLOW around them (prt_sys_pause). The vDSO's time calls make no system
 * call at all: clock_gettime, gettimeofday, time, getcpu and sched_getcpu
 * are interposed and recorded as the system call they stand for.
 *
 * Without the feature (an older kernel, PURIST_SYSCALLS=off) system calls
 * are not seen: the report says so once, and no call is executed twice
 * (rt_wrap.c), since nothing shows it was free of effects. */
#include "rt/rt.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <link.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_OFF 0
#define PR_SYS_DISPATCH_ON 1
#endif
#ifndef SYSCALL_DISPATCH_FILTER_ALLOW
#define SYSCALL_DISPATCH_FILTER_ALLOW 0
#define SYSCALL_DISPATCH_FILTER_BLOCK 1
#endif
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH 2   /* si_code of a dispatched SIGSYS */
#endif
#define RT_NSYS 512                                    /* numbers tracked per frame */
#define RT_CLONE_VM 0x100L
#define RT_CLONE_VFORK 0x4000L

#if defined(__x86_64__)

static PRT_TLS volatile char s_sel;                    /* the thread's selector byte */
static PRT_TLS signed char s_state;                    /* dispatch: 0 not tried, 1 on, -1 unavailable */
static PRT_TLS int s_w;                                /* the open frame's watch index */
static PRT_TLS bool s_effect;                          /* … made a call that must not be repeated */
static PRT_TLS uint64_t s_done[RT_NSYS / 64];          /* … numbers recorded already */
static PRT_TLS unsigned long s_count;                  /* … system calls trapped */
#define RT_MAX_TRAPS 100000

static atomic_int s_setup;                             /* 0 not yet, 1 ready, -1 unavailable */
static uintptr_t s_lo;                                 /* the always-allowed region: the C */
static size_t s_len;                                   /* … library's signal trampoline */

typedef int (*rt_gettime_fn)(clockid_t, struct timespec *);
typedef int (*rt_gettod_fn)(struct timeval *, void *);
typedef time_t (*rt_time_fn)(time_t *);
typedef int (*rt_getcpu_fn)(unsigned *, unsigned *);
typedef int (*rt_schedcpu_fn)(void);
static rt_gettime_fn s_gettime;
static rt_gettod_fn s_gettod;
static rt_time_fn s_time;
static rt_getcpu_fn s_getcpu;
static rt_schedcpu_fn s_schedcpu;

/* A system call, its raw result (-errno on failure): no errno, no
 * wrapper, so that the result goes back to the program as the kernel gave it. */
PRT_NOINST static long rt_raw(long n, const long a[6])
{
  register long r10 __asm__("r10") = a[3];
  register long r8 __asm__("r8") = a[4];
  register long r9 __asm__("r9") = a[5];
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(n), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}

PRT_NOINST char prt_sys_pause(void)
{
  char was = s_sel;
  s_sel = SYSCALL_DISPATCH_FILTER_ALLOW;
  return was;
}

PRT_NOINST void prt_sys_resume(char was) { s_sel = was; }

PRT_NOINST bool prt_sys_watched(void) { return s_sel == SYSCALL_DISPATCH_FILTER_BLOCK; }

#define RT_SITE_DEPTH 48

typedef struct { uintptr_t ip[RT_SITE_DEPTH]; int n; } rt_trace;

PRT_NOINST static _Unwind_Reason_Code rt_trace_one(struct _Unwind_Context *c, void *arg)
{
  rt_trace *t = arg;
  if (t->n == RT_SITE_DEPTH) return _URC_END_OF_STACK;
  t->ip[t->n++] = _Unwind_GetIP(c);
  return _URC_NO_REASON;
}

/* Where the program called what made the system call: the first return
 * address, walking out from here (through the signal frame and the C
 * library), that lies in one of the program's own objects; as a link-time
 * address (minus one: inside the call instruction, on its line). */
PRT_NOINST static bool rt_site(int *obj, uintptr_t *addr)
{
  rt_trace t = { .n = 0 };
  _Unwind_Backtrace(rt_trace_one, &t);
  for (int i = 0; i < t.n; i++) {
    Dl_info di;
    struct link_map *lm = NULL;
    if (!t.ip[i] || !dladdr1((void *)(t.ip[i] - 1), &di, (void **)&lm, RTLD_DL_LINKMAP) || !lm) continue;
    const char *path = lm->l_name && *lm->l_name ? lm->l_name : prt.exe;
    for (size_t k = 0; k < prt.nobjs; k++)
      if (!strcmp(prt.objs[k], path)) {
        *obj = (int)k;
        *addr = t.ip[i] - 1 - lm->l_addr;
        return true;
      }
  }
  return false;
}

/* Records system call nr as the open frame's, once per frame and number;
 * the first time for the function, with where it was called. */
PRT_NOINST static void rt_note(long nr, const long a[6], bool vdso)
{
  prt_sys_class c = prt_sys_classify(nr, a);
  if (c == PRT_SYS_EFFECT) s_effect = true;
  if (c == PRT_SYS_HARMLESS || nr < 0) return;
  if (nr < RT_NSYS) {
    uint64_t bit = (uint64_t)1 << (nr % 64);
    if (s_done[nr / 64] & bit) return;
    s_done[nr / 64] |= bit;
  }
  long arg = nr | (vdso ? PRT_SYS_VDSO : 0);
  prt_record(PRT_SYSCALL, s_w, arg, 0);
  int obj;
  uintptr_t addr;
  if (prt_site_missing(PRT_SYSCALL, s_w, arg) && rt_site(&obj, &addr)) prt_site_set(PRT_SYSCALL, s_w, arg, obj, addr);
}

PRT_NOINST void prt_sys_note(long nr, const long a[6])
{
  if (s_sel != SYSCALL_DISPATCH_FILTER_BLOCK) return;
  char was = prt_sys_pause();
  rt_note(nr, a, false);
  prt_sys_resume(was);
}

/* rt_sigprocmask inside a frame, applied to the mask the frame restores at
 * its end (the program's), and to the interrupted context's mask with the
 * held asynchronous signals kept held. Returns the system call's result. */
PRT_NOINST static long rt_sigmask(ucontext_t *uc, const long a[6])
{
  if (a[3] != 8) return -EINVAL;   /* the kernel's sigset is 64 bits on x86-64 */
  unsigned long *prog = (unsigned long *)prt_frame_mask();
  unsigned long old = *prog, now = old;
  if (a[1]) {
    unsigned long set = *(const unsigned long *)a[1];
    set &= ~((1ul << (SIGKILL - 1)) | (1ul << (SIGSTOP - 1)));
    if (a[0] == SIG_BLOCK) now = old | set;
    else if (a[0] == SIG_UNBLOCK) now = old & ~set;
    else if (a[0] == SIG_SETMASK) now = set;
    else return -EINVAL;
  }
  if (a[2]) *(unsigned long *)a[2] = old;
  *prog = now;
  unsigned long held = *(unsigned long *)&uc->uc_sigmask & ~old;   /* what the frame added */
  *(unsigned long *)&uc->uc_sigmask = now | held;
  return 0;
}

/* A call that returns elsewhere than into its caller's stack frame when
 * made from here: resumed in place instead. */
PRT_NOINST static bool rt_in_place(long nr, const long a[6])
{
  if (nr == SYS_clone) return (a[0] & (RT_CLONE_VM | RT_CLONE_VFORK)) || a[1];
  return nr == SYS_clone3 || nr == SYS_vfork || nr == SYS_rt_sigreturn;
}

/* Makes system call nr for the program with the program's own signal
 * mask: the asynchronous signals a checked frame holds arrive during it as
 * they would have in a plain run (a blocking read, select or nanosleep
 * waited for ever for a SIGCHLD or SIGUSR2 held by a frame that never
 * ended: rsync's receiver inside a watched child_main). Interrupted, it
 * gives the program EINTR or is restarted, as without us. A handler that
 * runs meanwhile may write what the frame's checks then see: the function
 * is reported for its system call in any case. */
PRT_NOINST static long rt_make(long nr, const long a[6])
{
  sigset_t held;
  bool open = prt_sys_class_waits(nr);
  if (open) pthread_sigmask(SIG_SETMASK, prt_frame_mask(), &held);
  prt_guard_pause();
  long r = rt_raw(nr, a);
  prt_guard_resume();
  if (open) pthread_sigmask(SIG_SETMASK, &held, NULL);
  return r;
}

PRT_NOINST static void rt_on_sys(int sig, siginfo_t *si, void *uctx)
{
  if (si->si_code != SYS_USER_DISPATCH) {   /* seccomp, kill: the program's */
    char was = prt_sys_pause();
    prt_sig_chain(sig, si, uctx);
    prt_sys_resume(was);
    return;
  }
  char was = prt_sys_pause();
  ucontext_t *uc = uctx;
  greg_t *g = uc->uc_mcontext.gregs;
  long nr = si->si_syscall;
  long a[6] = { g[REG_RDI], g[REG_RSI], g[REG_RDX], g[REG_R10], g[REG_R8], g[REG_R9] };
  int saved = errno;
  rt_note(nr, a, false);
  if (rt_in_place(nr, a)) {   /* again at the program's syscall instruction, not watched */
    g[REG_RIP] -= 2;
    g[REG_RAX] = nr;
    errno = saved;
    return;
  }
  long r;
  if (nr == SYS_rt_sigprocmask) {
    r = rt_sigmask(uc, a);
  } else {
    r = rt_make(nr, a);
  }
  g[REG_RAX] = r;
  errno = saved;
  /* A frame that never ends (a watched function that forks and whose
   * child runs on inside it, exits in it) stops trapping after so many:
   * it is an error already, and the program should not crawl. */
  if (++s_count < RT_MAX_TRAPS) prt_sys_resume(was);
}

/* Once per process: our SIGSYS handler, and the address of the C
 * library's signal trampoline (read back from the kernel's record of the
 * handler just installed through the C library). */
PRT_NOINST static int rt_setup(void)
{
  const char *env = getenv("PURIST_SYSCALLS");
  if (env && !strcmp(env, "off")) return -1;
  if (!prt_sig_own_sys(rt_on_sys)) return -1;
  struct { void *handler; unsigned long flags; void *restorer; unsigned long mask; } k;
  long a[6] = { SIGSYS, 0, (long)&k, 8, 0, 0 };
  if (rt_raw(SYS_rt_sigaction, a) != 0 || !k.restorer) return -1;
  s_lo = (uintptr_t)k.restorer;
  s_len = 16;   /* mov $15,%rax; syscall: the address after it is what the kernel tests */
  return 1;
}

/* Turns dispatch on for the calling thread (the setting is per thread and
 * not inherited by threads or forked children). */
PRT_NOINST static void rt_thread_on(void)
{
  int st = atomic_load(&s_setup);
  if (st == 0) {   /* the first checked frame: before that the program had no handler of ours */
    static atomic_flag busy = ATOMIC_FLAG_INIT;
    while (atomic_flag_test_and_set(&busy)) {}
    st = atomic_load(&s_setup);
    if (st == 0) atomic_store(&s_setup, st = rt_setup());
    atomic_flag_clear(&busy);
  }
  s_state = -1;
  if (st > 0 && prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, s_lo, s_len, &s_sel) == 0) s_state = 1;
  if (s_state < 0) prt_note_set(PRT_NOTE_NOSYS);
}

PRT_NOINST bool prt_sys_frame_begin(int w)
{
  if (s_state == 0) rt_thread_on();
  s_w = w;
  s_effect = false;
  s_count = 0;
  memset(s_done, 0, sizeof s_done);
  /* Last. Without dispatch the byte still tells the interposed functions
   * (vDSO, signal mask, exit, exec) that the program is in a frame. */
  s_sel = SYSCALL_DISPATCH_FILTER_BLOCK;
  return s_state > 0;
}

PRT_NOINST bool prt_sys_frame_end(void)
{
  s_sel = SYSCALL_DISPATCH_FILTER_ALLOW;   /* first */
  return s_effect;
}

PRT_NOINST void prt_sys_after_fork(char was)
{
  s_state = 0;   /* the child's dispatch is off */
  if (was == SYSCALL_DISPATCH_FILTER_BLOCK) rt_thread_on();   /* forked inside a frame: it goes on */
}

/* Before main, whether or not anything is watched: without them every
 * clock_gettime of the program would be a real system call. */
__attribute__((constructor(101))) PRT_NOINST static void rt_sys_init(void)
{
  s_gettime = (rt_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
  s_gettod = (rt_gettod_fn)dlsym(RTLD_NEXT, "gettimeofday");
  s_time = (rt_time_fn)dlsym(RTLD_NEXT, "time");
  s_getcpu = (rt_getcpu_fn)dlsym(RTLD_NEXT, "getcpu");
  s_schedcpu = (rt_schedcpu_fn)dlsym(RTLD_NEXT, "sched_getcpu");
}

/* A vDSO call made in a checked frame, recorded as its system call. */
PRT_NOINST static void rt_vdso(long nr, long a0)
{
  if (s_sel != SYSCALL_DISPATCH_FILTER_BLOCK) return;
  char was = prt_sys_pause();
  long a[6] = { a0, 0, 0, 0, 0, 0 };
  rt_note(nr, a, true);
  prt_sys_resume(was);
}

PRT_API int clock_gettime(clockid_t clk, struct timespec *ts)
{
  rt_vdso(SYS_clock_gettime, clk);
  if (s_gettime) return s_gettime(clk, ts);
  long a[6] = { clk, (long)ts, 0, 0, 0, 0 };
  long r = rt_raw(SYS_clock_gettime, a);
  if (r < 0) { errno = (int)-r; return -1; }
  return 0;
}

PRT_API int gettimeofday(struct timeval *tv, void *tz)
{
  rt_vdso(SYS_gettimeofday, 0);
  if (s_gettod) return s_gettod(tv, tz);
  long a[6] = { (long)tv, (long)tz, 0, 0, 0, 0 };
  long r = rt_raw(SYS_gettimeofday, a);
  if (r < 0) { errno = (int)-r; return -1; }
  return 0;
}

PRT_API time_t time(time_t *t)
{
  rt_vdso(SYS_time, 0);
  if (s_time) return s_time(t);
  long a[6] = { (long)t, 0, 0, 0, 0, 0 };
  return (time_t)rt_raw(SYS_time, a);
}

PRT_API int getcpu(unsigned *cpu, unsigned *node)
{
  rt_vdso(SYS_getcpu, 0);
  if (s_getcpu) return s_getcpu(cpu, node);
  long a[6] = { (long)cpu, (long)node, 0, 0, 0, 0 };
  long r = rt_raw(SYS_getcpu, a);
  if (r < 0) { errno = (int)-r; return -1; }
  return 0;
}

PRT_API int sched_getcpu(void)
{
  rt_vdso(SYS_getcpu, 0);
  if (s_schedcpu) return s_schedcpu();
  unsigned cpu = 0;
  long a[6] = { (long)&cpu, 0, 0, 0, 0, 0 };
  long r = rt_raw(SYS_getcpu, a);
  if (r < 0) { errno = (int)-r; return -1; }
  return (int)cpu;
}

#else  /* syscall user dispatch is used on x86-64 only */

PRT_NOINST char prt_sys_pause(void) { return 0; }
PRT_NOINST void prt_sys_resume(char was) { (void)was; }
PRT_NOINST bool prt_sys_watched(void) { return false; }
PRT_NOINST void prt_sys_note(long nr, const long a[6]) { (void)nr; (void)a; }
PRT_NOINST bool prt_sys_frame_begin(int w)
{
  (void)w;
  prt_note_set(PRT_NOTE_NOSYS);
  return false;
}
PRT_NOINST bool prt_sys_frame_end(void) { return false; }
PRT_NOINST void prt_sys_after_fork(char was) { (void)was; }

#endif
