/* clobber.h — refusing an output (-o) that is one of the inputs, as gcc
 * does ("input file 'u.c' is the same as output file"): `infer -p P -o
 * P/u.c` overwrote the analysed source. Files are compared by device and
 * inode, so another spelling of the path (./u.c, a symlink, a hard link)
 * is caught too. */
#ifndef PURIST_CLOBBER_H
#define PURIST_CLOBBER_H
#include <stdbool.h>
#include <sys/types.h>
#include "cli/options.h"

typedef struct {
  const char *out;   /* -o, or NULL */
  bool exists;       /* out exists (else nothing can clash) */
  dev_t dev;
  ino_t ino;
} clobber_guard;

void clobber_init(clobber_guard *g, const char *out);
/* -1 with *err (caller frees) if input is the output file. */
int clobber_check(const clobber_guard *g, const char *input, char **err);
/* The inputs the options name: files, --kb, --baseline, --from, --verify. */
int clobber_check_options(const cli_opts *o, char **err);

#endif
