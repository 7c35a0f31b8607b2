/* rt_signal.c — SIGSEGV and SIGTRAP for the read check, installed once.
 *
 * (SIGSYS likewise for the system call check, rt_sys.c, installed at the
 * first checked frame.)
 * The read check (rt_guard.c) needs its own SIGSEGV and SIGTRAP handlers
 * during every checked const frame. Installing them for each frame and
 * putting the program's back afterwards cost four system calls a frame;
 * instead they are installed at the first checked const frame and kept,
 * and the program's own handlers are kept aside: `sigaction` and `signal`
 * are interposed (like malloc, rt_heap.c) so that, for these two signals,
 * the program sets and reads the handler kept aside and never replaces
 * ours. A signal that is not the read check's goes to the handler kept
 * aside (prt_sig_chain), as the kernel would have delivered it.
 *
 * Process-wide state: signal dispositions are per process, and the
 * interposed functions and handlers get no context argument. Not
 * intercepted: sysv_signal, sigset and bsd_signal (obsolete), and the raw
 * rt_sigaction system call. */
#include "rt/rt.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <string.h>

/* glibc's own entry point: the real sigaction, without our interposer. */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

static atomic_int s_owned;              /* bit per slot: our handler is installed */
static struct sigaction s_prog[3];      /* the program's: SIGSEGV, SIGTRAP, SIGSYS */

/* Slot of a signal we may own, or -1. */
PRT_NOINST static int rt_slot(int sig)
{
  return sig == SIGSEGV ? 0 : sig == SIGTRAP ? 1 : sig == SIGSYS ? 2 : -1;
}

PRT_NOINST int prt_sig_real(int sig, const struct sigaction *act, struct sigaction *old)
{
  return __sigaction(sig, act, old);
}

/* Installs handler for sig, the program's own handler kept in *old. */
PRT_NOINST static bool rt_sig_install(int sig, void (*handler)(int, siginfo_t *, void *), struct sigaction *old)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sa.sa_sigaction = handler;
  return __sigaction(sig, &sa, old) == 0;
}

PRT_NOINST bool prt_sig_own(void (*segv)(int, siginfo_t *, void *), void (*trap)(int, siginfo_t *, void *))
{
  if (atomic_load_explicit(&s_owned, memory_order_acquire) & 3) return true;
  if (!rt_sig_install(SIGSEGV, segv, &s_prog[0])) return false;
  if (!rt_sig_install(SIGTRAP, trap, &s_prog[1])) {
    __sigaction(SIGSEGV, &s_prog[0], NULL);
    return false;
  }
  atomic_fetch_or_explicit(&s_owned, 3, memory_order_release);
  return true;
}

PRT_NOINST bool prt_sig_own_sys(void (*sys)(int, siginfo_t *, void *))
{
  if (atomic_load_explicit(&s_owned, memory_order_acquire) & 4) return true;
  if (!rt_sig_install(SIGSYS, sys, &s_prog[2])) return false;
  atomic_fetch_or_explicit(&s_owned, 4, memory_order_release);
  return true;
}

/* Gives a signal back to the kernel's default action: the process ends
 * on a fault (it happens again on return) or, for a signal sent by
 * kill/raise (si_code <= 0), now. */
PRT_NOINST static void rt_default(int sig, const siginfo_t *si)
{
  struct sigaction d;
  memset(&d, 0, sizeof d);
  d.sa_handler = SIG_DFL;
  sigemptyset(&d.sa_mask);
  __sigaction(sig, &d, NULL);
  atomic_fetch_and(&s_owned, sig == SIGSYS ? ~4 : ~3);
  /* Our handlers are SA_NODEFER: delivered at once. A fault happens again
   * on return; a SIGSYS (seccomp) does not. */
  if (si->si_code <= 0 || sig == SIGSYS) raise(sig);
}

PRT_NOINST void prt_sig_chain(int sig, siginfo_t *si, void *uctx)
{
  int k = rt_slot(sig);
  struct sigaction p = s_prog[k];
  if (p.sa_handler == SIG_IGN && !(p.sa_flags & SA_SIGINFO)) {
    if (si->si_code > 0) rt_default(sig, si);   /* the kernel does not let a fault be ignored */
    return;
  }
  if (p.sa_handler == SIG_DFL && !(p.sa_flags & SA_SIGINFO)) {
    rt_default(sig, si);
    return;
  }
  sigset_t mask, old;
  mask = p.sa_mask;
  if (!(p.sa_flags & SA_NODEFER)) sigaddset(&mask, sig);
  pthread_sigmask(SIG_BLOCK, &mask, &old);
  if (p.sa_flags & SA_RESETHAND) {
    memset(&s_prog[k], 0, sizeof s_prog[k]);
    s_prog[k].sa_handler = SIG_DFL;
  }
  if (p.sa_flags & SA_SIGINFO) p.sa_sigaction(sig, si, uctx);
  else p.sa_handler(sig);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

PRT_API int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
  int k = rt_slot(sig);
  if (k < 0 || !(atomic_load_explicit(&s_owned, memory_order_acquire) & (1 << k))) return __sigaction(sig, act, old);
  struct sigaction prev = s_prog[k];
  if (act) s_prog[k] = *act;
  if (old) *old = prev;
  return 0;
}

/* glibc's signal(): BSD semantics (the signal blocked in its handler,
 * system calls restarted), written on sigaction so it goes through the
 * interposer above. */
PRT_API sighandler_t signal(int sig, sighandler_t h)
{
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = h;
  sigemptyset(&sa.sa_mask);
  if (sigaddset(&sa.sa_mask, sig) < 0) return SIG_ERR;
  sa.sa_flags = SA_RESTART;
  return sigaction(sig, &sa, &old) < 0 ? SIG_ERR : old.sa_handler;
}

/* The signal mask set inside a checked frame would be undone at its end
 * (the frame restores the mask it found, rt_hooks.c): the program's
 * calls are applied to that mask instead, and recorded as the system call
 * they are. Outside frames (and for the runtime's own calls) the real one. */
typedef int (*rt_sigmask_fn)(int, const sigset_t *, sigset_t *);
static rt_sigmask_fn s_real_mask;

__attribute__((constructor(101))) PRT_NOINST static void rt_signal_init(void)
{
  s_real_mask = (rt_sigmask_fn)dlsym(RTLD_NEXT, "pthread_sigmask");
}

/* The C library's pthread_sigmask; before it is known (a constructor that
 * ran first), the system call, without the C library's two internal
 * signals (thread cancellation, set*id across threads) as it does. */
PRT_NOINST static int rt_real_mask(int how, const sigset_t *set, sigset_t *old)
{
  if (s_real_mask) return s_real_mask(how, set, old);
  sigset_t c;
  if (set) {
    c = *set;
    sigdelset(&c, 32);
    sigdelset(&c, 33);
  }
  long r = syscall(SYS_rt_sigprocmask, how, set ? &c : NULL, old, 8);
  return r == 0 ? 0 : errno;
}

PRT_API int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
  if (!prt_sys_watched()) return rt_real_mask(how, set, old);
  long a[6] = { how, (long)set, (long)old, 8, 0, 0 };
  prt_sys_note(SYS_rt_sigprocmask, a);
  char was = prt_sys_pause();
  int r = prt_frame_sigmask(how, set, old);
  prt_sys_resume(was);
  return r;
}

PRT_API int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
  int r = pthread_sigmask(how, set, old);
  if (r == 0) return 0;
  errno = r;
  return -1;
}
