/* fe.h — the front end: one TU in, one summary out.
 *
 * fe_summarize parses a job with libclang and walks every function body
 * (walk_stmt.c, walk_expr.c), recording the primitive effects of DESIGN.md §2. It
 * holds no state between calls except the CXIndex the caller passes, so
 * threads may summarise different TUs at once, one index each.
 *
 * The folder (docs/layout.md): parse.c runs libclang and the walk
 * (walk_stmt.c, walk_expr.c, loop.c) over each body; text.c (files,
 * texts, locations) and attrtext.c (attributes as written) are the cores
 * the rest calls; decl.c keeps the TU's function table; one file per fact
 * (frozen.c, alias.c, rotable.c, cmpfold.c, fixfacts.c …); cdb*.c read
 * compile databases and ccview*.c the build compiler's view. It calls the
 * summary format, the knowledge base and util/, nothing above them. */
#ifndef PURIST_FE_H
#define PURIST_FE_H
#include "libclang/lc.h"   /* libclang, loaded when a parse needs it */
#include <stdio.h>
#include "frontend/cdb.h"
#include "kb/kb.h"
#include "summary/summary.h"

typedef VEC(char *) fe_msgs;

typedef enum {
  FE_OK = 0,        /* summary complete */
  FE_ERRORS = 1,    /* the TU has errors: the summary lists no bodies (STF_PARSE_FAILED) */
  FE_FAILED = 2,    /* libclang could not parse at all: *out is NULL */
  /* Set by the parse worker (parse/worker.h) only; *out is NULL as for FE_FAILED. */
  FE_TIMED_OUT = 3, /* the parse outlasted --tu-timeout */
  FE_CRASHED = 4    /* the process parsing it died (a signal, an exit) */
} fe_status;

/* Summarises one TU. Diagnostics worth showing (errors in the code,
 * problems with the flags) are appended to msgs as complete lines in GCC
 * style; the caller prints and frees them. */
fe_status fe_summarize(CXIndex idx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs);

/* A file the TU read: the main file and every file it included, as
 * libclang reports them (clang_getInclusions), with the size and XXH3-64
 * hash of the very bytes libclang parsed. What the summary cache keys on. */
typedef struct {
  char *path;      /* absolute, symlinks resolved where libclang knows the real path */
  uint64_t size, hash;
  bool main;       /* the main file (depth 0) */
} fe_dep;
typedef VEC(fe_dep) fe_deps;

/* fe_summarize, also filling deps (if not NULL) with the files the TU read,
 * each once, in the order libclang reports them. */
fe_status fe_summarize_deps(CXIndex idx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs,
                            fe_deps *deps);
void fe_deps_free(fe_deps *d);

/* A way to run fe_summarize_deps: in this process (fe_parse_in_process,
 * ctx a CXIndex) or in a worker process with a large stack and a time
 * limit (parse/worker.h), where a libclang crash loses one TU, not the run. */
typedef struct {
  fe_status (*run)(void *ctx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs, fe_deps *deps);
  void *ctx;
} fe_parser;
fe_status fe_parse_in_process(void *idx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs,
                              fe_deps *deps);

void fe_msgs_free(fe_msgs *m);

/* The preprocessor's view (ccview.c, --compiler-view): the build's (a GCC
 * compile command is parsed with that GCC's predefined macros) or clang's
 * own. Set once, before any parse. */
typedef enum { FE_VIEW_BUILD = 0, FE_VIEW_CLANG = 1 } fe_view_mode;
/* Sets the mode and exports it (PURIST_COMPILER_VIEW) to the parse
 * workers this process starts; call before any thread starts. */
void fe_ccview_set_mode(fe_view_mode m);
/* The mode PURIST_COMPILER_VIEW names (build unless "clang"): for a parse
 * worker, and for `purist cc`, which has no options of its own. */
void fe_ccview_mode_from_env(void);
/* The GCC view's header for job (NULL: clang's view), asking the compiler
 * if not yet; and, in a parse worker, the same header as its parent found
 * it (text NULL: clang's view), so that the compiler is asked once in all. */
const char *fe_ccview_text_for(const fe_job *job, size_t *len);
void fe_ccview_preset(const fe_job *job, const char *text, size_t len);
/* An fe_parser's run that wraps another (ctx: the fe_parser): says once
 * per compiler why a GCC command gets no view (it cannot be run), and
 * counts each TU parsed by the view it got, for --stats. In the process
 * that prints, whichever process parses. */
fe_status fe_ccview_counted(void *ctx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs,
                            fe_deps *deps);
/* What the job's view is, for the summary cache's key: 0 for clang's,
 * else a hash of the GCC view's macros (asks the compiler once). */
uint64_t fe_ccview_digest(const fe_job *job);
/* The words that end every message saying a file was parsed with
 * clang's predefined macros, not its compiler's (ccview.c, parse.c). */
#define FE_MSG_CLANG_MACROS "parsed with clang's predefined macros instead"
/* Is msg advice --quiet hides (a flag libclang ignores, the macros a file
 * was parsed with), not an error in the code? */
bool fe_msg_is_advice(const char *msg);
/* Keeps what GCC predefines in files under dir (ccview_disk.c), so that
 * each `purist cc` process, one per compile, and each command run on a
 * warm summary cache, does not run `gcc -dM -E` again; NULL turns it off.
 * Call before any parse (the same dir again changes nothing: the LSP
 * server opens its cache for each analysis). */
void fe_ccview_disk_cache(const char *dir);
/* Is name, in such a directory, one of those files (or a temporary left
 * while writing one)? `purist cache clean` removes them. */
bool fe_ccview_disk_is_file(const char *name);
/* "purist: compiler view: …" — how many TUs were parsed with each view. */
void fe_ccview_print_stats(FILE *f);

/* The arguments libclang gets for a job: the build's flags, then purist's
 * own (resource directory, errors that must not stop a parse). For other
 * passes over the same TUs (src/verify); free with fe_clang_argv_free. */
char **fe_clang_argv(const fe_job *job, int *argc);
void fe_clang_argv_free(char **argv);

#endif
