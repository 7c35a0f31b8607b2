/* pipeline.c — see parse.h. Workers take the next job index from a
 * shared counter, so the load balances itself. */
#include "parse/parse.h"
#include "frontend/pch.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  const fe_jobs *jobs;
  const kb *kb;
  cache *cache;           /* NULL: parse every job */
  pipeline_result *out;
  size_t n;               /* jobs->n, or the item count of pipeline_each */
  void (*each)(void *ctx, size_t i);   /* pipeline_each's work, else NULL */
  const char *(*label)(void *ctx, size_t i);
  void *ctx;
  atomic_size_t next;
  atomic_int failed;
  pipeline_progress progress;
  const char *root;       /* plain lines: paths relative to it */
  double interval;        /* plain lines: seconds between two */
  char *last;             /* plain lines: the last file finished (a copy) */
  size_t shown_done;      /* plain lines: the count of the last line printed (SIZE_MAX: none) */
  double shown_at;        /* plain lines: when it was printed (seconds from start) */
  unsigned char *running; /* plain lines: item i has started and not finished */
  bool finished;          /* every item done: the ticker stops */
  pthread_cond_t wake;    /* the ticker's sleep, cut short when finished */
  pthread_mutex_t lock;   /* guards done, the progress line and the sink */
  size_t done;
  bool *ready;            /* job i's result is in out (for the sink) */
  size_t next_sink;       /* the next job to hand to out->sink */
  struct timespec start;
} pipeline_shared;

static double pipeline_elapsed(const pipeline_shared *sh)
{
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - sh->start.tv_sec) + (double)(now.tv_nsec - sh->start.tv_nsec) / 1e9;
}

double pipeline_progress_interval(void)
{
  const char *e = getenv("PURIST_PROGRESS_INTERVAL");
  char *end;
  double v = e && *e ? strtod(e, &end) : 0;
  return e && *e && !*end && v >= 0.01 && v <= 3600 ? v : 5.0;
}

/* One ninja-style status line, rewritten in place:
 * "[ 120/3400] src/foo.c  0:42 elapsed, ~3:10 left". */
static void pipeline_progress_tty(pipeline_shared *sh, size_t done, const char *file)
{
  size_t n = sh->n;
  double el = pipeline_elapsed(sh), left = done ? el / (double)done * (double)(n - done) : 0;
  const char *base = strrchr(file, '/');
  fprintf(stderr, "\r\033[K[%*zu/%zu] %s  %d:%02d elapsed, ~%d:%02d left", n > 999 ? 5 : 3, done, n,
          base ? base + 1 : file, (int)el / 60, (int)el % 60, (int)left / 60, (int)left % 60);
  if (done == n) fputs("\r\033[K", stderr);
  fflush(stderr);
}

/* The path a plain line shows: relative to the root when inside it. */
static const char *pipeline_shown_path(const pipeline_shared *sh, const char *file)
{
  size_t rl = sh->root ? strlen(sh->root) : 0;
  return rl > 1 && !strncmp(file, sh->root, rl) && file[rl] == '/' ? file + rl + 1 : file;
}

/* The first item still running (the one a stalled run waits on), or NULL. */
static const char *pipeline_running_label(const pipeline_shared *sh)
{
  for (size_t i = 0; sh->running && i < sh->n; i++)
    if (sh->running[i]) return sh->each ? sh->label(sh->ctx, i) : sh->jobs->v[i].file;
  return NULL;
}

/* One tick of plain progress, under the lock: a line "[120/450]
 * src/foo.c" (the last file finished) when the count moved since the
 * last line; when it has not, a line naming the file still running once
 * every PIPE_HEARTBEAT intervals, so a log never repeats a line (a CI log
 * showed "[1/14] lib/xmlrole.c" four times) yet a stalled run still says
 * it is alive. */
static void pipeline_tick(pipeline_shared *sh)
{
  enum { PIPE_HEARTBEAT = 6 };
  double el = pipeline_elapsed(sh);
  if (sh->done != sh->shown_done) {
    const char *file = pipeline_shown_path(sh, sh->last ? sh->last : "");
    fprintf(stderr, "[%zu/%zu]%s%s\n", sh->done, sh->n, *file ? " " : "", file);
  } else if (el - sh->shown_at >= PIPE_HEARTBEAT * sh->interval * 0.999) {
    const char *busy = pipeline_running_label(sh);
    fprintf(stderr, "[%zu/%zu] %d:%02d elapsed%s%s\n", sh->done, sh->n, (int)el / 60, (int)el % 60,
            busy ? "; still working on " : "", busy ? pipeline_shown_path(sh, busy) : "");
  } else {
    return;
  }
  fflush(stderr);
  sh->shown_done = sh->done;
  sh->shown_at = el;
}

/* The ticker of plain progress: pipeline_tick every interval until every
 * item is done. A thread of its own, so a single slow file (a macro
 * bomb, libgit2's largest TU) still gets its lines; a run shorter than
 * the interval prints nothing. */
static void *pipeline_ticker(void *arg)
{
  pipeline_shared *sh = arg;
  pthread_mutex_lock(&sh->lock);
  for (double next = sh->interval; !sh->finished;) {
    struct timespec at = sh->start;
    at.tv_sec += (time_t)next;
    at.tv_nsec += (long)((next - (double)(time_t)next) * 1e9);
    if (at.tv_nsec >= 1000000000L) { at.tv_sec++; at.tv_nsec -= 1000000000L; }
    if (pthread_cond_timedwait(&sh->wake, &sh->lock, &at) == 0 || sh->finished) continue;
    pipeline_tick(sh);
    next = ((double)(long)(pipeline_elapsed(sh) / sh->interval) + 1) * sh->interval;   /* the next one due */
  }
  pthread_mutex_unlock(&sh->lock);
  return NULL;
}

/* Item i has started (plain progress names it while it runs long). */
static void pipeline_progress_start(pipeline_shared *sh, size_t i)
{
  if (!sh->running) return;
  pthread_mutex_lock(&sh->lock);
  sh->running[i] = 1;
  pthread_mutex_unlock(&sh->lock);
}

static void pipeline_progress_note(pipeline_shared *sh, size_t i, const char *file)
{
  pthread_mutex_lock(&sh->lock);
  size_t done = ++sh->done;
  if (sh->running) sh->running[i] = 0;
  if (sh->progress == PIPE_PROGRESS_TTY) pipeline_progress_tty(sh, done, file);
  else if (sh->progress == PIPE_PROGRESS_PLAIN) {
    free(sh->last);
    sh->last = xstrdup(file);
  }
  pthread_mutex_unlock(&sh->lock);
}

/* Job i is done: hands every result now complete in job order to the sink. */
static void pipeline_deliver(pipeline_shared *sh, size_t i)
{
  if (!sh->out->sink) return;
  pthread_mutex_lock(&sh->lock);
  sh->ready[i] = true;
  for (; sh->next_sink < sh->n && sh->ready[sh->next_sink]; sh->next_sink++) {
    sum_tu **s = &sh->out->sums[sh->next_sink];
    sh->out->sink(sh->out->sink_ctx, *s);
    *s = NULL;
  }
  pthread_mutex_unlock(&sh->lock);
}

/* The files job i read (deps) into out->includes and out->reads, as the
 * caller asked. */
static void pipeline_note_reads(pipeline_shared *sh, size_t i, const fe_deps *deps)
{
  pipeline_result *out = sh->out;
  pthread_mutex_lock(&sh->lock);
  for (size_t k = 0; k < deps->n; k++) {
    if (out->includes) strtab_intern(out->includes, deps->v[k].path);
    if (out->reads) vec_push(&out->reads->of[i], strtab_intern(out->reads->files, deps->v[k].path));
  }
  pthread_mutex_unlock(&sh->lock);
}

/* Job i (or one of its alternatives, job) through the cache (if any) or
 * the parser; the files it read go where the caller asked. */
static fe_status pipeline_parse(pipeline_shared *sh, fe_parser parse, const fe_job *job, size_t i, sum_tu **sum,
                                fe_msgs *msgs, cache_lazy *lz)
{
  fe_deps deps = {0}, *want = sh->out->includes || sh->out->reads ? &deps : NULL;
  fe_status st = sh->cache ? cache_summarize_lazy(sh->cache, parse, job, sh->kb, sum, msgs, want, lz)
                           : parse.run(parse.ctx, job, sh->kb, sum, msgs, want);
  if (want) pipeline_note_reads(sh, i, &deps);
  fe_deps_free(&deps);
  return st;
}

/* The database's later entries for a file whose first failed: the first
 * that parses is the result, with a note saying so (the first's errors
 * are not shown: they were not the build's last word). If none parses,
 * the first's result stands. */
static fe_status pipeline_try_alts(pipeline_shared *sh, fe_parser parse, const fe_job *job, size_t i,
                                   fe_status st)
{
  for (size_t k = 0; st != FE_OK && job->alts && k < job->alts->n; k++) {
    sum_tu *sum = NULL;
    fe_msgs msgs = {0};
    cache_lazy lz = {0};
    if (pipeline_parse(sh, parse, &job->alts->v[k], i, &sum, &msgs, sh->out->lazy ? &lz : NULL) != FE_OK) {
      summary_free(sum);
      fe_msgs_free(&msgs);
      cache_lazy_free(&lz);
      continue;
    }
    if (sh->out->lazy) {
      cache_lazy_free(&sh->out->lazy[i]);
      sh->out->lazy[i] = lz;
    }
    summary_free(sh->out->sums[i]);
    fe_msgs_free(&sh->out->msgs[i]);
    sh->out->sums[i] = sum;
    vec_push(&sh->out->msgs[i], xasprintf("purist: note: %s: the compile database's first command for it "
                                          "failed to parse; analysed with its command number %zu of %zu",
                                          job->file, k + 2, job->alts->n + 1));
    for (size_t m = 0; m < msgs.n; m++) vec_push(&sh->out->msgs[i], msgs.v[m]);
    vec_free(&msgs);
    st = FE_OK;
  }
  return st;
}

static void *pipeline_worker(void *arg)
{
  pipeline_shared *sh = arg;
  if (sh->each) {
    size_t i;
    while ((i = atomic_fetch_add(&sh->next, 1)) < sh->n) {
      pipeline_progress_start(sh, i);
      sh->each(sh->ctx, i);
      pipeline_progress_note(sh, i, sh->label(sh->ctx, i));
    }
    return NULL;
  }
  /* One worker process per thread, or one libclang index. */
  worker *wk = sh->out->worker ? worker_new(sh->out->worker) : NULL;
  CXIndex idx = wk ? NULL : clang_createIndex(0, 0);
  fe_parser inner = wk ? (fe_parser){ worker_parse, wk } : (fe_parser){ fe_parse_in_process, idx };
  fe_parser parse = { fe_ccview_counted, &inner };   /* --stats' view counts, and its warnings */
  for (;;) {
    size_t i = atomic_fetch_add(&sh->next, 1);
    if (i >= sh->jobs->n) break;
    const fe_job *job = &sh->jobs->v[i];
    pipeline_progress_start(sh, i);
    fe_status st = pipeline_parse(sh, parse, job, i, &sh->out->sums[i], &sh->out->msgs[i],
                                  sh->out->lazy ? &sh->out->lazy[i] : NULL);
    if (st != FE_OK && job->alts) st = pipeline_try_alts(sh, parse, job, i, st);
    sh->out->status[i] = st;
    if (st != FE_OK) atomic_fetch_add(&sh->failed, 1);
    pipeline_deliver(sh, i);
    pipeline_progress_note(sh, i, job->file);
  }
  worker_free(wk);
  if (idx) clang_disposeIndex(idx);
  return NULL;
}

/* Initialises sh's counters, runs pipeline_worker on nthreads threads (at
 * least one, at most one per item) and waits for them. Workers block
 * SIGINT, SIGTERM and SIGHUP, so a handler (purist impact's cleanup of its
 * temporary tree) runs on the calling thread, never inside a worker. */
static void pipeline_run_threads(pipeline_shared *sh, int nthreads)
{
  size_t n = sh->n;
  atomic_init(&sh->next, 0);
  atomic_init(&sh->failed, 0);
  pthread_mutex_init(&sh->lock, NULL);
  clock_gettime(CLOCK_MONOTONIC, &sh->start);
  sh->interval = pipeline_progress_interval();
  sh->shown_done = SIZE_MAX;
  if (sh->progress == PIPE_PROGRESS_PLAIN) sh->running = xcalloc(n ? n : 1, sizeof *sh->running);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);   /* the deadlines are sh->start + k intervals */
  pthread_cond_init(&sh->wake, &ca);
  pthread_condattr_destroy(&ca);
  if (nthreads < 1) nthreads = 1;
  if ((size_t)nthreads > n) nthreads = n ? (int)n : 1;
  pthread_t *tids = xcalloc((size_t)nthreads, sizeof *tids);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  /* Deeply nested expressions recurse deeply in libclang and in the walk. */
  pthread_attr_setstacksize(&attr, 64u << 20);
  /* Workers run on threads of their own even for -j1, for the big stack. */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &block, &old);   /* inherited by the workers */
  int started = 0;
  for (int t = 0; t < nthreads; t++)
    if (pthread_create(&tids[t], &attr, pipeline_worker, sh) == 0) started++;
    else break;
  pthread_t ticker;
  bool ticking = sh->progress == PIPE_PROGRESS_PLAIN && n > 0 &&
                 pthread_create(&ticker, NULL, pipeline_ticker, sh) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (!started) pipeline_worker(sh);
  for (int t = 0; t < started; t++) pthread_join(tids[t], NULL);
  if (ticking) {
    pthread_mutex_lock(&sh->lock);
    sh->finished = true;
    pthread_cond_signal(&sh->wake);
    pthread_mutex_unlock(&sh->lock);
    pthread_join(ticker, NULL);
  }
  pthread_attr_destroy(&attr);
  free(tids);
  free(sh->last);
  free(sh->running);
  pthread_cond_destroy(&sh->wake);
  pthread_mutex_destroy(&sh->lock);
}

void pipeline_summarize(const fe_jobs *jobs, const kb *kb, int nthreads, pipeline_progress progress,
                        pipeline_result *out)
{
  pipeline_summarize_cached(jobs, kb, NULL, nthreads, progress, out);
}

void pipeline_summarize_cached(const fe_jobs *jobs, const kb *kb, cache *c, int nthreads,
                               pipeline_progress progress, pipeline_result *out)
{
  size_t n = jobs->n;
  out->sums = xcalloc(n ? n : 1, sizeof *out->sums);
  out->msgs = xcalloc(n ? n : 1, sizeof *out->msgs);
  out->status = xcalloc(n ? n : 1, sizeof *out->status);
  pipeline_shared sh = { .jobs = jobs, .kb = kb, .cache = c, .out = out, .n = n, .progress = progress,
                         .root = out->root };
  if (out->sink) sh.ready = xcalloc(n ? n : 1, sizeof *sh.ready);
  if (out->want_lazy && c && !out->sink) out->lazy = xcalloc(n ? n : 1, sizeof *out->lazy);
  if (out->reads) {
    out->reads->files = strtab_new();
    out->reads->of = xcalloc(n ? n : 1, sizeof *out->reads->of);
    out->reads->main = xcalloc(n ? n : 1, sizeof *out->reads->main);
    out->reads->n = n;
    for (size_t i = 0; i < n; i++) out->reads->main[i] = strtab_intern(out->reads->files, jobs->v[i].file);
  }
  /* Shared prefixes' PCHs (frontend/pch.h): in the cache, else for this run. */
  char *pch_tmp = fe_pch_store_open(c ? cache_dir_of(c) : NULL);
  /* The files earlier runs of this project read, with their stamps: an
   * unchanged file is not read again (cache_stat.c). Named by the root,
   * else the first job's directory. */
  if (c) cache_stat_begin(c, out->root ? out->root : n ? jobs->v[0].dir : "");
  pipeline_run_threads(&sh, nthreads);
  if (c) cache_stat_end(c);
  fe_pch_store_close(pch_tmp);
  free(sh.ready);
  out->failed = atomic_load(&sh.failed);
}

void pipeline_result_free(pipeline_result *r, size_t njobs)
{
  for (size_t i = 0; i < njobs; i++) {
    summary_free(r->sums[i]);
    fe_msgs_free(&r->msgs[i]);
    if (r->lazy) cache_lazy_free(&r->lazy[i]);
  }
  free(r->lazy);
  r->lazy = NULL;
  free(r->sums);
  free(r->msgs);
  free(r->status);
}

void tu_reads_free(tu_reads *r)
{
  for (size_t i = 0; i < r->n; i++) vec_free(&r->of[i]);
  free(r->of);
  free(r->main);
  strtab_free(r->files);
  memset(r, 0, sizeof *r);
}

void pipeline_each(size_t n, int nthreads, pipeline_progress progress, void (*each)(void *ctx, size_t i),
                   const char *(*label)(void *ctx, size_t i), void *ctx)
{
  pipeline_shared sh = { .n = n, .each = each, .label = label, .ctx = ctx, .progress = progress };
  pipeline_run_threads(&sh, nthreads);
}
