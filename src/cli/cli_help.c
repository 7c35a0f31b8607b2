/* cli_help.c — see cli_help.h. The text comes from the tables, so --help,
 * purist help CMD and the man page (doc/gendoc.c) say the same. */
#include "cli/cli_help.h"
#include "purist_commit.h"
#include "util/strbuf.h"
#include "libclang/lc.h"
#include <string.h>

enum { HELP_COL = 28, HELP_WIDTH = 79 };   /* where an option's explanation starts; line width */

char *cli_help_option_name(const cli_optdef *d)
{
  strbuf b = {0};
  sb_puts(&b, "  ");
  if (d->short_name) sb_printf(&b, "-%c, ", d->short_name);
  sb_puts(&b, d->name);
  if (d->arg) sb_printf(&b, "=%s", d->arg);
  char *s = xstrdup(sb_str(&b));
  sb_free(&b);
  return s;
}

/* Prints text (its '\n's are spaces) wrapped to WIDTH columns, each line
 * indented to column `col`; the first line starts at column `at`. */
static void help_wrap(FILE *f, const char *text, int col, int at)
{
  int x = at;
  for (const char *p = text; *p;) {
    while (*p == ' ' || *p == '\n') p++;
    size_t len = strcspn(p, " \n");
    if (!len) break;
    if (x > col && x + 1 + (int)len > HELP_WIDTH) { fputc('\n', f); x = 0; }
    if (x < col) { fprintf(f, "%*s", col - x, ""); x = col; }
    else { fputc(' ', f); x++; }
    fprintf(f, "%.*s", (int)len, p);
    x += (int)len;
    p += len;
  }
  fputc('\n', f);
}

/* One option: its names, then its explanation from column HELP_COL. */
static void help_option(FILE *f, const cli_optdef *d)
{
  char *left = cli_help_option_name(d);
  int n = (int)strlen(left);
  fputs(left, f);
  free(left);
  if (n >= HELP_COL - 1) { fputc('\n', f); n = 0; }
  if (d->alias) {
    char *text = xasprintf("%s (also %s%s%s)", d->help, d->alias, d->arg ? "=" : "", d->arg ? d->arg : "");
    help_wrap(f, text, HELP_COL, n);
    free(text);
  } else {
    help_wrap(f, d->help, HELP_COL, n);
  }
}

void cli_help_usage(FILE *f)
{
  fputs("usage: purist COMMAND [options] [-p DIR] [FILE...] [-- FLAGS]\n"
        "       purist help COMMAND, purist COMMAND --help: a command's own help\n"
        "commands:", f);
  for (size_t i = 0; i < cli_ncmddefs; i++) fprintf(f, " %s", cli_cmddefs[i].name);
  fputc('\n', f);
}

/* The forms a clang-tidy user types first. */
static const char help_forms[] =
  "  purist check -p build              the project of build/compile_commands.json\n"
  "  purist check -p build src/a.c      report on src/a.c, analysed with its flags\n"
  "                                     and facts from the rest of the database\n"
  "  purist check -p build -- -DNDEBUG  add flags to every database entry\n"
  "  purist check a.c b.c -- -Iinc      no database: these files, these flags\n";

static void help_all(FILE *f)
{
  fputs("usage: purist COMMAND [options] [-p DIR] [FILE...] [-- FLAGS]\n\n", f);
  fputs(help_forms, f);
  fputs("\ncommands:\n", f);
  for (size_t i = 0; i < cli_ncmddefs; i++)
    fprintf(f, "  %-11s %s\n", cli_cmddefs[i].name, cli_cmddefs[i].summary);
  fputs("\noptions (purist help COMMAND lists a command's own):\n", f);
  for (size_t i = 0; i < cli_noptdefs; i++) help_option(f, &cli_optdefs[i]);
  fputs("\nAn option with a value takes it as --opt=VALUE or --opt VALUE (-p DIR, -pDIR,\n-p=DIR).\n", f);
}

void cli_help_print(FILE *f, const cli_cmddef *cmd)
{
  if (!cmd) { help_all(f); return; }
  fprintf(f, "usage: purist %s %s\n\n", cmd->name, cmd->synopsis);
  fprintf(f, "%s.\n", cmd->summary);
  if (*cmd->desc) { fputc('\n', f); help_wrap(f, cmd->desc, 2, 0); }
  if (cmd->cmd == CMD_INFER || cmd->cmd == CMD_CHECK) fprintf(f, "\nforms:\n%s", help_forms);
  if (cmd->cmd == CMD_CC) return;   /* it takes the compiler's arguments, no options */
  if (cmd->cmd == CMD_CONFIG) {
    fputs("\nkeys of .purist:\n", f);
    for (size_t i = 0; i < cli_noptdefs; i++)
      if (cli_optdefs[i].config) fprintf(f, "  %-22s as %s\n", cli_optdefs[i].config, cli_optdefs[i].name);
  }
  fputs("\noptions:\n", f);
  for (size_t i = 0; i < cli_noptdefs; i++)
    if (cli_optdefs[i].cmds & CLI_BIT(cmd->cmd)) help_option(f, &cli_optdefs[i]);
}

void cli_version_print(FILE *f)
{
  /* The version libclang gave at build time: asking it would load it. */
  fprintf(f, "purist %s\ncommit %s\nlibclang %s\n", PURIST_VERSION, PURIST_COMMIT, lc_version());
}
