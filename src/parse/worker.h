/* worker.h — parsing in worker processes.
 *
 * libclang parses recursively: deeply nested code (10,000 nested `if`s, an
 * expression of 100,000 terms) overflows the stack and kills the whole
 * process, and a macro bomb keeps it busy for hours. So each pipeline
 * thread hands its TUs to a worker process of its own (purist itself,
 * started as `purist __parse-worker`), which parses on a thread with a
 * large stack (WORKER_STACK_MIB). A worker that dies fails its TU alone
 * ("file: error: libclang crashed …"); one past the time limit is killed
 * and its TU reported; the next TU gets a fresh worker. A worker is started
 * by exec, not by fork alone, because the parent runs threads. If no
 * worker can be started, or PURIST_PARSE_IN_PROCESS is set (to compare
 * costs, or to debug a parse), TUs are parsed in this process as before,
 * without a time limit. libclang is loaded by the process that parses,
 * when it first parses (libclang/lc.h): the worker, or this process in
 * those two cases; a run that parses nothing never maps it. */
#ifndef PURIST_WORKER_H
#define PURIST_WORKER_H
#include "frontend/fe.h"

/* The worker's parse thread's stack; PURIST_PARSE_STACK_MIB overrides it
 * (to measure, and for the test of a crash that even this stack cannot
 * prevent). */
#define WORKER_STACK_MIB 1024
/* The worker's address space (RLIMIT_AS); PURIST_PARSE_MEMORY_MIB
 * overrides it, 0 lifts it. */
#define WORKER_MEMORY_MIB 4096

/* In a worker: caps its memory and refuses to open devices and FIFOs for
 * reading (an #include of /dev/zero would never end); worker_guard.c. */
void worker_guard_init(void);

typedef struct {
  const char *const *kb_files;   /* --kb files: the worker loads the same knowledge base */
  size_t nkb;
  int timeout;             /* seconds per TU (--tu-timeout); 0: no limit */
  /* Non-NULL: start the worker by fork alone, serving with this knowledge
   * base. Only for a caller that runs no other thread (`purist cc`): it
   * saves the exec and the second load of libclang, most of a small TU's
   * added CPU (issue 24 item 3). */
  const kb *fork_kb;
} worker_cfg;

typedef struct worker worker;

/* A worker for one pipeline thread; its process starts with the first TU. */
worker *worker_new(const worker_cfg *cfg);
/* Ends the worker's process and frees w. */
void worker_free(worker *w);
/* fe_summarize_deps in the worker (an fe_parser's run; ctx is the worker).
 * kb is not used: the worker loaded the same one. */
fe_status worker_parse(void *ctx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs,
                       fe_deps *deps);

/* The worker process: `purist __parse-worker [KB-FILE...]`, a socket on
 * fd 0. Returns its exit status. */
#define WORKER_ARGV1 "__parse-worker"
int worker_main(int argc, char **argv);
/* The worker's loop on fd 0 with a loaded knowledge base (worker_main.c);
 * returns its exit status. */
int worker_run(const kb *k);

#endif
