/* cli_table.c — the commands and options (see cli_table.h), and the
 * checks of option values, shared by the command line and .purist. */
#include "cli/cli_table.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_fail(const char *fmt, const char *arg)
{
  fprintf(stderr, "purist: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see purist --help)\n");
  return -1;
}

/* ---- value parsers ---------------------------------------------------- */

static int cli_p_format(cli_opts *o, const char *v)
{
  if (!strcmp(v, "text")) o->format = FMT_TEXT;
  else if (!strcmp(v, "json")) o->format = FMT_JSON;
  else if (!strcmp(v, "sarif")) o->format = FMT_SARIF;
  else return cli_fail("unknown format '%s' (text, json or sarif)", v);
  return 0;
}

/* Appends each comma-separated item of v to *list (empty items skipped);
 * v must outlive o (argv, or the configuration's strings). */
static void cli_split_into(cli_strs *list, const char *v, cli_strs *owned)
{
  const char *p = v;
  while (*p) {
    size_t n = strcspn(p, ",");
    if (n) {
      char *item = xstrndup(p, n);
      vec_push(owned, item);
      vec_push(list, item);
    }
    p += n + (p[n] == ',');
  }
}

static int cli_p_kb(cli_opts *o, const char *v)
{
  vec_push(&o->kb_files, v);
  return 0;
}

static int cli_p_exclude(cli_opts *o, const char *v)
{
  cli_split_into(&o->excludes, v, &o->owned);
  return 0;
}

static int cli_p_skip(cli_opts *o, const char *v)
{
  cli_split_into(&o->skips, v, &o->owned);
  return 0;
}

static int cli_p_library(cli_opts *o, const char *v)
{
  cli_split_into(&o->libraries, v, &o->owned);
  return 0;
}

static int cli_p_include(cli_opts *o, const char *v)
{
  cli_split_into(&o->includes, v, &o->owned);
  return 0;
}

/* --checks: clang-tidy's list, "*,-cheat*": globs over check names, a
 * leading '-' removes; later items win. */
static int cli_p_checks(cli_opts *o, const char *v)
{
  cli_split_into(&o->checks, v, &o->owned);
  for (size_t i = 0; i < o->checks.n; i++) {
    const char *c = o->checks.v[i] + (o->checks.v[i][0] == '-');
    if (!*c || strspn(c, "abcdefghijklmnopqrstuvwxyz0123456789-*?") != strlen(c))
      return cli_fail("--checks: '%s' is not a check name or glob (e.g. --checks='*,-cheat*')", o->checks.v[i]);
  }
  return 0;
}

static int cli_p_fail_on(cli_opts *o, const char *v)
{
  if (!strcmp(v, "error")) o->fail_on = 2;
  else if (!strcmp(v, "warning")) o->fail_on = 1;
  else if (!strcmp(v, "never")) o->fail_on = 3;
  else return cli_fail("--fail-on wants error, warning or never, not '%s'", v);
  return 0;
}

/* A whole decimal number from lo to hi in *out; -1 if v is not one. */
static int cli_int(const char *v, long lo, long hi, int *out)
{
  char *end;
  long n = strtol(v, &end, 10);
  if (!*v || *end || n < lo || n > hi) return -1;
  *out = (int)n;
  return 0;
}

static int cli_p_jobs(cli_opts *o, const char *v)
{
  if (cli_int(v, 1, 1024, &o->jobs) < 0) return cli_fail("-j wants a number from 1 to 1024, not '%s'", v);
  return 0;
}

static int cli_p_compiler_view(cli_opts *o, const char *v)
{
  if (!strcmp(v, "build")) o->clang_view = false;
  else if (!strcmp(v, "clang")) o->clang_view = true;
  else return cli_fail("--compiler-view wants build or clang, not '%s'", v);
  return 0;
}

static int cli_p_max_size(cli_opts *o, const char *v)
{
  if (cli_int(v, 1, 4096, &o->max_mib) < 0) return cli_fail("--max-size wants MiB from 1 to 4096, not '%s'", v);
  return 0;
}

static int cli_p_tu_timeout(cli_opts *o, const char *v)
{
  if (cli_int(v, 0, 86400 * 7, &o->tu_timeout) < 0)
    return cli_fail("--tu-timeout wants seconds from 0 (no limit) to 604800, not '%s'", v);
  return 0;
}

/* --cache-max-size: bytes with an optional K, M, G or T (powers of 1024,
 * an optional "iB" or "B" after them, as ccache -M); 0 means no limit. */
static int cli_p_cache_max(cli_opts *o, const char *v)
{
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  int shift = 0;
  const char *units = "KMGT", *u = *end ? strchr(units, *end & ~0x20) : NULL;
  if (u && *u) { shift = 10 * (int)(u - units + 1); end++; }
  if (shift && (!strcmp(end, "iB") || !strcmp(end, "B"))) end += strlen(end);
  if (!*v || *v == '-' || *end || errno || (shift && n > (~0ULL >> shift)))
    return cli_fail("--cache-max-size wants a size such as 500M, 2G or 0 (no limit), not '%s'", v);
  o->cache_max = (uint64_t)n << shift;
  return 0;
}

static int cli_p_progress(cli_opts *o, const char *v)
{
  if (strcmp(v, "auto") && strcmp(v, "plain") && strcmp(v, "none"))
    return cli_fail("--progress wants auto, plain or none, not '%s'", v);
  o->progress = v;
  return 0;
}

/* check --with=suggest,explain: the other commands' findings in the same
 * report (one SARIF run for one code-scanning upload). */
static int cli_p_with(cli_opts *o, const char *v)
{
  cli_strs items = {0};
  cli_split_into(&items, v, &o->owned);
  int rc = 0;
  for (size_t i = 0; i < items.n && rc == 0; i++) {
    if (!strcmp(items.v[i], "suggest")) o->with_suggest = true;
    else if (!strcmp(items.v[i], "explain")) o->with_explain = true;
    else rc = cli_fail("--with wants suggest, explain or both (--with=suggest,explain), not '%s'", items.v[i]);
  }
  vec_free(&items);
  return rc;
}

static int cli_p_color(cli_opts *o, const char *v)
{
  if (strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never"))
    return cli_fail("--color wants auto, always or never, not '%s'", v);
  o->color = v;
  return 0;
}

/* ---- the tables --------------------------------------------------------- */

#define OFF(f) offsetof(cli_opts, f)
#define B CLI_BIT
/* A flag, an option stored as given, an option with a parser. */
#define FLAG(n, s, cmds, f, key, help) { n, s, NULL, NULL, NULL, cmds, CLI_FLAG, OFF(f), NULL, key, help }
#define STR(n, s, al, arg, comp, cmds, f, key, help) { n, s, al, arg, comp, cmds, CLI_STR, OFF(f), NULL, key, help }
#define PARSE(n, s, al, arg, comp, cmds, fn, key, help) { n, s, al, arg, comp, cmds, CLI_PARSE, 0, fn, key, help }

const cli_optdef cli_optdefs[] = {
  /* Where the code is. */
  STR("--build-path", 'p', NULL, "DIR", "@dir", B(CMD_LSP) | CLI_PARSING | B(CMD_CACHE) | B(CMD_RT_FLAGS) | B(CMD_CONFIG),
      db, NULL,
      "directory of compile_commands.json, as clang-tidy -p (default: . then build/);\n"
      "with FILE... too: report on those files, analysed with their database flags"),
  STR("--root", 0, NULL, "DIR", "@dir", B(CMD_LSP) | CLI_READING | B(CMD_CONFIG), root, NULL,
      "project root for relative paths and .purist (default: the CMake or Meson\n"
      "source directory of -p, else the database's directory)"),
  STR("--config", 0, NULL, "FILE", "@file", B(CMD_LSP) | CLI_READING | B(CMD_CONFIG), config_file, NULL,
      "read this configuration file instead of the .purist found from the root upward"),
  FLAG("--no-config", 0, B(CMD_LSP) | CLI_READING | B(CMD_CONFIG), no_config, NULL, "read no configuration file"),
  /* Output. */
  PARSE("--format", 0, NULL, "FMT", "text|json|sarif", CLI_READING, cli_p_format, NULL,
        "text (default), json or sarif (sarif: check, suggest, explain, verify)"),
  STR("--output", 'o', NULL, "FILE", "@file", CLI_READING | B(CMD_RT_FLAGS), output, NULL,
      "write the output to FILE (never an input)"),
  PARSE("--color", 0, "--colour", "WHEN", "auto|always|never", CLI_READING, cli_p_color, "color",
        "auto (default: on a terminal, unless NO_COLOR is set), always or never"),
  FLAG("--quiet", 'q', CLI_READING | B(CMD_CACHE), quiet, NULL, "no progress or warnings on stderr"),
  PARSE("--progress", 0, NULL, "WHEN", "auto|plain|none", CLI_PARSING | B(CMD_CONFIG), cli_p_progress, "progress",
        "auto (default): a status line on a terminal, else a line '[120/450] file'\n"
        "every 5 s once the run lasts that long, when the count moved (still: one\n"
        "every 30 s naming the file running); plain: those lines always; none\n"
        "(env PURIST_PROGRESS sets the default)"),
  FLAG("--verbose", 0, B(CMD_LSP) | CLI_READING, verbose, NULL,
       "notes on what the analysis assumed: a name defined in several files (a\n"
       "database of many programs) and how calls to it resolve"),
  /* What is analysed and reported. */
  PARSE("--checks", 0, NULL, "LIST", NULL, B(CMD_LSP) | CLI_FINDINGS | B(CMD_REPORT) | B(CMD_CONFIG), cli_p_checks, "checks",
        "checks to report, as clang-tidy: comma-separated globs over check names,\n"
        "'-' removes (e.g. '*,-cheat*'); later items win; default '*'"),
  PARSE("--exclude", 0, NULL, "GLOB", NULL, B(CMD_LSP) | CLI_READING | B(CMD_CONFIG), cli_p_exclude, "exclude",
        "report nothing in files matching GLOB (relative to the root; ** spans\n"
        "directories; repeatable or comma-separated); they are still analysed"),
  PARSE("--skip", 0, NULL, "GLOB", NULL, B(CMD_LSP) | CLI_PARSING | B(CMD_CONFIG), cli_p_skip, "skip",
        "leave compile-database entries matching GLOB out of the analysis: never\n"
        "parsed, their functions unknown (files named are analysed all the same);\n"
        "configure and CMake probes (conftest.c, CMakeFiles/CMakeScratch/,\n"
        "CMakeFiles/*/CompilerIdC/) are left out without it"),
  PARSE("--include", 0, NULL, "GLOB", NULL, B(CMD_LSP) | CLI_READING | B(CMD_CONFIG), cli_p_include, "include",
        "report only on files matching GLOB (the rest is still analysed)"),
  PARSE("--library", 0, NULL, "GLOB", NULL, B(CMD_LSP) | CLI_READING | B(CMD_CONFIG), cli_p_library, "library",
        "functions defined in files matching GLOB are a library's public API\n"
        "(callers outside the analysed code gain) even where the database holds\n"
        "programs; a -fPIC TU's default-visibility functions are so without it"),
  PARSE("--kb", 0, NULL, "FILE", "@file", B(CMD_LSP) | CLI_PARSING | B(CMD_LINK) | B(CMD_CONFIG), cli_p_kb, "kb",
        "add knowledge-base entries for your own libraries (format of data/libc.kb)"),
  FLAG("--strict", 0, B(CMD_LSP) | CLI_READING | B(CMD_CONFIG), strict, "strict",
       "count effects on paths that end in a call that never returns"),
  FLAG("--whole-program", 0, B(CMD_LSP) | CLI_FINDINGS | B(CMD_REPORT) | B(CMD_FIX) | B(CMD_CONFIG), whole_program,
       "whole-program",
       "the analysed code is the whole program (as when it defines main): a global\n"
       "nothing in it writes is constant, not a library's variable"),
  /* Parsing. */
  PARSE("--jobs", 'j', NULL, "N", NULL, B(CMD_LSP) | CLI_PARSING, cli_p_jobs, "jobs",
        "parse N files at once (default: the number of cores); the output is the\n"
        "same for every N"),
  PARSE("--tu-timeout", 0, NULL, "S", NULL, B(CMD_LSP) | CLI_PARSING | B(CMD_CONFIG), cli_p_tu_timeout, "tu-timeout",
        "give up on a file whose parse takes longer than S seconds (default 300;\n"
        "0: no limit); the others are analysed"),
  PARSE("--compiler-view", 0, NULL, "V", "build|clang", B(CMD_LSP) | CLI_PARSING | B(CMD_CONFIG), cli_p_compiler_view,
        "compiler-view",
        "build (default): parse a GCC compile command with that GCC's predefined\n"
        "macros (no __clang__), as the build compiles it; clang: with clang's own"),
  STR("--cache-dir", 0, NULL, "DIR", "@dir", B(CMD_LSP) | CLI_PARSING | B(CMD_CACHE), cache_dir, NULL,
      "summary cache, shared by projects (default: $XDG_CACHE_HOME/purist, else\n"
      "~/.cache/purist; env PURIST_CACHE_DIR)"),
  PARSE("--cache-max-size", 0, NULL, "SIZE", NULL, B(CMD_LSP) | CLI_PARSING | B(CMD_CACHE) | B(CMD_CONFIG), cli_p_cache_max,
        "cache-max-size",
        "prune the cache, least recently used first, when it grows past SIZE\n"
        "(K, M, G: powers of 1024; default 1G; 0: no limit)"),
  FLAG("--no-cache", 0, B(CMD_LSP) | CLI_PARSING, no_cache, NULL, "parse every file; read and write no cache"),
  FLAG("--stats", 0, CLI_PARSING, stats, NULL, "print cache hits, misses and files parsed on stderr"),
  /* infer, link. */
  STR("--why", 0, NULL, "NAME", NULL, B(CMD_INFER) | B(CMD_LINK), why, NULL,
      "print the chain of causes for function NAME (every static one of that\n"
      "name too), or FILE:NAME for one file's"),
  /* Findings. */
  PARSE("--fail-on", 0, NULL, "SEV", "error|warning|never", CLI_FINDINGS | B(CMD_REPORT) | B(CMD_VERIFY) | B(CMD_CONFIG),
        cli_p_fail_on, "fail-on", "exit 1 on findings of this severity or worse: error (default), warning or never"),
  PARSE("--with", 0, NULL, "LIST", "suggest|explain|suggest,explain", B(CMD_CHECK), cli_p_with, NULL,
        "check: also suggest's and/or explain's findings, in one report (one SARIF\n"
        "run, automationDetails.id purist/check+suggest+explain/, for one upload)"),
  FLAG("--cheats-as-errors", 0, B(CMD_LSP) | CLI_FINDINGS | B(CMD_REPORT) | B(CMD_CONFIG), cheats_as_errors, "cheats-as-errors",
       "report deliberate cheats (memoisation) as errors, not notes"),
  STR("--baseline", 0, NULL, "FILE", "@file", B(CMD_LSP) | CLI_FINDINGS | B(CMD_REPORT), baseline, "baseline",
      "hide the findings recorded in FILE"),
  STR("--write-baseline", 0, NULL, "FILE", "@file", CLI_FINDINGS, write_baseline, NULL,
      "record the current findings in FILE"),
  /* fix, suggest. */
  FLAG("--all", 0, B(CMD_FIX) | B(CMD_SUGGEST) | B(CMD_IMPACT) | B(CMD_CONFIG), all, "all",
       "also the suggestions that gain nothing (every call is where the compiler\n"
       "sees the body): suggest shows them as notes, fix applies them, impact\n"
       "measures them"),
  STR("--spelling", 0, NULL, "S", "gnu|c23|std|macro:", B(CMD_LSP) | B(CMD_FIX) | B(CMD_SUGGEST) | B(CMD_CONFIG), spelling,
      "spelling",
        "fix: gnu (__attribute__((const))), c23 ([[gnu::const]]) or macro:NAME[,NAME];\n"
        "default: what the project already uses; fix, suggest: std writes C23's own\n"
        "[[unsequenced]] / [[reproducible]] (automatic for C23 code that already does)"),
  FLAG("--dry-run", 0, B(CMD_FIX), dry_run, NULL, "print a unified diff instead of writing"),
  FLAG("--check-build", 0, B(CMD_FIX), check_build, NULL,
       "after writing, compile every TU of the compile database with its own\n"
       "command (-fsyntax-only); if one that compiled before no longer does,\n"
       "undo every edit and exit 2"),
  FLAG("--include-may-not-return", 0, B(CMD_FIX) | B(CMD_IMPACT), include_mnr, NULL,
       "also apply suggestions for functions that may not return"),
  FLAG("--fix-misuse", 0, B(CMD_FIX), fix_misuse, NULL,
       "remove wrong attributes, downgrade const to pure where pure holds"),
  STR("--from", 0, NULL, "FILE", "@file", B(CMD_FIX), from, NULL,
      "plan from summaries (purist summarize) instead of analysing now"),
  /* report. */
  FLAG("--html", 0, B(CMD_REPORT), html, NULL, "write HTML (the report's only format)"),
  STR("--verify", 0, NULL, "FILE", "@file", B(CMD_REPORT), verify, NULL,
      "show a verify report's diagnostics JSON too"),
  PARSE("--max-size", 0, NULL, "MIB", NULL, B(CMD_REPORT), cli_p_max_size, NULL,
        "summarise a report larger than this (default 50)"),
  /* verify, rt-flags. */
  FLAG("--suggested", 0, B(CMD_VERIFY), suggested, NULL, "also watch the functions purist suggests"),
  FLAG("--cflags", 0, B(CMD_RT_FLAGS), rt_cflags, NULL, "print the compiler flags"),
  FLAG("--ldflags", 0, B(CMD_RT_FLAGS), rt_ldflags, NULL, "print the linker flags (with -p: wrappers too)"),
  /* config. */
  FLAG("--dump", 0, B(CMD_CONFIG), dump, NULL, "print the effective configuration, as a .purist file"),
  /* Everywhere. */
  FLAG("--help", 'h', CLI_ALL, help, NULL, "print this help and exit"),
  FLAG("--version", 0, CLI_ALL, version, NULL, "print purist's version, commit and libclang's version"),
};
const size_t cli_noptdefs = sizeof cli_optdefs / sizeof *cli_optdefs;
_Static_assert(sizeof cli_optdefs / sizeof *cli_optdefs <= CLI_MAX_OPTS, "raise CLI_MAX_OPTS (options.h)");

const cli_cmddef cli_cmddefs[] = {
  { "infer", CMD_INFER, "[options] [-p DIR] [FILE...] [-- FLAGS]",
    "classify every function: const, pure or normal, with the reason",
    "Prints one line per function defined in the analysed code: its class\n"
    "(const, pure or normal), what it is declared, and the first reason it is\n"
    "not better, through the call chain." },
  { "check", CMD_CHECK, "[options] [-p DIR] [FILE...] [-- FLAGS]",
    "verify declared pure/const attributes against the bodies",
    "Reports attributes the bodies break (misuse: an error, as the compiler may\n"
    "then delete or merge calls wrongly) and deliberate cheats (notes)." },
  { "suggest", CMD_SUGGEST, "[options] [-p DIR] [FILE...] [-- FLAGS]",
    "where pure/const attributes belong, ranked by what they buy",
    "Suggests pure or const where the body allows it, ranked by the calls the\n"
    "compiler could then delete, merge or hoist." },
  { "explain", CMD_EXPLAIN, "[options] [-p DIR] [FILE...] [-- FLAGS]",
    "what the compiler does with calls of pure/const functions",
    "Names the calls the compiler can delete (dead-call), merge (redundant-call)\n"
    "or hoist out of a loop (loop-invariant-call)." },
  { "fix", CMD_FIX, "[options] [-p DIR] [FILE...] [-- FLAGS]",
    "write the suggested attributes into the sources",
    "Edits the declarations suggest names, in the project's own spelling;\n"
    "--dry-run prints the unified diff instead." },
  { "impact", CMD_IMPACT, "[options] -p DIR",
    "compile with and without the suggested attributes: what changes",
    "Compiles the project twice with its own compiler, without and with the\n"
    "suggested attributes, and counts calls removed, calls added and text bytes\n"
    "saved." },
  { "report", CMD_REPORT, "--html [options] [-p DIR] [-o FILE]",
    "one self-contained HTML page of all findings",
    "Writes check, suggest and explain (and a verify report with --verify) as\n"
    "one HTML page." },
  { "verify", CMD_VERIFY, "[options] -p DIR -- COMMAND...",
    "run a command: pure/const functions that misbehave at run time",
    "Runs COMMAND (e.g. the test suite) against a build made with rt-flags and\n"
    "reports functions declared or inferred pure/const that wrote memory, read\n"
    "a changing global or returned different values for the same arguments." },
  { "rt-flags", CMD_RT_FLAGS, "--cflags | --ldflags [-p DIR]",
    "print the compiler or linker flags of a build for verify", "" },
  { "summarize", CMD_SUMMARIZE, "[options] -o FILE [-p DIR] [FILE...] [-- FLAGS]",
    "write the per-file summaries to a file",
    "Writes what purist found in each file, for purist link or fix --from." },
  { "link", CMD_LINK, "[options] FILE...",
    "infer from summaries (summary files, objects, archives, binaries)",
    "Reads summaries written by summarize or embedded by purist cc, from\n"
    "summary files, objects, archives, executables or shared objects." },
  { "cc", CMD_CC, "COMPILER ARGS...",
    "compiler launcher: compile, then embed the summary in the object",
    "Runs COMPILER ARGS... unchanged, then summarises each C source it compiled\n"
    "into a .purist section of its object, so purist link reads a whole program\n"
    "from its objects or binary. Use it as CMAKE_C_COMPILER_LAUNCHER or CC=\"purist cc gcc\".\n"
    "A file purist cannot analyse costs only its summary, with a warning: the\n"
    "build goes on. It takes no options of its own; the environment variables\n"
    "PURIST_KB and PURIST_COMPILER_VIEW stand for --kb and --compiler-view." },
  { "cache", CMD_CACHE, "stats | clean [-p DIR] [--cache-dir DIR]",
    "the summary cache: stats, clean",
    "stats prints where the summary cache is, what it holds and its limit;\n"
    "clean empties it (and, with -p DIR or a database found in . or build/,\n"
    "removes the .purist-cache/ older purists wrote beside it)." },
  { "config", CMD_CONFIG, "--dump [-p DIR] [--config FILE]",
    "print the effective configuration (.purist and the command line)",
    "Prints the settings the analysing commands would use here, as a .purist\n"
    "file: the first .purist found from the project root upward (or --config\n"
    "FILE), under the options given. A .purist is YAML, one 'key: value' a\n"
    "line; each key sets what its option sets. An option on the command line\n"
    "wins, except that --checks comes after the file's checks (later globs\n"
    "win, as in clang-tidy) and --kb adds to its kb. File names in it are\n"
    "relative to its directory, globs to the project root. Example:\n"
    "checks: '*,-cheat*' (or a list, or {cheat: off});\n"
    "exclude: [tests/**, third_party]; skip: [tests/fuzz/**]; kb: [tools/mylib.kb];\n"
    "strict: true." },
  { "lsp", CMD_LSP, "[options] [-p DIR]",
    "a language server (LSP, stdio): findings and fixes in the editor",
    "Serves the Language Server Protocol on standard input and output for an\n"
    "editor (Neovim, VS Code, Emacs eglot, Helix): the findings of check,\n"
    "suggest and explain as diagnostics of the open files, refreshed on save\n"
    "through the summary cache; quick fixes that make fix's edits; a hover on\n"
    "a function's name with its class, reason and gain. The compile database:\n"
    "-p, else initializationOptions.compilationDatabasePath, else the\n"
    "workspace root or its build/. See docs/lsp.md." },
  { "help", CMD_HELP, "[COMMAND]", "print the help of purist or of one command", "" },
};
const size_t cli_ncmddefs = sizeof cli_cmddefs / sizeof *cli_cmddefs;

const char *const cli_envvars[][2] = {
  { "PURIST_CACHE_DIR", "the summary cache's directory, when --cache-dir is not given" },
  { "PURIST_PROGRESS", "the default of --progress: auto, plain or none" },
  { "XDG_CACHE_HOME", "the summary cache is $XDG_CACHE_HOME/purist (default ~/.cache/purist)" },
  { "PURIST_KB", "purist cc: knowledge-base files, colon-separated (as --kb)" },
  { "PURIST_COMPILER_VIEW", "purist cc: build or clang (as --compiler-view)" },
  { "NO_COLOR", "when set, --color=auto prints no colours" },
};
const size_t cli_nenvvars = sizeof cli_envvars / sizeof *cli_envvars;

const cli_cmddef *cli_cmd_find(const char *s)
{
  for (size_t i = 0; i < cli_ncmddefs; i++)
    if (!strcmp(s, cli_cmddefs[i].name)) return &cli_cmddefs[i];
  return NULL;
}

const cli_cmddef *cli_cmd_def(cli_command c)
{
  for (size_t i = 0; i < cli_ncmddefs; i++)
    if (cli_cmddefs[i].cmd == c) return &cli_cmddefs[i];
  return NULL;
}

const cli_optdef *cli_opt_find(const char *s)
{
  for (size_t i = 0; i < cli_noptdefs; i++) {
    const cli_optdef *d = &cli_optdefs[i];
    if (!strcmp(s, d->name) || (d->alias && !strcmp(s, d->alias))) return d;
    if (d->short_name && s[0] == '-' && s[1] == d->short_name && !s[2]) return d;
  }
  return NULL;
}

const cli_optdef *cli_opt_by_key(const char *key)
{
  for (size_t i = 0; i < cli_noptdefs; i++)
    if (cli_optdefs[i].config && !strcmp(key, cli_optdefs[i].config)) return &cli_optdefs[i];
  return NULL;
}

int cli_opt_set(cli_opts *o, const cli_optdef *d, const char *v)
{
  switch (d->kind) {
  case CLI_FLAG: *(bool *)((char *)o + d->off) = true; return 0;
  case CLI_STR: *(const char **)((char *)o + d->off) = v; return 0;
  case CLI_PARSE: return d->parse(o, v);
  }
  return -1;
}
