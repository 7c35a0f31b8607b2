/* cli_help.h — the help purist prints (--help, purist help CMD, purist
 * CMD --help) and --version, rendered from the tables of cli_table.h. */
#ifndef PURIST_CLI_HELP_H
#define PURIST_CLI_HELP_H
#include <stdio.h>
#include "cli/cli_table.h"

/* The whole help (cmd NULL), or one command's: synopsis, what it does, its options. */
void cli_help_print(FILE *f, const cli_cmddef *cmd);
/* The short usage printed when no command is given. */
void cli_help_usage(FILE *f);
/* "-p, --build-path=DIR" as help shows an option (caller frees). */
char *cli_help_option_name(const cli_optdef *d);
/* purist's version, the commit it was built from, and libclang's version. */
void cli_version_print(FILE *f);

#endif
