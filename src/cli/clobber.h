/* clobber.h — refusing an output (-o, --write-baseline) that is one of the
 * inputs, as gcc does ("input file 'u.c' is the same as output file"):
 * `infer -p P -o P/u.c` overwrote the analysed source. Files are compared
 * by device and inode, so another spelling of the path (./u.c, a symlink,
 * a hard link) is caught too. The inputs are the files named, the
 * database and the sources it lists, and, once analysed, every file that
 * holds a declaration of the project, and every file a TU included (a
 * header of macros or types only holds no declaration). */
#ifndef PURIST_CLOBBER_H
#define PURIST_CLOBBER_H
#include <stdbool.h>
#include <sys/types.h>
#include "cli/options.h"
#include "link/link.h"
#include "summary/summary.h"

typedef struct {
  const char *flag;  /* "-o" or "--write-baseline" */
  const char *out;   /* the file, or NULL */
  bool exists;       /* out exists (else nothing can clash) */
  dev_t dev;
  ino_t ino;
} clobber_guard;

/* The outputs a run writes: -o and --write-baseline. */
typedef struct {
  clobber_guard g[2];
} clobber_outs;

void clobber_init(clobber_guard *g, const char *flag, const char *out);
/* -1 with *err (caller frees) if input is the output file. */
int clobber_check(const clobber_guard *g, const char *input, char **err);

void clobber_outs_init(clobber_outs *c, const cli_opts *o);
/* -1 with *err if input is one of the outputs. */
int clobber_outs_check(const clobber_outs *c, const char *input, char **err);
/* The inputs the options name: files, --kb, --baseline, --from, --verify. */
int clobber_check_options(const cli_opts *o, char **err);
/* The files an analysis read declarations from (sources and headers). */
int clobber_check_prog(const cli_opts *o, const link_prog *p, char **err);
int clobber_check_sums(const cli_opts *o, sum_tu *const *sums, size_t n, char **err);
/* Does -o or --write-baseline name an existing file (so an input may be it)? */
bool clobber_outs_exist(const cli_opts *o);
/* Every file in t (the files the analysed TUs read: pipeline_result's
 * includes, headers holding only macros or types too). */
int clobber_check_strtab(const cli_opts *o, const strtab *t, char **err);

#endif
