/* rt_report.c — the findings and the JSON report.
 *
 * Findings live in a fixed table (no allocation: records come from signal
 * handlers and from inside malloc), one entry per (kind, function, symbol
 * or argument), under a spin lock. The report is formatted by hand into a
 * stack buffer and written with write(2) to a temporary file renamed into
 * place: all of it async-signal-safe, so it can be written from a fatal
 * signal's handler. Format (read by src/verify/verify_report.c):
 *   {"purist_rt":1,"pid":N,"program":"…","sample":N,"threads":bool,
 *    "functions":[{"name","found","calls","checked","wrapped","replayed"}…],
 *    "notes":["threads"|"full"|"noguard"|"unreturned"|"nosyscall"|"raced"…],
 *    "findings":[{"kind":"global-write"|"global-read"|"heap-write"|
 *                 "nondeterministic"|"syscall","function","symbol","object",
 *                 "static","arg","syscall","breaks","vdso","site_object",
 *                 "site_address","count","prefix"}…]}
 * A syscall finding names the call ("syscall", its number when it has no
 * name), what it breaks ("breaks": "const" or "pure", which breaks const
 * too) and whether it was a vDSO call ("vdso"); count is the checked
 * calls that made it; the site is the return address, in one of the
 * program's own objects, of the call that led to the first one (a
 * link-time address, for addr2line). */
#include "rt/rt.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RT_MAX_FINDINGS 4096

typedef struct {
  uint8_t kind;           /* prt_kind */
  bool prefix;            /* writes: every write was on the first checked calls */
  int32_t w;
  long arg;               /* symbol index, or argument index */
  unsigned long count;
  int32_t site_obj;       /* syscalls: where the first was called from (index into prt.objs) */
  uintptr_t site_addr;    /* … the return address there, as a link-time address; 0: not known */
} rt_finding;

static rt_finding r_tab[RT_MAX_FINDINGS];
static size_t r_n;
static atomic_flag r_lock = ATOMIC_FLAG_INIT;
static atomic_int r_notes;
static atomic_int r_written;

PRT_NOINST static void rt_lock(void)
{
  while (atomic_flag_test_and_set_explicit(&r_lock, memory_order_acquire)) {}
}

PRT_NOINST static void rt_unlock(void) { atomic_flag_clear_explicit(&r_lock, memory_order_release); }

PRT_NOINST void prt_note_set(prt_note n) { atomic_fetch_or(&r_notes, (int)n); }

/* A finding recorded by a signal handler that interrupted this thread's
 * own prt_record: it cannot take the lock the interrupted code holds (the
 * spin never ended: a program under a 100 µs SIGALRM whose handler calls a
 * watched function hung, issue 23 item 15), so it waits here and the
 * interrupted call adds it when it has let the lock go. */
typedef struct { prt_kind k; int w; long arg; unsigned long idx; } rt_deferred;
#define RT_DEFERRED 32
static PRT_TLS rt_deferred t_def[RT_DEFERRED];
static PRT_TLS volatile sig_atomic_t t_ndef;
static PRT_TLS volatile sig_atomic_t t_recording;

PRT_NOINST static void rt_record_locked(prt_kind k, int w, long arg, unsigned long idx)
{
  rt_lock();
  rt_finding *f = NULL;
  for (size_t i = 0; i < r_n && !f; i++)
    if (r_tab[i].kind == k && r_tab[i].w == w && r_tab[i].arg == arg) f = &r_tab[i];
  if (!f && r_n < RT_MAX_FINDINGS) {
    f = &r_tab[r_n++];
    *f = (rt_finding){ .kind = (uint8_t)k, .prefix = true, .w = w, .arg = arg };
  }
  if (f) {
    if (idx != f->count) f->prefix = false;   /* a gap: not only the first calls */
    f->count++;
  }
  rt_unlock();
  if (!f) prt_note_set(PRT_NOTE_FULL);
}

/* The finding (k, w, arg), or NULL; called with the lock held. */
PRT_NOINST static rt_finding *rt_find(prt_kind k, int w, long arg)
{
  for (size_t i = 0; i < r_n; i++)
    if (r_tab[i].kind == k && r_tab[i].w == w && r_tab[i].arg == arg) return &r_tab[i];
  return NULL;
}

PRT_NOINST bool prt_site_missing(prt_kind k, int w, long arg)
{
  if (t_recording) return false;   /* a handler over this thread's own record: not now */
  rt_lock();
  rt_finding *f = rt_find(k, w, arg);
  bool missing = f && !f->site_addr;
  rt_unlock();
  return missing;
}

PRT_NOINST void prt_site_set(prt_kind k, int w, long arg, int obj, uintptr_t addr)
{
  if (t_recording) return;
  rt_lock();
  rt_finding *f = rt_find(k, w, arg);
  if (f && !f->site_addr) {
    f->site_obj = obj;
    f->site_addr = addr;
  }
  rt_unlock();
}

PRT_NOINST void prt_record(prt_kind k, int w, long arg, unsigned long idx)
{
  if (t_recording) {   /* in a signal handler, over this thread's own record */
    if (t_ndef < RT_DEFERRED) t_def[t_ndef++] = (rt_deferred){ k, w, arg, idx };
    else prt_note_set(PRT_NOTE_FULL);
    return;
  }
  t_recording = 1;
  rt_record_locked(k, w, arg, idx);
  while (t_ndef > 0) {
    rt_deferred d = t_def[t_ndef - 1];
    t_ndef--;
    rt_record_locked(d.k, d.w, d.arg, d.idx);
  }
  t_recording = 0;
  if (prt.abort_on_error) {   /* PURIST_ABORT=1: stop at the first violation */
    prt_report_write();
    abort();
  }
}

PRT_NOINST void prt_report_reset(void)
{
  r_n = 0;
  atomic_store(&r_notes, 0);
  atomic_store(&r_written, 0);
  atomic_flag_clear(&r_lock);
  for (size_t i = 0; i < prt.nwatch; i++) {
    prt_watch *W = &prt.watch[i];
    atomic_store(&W->checked, 0);
    atomic_store(&W->wchecked, 0);
    atomic_store(&W->replays, 0);
  }
  prt_counts_reset();
}

/* ---- an async-signal-safe JSON writer ---- */

typedef struct { int fd; size_t n; bool bad; char buf[4096]; } rt_out;

PRT_NOINST static void rt_flush(rt_out *o)
{
  size_t off = 0;
  while (off < o->n && !o->bad) {
    ssize_t r = write(o->fd, o->buf + off, o->n - off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) o->bad = true;
    else off += (size_t)r;
  }
  o->n = 0;
}

PRT_NOINST static void rt_putc(rt_out *o, char c)
{
  if (o->n == sizeof o->buf) rt_flush(o);
  o->buf[o->n++] = c;
}

PRT_NOINST static void rt_puts(rt_out *o, const char *s)
{
  while (*s) rt_putc(o, *s++);
}

PRT_NOINST static void rt_putu(rt_out *o, unsigned long v)
{
  char d[24];
  int n = 0;
  do d[n++] = (char)('0' + v % 10); while ((v /= 10) != 0);
  while (n) rt_putc(o, d[--n]);
}

PRT_NOINST static void rt_putstr(rt_out *o, const char *s)
{
  static const char hex[] = "0123456789abcdef";
  rt_putc(o, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') { rt_putc(o, '\\'); rt_putc(o, (char)*p); }
    else if (*p < 0x20) { rt_puts(o, "\\u00"); rt_putc(o, hex[*p >> 4]); rt_putc(o, hex[*p & 15]); }
    else rt_putc(o, (char)*p);
  }
  rt_putc(o, '"');
}

/* `"key":` with a leading comma unless first. */
PRT_NOINST static void rt_key(rt_out *o, const char *key, bool first)
{
  if (!first) rt_putc(o, ',');
  rt_putstr(o, key);
  rt_putc(o, ':');
}

PRT_NOINST static void rt_put_functions(rt_out *o)
{
  rt_key(o, "functions", false);
  rt_putc(o, '[');
  for (size_t i = 0; i < prt.nwatch; i++) {
    const prt_watch *W = &prt.watch[i];
    if (i) rt_putc(o, ',');
    rt_putc(o, '{');
    rt_key(o, "name", true); rt_putstr(o, W->name);
    rt_key(o, "found", false); rt_puts(o, W->found ? "true" : "false");
    rt_key(o, "calls", false); rt_putu(o, prt_calls_total((int)i));
    rt_key(o, "checked", false); rt_putu(o, atomic_load(&W->checked));
    rt_key(o, "wrapped", false); rt_putu(o, atomic_load(&W->wchecked));
    rt_key(o, "replayed", false); rt_putu(o, atomic_load(&W->replays));
    rt_putc(o, '}');
  }
  rt_putc(o, ']');
}

PRT_NOINST static void rt_put_finding(rt_out *o, const rt_finding *f)
{
  static const char *const kinds[] = { "global-write", "global-read", "heap-write", "nondeterministic", "syscall" };
  rt_putc(o, '{');
  rt_key(o, "kind", true); rt_putstr(o, kinds[f->kind]);
  rt_key(o, "function", false); rt_putstr(o, prt.watch[f->w].name);
  if (f->kind == PRT_GLOBAL_WRITE || f->kind == PRT_GLOBAL_READ) {
    const prt_sym *s = &prt.syms[f->arg];
    rt_key(o, "symbol", false); rt_putstr(o, s->name);
    rt_key(o, "object", false); rt_putstr(o, prt.objs[s->obj]);
    rt_key(o, "static", false); rt_puts(o, s->local ? "true" : "false");
  } else if (f->kind == PRT_HEAP_WRITE) {
    rt_key(o, "arg", false); rt_putu(o, (unsigned long)f->arg);
  } else if (f->kind == PRT_SYSCALL) {
    long nr = f->arg & ~PRT_SYS_VDSO;
    const char *name = prt_sys_name(nr);
    long a[6] = { 0, 1, 1, 0, 0, 0 };   /* the class of the changing form of arg-dependent calls */
    rt_key(o, "syscall", false);
    if (name) rt_putstr(o, name);
    else { rt_putc(o, '"'); rt_putu(o, (unsigned long)nr); rt_putc(o, '"'); }
    rt_key(o, "breaks", false);
    rt_puts(o, prt_sys_classify(nr, a) == PRT_SYS_QUERY_CONST ? "\"const\"" : "\"pure\"");
    rt_key(o, "vdso", false); rt_puts(o, f->arg & PRT_SYS_VDSO ? "true" : "false");
    if (f->site_addr) {
      rt_key(o, "site_object", false); rt_putstr(o, prt.objs[f->site_obj]);
      rt_key(o, "site_address", false); rt_putu(o, f->site_addr);
    }
  }
  rt_key(o, "count", false); rt_putu(o, f->count);
  rt_key(o, "prefix", false); rt_puts(o, f->prefix ? "true" : "false");
  rt_putc(o, '}');
}

PRT_NOINST static void rt_put_report(rt_out *o)
{
  static const char *const notes[] = { "threads", "full", "noguard", "unreturned", "nosyscall", "raced" };
  rt_putc(o, '{');
  rt_key(o, "purist_rt", true); rt_putu(o, 1);
  rt_key(o, "pid", false); rt_putu(o, (unsigned long)getpid());
  rt_key(o, "program", false); rt_putstr(o, prt.exe);
  rt_key(o, "sample", false); rt_putu(o, prt.sample);
  rt_key(o, "threads", false); rt_puts(o, atomic_load(&prt.threaded) ? "true" : "false");
  rt_put_functions(o);
  rt_key(o, "notes", false);
  rt_putc(o, '[');
  int nb = atomic_load(&r_notes), k = 0;
  for (int i = 0; i < (int)(sizeof notes / sizeof *notes); i++)
    if (nb & (1 << i)) { if (k++) rt_putc(o, ','); rt_putstr(o, notes[i]); }
  rt_puts(o, "],\"findings\":[\n");
  for (size_t i = 0; i < r_n; i++) {
    if (i) rt_puts(o, ",\n");
    rt_put_finding(o, &r_tab[i]);
  }
  rt_puts(o, "]}\n");
}

/* path = dir/purist-rt.<pid><tag><ext>, in a fixed buffer. */
PRT_NOINST static bool rt_path(char *path, size_t cap, const char *tag, const char *ext)
{
  rt_out o = { .fd = -1 };
  rt_puts(&o, prt.report_dir);
  rt_puts(&o, "/purist-rt.");
  rt_putu(&o, (unsigned long)getpid());
  rt_puts(&o, tag);
  rt_puts(&o, ext);
  if (o.n >= cap) return false;
  memcpy(path, o.buf, o.n);
  path[o.n] = '\0';
  return true;
}

/* The process whose report this state is: set at start-up and in a forked
 * child. A process that runs our code with another pid (a vfork child
 * calling _exit or exec in its parent's memory) must not write, nor mark
 * the parent's report as written. */
static pid_t r_pid;

PRT_NOINST bool prt_report_mine(void) { return prt.report_dir && r_pid == getpid(); }

/* The mark is a symbolic link to the program: made without a file
 * descriptor, so a process started with every descriptor taken
 * (RLIMIT_NOFILE=3) is still marked, and verify says its report is lost. */
PRT_NOINST void prt_alive_mark(void)
{
  char was = prt_sys_pause();
  r_pid = getpid();
  char path[4096];
  if (!prt.report_dir || !rt_path(path, sizeof path, "", ".alive")) {
    prt_sys_resume(was);
    return;
  }
  unlink(path);
  symlink(prt.exe[0] ? prt.exe : "?", path);
  prt_sys_resume(was);
}

/* open() for the report; out of descriptors (EMFILE), once more with the
 * soft limit raised by one (up to the hard limit) and put back after. */
PRT_NOINST static int rt_open_report(const char *path)
{
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  struct rlimit rl;
  if (fd >= 0 || errno != EMFILE || getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max) return fd;
  struct rlimit more = { rl.rlim_cur + 1, rl.rlim_max };
  if (setrlimit(RLIMIT_NOFILE, &more) != 0) return fd;
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int e = errno;
  setrlimit(RLIMIT_NOFILE, &rl);
  errno = e;
  return fd;
}

PRT_NOINST static void rt_alive_clear(void)
{
  char path[4096];
  if (rt_path(path, sizeof path, "", ".alive")) unlink(path);
}

/* Writes the report to path through tmp; false (said on stderr) if not. */
PRT_NOINST static bool rt_write_to(const char *path, const char *tmp)
{
  /* A fatal signal may arrive while the lock is held: a bounded wait, then
   * the table is read as it is. */
  bool locked = false, ok = false;
  /* No asynchronous signal meanwhile: a handler calling a watched function
   * would wait for the lock held here for ever (a program whose 100 µs
   * SIGALRM timer ran on through exit hung, issue 23 item 15). */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  for (int i = 0; i < 1000000 && !(locked = !atomic_flag_test_and_set(&r_lock)); i++) {}
  rt_out o = { .fd = rt_open_report(tmp) };
  if (o.fd < 0) {
    prt_say(tmp, ": cannot write the report: ", strerrordesc_np(errno));
  } else {
    rt_put_report(&o);
    rt_flush(&o);
    if (close(o.fd) != 0) o.bad = true;
    if (o.bad || rename(tmp, path) != 0) {
      prt_say(path, ": cannot write the report: ", strerrordesc_np(errno));
      unlink(tmp);
    } else {
      ok = true;
    }
  }
  if (locked) rt_unlock();
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return ok;
}

/* The report's system calls are the runtime's, also inside a frame. */
PRT_NOINST static void rt_report_write(void);
PRT_NOINST void prt_report_write(void)
{
  char was = prt_sys_pause();
  rt_report_write();
  prt_sys_resume(was);
}

PRT_NOINST static void rt_report_write(void)
{
  if (!prt.active || !prt_report_mine() || atomic_exchange(&r_written, 1)) return;
  /* Still inside a watched call at exit: one was left by longjmp (its
   * exit hook never ran, so nothing after it was an outermost frame), or
   * exit was called inside it. Said, not silent. */
  if (prt_in_frame()) prt_note_set(PRT_NOTE_UNRETURNED);
  char path[4096], tmp[4096];
  if (!rt_path(path, sizeof path, "", ".json") || !rt_path(tmp, sizeof tmp, "", ".json.tmp")) {
    prt_say(prt.report_dir, ": report path too long", "");
    return;
  }
  if (rt_write_to(path, tmp)) rt_alive_clear();
}

PRT_NOINST bool prt_report_before_exec(char *path, size_t cap)
{
  if (!prt.active || !prt_report_mine() || atomic_load(&r_written)) return false;
  /* The new image may load the runtime again, with the same pid: this
   * report gets a name of its own, by the clock. */
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  rt_out t = { .fd = -1 };
  rt_puts(&t, ".exec");
  rt_putu(&t, (unsigned long)ts.tv_sec * 1000000000ul + (unsigned long)ts.tv_nsec);
  rt_putc(&t, '\0');
  char tmp[4096];
  if (!rt_path(path, cap, t.buf, ".json") || !rt_path(tmp, sizeof tmp, t.buf, ".json.tmp")) return false;
  if (!rt_write_to(path, tmp)) return false;
  rt_alive_clear();
  return true;
}

PRT_NOINST void prt_report_exec_failed(const char *path)
{
  /* The process goes on: its report at exit counts everything again. */
  unlink(path);
  prt_alive_mark();
}
