/* fix_cmd.h — `purist fix` on an analysed program (main.c analyses). */
#ifndef PURIST_FIX_CMD_H
#define PURIST_FIX_CMD_H
#include "cli/options.h"
#include "link/link.h"

/* Solves p, plans the edits and applies them (or prints the diff with
 * --dry-run). Returns the exit status: 0 done, 2 a file refused or bad
 * options. */
int fix_cmd_run(const cli_opts *o, link_prog *p, const char *root);

#endif
