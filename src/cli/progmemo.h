/* progmemo.h — check's findings of a whole program, kept in the cache
 * (issue 32 item 3): a run whose every summary is one a previous run
 * linked, with the same options, prints that run's findings without
 * decoding, linking or solving anything. See docs/decisions.md. */
#ifndef PURIST_PROGMEMO_H
#define PURIST_PROGMEMO_H
#include <stdbool.h>
#include <stdint.h>
#include "cli/options.h"
#include "parse/parse.h"
#include "report/diag.h"

/* Does this run of check keep its findings (check alone, its output on
 * stdout, the summary cache on)? -o and --write-baseline need the linked
 * program (cli/clobber.c), --with the suggestions' whole-program extras. */
bool progmemo_applies(const cli_opts *o);
/* The key of the findings: the options they depend on, the root, and each
 * job's summary (its digest, in job order) and the counts of TUs not
 * analysed (their functions count as unknown). */
void progmemo_key(const cli_opts *o, const char *root, const pipeline_result *res, size_t njobs,
                  uint64_t key[2]);
/* The findings (before any filter) and what the solve said on stderr, as
 * one blob (caller frees). */
unsigned char *progmemo_encode(const char *said, const diag_list *l, size_t *n);
/* The reverse; -1 if the blob is malformed (then nothing is filled). */
int progmemo_decode(const unsigned char *blob, size_t n, char **said, diag_list *l);
#endif
