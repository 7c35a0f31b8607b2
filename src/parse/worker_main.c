/* worker_main.c — the worker process (parse/worker.h): reads jobs from the
 * socket on fd 0, parses each on a thread with a large stack, replies with
 * the result; ends at end of file. */
#include "parse/worker.h"
#include "parse/worker_proto.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

enum { WORKER_MAX_REQUEST = 1 << 30 };

/* One request from fd 0 into b; -1 at end of file (the parent is done). */
static int worker_recv(bytes *b)
{
  unsigned char head[8];
  if (wproto_read_full(0, head, 8) < 0) return -1;
  uint64_t n = 0;
  for (int i = 0; i < 8; i++) n |= (uint64_t)head[i] << (8 * i);
  if (n > WORKER_MAX_REQUEST) return -1;
  b->n = 0;
  vec_reserve(b, (size_t)n + 1);
  if (wproto_read_full(0, b->v, (size_t)n) < 0) return -1;
  b->n = (size_t)n;
  return 0;
}

/* Parses one request's job and sends the reply; -1 if the parent is gone. */
static int worker_serve(CXIndex idx, const kb *k, const bytes *req)
{
  fe_job job;
  bool want_deps;
  fe_msgs msgs = {0};
  fe_deps deps = {0};
  sum_tu *sum = NULL;
  fe_status st = FE_FAILED;
  if (wproto_job_decode(req->v, req->n, &job, &want_deps) == 0) {
    st = fe_summarize_deps(idx, &job, k, &sum, &msgs, want_deps ? &deps : NULL);
    wproto_job_free(&job);
  } else {
    vec_push(&msgs, xstrdup("purist: error: the parse worker got a malformed request"));
  }
  bytes reply = {0};
  wproto_reply_encode(&reply, st, sum, &msgs, want_deps ? &deps : NULL);
  int rc = wproto_send(0, &reply);
  vec_free(&reply);
  summary_free(sum);
  fe_msgs_free(&msgs);
  fe_deps_free(&deps);
  return rc;
}

static void *worker_loop(void *arg)
{
  const kb *k = arg;
  CXIndex idx = clang_createIndex(0, 0);
  bytes req = {0};
  while (worker_recv(&req) == 0 && worker_serve(idx, k, &req) == 0) {}
  vec_free(&req);
  clang_disposeIndex(idx);
  return NULL;
}

static size_t worker_stack_bytes(void)
{
  const char *env = getenv("PURIST_PARSE_STACK_MIB");
  char *end;
  long mib = env ? strtol(env, &end, 10) : 0;
  if (!env || !*env || *end || mib < 1 || mib > 65536) mib = WORKER_STACK_MIB;
  return (size_t)mib << 20;
}

int worker_run(const kb *k)
{
  /* Dies with the pipeline thread that started it, whatever happens there. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  worker_guard_init();
  /* libclang parses on the calling thread (ours, with the big stack), not
   * on a helper thread of its own with 8 MiB; and a crash ends this process
   * instead of being "recovered" into a half-broken libclang. */
  setenv("LIBCLANG_NOTHREADS", "1", 1);
  const char *why;
  if (lc_load(&why) < 0) {   /* the pipeline reports each TU as not parsed; say why once */
    fprintf(stderr, "purist: %s\n", why);
    return 2;
  }
  clang_toggleCrashRecovery(0);
  fe_ccview_mode_from_env();   /* --compiler-view, as the parent set it */
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, worker_stack_bytes());
  pthread_t t;
  if (pthread_create(&t, &attr, worker_loop, (void *)k) == 0) pthread_join(t, NULL);
  else worker_loop((void *)k);
  pthread_attr_destroy(&attr);
  return 0;
}

int worker_main(int argc, char **argv)
{
  kb *k = kb_new();
  char *err = NULL;
  int rc = kb_load_builtin(k, &err);
  for (int i = 2; rc == 0 && i < argc; i++) rc = kb_load_file(k, argv[i], &err);
  if (rc < 0) {
    fprintf(stderr, "purist: %s\n", err);
    free(err);
    kb_free(k);
    return 2;
  }
  rc = worker_run(k);
  kb_free(k);
  return rc;
}
