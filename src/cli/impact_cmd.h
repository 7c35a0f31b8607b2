/* impact_cmd.h — `purist impact` on an analysed program (main.c analyses). */
#ifndef PURIST_IMPACT_CMD_H
#define PURIST_IMPACT_CMD_H
#include "cli/options.h"
#include "impact/impact.h"
#include "link/link.h"
#include "parse/parse.h"

/* Compiles every TU of the project in a temporary copy of root, as it is
 * and with the suggested attributes applied (fix.h), and adds what changed
 * to *t. p must be solved; reads (may be empty) is what its analysis saw
 * each TU read. Returns 0 when every TU was measured, 1 when
 * some were left out (reported on stderr; the rest is in *t), -1 when
 * nothing could be measured (reported). */
int impact_cmd_run(const cli_opts *o, const link_prog *p, const tu_reads *reads, const char *root, int nthreads,
                   impact_totals *t);

#endif
