/* launcher.c — see launcher.h. */
#include "cc/cc.h"
#include "cc/launcher.h"
#include "cc/ccargs.h"
#include "parse/worker.h"
#include "elf/elfsec.h"
#include "frontend/fe.h"
#include "util/textenc.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The launcher takes no options: infer's default --tu-timeout. */
enum { LAUNCHER_TU_TIMEOUT = 300 };

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
 * not the build's object); warns once (the first problem) if any failed.
 * k NULL: the knowledge base could not be read (why says why). */
static void launcher_summarize(const ccargs *a, const char *cc, const kb *k, const char *const *kb_files,
                               size_t nkb, char *why)
{
  int failed = 0;
  worker_cfg cfg = { kb_files, nkb, LAUNCHER_TU_TIMEOUT, k };
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
}

kb *launcher_kb_load(char **list, const char ***files, size_t *n, char **why)
{
  launcher_names names = {0};
  launcher_kb_files(list, &names);
  *files = names.v;
  *n = names.n;
  return launcher_kb(names.v, names.n, why);
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

void launcher_summaries(int argc, char **argv, const kb *k, const char *const *kb_files, size_t nkb)
{
  ccargs a;
  ccargs_parse(argc, argv, &a);
  int c = 0;
  while (c < argc - 1 && cdb_is_wrapper(argv[c])) c++;
  fe_ccview_mode_from_env();   /* the launcher takes no options of its own */
  if (a.units.n) {
    launcher_cache_dir();
    launcher_summarize(&a, argv[c], k, kb_files, nkb, NULL);
  }
  ccargs_free(&a);
}

void launcher_summaries_here(int argc, char **argv)
{
  char *list, *why = NULL;
  const char **files;
  size_t n;
  kb *k = launcher_kb_load(&list, &files, &n, &why);
  if (k) {
    free(why);
    launcher_summaries(argc, argv, k, files, n);
  } else {
    ccargs a;
    ccargs_parse(argc, argv, &a);
    fprintf(stderr, "purist cc: warning: %zu objects built without a purist summary: %s\n", a.units.n, why);
    free(why);
    ccargs_free(&a);
  }
  kb_free(k);
  free(files);
  free(list);
}

int launcher_main(int argc, char **argv)
{
  return ccrun_main(argc, argv, NULL, launcher_summaries_here);
}
