/* options.h — the command line (DESIGN.md §4). */
#ifndef PURIST_OPTIONS_H
#define PURIST_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>
#include "report/infer_out.h"

typedef enum { CMD_NONE, CMD_INFER, CMD_SUMMARIZE, CMD_LINK, CMD_CHECK, CMD_SUGGEST, CMD_EXPLAIN,
               CMD_REPORT, CMD_FIX, CMD_VERIFY, CMD_RT_FLAGS, CMD_IMPACT, CMD_CACHE, CMD_CC, CMD_CONFIG,
               CMD_HELP, CMD_LSP } cli_command;

/* Room for every row of cli_optdefs (cli_table.c; a test there keeps it so). */
enum { CLI_MAX_OPTS = 96 };
typedef VEC(const char *) cli_strs;

typedef struct {
  cli_command cmd;
  const char *db;          /* -p DIR */
  const char *root;        /* --root */
  const char *output;      /* -o FILE */
  const char *why;         /* --why NAME */
  out_format format;
  int jobs;                /* -j N; 0 = number of cores */
  bool quiet, strict;
  bool cheats_as_errors;   /* --cheats-as-errors */
  bool whole_program;      /* --whole-program */
  bool all;                /* --all: suggest, fix: also what gains nothing (issue 19) */
  bool verbose;            /* --verbose: notes on what the analysis assumed */
  int fail_on;             /* --fail-on: 2 error (default), 1 warning, 3 never */
  const char *baseline;    /* --baseline FILE */
  const char *write_baseline;  /* --write-baseline FILE */
  const char *color;       /* auto|always|never */
  bool html;               /* report --html */
  const char *verify;      /* report --verify FILE: a verify report's diagnostics JSON */
  int max_mib;             /* report --max-size MIB: larger reports are summarised */
  const char *spelling;    /* fix --spelling=gnu|c23|macro:NAME[,NAME] */
  const char *from;        /* fix --from FILE: summaries instead of analysing */
  bool include_mnr, fix_misuse, dry_run;   /* fix */
  bool check_build;        /* fix --check-build */
  bool suggested;          /* verify --suggested */
  bool rt_cflags, rt_ldflags;  /* rt-flags --cflags / --ldflags */
  const char *cache_dir;   /* --cache-dir DIR */
  bool no_cache, stats;    /* --no-cache, --stats */
  bool with_suggest, with_explain;   /* check --with=suggest,explain: one report of all three */
  const char *progress;    /* --progress=auto|plain|none (default: PURIST_PROGRESS, else auto) */
  uint64_t cache_max;      /* --cache-max-size in bytes (default 1 GiB); 0: no limit */
  int tu_timeout;          /* --tu-timeout SECONDS per TU; 0: no limit */
  bool clang_view;         /* --compiler-view=clang (default build: a GCC command's own macros) */
  const char *config_file; /* --config FILE */
  bool no_config;          /* --no-config */
  bool dump;               /* config --dump */
  bool help, version;      /* --help, --version */
  cli_strs checks;         /* --checks: globs over check names, "-GLOB" removes */
  cli_strs excludes, includes;   /* --exclude, --include: globs over paths from the root */
  cli_strs skips;          /* --skip: globs over paths from the root: entries not analysed at all */
  cli_strs libraries;      /* --library: globs over paths from the root: a library's sources */
  cli_strs kb_files;       /* --kb */
  VEC(char *) files;       /* positional arguments before -- */
  VEC(char *) flags;       /* after -- */
  bool dashdash;           /* a "--" was given (even with nothing after it) */
  unsigned char given[CLI_MAX_OPTS];   /* by cli_optdefs index: set on the command line */
  cli_strs owned;          /* strings the options point into, freed with them */
  char *config_read;       /* the .purist file read (config.c), freed with them; NULL: none */
} cli_opts;

/* Parses argv (the command line's grammar: DESIGN.md §4); returns 0, 1 if
 * the program should exit 0 at once (--help, --version, help: already
 * printed), or -1 with a message on stderr. */
int cli_parse(int argc, char **argv, cli_opts *o);
void cli_opts_free(cli_opts *o);
/* --spelling=std: C23's own attributes for suggest and fix (issue 15). */
bool cli_std_attrs(const cli_opts *o);

#endif
