/* cmd_findings.c — check, suggest, explain (diagnostics) and report --html
 * (all of them in one page). */
#include "checks/checks.h"
#include "cli/cmd.h"
#include "cli/progmemo.h"
#include "cli/scope.h"
#include "report/diag_out.h"
#include "report/html.h"
#include <errno.h>
#include <string.h>

/* The command's findings into l: check's, suggest's or explain's, sorted
 * (suggestions stay ranked by gain); check --with adds the others', each
 * group in its own order, check's first. *hidden counts suggestions left
 * out for gaining nothing. */
static void findings_run(const cli_opts *o, const link_prog *p, const checks_opts *co, diag_list *l,
                         size_t *hidden)
{
  diag_list part = {0};
  bool sug = o->cmd == CMD_SUGGEST || (o->cmd == CMD_CHECK && o->with_suggest);
  bool exp = o->cmd == CMD_EXPLAIN || (o->cmd == CMD_CHECK && o->with_explain);
  if (o->cmd == CMD_CHECK) {
    checks_misuse(p, co, l);
    diag_sort(l);
  }
  if (sug) {
    *hidden = checks_suggest(p, co, &part);
    for (size_t i = 0; i < part.n; i++) vec_push(l, part.v[i]);
    part.n = 0;
  }
  if (exp) {
    checks_explain(p, co, &part);
    diag_sort(&part);
    /* Advice first (the warnings: "compute it once", "reuse the value"),
     * then what the compiler does anyway, each in place order: on sed the
     * two warnings were lost among 68 notes. */
    for (int want = DIAG_WARNING; want >= DIAG_NOTE; want--)
      for (size_t i = 0; i < part.n; i++)
        if ((part.v[i].severity >= DIAG_WARNING) == (want == DIAG_WARNING)) vec_push(l, part.v[i]);
  }
  vec_free(&part);
}

/* Orders hidden suggestions by function, then declaration. */
static int findings_key_cmp(const void *a, const void *b)
{
  const diag *x = *(const diag *const *)a, *y = *(const diag *const *)b;
  int c = strcmp(x->function, y->function);
  if (!c) c = strcmp(x->decl_abs_file, y->decl_abs_file);
  if (!c && x->decl_line != y->decl_line) c = x->decl_line < y->decl_line ? -1 : 1;
  return c;
}

/* The suggestions left out for gaining nothing, among those the report
 * covers (the files named, --include, --exclude, --checks, suppression
 * comments), one per function however many prototypes it has:
 * `suggest -p build one.c` counted every file's (found on htop). */
static size_t findings_hidden(const cli_opts *o, const link_prog *p, const checks_opts *co, const char *root)
{
  checks_opts all = *co;
  all.all = true;
  diag_list l = {0};
  checks_suggest(p, &all, &l);
  diag_filter_suppressed(&l);
  scope sc;
  scope_init(&sc, o, root);
  scope_filter_diags(&sc, &l);
  scope_free(&sc);
  /* The same function at another prototype counts once: sorted by
   * (function, declaration), each run of equal keys is one (linear after
   * the sort; comparing each with all before it was quadratic, 30 s for a
   * 60,000-deep chain, issue 31 item 8). */
  size_t n = 0;
  VEC(const diag *) keyed = {0};
  for (size_t i = 0; i < l.n; i++) {
    const diag *d = &l.v[i];
    if (d->gain != 0 || d->public_api || strncmp(d->check, "suggest-", 8)) continue;
    if (!d->decl_abs_file) n++;   /* no declaration to match: its own */
    else vec_push(&keyed, d);
  }
  if (keyed.n) qsort(keyed.v, keyed.n, sizeof *keyed.v, findings_key_cmp);
  for (size_t i = 0; i < keyed.n; i++) n += i == 0 || findings_key_cmp(&keyed.v[i - 1], &keyed.v[i]) != 0;
  vec_free(&keyed);
  diag_list_free(&l);
  return n;
}

/* Is d a suggestion that gains something (what suggest shows without
 * --all)? */
static bool findings_gains(const diag *d)
{
  return !strncmp(d->check, "suggest", 7) && (d->gain != 0 || d->public_api);
}

/* suggest's last line of text output, as explain's "N notes generated.":
 * "2 suggestions with a gain; 98 without (…): --all shows them", so a run
 * with nothing to suggest still says what it found (caller frees). */
static char *findings_suggest_tail(const cli_opts *o, const diag_list *l, size_t hidden)
{
  size_t gain = 0;
  for (size_t i = 0; i < l->n; i++) gain += findings_gains(&l->v[i]);
  const char *s = gain == 1 ? "" : "s";
  if (!hidden) return xasprintf("%zu suggestion%s with a gain; none without", gain, s);
  return xasprintf("%zu suggestion%s with a gain; %zu without (no call in another file that the attribute "
                   "would let the compiler delete, merge or hoist)%s", gain, s, hidden,
                   o->all ? ": shown as notes" : ": --all shows them");
}

/* "check", or "check+suggest+explain" for check --with: the SARIF run's
 * automationDetails.id purist/…/, so a combined upload is its own
 * category in code scanning. Static strings. */
static const char *findings_command(const cli_opts *o)
{
  if (o->cmd == CMD_SUGGEST) return "suggest";
  if (o->cmd == CMD_EXPLAIN) return "explain";
  if (o->with_suggest && o->with_explain) return "check+suggest+explain";
  if (o->with_suggest) return "check+suggest";
  if (o->with_explain) return "check+explain";
  return "check";
}

/* check's findings through the cache (cli/progmemo.h): kept from a run
 * of the same program, or computed here and kept. Into l, unfiltered,
 * after what the solve says on stderr. 0, or -1 if the project could not
 * be read. (check alone: findings_run's hidden stays 0.) */
static int findings_kept(const cli_opts *o, const kb *k, char **root, int *failed, run_info *ri, cmd_memo *m,
                         diag_list *l)
{
  int rc = cmd_analyze_memo(o, k, root, failed, ri, m);
  if (rc < 0) return -1;
  if (o->stats && m->c && cache_dir_of(m->c))
    fprintf(stderr, "purist: cache: the program's findings %s\n",
            rc == 1 ? "kept from a run on the same summaries: nothing decoded, linked or solved" : "computed");
  if (rc == 1) {
    if (m->said) fputs(m->said, stderr);
    *l = m->found;
    memset(&m->found, 0, sizeof m->found);
    return 0;
  }
  strbuf said = {0};
  cmd_solve_said(o, m->p, *root, &said);
  fputs(sb_str(&said), stderr);
  checks_opts co = { *root, o->cheats_as_errors, o->whole_program, cli_std_attrs(o), o->all, o->verbose };
  size_t hidden = 0;
  findings_run(o, m->p, &co, l, &hidden);
  if (m->keyed) {
    size_t n;
    unsigned char *blob = progmemo_encode(said.n ? sb_str(&said) : NULL, l, &n);
    cache_prog_put(m->c, m->key, blob, n);
    free(blob);
  }
  sb_free(&said);
  return 0;
}

/* check, suggest, explain: findings as diagnostics. Exit 1 when a finding
 * is as severe as --fail-on, 2 on input errors. */
int cmd_findings(const cli_opts *o, const kb *k)
{
  char *root = NULL;
  int failed = 0;
  run_info ri = { .command = findings_command(o) };
  cmd_memo m = {0};
  diag_list l = {0};
  size_t hidden = 0;
  link_prog *p = NULL;
  int kept = progmemo_applies(o) ? findings_kept(o, k, &root, &failed, &ri, &m, &l) : -2;
  if (kept == -1) { free(root); run_info_free(&ri); return EXIT_INPUT; }
  if (kept == -2) {
    p = cmd_analyze(o, k, &root, &failed, &ri);
    if (!p) { free(root); run_info_free(&ri); return EXIT_INPUT; }
    cmd_solve(o, p, root);
    checks_opts co = { root, o->cheats_as_errors, o->whole_program, cli_std_attrs(o), o->all, o->verbose };
    findings_run(o, p, &co, &l, &hidden);
  }
  checks_opts co = { root, o->cheats_as_errors, o->whole_program, cli_std_attrs(o), o->all, o->verbose };
  bool tail = o->cmd == CMD_SUGGEST && o->format == FMT_TEXT;   /* the counts end suggest's text */
  if ((o->all && tail) || (hidden && (tail || !o->quiet))) hidden = findings_hidden(o, p, &co, root);
  if (hidden && !o->quiet && !tail && !o->all)
    fprintf(stderr, "purist: %zu more suggestion%s without gain (no call in another file that the "
            "attribute would let the compiler delete, merge or hoist): --all shows them\n",
            hidden, hidden == 1 ? "" : "s");
  int rc = cmd_filter(o, &l, root);
  char *sum = rc == 0 && tail ? findings_suggest_tail(o, &l, hidden) : NULL;
  rc = rc < 0 ? EXIT_INPUT : cmd_print_findings_tail(o, &l, root, &ri, sum);
  free(sum);
  rc = cmd_fail_on(o, &l, rc);
  run_info_free(&ri);
  diag_list_free(&l);
  link_free(p);
  cmd_memo_free(o, &m);
  free(root);
  return failed ? EXIT_INPUT : rc;
}

/* suggest for the report: every suggestion, those that gain nothing as
 * notes, so the page can rank them all by their gain. */
static void findings_suggest_all(const link_prog *p, const checks_opts *co, diag_list *out)
{
  checks_opts all = *co;
  all.all = true;
  checks_suggest(p, &all, out);
}

/* Appends the findings of one check to all; sorted unless ranked. */
static void findings_collect(const link_prog *p, const checks_opts *co, diag_list *all,
                         void (*run)(const link_prog *, const checks_opts *, diag_list *), bool sort)
{
  diag_list l = {0};
  run(p, co, &l);
  if (sort) diag_sort(&l);
  for (size_t i = 0; i < l.n; i++) vec_push(all, l.v[i]);
  vec_free(&l);
}

/* report --html: every finding of check, suggest, explain (and of a verify
 * report) in one page. Exit status as check's. */
int cmd_report(const cli_opts *o, const kb *k)
{
  char *root = NULL, *err = NULL;
  int failed = 0, rc = EXIT_INPUT;
  diag_list all = {0}, ver = {0};
  link_prog *p = NULL;
  run_info ri = { .command = "report" };   /* the files not analysed, listed on the page */
  if (o->verify && html_verify_load(o->verify, NULL, &ver, &err) < 0) goto done;
  if (!(p = cmd_analyze(o, k, &root, &failed, &ri))) goto done;
  if (o->verify) {   /* again, now that relative paths have a root */
    diag_list_free(&ver);
    if (html_verify_load(o->verify, root, &ver, &err) < 0) goto done;
  }
  cmd_solve(o, p, root);
  checks_opts co = { root, o->cheats_as_errors, o->whole_program, cli_std_attrs(o), o->all, o->verbose };
  findings_collect(p, &co, &all, checks_misuse, true);
  findings_collect(p, &co, &all, findings_suggest_all, false);
  findings_collect(p, &co, &all, checks_explain, true);
  if (cmd_filter(o, &all, root) < 0) goto done;
  const char *dot = getenv("PURIST_DOT");
  html_opts ho = { root, "purist " PURIST_VERSION, &all, o->verify ? &ver : NULL, o->verify,
                   (size_t)o->max_mib << 20, dot ? dot : "dot", &ri };
  if (o->output) rc = html_write_file(o->output, p, &ho, &err) < 0 ? EXIT_INPUT : EXIT_OK;
  else if (html_write(stdout, p, &ho) < 0) err = xasprintf("standard output: %s", strerror(errno));
  else rc = EXIT_OK;
  rc = cmd_fail_on(o, &ver, cmd_fail_on(o, &all, rc));
done:
  if (err) { cmd_say(err); free(err); }
  diag_list_free(&all);
  diag_list_free(&ver);
  run_info_free(&ri);
  link_free(p);
  free(root);
  return failed ? EXIT_INPUT : rc;
}
