/* pipeline.c — see pipeline.h. Workers take the next job index from a
 * shared counter, so the load balances itself. */
#include "cli/pipeline.h"
#include <pthread.h>
#include <stdatomic.h>

typedef struct {
  const fe_jobs *jobs;
  const kb *kb;
  pipeline_result *out;
  atomic_size_t next;
  atomic_int failed;
} pipeline_shared;

static void *pipeline_worker(void *arg)
{
  pipeline_shared *sh = arg;
  CXIndex idx = clang_createIndex(0, 0);
  for (;;) {
    size_t i = atomic_fetch_add(&sh->next, 1);
    if (i >= sh->jobs->n) break;
    fe_status st = fe_summarize(idx, &sh->jobs->v[i], sh->kb, &sh->out->sums[i], &sh->out->msgs[i]);
    if (st != FE_OK) atomic_fetch_add(&sh->failed, 1);
  }
  clang_disposeIndex(idx);
  return NULL;
}

void pipeline_summarize(const fe_jobs *jobs, const kb *kb, int nthreads, pipeline_result *out)
{
  size_t n = jobs->n;
  out->sums = xcalloc(n ? n : 1, sizeof *out->sums);
  out->msgs = xcalloc(n ? n : 1, sizeof *out->msgs);
  pipeline_shared sh = { jobs, kb, out, 0, 0 };
  if (nthreads < 1) nthreads = 1;
  if ((size_t)nthreads > n) nthreads = n ? (int)n : 1;
  pthread_t *tids = xcalloc((size_t)nthreads, sizeof *tids);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  /* Deeply nested expressions recurse deeply in libclang and in the walk. */
  pthread_attr_setstacksize(&attr, 64u << 20);
  /* Workers run on threads of their own even for -j1, for the big stack. */
  int started = 0;
  for (int t = 0; t < nthreads; t++)
    if (pthread_create(&tids[t], &attr, pipeline_worker, &sh) == 0) started++;
    else break;
  if (!started) pipeline_worker(&sh);
  for (int t = 0; t < started; t++) pthread_join(tids[t], NULL);
  pthread_attr_destroy(&attr);
  free(tids);
  out->failed = atomic_load(&sh.failed);
}

void pipeline_result_free(pipeline_result *r, size_t njobs)
{
  for (size_t i = 0; i < njobs; i++) {
    summary_free(r->sums[i]);
    fe_msgs_free(&r->msgs[i]);
  }
  free(r->sums);
  free(r->msgs);
}
