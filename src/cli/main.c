/* main.c — purist's entry point: parse options, load the knowledge base,
 * run one command (cli/cmd.h). */
#include "cli/cache_cmd.h"
#include "cli/cli_help.h"
#include "cli/config.h"
#include "cli/clobber.h"
#include "cli/cmd.h"
#include "cc/cc.h"
#include "cli/project.h"
#include "parse/worker.h"
#include <errno.h>
#include <string.h>

static kb *main_load_kb(const cli_opts *o)
{
  kb *k = kb_new();
  char *err = NULL;
  int rc = kb_load_builtin(k, &err);
  for (size_t i = 0; rc == 0 && i < o->kb_files.n; i++) rc = kb_load_file(k, o->kb_files.v[i], &err);
  if (rc < 0) {
    cmd_say(err);
    free(err);
    kb_free(k);
    return NULL;
  }
  return k;
}

/* The commands that analyse code, by cli_command. */
static int (*const main_commands[])(const cli_opts *, const kb *) = {
  [CMD_INFER] = cmd_infer, [CMD_SUMMARIZE] = cmd_summarize, [CMD_LINK] = cmd_link,
  [CMD_CHECK] = cmd_findings, [CMD_SUGGEST] = cmd_findings, [CMD_EXPLAIN] = cmd_findings,
  [CMD_REPORT] = cmd_report, [CMD_FIX] = cmd_fix, [CMD_IMPACT] = cmd_impact,
  [CMD_VERIFY] = cmd_verify, [CMD_RT_FLAGS] = cmd_rt_flags, [CMD_LSP] = cmd_lsp,
};

/* A write to standard output that failed (a full disk, a closed pipe) is
 * an error, whatever the command: --help or rt-flags to /dev/full must not
 * exit 0 having printed nothing. */
static int main_close_stdout(int rc)
{
  if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
  fprintf(stderr, "purist: standard output: could not write: %s\n", strerror(errno ? errno : EIO));
  return EXIT_INPUT;
}

int main(int argc, char **argv)
{
  if (argc == 3 && !strcmp(argv[1], "cc") && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
    cli_help_print(stdout, cli_cmd_find("cc"));   /* any other argument is the compiler's */
    return main_close_stdout(EXIT_OK);
  }
  if (argc > 1 && !strcmp(argv[1], "cc")) return launcher_main(argc - 2, argv + 2);   /* the compile's own argv */
  if (argc > 1 && !strcmp(argv[1], WORKER_ARGV1)) return worker_main(argc, argv);   /* parse/worker.h */
  if (argc > 1 && !strcmp(argv[1], CCSERVER_ARGV1)) return ccserver_main(argc, argv);   /* cc/cc.h */
  if (argc > 2 && !strcmp(argv[1], LAUNCHER_SUMMARIZE_ARGV1)) {   /* the front's fallback (cc/cc.h) */
    launcher_summaries_here(argc - 2, argv + 2);
    return 0;
  }
  cli_opts o;
  int prc = cli_parse(argc, argv, &o);
  if (prc != 0) {
    cli_opts_free(&o);
    return main_close_stdout(prc > 0 ? EXIT_OK : EXIT_INPUT);
  }
  project_resolve(&o);   /* FILE... with a database in . or build/: -p */
  if (o.cmd != CMD_CACHE && o.cmd != CMD_RT_FLAGS && config_apply(&o) < 0) {   /* .purist, under the options */
    cli_opts_free(&o);
    return EXIT_INPUT;
  }
  if (o.cmd == CMD_CONFIG) {
    int rc = config_dump(&o, stdout) < 0 ? EXIT_INPUT : EXIT_OK;
    cli_opts_free(&o);
    return main_close_stdout(rc);
  }
  char *err = NULL;
  if (clobber_check_options(&o, &err) < 0) {   /* before anything is written */
    cmd_say(err);
    free(err);
    cli_opts_free(&o);
    return EXIT_INPUT;
  }
  if (o.cmd == CMD_CACHE) {   /* needs no knowledge base */
    int rc = cache_cmd_run(&o);
    cli_opts_free(&o);
    return main_close_stdout(rc);
  }
  fe_ccview_set_mode(o.clang_view ? FE_VIEW_CLANG : FE_VIEW_BUILD);
  kb *k = main_load_kb(&o);
  int rc = k && main_commands[o.cmd] ? main_commands[o.cmd](&o, k) : EXIT_INPUT;
  kb_free(k);
  cli_opts_free(&o);
  return main_close_stdout(rc);
}
