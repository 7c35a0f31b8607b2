/* launcher.c — see launcher.h. */
#include "cli/launcher.h"
#include "cli/ccargs.h"
#include "cli/worker.h"
#include "elf/elfsec.h"
#include "frontend/fe.h"
#include "util/textenc.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The compiler's pid, for the signal handler: a handler can reach nothing
 * else, so this is the one piece of process-wide state (set once, before
 * signals are unblocked). */
static volatile sig_atomic_t launcher_child;

/* The launcher takes no options: infer's default --tu-timeout. */
enum { LAUNCHER_TU_TIMEOUT = 300 };

static const int launcher_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
enum { NSIG_FWD = sizeof launcher_signals / sizeof *launcher_signals };

/* Passes a signal on to the compiler, which decides what it means (make
 * and ninja signal the whole process group anyway; a lone kill of the
 * launcher must not leave the compiler running). */
static void launcher_forward(int sig)
{
  if (launcher_child > 0) kill((pid_t)launcher_child, sig);
}

/* Forks and execs the compiler; returns its wait status, or -1. Signals
 * are blocked around fork so none arrives before the handler knows the pid. */
static int launcher_run(char **argv)
{
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  pid_t pid = fork();
  if (pid == 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    execvp(argv[0], argv);
    fprintf(stderr, "purist cc: %s: %s\n", argv[0], strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  if (pid > 0) {
    launcher_child = pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = launcher_forward;
    for (int i = 0; i < NSIG_FWD; i++) sigaction(launcher_signals[i], &sa, NULL);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (pid < 0) {
    fprintf(stderr, "purist cc: cannot start %s: %s\n", argv[0], strerror(errno));
    return -1;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  for (int i = 0; i < NSIG_FWD; i++) signal(launcher_signals[i], SIG_DFL);
  return status;
}

/* The files of PURIST_KB (colon-separated), as `--kb` gives them to infer;
 * *list owns the strings. */
typedef VEC(const char *) launcher_names;

static void launcher_kb_files(char **list, launcher_names *files)
{
  const char *env = getenv("PURIST_KB");
  char *save = NULL;
  *list = env && *env ? xstrdup(env) : NULL;
  for (char *f = *list ? strtok_r(*list, ":", &save) : NULL; f; f = strtok_r(NULL, ":", &save))
    vec_push(files, f);
}

/* The knowledge base the summaries are made with: the built-in one and the
 * given files. */
static kb *launcher_kb(const char *const *files, size_t n, char **err)
{
  kb *k = kb_new();
  int rc = kb_load_builtin(k, err);
  for (size_t i = 0; rc == 0 && i < n; i++) rc = kb_load_file(k, files[i], err);
  if (rc == 0) return k;
  kb_free(k);
  return NULL;
}

/* Summarises one unit and embeds it; returns NULL or why not (caller frees). */
static char *launcher_unit(worker *wk, const kb *k, const ccargs *a, const ccargs_unit *u, const char *cc)
{
  fe_jobs jobs = {0};
  char *why = NULL, *skipped = NULL;
  int rc = cdb_from_files(&u->src, 1, a->flags.v, (int)a->flags.n, &jobs, &why, &skipped);
  free(skipped);
  if (rc < 0 || jobs.n != 1) {
    cdb_jobs_free(&jobs);
    return why ? why : xasprintf("%s: not a C source", u->src);
  }
  free(jobs.v[0].cmd[0]);   /* the compiler the build runs, for its view of the preprocessor */
  jobs.v[0].cmd[0] = xstrdup(cc);
  sum_tu *sum = NULL;
  fe_msgs msgs = {0};
  fe_status st = worker_parse(wk, &jobs.v[0], k, &sum, &msgs, NULL);
  if (st != FE_OK) {
    const char *first = NULL;
    for (size_t i = 0; i < msgs.n && !first; i++)
      if (!fe_msg_is_advice(msgs.v[i]))
        first = msgs.v[i];
    why = xasprintf("%s: libclang cannot analyse it%s%s", u->src, first ? ": " : "", first ? first : "");
  } else {
    size_t len;
    summary_prune(sum);   /* what the link needs from this TU, packed: objects stay small */
    unsigned char *bytes = summary_encode_packed(sum, &len);
    elfsec_embed(u->obj, bytes, len, &why);
    free(bytes);
  }
  summary_free(sum);
  fe_msgs_free(&msgs);
  cdb_jobs_free(&jobs);
  return why;
}

/* Summarises every unit, in a parse worker as infer does (a file that
 * crashes libclang or outlasts the default --tu-timeout loses its summary,
 * not the build's object); warns once (the first problem) if any failed. */
static void launcher_summarize(const ccargs *a, const char *cc)
{
  char *why = NULL, *list;
  int failed = 0;
  launcher_names files = {0};
  launcher_kb_files(&list, &files);
  kb *k = launcher_kb(files.v, files.n, &why);
  worker_cfg cfg = { files.v, files.n, LAUNCHER_TU_TIMEOUT, k };
  worker *wk = k ? worker_new(&cfg) : NULL;
  for (size_t i = 0; k && i < a->units.n; i++) {
    char *w = launcher_unit(wk, k, a, &a->units.v[i], cc);
    if (w) failed++;
    if (w && !why) why = w; else free(w);
  }
  if (!k) failed = (int)a->units.n;
  if (failed) {   /* why quotes clang: control characters escaped (cmd_put_msg) */
    fprintf(stderr, "purist cc: warning: %d of %zu objects built without a purist summary: ", failed, a->units.n);
    textenc_put_text(stderr, why, strlen(why), 1);
    fputc('\n', stderr);
  }
  free(why);
  worker_free(wk);
  kb_free(k);
  vec_free(&files);
  free(list);
}

/* A link step: the binary's summaries go to BINARY.purist unless
 * PURIST_CC_EMBED=1 keeps them inside (elfsec_sidecar_split). A failure
 * warns and leaves them inside: the binary is what the linker wrote. */
static void launcher_sidecar(const char *binary)
{
  const char *env = getenv("PURIST_CC_EMBED");
  char *why = NULL;
  if (elfsec_sidecar_split(binary, env && strcmp(env, "1") == 0, &why) < 0)
    fprintf(stderr, "purist cc: warning: %s\n", why);
  free(why);
}

/* Where the compiler's predefined macros are kept between compiles:
 * PURIST_CC_CACHE, else $XDG_CACHE_HOME/purist, else ~/.cache/purist;
 * PURIST_CC_CACHE=0 (or no home) keeps nothing. */
static void launcher_cache_dir(void)
{
  const char *env = getenv("PURIST_CC_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char *dir = NULL;
  if (env && *env) dir = strcmp(env, "0") ? xstrdup(env) : NULL;
  else if (xdg && xdg[0] == '/') dir = xasprintf("%s/purist", xdg);
  else if (home && home[0] == '/') dir = xasprintf("%s/.cache/purist", home);
  fe_ccview_disk_cache(dir);
  free(dir);
}

int launcher_main(int argc, char **argv)
{
  if (argc < 1) {
    fprintf(stderr, "purist cc: usage: purist cc COMPILER [ARGS...]\n");
    return 2;
  }
  int status = launcher_run(argv);
  if (status < 0) return 127;
  if (WIFSIGNALED(status)) {   /* die the same way, so make sees the same */
    raise(WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  if (WEXITSTATUS(status) != 0) return WEXITSTATUS(status);
  ccargs a;
  ccargs_parse(argc, argv, &a);
  int c = 0;
  while (c < argc - 1 && cdb_is_wrapper(argv[c])) c++;
  fe_ccview_mode_from_env();   /* the launcher takes no options of its own */
  if (a.units.n) launcher_cache_dir();
  if (a.units.n) launcher_summarize(&a, argv[c]);
  if (a.linked) launcher_sidecar(a.linked);
  ccargs_free(&a);
  return 0;
}
