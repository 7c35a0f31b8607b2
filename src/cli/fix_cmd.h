/* fix_cmd.h — `purist fix` on an analysed program (main.c analyses). */
#ifndef PURIST_FIX_CMD_H
#define PURIST_FIX_CMD_H
#include "cli/options.h"
#include "fix/fix.h"
#include "link/link.h"

/* Solves p, plans the edits and applies them (or prints the diff with
 * --dry-run). Returns the exit status: 0 done, 2 a file refused or bad
 * options. */
int fix_cmd_run(const cli_opts *o, link_prog *p, const char *root);

/* --spelling=gnu|c23|std|macro:NAME[,NAME] (s; NULL: the project's own)
 * into fo; *names gets the macro names' storage (caller frees). 0, or -1
 * after saying why on stderr. Shared with the language server. */
int fix_cmd_spelling(const char *s, fix_opts *fo, char **names);

#endif
