/* impact_cmd.c — `purist impact`: copy the tree, compile every TU before
 * and after the attributes are applied, measure both, compare.
 *
 * Both sides are compiled in the same copy (before the edits, then after),
 * so paths in the code (__FILE__, debug info) are the same on both sides
 * and only the attributes differ. A TU that fails before is reported and
 * left out of both sides; one that fails only after is reported the same
 * way (the edit broke it: worth knowing). The temporary tree is removed on
 * every path out (tree.h, util/cleanup.h). */
#include "cli/cmd.h"
#include "cli/impact_cmd.h"
#include "parse/parse.h"
#include "cli/project.h"
#include "fix/fix.h"
#include "impact/compile.h"
#include "impact/deps.h"
#include "impact/elfsize.h"
#include "impact/tree.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One TU: how to compile it, and what each side measured. */
typedef struct {
  compile_cmd cmd;
  bool reads_edit;     /* reads a file the plan edits: compiled and compared (deps.h) */
  bool seen_reading;   /* the analysis saw it read one: no need to ask the compiler */
  bool ok[2];          /* side 0 before, 1 after */
  char *msg[2];        /* why a side failed: the compiler's messages or our error */
  impact_tu tu[2];
} impact_job;

typedef struct {
  const fe_jobs *jobs;
  impact_job *ij;
  const tree_copy *t;
  int side;
  const size_t *sel;   /* the jobs compiled: sel[0 .. nsel) */
  char **ccs;          /* each job's compiler (impact_cmd_deps) */
  const impact_edited *edited;
  const tu_reads *reads;   /* what the analysis saw each TU read (may be empty) */
} impact_ctx;

static const char *impact_cmd_label(void *ctx, size_t i)
{
  impact_ctx *c = ctx;
  return c->jobs->v[c->sel ? c->sel[i] : i].file;
}

/* The compiler's messages in log, trimmed, with the copy's paths shown as
 * the user's own (the copy is gone when they read it), or a fallback.
 * Caller frees. */
static char *impact_cmd_log(const char *log, const tree_copy *t)
{
  size_t len;
  char *text = file_read_all(log, &len);
  while (text && len && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = '\0';
  if (!text || !len) {
    free(text);
    return xstrdup("the compiler failed without a message");
  }
  strbuf b = {0};
  size_t tl = strlen(t->tree);
  for (const char *p = text, *hit; *p; p = hit + tl) {
    if (!(hit = strstr(p, t->tree))) {
      sb_puts(&b, p);
      break;
    }
    sb_printf(&b, "%.*s%s", (int)(hit - p), p, t->src_root);
  }
  free(text);
  char *out = xstrdup(sb_str(&b));
  sb_free(&b);
  return out;
}

/* Worker: compiles job i for the current side, measures it, and removes
 * its outputs (a big project's assembly would fill the disk). */
static void impact_cmd_one(void *ctx, size_t k)
{
  impact_ctx *c = ctx;
  size_t i = c->sel[k];
  impact_job *j = &c->ij[i];
  int side = c->side;
  if (side == 1 && !j->ok[0]) return;
  char *s = xasprintf("%s/%zu.s", c->t->out, i), *obj = xasprintf("%s/%zu.o", c->t->out, i);
  char *log = xasprintf("%s/%zu.log", c->t->out, i), *err = NULL;
  int rc = compile_run(j->cmd.to_asm, j->cmd.dir, log, &err);
  if (rc == 0) rc = compile_run(j->cmd.to_obj, j->cmd.dir, log, &err);
  if (rc == 0) rc = impact_measure(s, obj, &j->tu[side], &err) < 0 ? -1 : 0;
  j->ok[side] = rc == 0;
  if (rc != 0) j->msg[side] = rc > 0 ? impact_cmd_log(log, c->t) : err;
  unlink(s);
  unlink(obj);
  unlink(log);
  free(s);
  free(obj);
  free(log);
}

/* Worker: does job i read a file the plan edits? Asks the compiler
 * (-M); when it cannot tell, the TU is compiled. */
static void impact_cmd_deps(void *ctx, size_t i)
{
  impact_ctx *c = ctx;
  impact_job *j = &c->ij[i];
  if (j->seen_reading) {
    j->reads_edit = true;
    return;
  }
  char **argv = compile_deps_argv(&c->jobs->v[i], c->t, c->ccs[i]);
  char *log = xasprintf("%s/%zu.deps", c->t->out, i), *err = NULL;
  j->reads_edit = true;
  if (compile_run(argv, j->cmd.dir, log, &err) == 0) {
    size_t len;
    char *rule = file_read_all(log, &len);
    if (rule) j->reads_edit = impact_deps_read_any(rule, j->cmd.dir, c->edited);
    free(rule);
  }
  free(err);
  unlink(log);
  free(log);
  compile_argv_free(argv);
}

/* The files of e that the analysis saw read, as flags over r's files
 * (caller frees): each path resolved once, however many TUs read it. */
static bool *impact_cmd_edited_ids(const tu_reads *r, const impact_edited *e)
{
  uint32_t nf = strtab_count(r->files);
  bool *edited = xcalloc(nf ? nf : 1, sizeof *edited);
  for (uint32_t f = 0; f < nf; f++) edited[f] = impact_edited_has(e, strtab_get(r->files, f));
  return edited;
}

/* Marks the jobs the analysis saw read a file of e (the plan's edits, in
 * the user's tree): compiled without asking the compiler (-M), about a
 * sixth of a small project's run. The analysis parsed with clang, whose
 * #ifs may take other branches than the compiler's: a job it saw read no
 * edited file is still asked, so what is compiled is never less than
 * what -M alone would choose (a job compiled for nothing is reported
 * unchanged). */
static void impact_cmd_seen(impact_ctx *c, const impact_edited *e)
{
  const tu_reads *r = c->reads;
  if (!r || !r->n) return;
  bool *edited = impact_cmd_edited_ids(r, e);
  size_t nf = strtab_count(r->files), *job_of = xcalloc(nf ? nf : 1, sizeof *job_of);
  for (size_t f = 0; f < nf; f++) job_of[f] = SIZE_MAX;
  for (size_t k = 0; k < r->n; k++) job_of[r->main[k]] = k;
  for (size_t i = 0; i < c->jobs->n; i++) {
    uint32_t id = strtab_find(r->files, c->jobs->v[i].file);
    size_t k = id == UINT32_MAX ? SIZE_MAX : job_of[id];
    for (size_t d = 0; k != SIZE_MAX && d < r->of[k].n && !c->ij[i].seen_reading; d++)
      c->ij[i].seen_reading = edited[r->of[k].v[d]];
  }
  free(job_of);
  free(edited);
}

/* A job to compile and the size of its main file: the longest compiles
 * go first, so the last ones running are short (a side ends when its
 * slowest TU does). */
typedef struct { off_t size; size_t job; } impact_order;

static int impact_cmd_bigger(const void *a, const void *b)
{
  const impact_order *x = a, *y = b;
  if (x->size != y->size) return x->size < y->size ? 1 : -1;
  return (x->job > y->job) - (x->job < y->job);
}

/* Orders sel[0 .. n) biggest main file first (ties in database order). */
static void impact_cmd_order(const fe_jobs *jobs, size_t *sel, size_t n)
{
  impact_order *o = xcalloc(n ? n : 1, sizeof *o);
  for (size_t k = 0; k < n; k++) {
    struct stat st;
    o[k].job = sel[k];
    o[k].size = stat(jobs->v[sel[k]].file, &st) == 0 ? st.st_size : 0;
  }
  qsort(o, n, sizeof *o, impact_cmd_bigger);
  for (size_t k = 0; k < n; k++) sel[k] = o[k].job;
  free(o);
}

/* The jobs to compile: those that read a file the plan edits (the
 * others' code cannot change), biggest first. Returns how many, their
 * indexes in *sel. */
static size_t impact_cmd_select(impact_ctx *c, const fix_plan *pl, int nthreads, pipeline_progress progress,
                                size_t **sel)
{
  impact_edited ed, orig;
  impact_edited_init(&ed);
  impact_edited_init(&orig);
  for (size_t e = 0; e < fix_plan_count(pl); e++) {
    const char *file = fix_plan_edit(pl, e)->file;
    char *copy = tree_map_path(c->t, file);
    impact_edited_add(&ed, copy);
    impact_edited_add(&orig, file);
    free(copy);
  }
  impact_edited_seal(&ed);
  impact_edited_seal(&orig);
  impact_cmd_seen(c, &orig);
  c->edited = &ed;
  if (ed.paths.n) pipeline_each(c->jobs->n, nthreads, progress, impact_cmd_deps, impact_cmd_label, c);
  c->edited = NULL;
  impact_edited_fini(&ed);
  impact_edited_fini(&orig);
  size_t n = 0;
  *sel = xcalloc(c->jobs->n ? c->jobs->n : 1, sizeof **sel);
  for (size_t i = 0; i < c->jobs->n; i++)
    if (c->ij[i].reads_edit) (*sel)[n++] = i;
  impact_cmd_order(c->jobs, *sel, n);
  return n;
}

/* Resolves every job's compiler; on the first that is missing says so in
 * one line and returns -1. ccs[i] receives job i's compiler. */
static int impact_cmd_compilers(const fe_jobs *jobs, char **ccs, const char *root)
{
  for (size_t i = 0; i < jobs->n; i++) {
    const char *name;
    if ((ccs[i] = compile_find_compiler(&jobs->v[i], &name))) continue;
    const char *rel = fix_rel(jobs->v[i].file, root);
    fprintf(stderr, "purist: compiler '%s' not found (the compile command of %s names it)\n", name,
            rel ? rel : jobs->v[i].file);
    return -1;
  }
  return 0;
}

/* Plans the attributes `purist fix` would write with the same options
 * (issue 29: impact answers what fix does; --all measures fix --all,
 * which also edits functions whose value a statement discards); NULL
 * after saying why. */
static fix_plan *impact_cmd_plan(const cli_opts *o, const link_prog *p, const char *root)
{
  fix_opts fo = { .root = root, .include_mnr = o->include_mnr, .keep_discarded = o->all, .all = o->all };
  char *err = NULL;
  fix_plan *pl = fix_plan_new(p, &fo, &err);
  if (!pl) {
    fprintf(stderr, "purist: %s\n", err);
    free(err);
  }
  return pl;
}

/* Writes the plan's edits into the copy; says what was refused. Returns
 * the number of edits made, or -1. */
static long impact_cmd_apply(const fix_plan *pl, const char *root, const tree_copy *t, bool quiet)
{
  fix_result res;
  int rc = fix_plan_apply(pl, root, t->tree, NULL, &res);
  for (size_t i = 0; i < res.notes.n; i++)
    if (res.notes.v[i].error || !quiet) fprintf(stderr, "%s\n", res.notes.v[i].text);
  long edits = rc < 0 ? -1 : (long)res.edits;
  if (!quiet)
    fprintf(stderr, "purist: impact: %u attribute%s applied in %u file%s of the copy\n", res.edits,
            res.edits == 1 ? "" : "s", res.files_written, res.files_written == 1 ? "" : "s");
  fix_result_free(&res);
  return edits;
}

/* Reports the TUs that failed and compares the others. Returns how many
 * were left out. */
static int impact_cmd_compare(const fe_jobs *jobs, impact_job *ij, const char *root, impact_totals *t)
{
  int left_out = 0;
  for (size_t i = 0; i < jobs->n; i++) {
    if (!ij[i].reads_edit) {
      t->unchanged++;
      continue;
    }
    const char *rel = fix_rel(jobs->v[i].file, root);
    const char *shown = rel ? rel : jobs->v[i].file;
    if (!ij[i].ok[0] || !ij[i].ok[1]) {
      left_out++;
      fprintf(stderr, "purist: %s: left out: it does not compile %s:\n%s\n", shown,
              ij[i].ok[0] ? "with the attributes applied" : "as it is", ij[i].msg[ij[i].ok[0] ? 1 : 0]);
      continue;
    }
    impact_compare(t, &ij[i].tu[0], &ij[i].tu[1], shown);
  }
  return left_out;
}

static void impact_cmd_jobs_free(impact_job *ij, char **ccs, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    compile_cmd_fini(&ij[i].cmd);
    for (int s = 0; s < 2; s++) {
      free(ij[i].msg[s]);
      impact_tu_fini(&ij[i].tu[s]);
    }
    free(ccs[i]);
  }
  free(ij);
  free(ccs);
}

/* Both builds and the edit between them, in the copy t. */
static int impact_cmd_measure(const cli_opts *o, const fix_plan *pl, const fe_jobs *jobs, const tu_reads *reads,
                              const char *root, const tree_copy *t, char **ccs, int nthreads, impact_totals *tot)
{
  impact_job *ij = xcalloc(jobs->n, sizeof *ij);
  for (size_t i = 0; i < jobs->n; i++) {
    char *s = xasprintf("%s/%zu.s", t->out, i), *obj = xasprintf("%s/%zu.o", t->out, i);
    compile_cmd_init(&ij[i].cmd, &jobs->v[i], t, ccs[i], s, obj);
    tree_mkdirs(ij[i].cmd.dir);   /* a build directory that was not copied */
    free(s);
    free(obj);
  }
  pipeline_progress progress = cmd_progress_mode(o);
  impact_ctx c = { jobs, ij, t, 0, NULL, ccs, NULL, reads };
  size_t *sel = NULL, nsel = impact_cmd_select(&c, pl, nthreads, progress, &sel);
  c.sel = sel;
  pipeline_each(nsel, nthreads, progress, impact_cmd_one, impact_cmd_label, &c);
  int rc = -1;
  if (impact_cmd_apply(pl, root, t, o->quiet) >= 0) {
    c.side = 1;
    pipeline_each(nsel, nthreads, progress, impact_cmd_one, impact_cmd_label, &c);
    int left_out = impact_cmd_compare(jobs, ij, root, tot);
    rc = left_out == 0 ? 0 : (size_t)left_out < nsel ? 1 : -1;
    if (rc < 0) fprintf(stderr, "purist: impact: no file could be compiled\n");
  }
  free(sel);
  impact_cmd_jobs_free(ij, ccs, jobs->n);
  return rc;
}

int impact_cmd_run(const cli_opts *o, const link_prog *p, const tu_reads *reads, const char *root, int nthreads,
                   impact_totals *t)
{
  fe_jobs jobs = {0};
  char *jroot = NULL, *err = NULL;
  if (project_jobs(o, &jobs, &jroot, &err, NULL) < 0) {
    fprintf(stderr, "purist: %s\n", err);
    free(err);
    return -1;
  }
  free(jroot);
  char **ccs = xcalloc(jobs.n ? jobs.n : 1, sizeof *ccs);
  fix_plan *pl = NULL;
  tree_copy *tc = NULL;
  int rc = -1;
  if (elfsize_init() < 0) fprintf(stderr, "purist: libelf cannot read ELF files of this version\n");
  else if (impact_cmd_compilers(&jobs, ccs, root) == 0 && (pl = impact_cmd_plan(o, p, root))) {
    if (!(tc = tree_copy_new(root, &err))) {
      fprintf(stderr, "purist: %s\n", err);
      free(err);
    } else {
      rc = impact_cmd_measure(o, pl, &jobs, reads, root, tc, ccs, nthreads, t);
      ccs = NULL;   /* freed with the jobs */
    }
  }
  if (tree_copy_free(tc) != 0) fprintf(stderr, "purist: could not remove the temporary tree: %s\n", strerror(errno));
  if (ccs) for (size_t i = 0; i < jobs.n; i++) free(ccs[i]);
  free(ccs);
  fix_plan_free(pl);
  cdb_jobs_free(&jobs);
  return rc;
}

/* impact: analyse, then measure in a temporary copy (cli/impact_cmd.c) and
 * print. Exit 2 when a TU could not be analysed or compiled (the others are
 * still reported), or when nothing could be measured. */
int cmd_impact(const cli_opts *o, const kb *k)
{
  char *root = NULL;
  int failed = 0;
  tu_reads reads = {0};
  link_prog *p = cmd_analyze_reads(o, k, &root, &failed, NULL, &reads);
  int rc = EXIT_INPUT;
  if (p) {
    cmd_solve(o, p, root);
    impact_totals t = {0};
    int mrc = impact_cmd_run(o, p, &reads, root, cmd_jobs_count(o), &t);
    FILE *out = mrc >= 0 ? cmd_open_output(o) : NULL;
    if (out) {
      impact_sort(&t);
      if (o->format == FMT_JSON) impact_print_json(out, &t);
      else impact_print_text(out, &t, 10);
      rc = cmd_close_output(o, out);
      if (mrc > 0) rc = EXIT_INPUT;
    }
    impact_totals_free(&t);
  }
  link_free(p);
  tu_reads_free(&reads);
  free(root);
  return failed ? EXIT_INPUT : rc;
}
