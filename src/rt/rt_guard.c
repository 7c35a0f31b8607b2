/* rt_guard.c — reads of global memory in const frames.
 *
 * During a checked outermost const frame the watched ranges are made
 * inaccessible (mprotect PROT_NONE); our SIGSEGV and SIGTRAP handlers are
 * installed at the first such frame and kept (rt_signal.c: the program's
 * own are kept aside and still get what is not ours). A fault in a range is an
 * access: a read that lands in a data symbol is recorded; then the page is
 * opened, the faulting instruction single-stepped (x86-64 trap flag) and the
 * page closed again in the SIGTRAP handler, so every later access is seen
 * too. A fault anywhere else is the program's own: it goes to the
 * program's handler (or kills the process, as it would have).
 *
 * Memory protection is per process, so this works only while the process
 * has one thread; once a second thread exists the check switches itself
 * off and the report says so once. */
#include "rt/rt.h"
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#if defined(__x86_64__)
#define RT_TRAP_FLAG 0x100

static PRT_TLS bool g_on;              /* pages are protected for this thread's frame */
static PRT_TLS int g_w;                /* the frame's watch index */
static PRT_TLS uintptr_t g_open;       /* the page opened for one instruction, or 0 */

PRT_NOINST static void rt_protect_all(bool closed)
{
  for (size_t i = 0; i < prt.nranges; i++)
    mprotect((void *)prt.ranges[i].lo, prt.ranges[i].hi - prt.ranges[i].lo,
             closed ? PROT_NONE : prt.ranges[i].prot);
}

/* The handlers' own system calls (mprotect) are the runtime's, not the
 * watched function's: they pass (rt_sys.c). */
PRT_NOINST static void rt_segv(int sig, siginfo_t *si, void *uctx)
{
  uintptr_t a = (uintptr_t)si->si_addr;
  int r = g_on && si->si_code == SEGV_ACCERR ? prt_range_find(a) : -1;
  if (r < 0) {   /* not ours: the program's */
    prt_sig_chain(sig, si, uctx);
    return;
  }
  ucontext_t *uc = uctx;
  bool write = uc->uc_mcontext.gregs[REG_ERR] & 2;   /* page-fault error code: W/R bit */
  long s = prt_sym_find(a);
  if (!write && s >= 0) prt_record(PRT_GLOBAL_READ, g_w, s, 0);
  g_open = a & ~(uintptr_t)(PRT_PAGE - 1);
  mprotect((void *)g_open, PRT_PAGE, prt.ranges[r].prot);
  uc->uc_mcontext.gregs[REG_EFL] |= RT_TRAP_FLAG;
}

PRT_NOINST static void rt_on_segv(int sig, siginfo_t *si, void *uctx)
{
  char was = prt_sys_pause();
  rt_segv(sig, si, uctx);
  prt_sys_resume(was);
}

PRT_NOINST static void rt_trap(int sig, siginfo_t *si, void *uctx)
{
  ucontext_t *uc = uctx;
  if (!g_open) {   /* not our single step */
    prt_sig_chain(sig, si, uctx);
    return;
  }
  uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)RT_TRAP_FLAG;
  if (g_on) mprotect((void *)g_open, PRT_PAGE, PROT_NONE);
  g_open = 0;
}

PRT_NOINST static void rt_on_trap(int sig, siginfo_t *si, void *uctx)
{
  char was = prt_sys_pause();
  rt_trap(sig, si, uctx);
  prt_sys_resume(was);
}

PRT_NOINST void prt_guard_pause(void)
{
  if (g_on) rt_protect_all(false);
}

PRT_NOINST void prt_guard_resume(void)
{
  if (g_on) rt_protect_all(true);
}

PRT_NOINST bool prt_guard_on(int w)
{
  if (atomic_load(&prt.threaded)) {
    prt_note_set(PRT_NOTE_THREADS);
    return false;
  }
  if (!prt.nranges || !prt_sig_own(rt_on_segv, rt_on_trap)) return false;
  g_w = w;
  g_on = true;
  rt_protect_all(true);
  return true;
}

PRT_NOINST void prt_guard_off(void)
{
  g_on = false;
  rt_protect_all(false);
  g_open = 0;
}

#else  /* no single-step support written for this architecture */

PRT_NOINST bool prt_guard_on(int w)
{
  prt_note_set(PRT_NOTE_NOGUARD);
  return false;
}

PRT_NOINST void prt_guard_off(void) {}
PRT_NOINST void prt_guard_pause(void) {}
PRT_NOINST void prt_guard_resume(void) {}

#endif
