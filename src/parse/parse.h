/* parse.h — the contract of src/parse/: summarise many TUs, in parallel,
 * in a deterministic order.
 *
 * What the folder owns: the pipeline's threads, progress line and cache
 * lookups (pipeline.c), and the worker processes that do the parsing
 * with a large stack and a time limit (worker*.c, worker.h), with the
 * frames they exchange (worker_proto.c, wproto_io.c, worker_proto.h).
 * What it may call: the front end (frontend/fe.h), the summary cache
 * (cache/), the knowledge base, util/. The commands (cli/) and `purist cc`
 * (cc/) call it; it calls neither. */
#ifndef PURIST_PARSE_H
#define PURIST_PARSE_H
#include <stdbool.h>
#include "cache/cache.h"
#include "parse/worker.h"
#include "frontend/fe.h"
#include "util/strtab.h"

/* How a long run shows it is alive, on stderr (--progress). */
typedef enum {
  PIPE_PROGRESS_NONE = 0,
  PIPE_PROGRESS_TTY = 1,    /* one ninja-style status line rewritten in place (a terminal) */
  PIPE_PROGRESS_PLAIN = 2   /* "[120/450] src/foo.c", a line every few seconds once the run
                               has lasted that long (a CI log, a pipe), only when the count
                               moved; while it does not, "[120/450] 0:35 elapsed; still working
                               on src/big.c" every 6 intervals */
} pipeline_progress;

/* The interval of PIPE_PROGRESS_PLAIN in seconds: PURIST_PROGRESS_INTERVAL
 * (0.01 to 3600; for tests), else 5. */
double pipeline_progress_interval(void);

/* What each job read (pipeline_result.reads): every file interned once,
 * and per job the ids of those it read (its main file among them), from
 * the parse or the cache's manifest. */
typedef VEC(uint32_t) tu_read_ids;
typedef struct {
  strtab *files;
  tu_read_ids *of;     /* per job */
  uint32_t *main;      /* per job: the id of its file, as the job names it */
  size_t n;
} tu_reads;

void tu_reads_free(tu_reads *r);

typedef struct {
  sum_tu **sums;       /* per job: the summary, or NULL if it failed */
  fe_msgs *msgs;       /* per job: diagnostics to print */
  fe_status *status;   /* per job: how its parse ended (what SARIF and JSON say of a failed TU) */
  int failed;          /* jobs with errors (reported, analysed as unknown) */
  int skipped;         /* bad compile-database entries (reported, left out): set by cmd_parse_project */
  /* Optional, set by the caller: sink(sink_ctx, s) is given each job's
   * summary (NULL if it failed), in job order, one call at a time, as soon
   * as that job and every job before it are done; it takes ownership and
   * sums[i] stays NULL. Linking as results arrive keeps one summary in
   * memory instead of all, and overlaps the link with parsing. */
  void (*sink)(void *sink_ctx, sum_tu *s);
  void *sink_ctx;
  /* Optional, set by the caller: parse in worker processes (parse/worker.h)
   * configured so; NULL parses in this process. */
  const worker_cfg *worker;
  /* Optional, set by the caller: plain progress lines name files relative
   * to it when inside it. */
  const char *root;
  /* Optional, set by the caller (who owns it): gets the path of every file
   * a job read — its main file and every file it included, from the
   * cache's manifest on a hit — so -o can refuse a header that holds no
   * declaration (macros, types only). Costs a hash of each header read. */
  strtab *includes;
  /* Optional, set by the caller (who owns it, zeroed): receives what each
   * job read (purist impact compiles only the TUs that read a file it
   * edits). Costs a hash of each header read, as includes does. */
  tu_reads *reads;
  /* Optional, set by the caller (no sink then): with a cache, an exact
   * hit's summary stays undecoded in lazy[i] (pipeline allocates it;
   * sums[i] NULL), for a caller that may not need it (cli/progmemo.c);
   * every job's lazy[i].digest names its summary. */
  bool want_lazy;
  cache_lazy *lazy;
} pipeline_result;

/* Summarises jobs with `nthreads` threads (one libclang index each). The
 * result is the same whatever the thread count: each job's output has its
 * own slot. */
void pipeline_summarize(const fe_jobs *jobs, const kb *kb, int nthreads, pipeline_progress progress,
                        pipeline_result *out);
/* Runs each(ctx, i) for every i < n on nthreads threads, with the same
 * progress line as pipeline_summarize (label(ctx, i) names item i). */
void pipeline_each(size_t n, int nthreads, pipeline_progress progress, void (*each)(void *ctx, size_t i),
                   const char *(*label)(void *ctx, size_t i), void *ctx);
/* The same, through the summary cache c (NULL: none). */
void pipeline_summarize_cached(const fe_jobs *jobs, const kb *kb, cache *c, int nthreads,
                               pipeline_progress progress, pipeline_result *out);
void pipeline_result_free(pipeline_result *r, size_t njobs);

#endif
