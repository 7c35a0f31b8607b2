/* cmd.h — purist's commands, one entry point each, and the plumbing they
 * share (cmd_common.c). Every command returns the process's exit status:
 * DESIGN.md §4.
 *
 * The folder (docs/layout.md) holds the commands, their option table
 * (cli_table.c), the .purist config and the inputs (project.c, inputs.c,
 * scope.c, skip.c, clobber.c); it may call every other folder. */
#ifndef PURIST_CMD_H
#define PURIST_CMD_H
#include <stdio.h>
#include "cli/options.h"
#include "parse/parse.h"
#include "kb/kb.h"
#include "link/link.h"
#include "report/diag.h"
#include "report/run_info.h"
#include "util/strbuf.h"

enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_INPUT = 2 };

/* The commands: cmd_infer.c, cmd_findings.c, cmd_verify.c, fix_cmd.c,
 * impact_cmd.c, cmd_lsp.c (`cache` is cache_cmd_run, `cc` launcher_main). */
int cmd_infer(const cli_opts *o, const kb *k);
int cmd_summarize(const cli_opts *o, const kb *k);
int cmd_link(const cli_opts *o, const kb *k);
int cmd_findings(const cli_opts *o, const kb *k);   /* check, suggest, explain */
int cmd_report(const cli_opts *o, const kb *k);     /* report --html */
int cmd_fix(const cli_opts *o, const kb *k);
int cmd_impact(const cli_opts *o, const kb *k);
int cmd_verify(const cli_opts *o, const kb *k);
int cmd_rt_flags(const cli_opts *o, const kb *k);
int cmd_lsp(const cli_opts *o, const kb *k);       /* cmd_lsp.c: the language server */

/* "purist: MSG" on stderr, each line of MSG so, control characters in
 * it escaped as cmd_put_msg does (a file name the user gave). */
void cmd_say(const char *msg);
/* One line of a TU's messages (clang's diagnostics, relayed): a control
 * character in it (an ESC or a newline in a file name, a BEL in a quoted
 * #include) is written "<U+001B>", as in the text output, never raw. */
void cmd_put_msg(const char *msg);
/* What --progress (else PURIST_PROGRESS, else auto) asks for here: auto is
 * the status line on a terminal, plain lines elsewhere, nothing with
 * --quiet. */
pipeline_progress cmd_progress_mode(const cli_opts *o);
/* -j N, else the number of cores. */
int cmd_jobs_count(const cli_opts *o);
/* Summarises the project's TUs (through the cache unless --no-cache) and
 * prints their diagnostics in job order; -1 after saying why the project
 * could not be read, or that -o or --write-baseline names a file a TU
 * read (nothing is then left in res to free). ri (may be NULL) gets each TU or database entry that
 * was not analysed. */
int cmd_parse_project(const cli_opts *o, const kb *k, fe_jobs *jobs, pipeline_result *res, char **root,
                      run_info *ri);
/* Links the summaries of the files named (summary files, objects,
 * archives, executables, shared objects); *bad as described in cmd_common.c. */
link_prog *cmd_link_inputs(const cli_opts *o, const kb *k, int *bad);
/* Summarises and links the project, or links the summary files named;
 * NULL if its inputs could not be read. *failed counts TUs not analysed,
 * ri (may be NULL) lists them; *root is the project root (caller frees). */
link_prog *cmd_analyze(const cli_opts *o, const kb *k, char **root, int *failed, run_info *ri);
/* The same; reads (zeroed, freed by the caller with tu_reads_free; NULL:
 * not wanted) receives the files each TU read. Summaries purist cc built
 * (no parse) give none: reads stays empty. */
link_prog *cmd_analyze_reads(const cli_opts *o, const kb *k, char **root, int *failed, run_info *ri,
                             tu_reads *reads);
/* check's run through the whole program's findings kept in the cache
 * (cli/progmemo.h): */
typedef struct {
  cache *c;              /* the run's cache (open until cmd_memo_free) */
  uint64_t key[2];       /* the findings' key */
  bool keyed;            /* key names the program linked: store its findings under it */
  link_prog *p;          /* on a miss: the program, linked, to solve */
  char *said;            /* on a hit: what the solve said on stderr (printed by the caller) */
  diag_list found;       /* on a hit: the findings, unfiltered */
} cmd_memo;
/* cmd_analyze for check (progmemo_applies): 1 when the findings were kept
 * (m->said, m->found), 0 when m->p is linked to be solved, -1 if the
 * project could not be read. */
int cmd_analyze_memo(const cli_opts *o, const kb *k, char **root, int *failed, run_info *ri, cmd_memo *m);
void cmd_memo_free(const cli_opts *o, cmd_memo *m);
/* Solves p and says on stderr what the link noticed (unless --quiet):
 * its warnings, and under --verbose a note per name defined more than
 * once, with paths relative to root (NULL: as stored). */
void cmd_solve(const cli_opts *o, link_prog *p, const char *root);
/* The same, what it says appended to said instead of printed. */
void cmd_solve_said(const cli_opts *o, link_prog *p, const char *root, strbuf *said);
/* otherdefs.c: sets p->other_def for the external functions that a .c file
 * under root no TU read defines too (in the directories of the compiled
 * definitions and those beside them: another platform's implementation). */
void cmd_mark_other_defs(const cli_opts *o, link_prog *p, const char *root);
/* -o FILE or stdout; NULL after saying why. cmd_close_output flushes and
 * closes it, returning EXIT_INPUT if a write failed (full disk, closed pipe). */
FILE *cmd_open_output(const cli_opts *o);
/* p, or NULL if -o or --write-baseline names a file p read declarations
 * from (a header the sources include): said, p freed. */
link_prog *cmd_refuse_clobber(const cli_opts *o, link_prog *p);
int cmd_close_output(const cli_opts *o, FILE *out);
/* Hides suppressed findings, those out of the report's scope (-p DIR
 * FILE..., --include, --exclude, --checks) and baselined ones; records a
 * baseline if asked. -1 after saying why. */
int cmd_filter(const cli_opts *o, diag_list *l, const char *root);
/* Prints the findings in --format to the output; ri (may be NULL) as for
 * diag_print_sarif. */
int cmd_print_findings(const cli_opts *o, const diag_list *l, const char *root, const run_info *ri);
/* The same, with a last line `tail` (may be NULL) after text output: a
 * command's summary (suggest's counts). JSON and SARIF never carry it. */
int cmd_print_findings_tail(const cli_opts *o, const diag_list *l, const char *root, const run_info *ri,
                            const char *tail);
/* rc, or EXIT_FINDINGS when rc is EXIT_OK and a finding is as severe as --fail-on. */
int cmd_fail_on(const cli_opts *o, const diag_list *l, int rc);

#endif
