/* cmd_common.c — what the commands share: parsing the project (through the
 * cache), reading summaries from objects, solving, the output file, and
 * the findings' filters and formats. See cmd.h. */
#include "cli/cache_cmd.h"
#include "cli/cli_table.h"
#include "cli/clobber.h"
#include "cli/cmd.h"
#include "cli/inputs.h"
#include "cli/progmemo.h"
#include "cli/project.h"
#include "cli/scope.h"
#include "report/diag_out.h"
#include "report/reason.h"
#include "util/fileio.h"
#include "fix/fix.h"
#include "util/glob.h"
#include "util/strtab.h"
#include "util/textenc.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* msg's lines, each escaped as cmd_put_msg does, after prefix. */
static void cmd_put_lines(const char *prefix, const char *msg)
{
  for (const char *nl; (nl = strchr(msg, '\n')); msg = nl + 1) {
    fputs(prefix, stderr);
    textenc_put_text(stderr, msg, (size_t)(nl - msg), 1);
    fputc('\n', stderr);
  }
  fputs(prefix, stderr);
  textenc_put_text(stderr, msg, strlen(msg), 1);
  fputc('\n', stderr);
}

void cmd_say(const char *msg)
{
  cmd_put_lines("purist: ", msg);
}

void cmd_put_msg(const char *msg)
{
  textenc_put_text(stderr, msg, strlen(msg), 1);
  fputc('\n', stderr);
}

/* The part of a "compiler flags" warning after the file's name, or NULL:
 * clang says the same of every file built with the same flags. */
static const char *cmd_flags_text(const char *msg)
{
  const char *t = strstr(msg, ": warning: compiler flags: ");
  return t ? t + 2 : NULL;
}

/* What parsing said, file by file (--quiet: errors only). A warning about
 * the compiler flags is said once, at the first file, with the number of
 * other files it holds for: a Linux build whose every entry carries one
 * flag clang rejects printed it 483 times. */
static void cmd_put_parse_msgs(const cli_opts *o, const fe_jobs *jobs, const pipeline_result *res)
{
  strtab *seen = strtab_new();
  VEC(uint32_t) count = {0};
  for (size_t i = 0; i < jobs->n; i++)
    for (size_t m = 0; m < res->msgs[i].n; m++) {
      const char *t = cmd_flags_text(res->msgs[i].v[m]);
      if (!t) continue;
      uint32_t id = strtab_intern(seen, t);
      while (count.n <= id) vec_push(&count, 0);
      count.v[id]++;
    }
  for (size_t i = 0; i < jobs->n; i++)
    for (size_t m = 0; m < res->msgs[i].n; m++) {
      const char *msg = res->msgs[i].v[m], *t = cmd_flags_text(msg);
      if (o->quiet && fe_msg_is_advice(msg)) continue;
      uint32_t id = t ? strtab_find(seen, t) : 0;
      if (!t || count.v[id] == 1) { cmd_put_msg(msg); continue; }
      if (!count.v[id]) continue;                       /* said at its first file */
      char *once = xasprintf("%s (and %u more files with the same flags)", msg, count.v[id] - 1);
      cmd_put_msg(once);
      free(once);
      count.v[id] = 0;
    }
  vec_free(&count);
  strtab_free(seen);
}

pipeline_progress cmd_progress_mode(const cli_opts *o)
{
  const char *w = o->progress, *env = getenv("PURIST_PROGRESS");
  if (!o->given[cli_opt_find("--progress") - cli_optdefs] && env &&
      (!strcmp(env, "plain") || !strcmp(env, "none") || !strcmp(env, "auto")))
    w = env;
  if (!strcmp(w, "none")) return PIPE_PROGRESS_NONE;
  if (!strcmp(w, "plain")) return PIPE_PROGRESS_PLAIN;
  if (o->quiet) return PIPE_PROGRESS_NONE;
  return isatty(STDERR_FILENO) ? PIPE_PROGRESS_TTY : PIPE_PROGRESS_PLAIN;
}

int cmd_jobs_count(const cli_opts *o)
{
  if (o->jobs > 0) return o->jobs;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

/* The error line to quote for a TU that was not analysed: its first
 * error, else its first message. */
static const char *cmd_first_error(const fe_msgs *m)
{
  for (size_t i = 0; i < m->n; i++)
    if (strstr(m->v[i], ": error: ")) return m->v[i];
  return m->n ? m->v[0] : "the file could not be parsed";
}

/* Records in ri every TU of jobs that was not analysed, and each bad
 * database entry of skipped (one a line, "DB: entry N …"), at the
 * database's file. */
static void cmd_note_failures(run_info *ri, const fe_jobs *jobs, const pipeline_result *res,
                              const char *skipped, const char *root)
{
  static const run_na_reason reasons[] = {
    [FE_ERRORS] = RUN_NA_ERRORS, [FE_FAILED] = RUN_NA_FAILED,
    [FE_TIMED_OUT] = RUN_NA_TIMED_OUT, [FE_CRASHED] = RUN_NA_CRASHED };
  for (size_t i = 0; i < jobs->n; i++) {
    fe_status st = res->status[i];
    if (st == FE_OK) continue;
    run_na_reason r = (unsigned)st < sizeof reasons / sizeof *reasons ? reasons[st] : RUN_NA_FAILED;
    run_info_add(ri, jobs->v[i].file, root, r, cmd_first_error(&res->msgs[i]));
  }
  for (const char *line = skipped; line && *line;) {
    size_t len = strcspn(line, "\n");
    char *msg = xstrndup(line, len);
    char *at = strstr(msg, ": entry ");
    char *file = xstrndup(msg, at ? (size_t)(at - msg) : strlen(msg));
    char *abs = realpath(file, NULL);   /* said as given (maybe relative); the root is absolute */
    run_info_add(ri, abs ? abs : file, root, RUN_NA_BAD_ENTRY, msg);
    free(abs);
    free(file);
    free(msg);
    line += len + (line[len] == '\n');
  }
}

/* Says in one line what skip.h left out of the analysis (unless
 * --quiet), and records each in ri (reason "skipped"). */
static void cmd_note_skipped(const cli_opts *o, const skip_list *left, const char *root, run_info *ri)
{
  char *what = o->quiet ? NULL : skip_describe(left, root);
  if (what) fprintf(stderr, "purist: note: %s\n", what);
  free(what);
  for (size_t i = 0; ri && i < left->n; i++) {
    char *msg = xasprintf("left out of the analysis: %s", left->v[i].why);
    run_info_add(ri, left->v[i].file, root, RUN_NA_SKIPPED, msg);
    free(msg);
  }
}

/* Summarises the project's TUs through cache c (NULL: one of o's, opened
 * and closed here); prints their diagnostics in job order. */
static int cmd_parse_project_in(const cli_opts *o, const kb *k, fe_jobs *jobs, pipeline_result *res, char **root,
                                run_info *ri, cache *given)
{
  char *err = NULL, *skipped = NULL;
  skip_list left = {0};
  if (project_jobs_skip(o, jobs, root, &err, &skipped, &left) < 0) {
    cmd_say(err);
    free(err);
    skip_list_free(&left);
    return -1;
  }
  cmd_note_skipped(o, &left, *root, ri);
  skip_list_free(&left);
  int nskipped = 0;   /* bad database entries: said, left out, an input error */
  if (skipped) {
    cmd_put_lines("", skipped);
    nskipped = 1;
    for (const char *q = skipped; (q = strchr(q, '\n')); q++) nskipped++;
  }
  cache *c = given ? given : cache_cmd_open(o, k);
  res->root = *root;
  worker_cfg wcfg = { o->kb_files.v, o->kb_files.n, o->tu_timeout, NULL };   /* threads: exec, not fork */
  res->worker = &wcfg;
  res->includes = clobber_outs_exist(o) ? strtab_new() : NULL;   /* -o naming a header */
  pipeline_summarize_cached(jobs, k, c, cmd_jobs_count(o), cmd_progress_mode(o), res);
  res->worker = NULL;
  res->skipped = nskipped;
  cmd_put_parse_msgs(o, jobs, res);
  if (ri) cmd_note_failures(ri, jobs, res, skipped, *root);
  free(skipped);
  if (o->stats) cache_print_stats(c, stderr);
  if (o->stats) fe_ccview_print_stats(stderr);
  if (!given) cache_cmd_close(o, c);
  int rc = res->includes ? clobber_check_strtab(o, res->includes, &err) : 0;
  if (rc < 0) {   /* nothing written; the callers free no result on failure */
    cmd_say(err);
    free(err);
    pipeline_result_free(res, jobs->n);
    res->sums = NULL;
    res->msgs = NULL;
    res->status = NULL;
  }
  strtab_free(res->includes);
  res->includes = NULL;
  return rc;
}

int cmd_parse_project(const cli_opts *o, const kb *k, fe_jobs *jobs, pipeline_result *res, char **root,
                      run_info *ri)
{
  return cmd_parse_project_in(o, k, jobs, res, root, ri, NULL);
}

/* The temporary file -o is written to (one output a run), renamed over
 * -o when the output is complete: a full disk or a killed run leaves the
 * previous file whole (util/fileio.h). */
static char *cmd_output_tmp;

FILE *cmd_open_output(const cli_opts *o)
{
  if (!o->output) return stdout;
  FILE *f = file_atomic_open(o->output, &cmd_output_tmp);
  if (!f) fprintf(stderr, "purist: %s: %s\n", o->output, strerror(errno));
  return f;
}

/* Closes the output, reporting a write that failed (a full disk, a closed
 * pipe) instead of exiting 0 with a truncated report. */
int cmd_close_output(const cli_opts *o, FILE *out)
{
  int bad;
  if (out != stdout) {
    bad = file_atomic_commit(out, cmd_output_tmp, o->output, 1) != 0;
    cmd_output_tmp = NULL;
  } else {
    bad = fflush(out) != 0 || ferror(out);
  }
  if (bad) fprintf(stderr, "purist: %s: could not write the output: %s\n",
                   o->output ? o->output : "standard output", strerror(errno));
  if (bad && out == stdout) clearerr(stdout);   /* said once: not again at exit (main.c) */
  return bad ? EXIT_INPUT : EXIT_OK;
}

/* Links the summaries of the files named (summary files, objects,
 * archives, executables, shared objects). *bad is set if a record or file
 * was refused (said on stderr; the rest is linked) or none held a summary. */
link_prog *cmd_link_inputs(const cli_opts *o, const kb *k, int *bad)
{
  link_prog *p = link_new(k, o->strict);
  inputs_count n = {0};
  for (size_t i = 0; i < o->files.n; i++) inputs_add_file(p, o->files.v[i], o->quiet, &n);
  if (n.records == 0 && n.bad == 0) cmd_say("no summaries in the files named (build with purist cc, or use purist summarize)");
  *bad = n.bad > 0 || n.records == 0;
  return p;
}

/* Do the files named hold summaries (objects, archives, executables,
 * summary files) rather than C sources? 1 all, 0 none (or no files), -1
 * a mixture (said on stderr). */
static int cmd_summary_inputs(const cli_opts *o)
{
  size_t n = 0;
  for (size_t i = 0; i < o->files.n; i++) n += inputs_is_summary_file(o->files.v[i]);
  if (n && n < o->files.n) cmd_say("name either C sources or files with summaries (objects, archives, binaries), not both");
  return n == 0 ? 0 : n == o->files.n ? 1 : -1;
}

/* Files named without a database failed to parse: most often flags the
 * build passes are missing. Says how to give them. */
static void cmd_hint_db(const cli_opts *o)
{
  const char *cmd = cli_cmd_def(o->cmd)->name, *f = o->files.v[0];
  char *hint = o->dashdash
    ? xasprintf("purist: hint: if the build makes a compile_commands.json, name its directory "
                "instead of the flags: purist %s -p build %s", cmd, f)
    : xasprintf("purist: hint: these files were parsed without flags: name the directory of the "
                "build's compile_commands.json (purist %s -p build %s), or give the flags after -- "
                "(purist %s %s -- -Iinclude -DNAME)", cmd, f, cmd, f);
  cmd_put_msg(hint);   /* f is the user's: an ESC in it stays text */
  free(hint);
}

/* The pipeline's sink: links each summary as it arrives, in job order. */
static void cmd_link_take(void *prog, sum_tu *s)
{
  if (s) link_add(prog, s);
  summary_free(s);
}

link_prog *cmd_refuse_clobber(const cli_opts *o, link_prog *p)
{
  char *err = NULL;
  if (!p || clobber_check_prog(o, p, &err) == 0) return p;
  cmd_say(err);
  free(err);
  link_free(p);
  return NULL;
}

static void cmd_say_failed(const cli_opts *o, const fe_jobs *jobs, const pipeline_result *res);

/* What every analysis of a project does once its TUs are summarised and
 * linked into p: says how many could not be analysed, and keeps the
 * database's files for cli/otherdefs.c. */
static void cmd_analyzed(const cli_opts *o, link_prog *p, const fe_jobs *jobs, const pipeline_result *res,
                         int *failed)
{
  *failed = res->failed + res->skipped;
  if (res->failed || res->skipped) p->fields_incomplete = true;   /* their stores are not known */
  cmd_say_failed(o, jobs, res);
  /* cli/otherdefs.c needs the database's files: the list just read,
   * rather than reading the database a second time. */
  for (size_t i = 0; i < jobs->n; i++) vec_push(&p->db_files, xstrdup(jobs->v[i].file));
  p->db_files_set = true;
}

/* "N of M files could not be analysed" (and the hint for files named
 * without a database). */
static void cmd_say_failed(const cli_opts *o, const fe_jobs *jobs, const pipeline_result *res)
{
  if (res->failed)
    fprintf(stderr, "purist: %d of %zu files could not be analysed; their functions count as unknown\n",
            res->failed, jobs->n);
  if (res->failed && o->files.n && !o->db) cmd_hint_db(o);
}

/* Summarises and links the project; NULL if its inputs could not be read.
 * *failed counts the TUs that could not be analysed. */
link_prog *cmd_analyze(const cli_opts *o, const kb *k, char **root, int *failed, run_info *ri)
{
  return cmd_analyze_reads(o, k, root, failed, ri, NULL);
}

link_prog *cmd_analyze_reads(const cli_opts *o, const kb *k, char **root, int *failed, run_info *ri,
                             tu_reads *reads)
{
  fe_jobs jobs = {0};
  pipeline_result res = { .reads = reads };
  link_prog *p = NULL;
  int from = cmd_summary_inputs(o);   /* summaries built by purist cc: no parsing */
  if (from != 0) {
    *root = project_root_for_link(o);
    return cmd_refuse_clobber(o, from > 0 ? cmd_link_inputs(o, k, failed) : NULL);
  }
  p = link_new(k, o->strict);
  res.sink = cmd_link_take;
  res.sink_ctx = p;
  if (cmd_parse_project(o, k, &jobs, &res, root, ri) < 0) {
    link_free(p);
    p = NULL;
  } else {
    cmd_analyzed(o, p, &jobs, &res, failed);
    pipeline_result_free(&res, jobs.n);
  }
  cdb_jobs_free(&jobs);
  return cmd_refuse_clobber(o, p);
}

/* Reads every result the cache's manifests stood for (cache_lazy_load),
 * before anything is linked. One that is gone since the lookup (a prune
 * or `purist cache clean` of another run) or damaged is parsed again, as
 * a miss would have been; its messages were printed from the manifest.
 * false if such a parse gave another summary than the one the findings'
 * key names (progmemo_key): then nothing is kept under that key. */
static bool cmd_lazy_load(const cli_opts *o, const kb *k, cache *c, const fe_jobs *jobs, pipeline_result *res)
{
  fe_jobs redo = {0};
  VEC(size_t) at = {0};
  bool same = true;
  for (size_t i = 0; i < jobs->n; i++) {
    char *note = NULL;
    if (cache_lazy_load(&res->lazy[i], jobs->v[i].file, &note) < 0) {
      vec_push(&redo, jobs->v[i]);   /* shared with jobs */
      vec_push(&at, i);
    }
    if (note) cmd_put_msg(note);
    free(note);
  }
  if (redo.n) {
    pipeline_result again = {0};
    worker_cfg wcfg = { o->kb_files.v, o->kb_files.n, o->tu_timeout, NULL };
    again.worker = &wcfg;
    pipeline_summarize_cached(&redo, k, c, cmd_jobs_count(o), PIPE_PROGRESS_NONE, &again);
    for (size_t j = 0; j < redo.n; j++) {
      uint64_t d[2] = { 0, 0 };
      if (again.sums[j]) cache_summary_digest(again.sums[j], d);
      const uint64_t *want = res->lazy[at.v[j]].digest;
      same = same && d[0] == want[0] && d[1] == want[1];
      res->sums[at.v[j]] = again.sums[j];
      again.sums[j] = NULL;
    }
    pipeline_result_free(&again, redo.n);
  }
  vec_free(&redo);
  vec_free(&at);
  return same;
}

/* Links the summaries res holds (decoded, or left in the cache's entries)
 * in job order; false if one cannot be decoded after all (said). */
static bool cmd_link_lazy(link_prog *p, const fe_jobs *jobs, pipeline_result *res)
{
  bool ok = true;
  for (size_t i = 0; i < jobs->n; i++) {
    sum_tu *s = res->sums[i];
    res->sums[i] = NULL;
    if (!s && res->lazy[i].buf && !(s = cache_lazy_decode(&res->lazy[i]))) {
      fprintf(stderr, "purist: %s: its cached summary cannot be read; its functions count as unknown "
              "(purist cache clean, or --no-cache, analyses it again)\n", jobs->v[i].file);
      ok = false;
    }
    if (s) link_add(p, s);
    summary_free(s);
  }
  return ok;
}

/* Links res's decoded summaries in job order (no cache: nothing lazy). */
static void cmd_link_lazy_plain(link_prog *p, const fe_jobs *jobs, pipeline_result *res)
{
  for (size_t i = 0; i < jobs->n; i++) {
    if (res->sums[i]) link_add(p, res->sums[i]);
    summary_free(res->sums[i]);
    res->sums[i] = NULL;
  }
}

int cmd_analyze_memo(const cli_opts *o, const kb *k, char **root, int *failed, run_info *ri, cmd_memo *m)
{
  fe_jobs jobs = {0};
  pipeline_result res = { .want_lazy = true };
  memset(m, 0, sizeof *m);
  m->c = cache_cmd_open(o, k);
  if (cmd_parse_project_in(o, k, &jobs, &res, root, ri, m->c) < 0) {
    cdb_jobs_free(&jobs);
    cmd_memo_free(o, m);   /* the caller frees nothing on failure */
    return -1;
  }
  int rc = 0;
  if (res.lazy) {   /* the cache is on */
    progmemo_key(o, *root, &res, jobs.n, m->key);
    m->keyed = true;
    unsigned char *mem;
    const unsigned char *blob;
    size_t n;
    if (cache_prog_get(m->c, m->key, &mem, &blob, &n) == 0 && progmemo_decode(blob, n, &m->said, &m->found) == 0)
      rc = 1;
    free(mem);
  }
  if (rc == 1) {
    *failed = res.failed + res.skipped;
    cmd_say_failed(o, &jobs, &res);
  } else {
    m->p = link_new(k, o->strict);
    if (res.lazy && !cmd_lazy_load(o, k, m->c, &jobs, &res)) m->keyed = false;
    if (!res.lazy) cmd_link_lazy_plain(m->p, &jobs, &res);
    else if (!cmd_link_lazy(m->p, &jobs, &res)) m->keyed = false;   /* not the program the key names */
    cmd_analyzed(o, m->p, &jobs, &res, failed);
  }
  pipeline_result_free(&res, jobs.n);
  cdb_jobs_free(&jobs);
  return rc;
}

void cmd_memo_free(const cli_opts *o, cmd_memo *m)
{
  if (m->c) cache_cmd_close(o, m->c);
  link_free(m->p);
  free(m->said);
  diag_list_free(&m->found);
  memset(m, 0, sizeof *m);
}

/* Hides suppressed findings and those out of scope (cli/scope.h), then
 * baselined ones; records a baseline if asked. */
int cmd_filter(const cli_opts *o, diag_list *l, const char *root)
{
  char *err = NULL;
  diag_filter_suppressed(l);
  scope sc;
  scope_init(&sc, o, root);
  scope_filter_diags(&sc, l);
  scope_free(&sc);
  if (o->baseline && diag_baseline_filter(l, o->baseline, &err) < 0) goto fail;
  if (o->write_baseline && diag_baseline_write(o->write_baseline, l, &err) < 0) goto fail;
  return 0;
fail:
  fprintf(stderr, "purist: %s\n", err);
  free(err);
  return -1;
}

int cmd_print_findings(const cli_opts *o, const diag_list *l, const char *root, const run_info *ri)
{
  return cmd_print_findings_tail(o, l, root, ri, NULL);
}

int cmd_print_findings_tail(const cli_opts *o, const diag_list *l, const char *root, const run_info *ri,
                            const char *tail)
{
  FILE *out = cmd_open_output(o);
  if (!out) return EXIT_INPUT;
  if (o->format == FMT_JSON) diag_print_json(out, l, ri);
  else if (o->format == FMT_SARIF) diag_print_sarif(out, l, root, PURIST_VERSION, ri);
  else {
    diag_print_text(out, l, diag_use_color(o->color, out));
    if (tail) fprintf(out, "%s\n", tail);
  }
  return cmd_close_output(o, out);
}

static int cmd_path_cmp(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "note: 'main' is defined 3 times (a.c:3, b.c:5, c.c:9): …" for a name
 * several TUs define (link/dup.c): not an error in a database of many
 * programs, so said only under --verbose. */
static void cmd_dup_note(const link_prog *p, uint32_t fi, const char *root, strbuf *said)
{
  uint32_t *defs, n = link_dup_defs(p, fi, &defs);
  char **where = xmalloc((n ? n : 1) * sizeof *where);
  for (uint32_t k = 0; k < n; k++) {
    strbuf b = {0};
    reason_path(&b, p, p->funcs.v[defs[k]].loc.file, root);
    sb_printf(&b, ":%u", p->funcs.v[defs[k]].loc.line);
    where[k] = xstrdup(sb_str(&b));
    sb_free(&b);
  }
  qsort(where, n, sizeof *where, cmd_path_cmp);   /* the same for every input order */
  sb_printf(said, "note: '%s' is defined %u times (", strtab_get(p->strs, p->funcs.v[fi].name), n);
  for (uint32_t k = 0; k < n; k++) {
    sb_printf(said, "%s%s", k ? ", " : "", where[k]);
    free(where[k]);
  }
  sb_puts(said, "): several programs; a call resolves to the definition in its own file, "
          "from elsewhere to the join of all of them\n");
  free(where);
  free(defs);
}

/* --library: marks the functions defined in the library's files. */
static void cmd_mark_library(const cli_opts *o, link_prog *p, const char *root)
{
  if (!o->libraries.n) return;
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    link_func *f = &p->funcs.v[fi];
    if (!(f->flags & SFF_BODY)) continue;
    const char *abs = strtab_get(p->strs, f->loc.file), *rel = root ? fix_rel(abs, root) : NULL;
    const char *path = rel ? rel : abs;
    for (size_t i = 0; i < o->libraries.n; i++)
      if (glob_match_path(o->libraries.v[i], path)) { f->lflags |= LF_LIBRARY; break; }
  }
}

void cmd_solve(const cli_opts *o, link_prog *p, const char *root)
{
  strbuf said = {0};
  cmd_solve_said(o, p, root, &said);
  fputs(sb_str(&said), stderr);
  sb_free(&said);
}

/* Does a function whose body is analysed declare an attribute check judges?
 * (The C library's prototypes declare many: they are not the project's.) */
static bool cmd_any_declared(const link_prog *p)
{
  for (size_t fi = 0; fi < p->funcs.n; fi++)
    if (link_has_body(&p->funcs.v[fi]) &&
        (p->funcs.v[fi].declared & (SUM_DECL_GNU | SUM_DECL_VOID_PURE | SUM_DECL_VOID_CONST | SUM_DECL_C23)))
      return true;
  return false;
}

void cmd_solve_said(const cli_opts *o, link_prog *p, const char *root, strbuf *said)
{
  p->whole_program = o->whole_program;
  p->has_library = o->libraries.n > 0;
  link_solve(p);
  cmd_mark_library(o, p, root);
  /* Only a compile database says what the build leaves out: files named
   * with their flags, or summaries linked, are all the user chose. */
  if (o->cmd != CMD_LINK && !(o->files.n && !o->db)) cmd_mark_other_defs(o, p, root);
  if (o->quiet) return;
  for (size_t i = 0; i < p->warnings.n; i++) sb_printf(said, "%s\n", p->warnings.v[i]);
  if (o->cmd == CMD_CHECK && !cmd_any_declared(p))
    sb_puts(said, "purist: no function of the analysed code is declared pure or const (nor through a macro): "
                  "nothing to check; `purist suggest` shows where the attributes belong\n");
  for (size_t i = 0; i < p->conflicts.n; i++) {   /* paths relative to the root, as everywhere */
    const link_conflict_rec *c = &p->conflicts.v[i];
    const link_func *f = &p->funcs.v[c->func];
    strbuf a = {0}, b = {0};
    reason_path(&a, p, c->file, root);
    reason_path(&b, p, f->loc.file, root);
    sb_printf(said, "%s:%u: warning: '%s' is also defined at %s:%u; both are treated as unknown (normal)\n",
            sb_str(&a), c->line, strtab_get(p->strs, f->name), sb_str(&b), f->loc.line);
    sb_free(&a);
    sb_free(&b);
  }
  for (uint32_t fi = 0; o->verbose && fi < p->funcs.n; fi++)
    if (p->funcs.v[fi].lflags & LF_JOIN) cmd_dup_note(p, fi, root, said);
}

int cmd_fail_on(const cli_opts *o, const diag_list *l, int rc)
{
  for (size_t i = 0; rc == EXIT_OK && i < l->n; i++)
    if ((int)l->v[i].severity >= o->fail_on) rc = EXIT_FINDINGS;
  return rc;
}
