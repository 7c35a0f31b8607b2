/* options.c — parses purist's command line. */
#include "cli/options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
  "usage: purist COMMAND [options] [files...] [-- compiler flags]\n"
  "\n"
  "commands:\n"
  "  infer       classify every function: const, pure or normal, with the reason\n"
  "  check       verify declared pure/const attributes against the bodies\n"
  "  suggest     where pure/const attributes belong, ranked by what they buy\n"
  "  explain     what the compiler does with calls of pure/const functions\n"
  "  fix         write the suggested attributes into the sources\n"
  "  impact      compile twice with the real compiler, without and with the suggested\n"
  "              attributes: calls removed, calls added, text bytes saved\n"
  "  report      --html: one self-contained HTML page of all of the above (-o FILE)\n"
  "  verify      run a command (after --) and report pure/const functions that\n"
  "              misbehave at run time (needs a build with rt-flags)\n"
  "  rt-flags    print the flags for such a build: --cflags, --ldflags\n"
  "  summarize   write the per-TU summaries to a file (-o FILE)\n"
  "  link        read summaries (files, objects, archives, binaries); print what infer prints\n"
  "  cc          compiler launcher: purist cc COMPILER ARGS... compiles, then embeds\n"
  "              the summary in the object (then: purist link OBJECTS-OR-BINARY)\n"
  "  cache clean remove the summary cache (of -p DIR, or --cache-dir DIR)\n"
  "\n"
  "options:\n"
  "  -p DIR            directory of compile_commands.json (default: . then build/)\n"
  "  --root DIR        project root for relative paths (default: the project of -p)\n"
  "  --format=FMT      text (default), json or sarif (sarif: check, suggest, explain, verify)\n"
  "  -o FILE           write the output to FILE\n"
  "  -j N              parse N files at once (default: number of cores)\n"
  "  --strict          count effects on paths that end in a noreturn call\n"
  "  --kb FILE         add knowledge-base entries (format of data/libc.kb)\n"
  "  --quiet           no progress or warnings on stderr\n"
  "  --color=WHEN      auto, always or never\n"
  "  --cache-dir DIR   summary cache (default: .purist-cache beside compile_commands.json;\n"
  "                    env PURIST_CACHE_DIR); files named without a database: none\n"
  "  --no-cache        parse every file; read and write no cache\n"
  "  --stats           print cache hits, misses and files parsed on stderr\n"
  "  --tu-timeout S    give up on a file whose parse takes longer than S seconds\n"
  "                    (default 300; 0: no limit); the others are analysed\n"
  "  --compiler-view=V build (default): parse a GCC compile command with that GCC's\n"
  "                    predefined macros (no __clang__); clang: with libclang's own macros\n"
  "  --version, --help\n"
  "infer:\n"
  "  --why NAME        print the chain of causes for function NAME (every static\n"
  "                    one of that name too), or FILE:NAME for one file's\n"
  "check, suggest, explain, report, verify:\n"
  "  --fail-on=SEV     exit 1 on findings of this severity or worse: error (default),\n"
  "                    warning or never\n"
  "  --cheats-as-errors  report deliberate cheats (memoisation) as errors, not notes\n"
  "  --whole-program   the analysed code is the whole program (as when it defines main):\n"
  "                    a global nothing in it writes is constant, not a library's variable\n"
  "  --baseline FILE   hide findings recorded in FILE\n"
  "  --write-baseline FILE  record the current findings in FILE\n"
  "fix, impact:\n"
  "  --dry-run         fix: print a unified diff instead of writing\n"
  "  --spelling=S      fix: gnu (__attribute__((const))), c23 ([[gnu::const]]) or\n"
  "                    macro:NAME[,NAME]; default: what the project already uses;\n"
  "                    fix, suggest: std writes C23's own [[unsequenced]] / [[reproducible]]\n"
  "                    (automatic for -std=c23/c2x/gnu2x code that already writes them)\n"
  "  --include-may-not-return  also apply suggestions for functions that may not return\n"
  "  --fix-misuse      fix: remove wrong attributes, downgrade const to pure where pure holds\n"
  "  --from FILE       fix: plan from summaries (purist summarize) instead of analysing now\n"
  "report:\n"
  "  --html            write HTML (the report's only format)\n"
  "  --verify FILE     show a verify report's diagnostics JSON too\n"
  "  --max-size MIB    summarise a report larger than this (default 50)\n"
  "verify, rt-flags:\n"
  "  --suggested       verify: also watch the functions purist suggests\n"
  "  --cflags, --ldflags  rt-flags: compiler or linker flags (with -p: wrappers too)\n";

static int cli_fail(const char *fmt, const char *arg)
{
  fprintf(stderr, "purist: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see purist --help)\n");
  return -1;
}

static cli_command cli_command_named(const char *s)
{
  if (!strcmp(s, "infer")) return CMD_INFER;
  if (!strcmp(s, "summarize")) return CMD_SUMMARIZE;
  if (!strcmp(s, "link")) return CMD_LINK;
  if (!strcmp(s, "check")) return CMD_CHECK;
  if (!strcmp(s, "suggest")) return CMD_SUGGEST;
  if (!strcmp(s, "explain")) return CMD_EXPLAIN;
  if (!strcmp(s, "report")) return CMD_REPORT;
  if (!strcmp(s, "fix")) return CMD_FIX;
  if (!strcmp(s, "verify")) return CMD_VERIFY;
  if (!strcmp(s, "rt-flags")) return CMD_RT_FLAGS;
  if (!strcmp(s, "impact")) return CMD_IMPACT;
  if (!strcmp(s, "cache")) return CMD_CACHE;
  return CMD_NONE;
}

/* "--name=value" or "--name value": returns the value, advancing *i. */
static const char *cli_value(int argc, char **argv, int *i, const char *name)
{
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (!strncmp(a, name, n) && a[n] == '=') return a + n + 1;
  if (!strcmp(a, name) && *i + 1 < argc) return argv[++*i];
  return NULL;
}

static int cli_is(const char *a, const char *name)
{
  size_t n = strlen(name);
  return !strncmp(a, name, n) && (a[n] == '\0' || a[n] == '=');
}

static int cli_format(cli_opts *o, const char *v)
{
  if (!strcmp(v, "text")) o->format = FMT_TEXT;
  else if (!strcmp(v, "json")) o->format = FMT_JSON;
  else if (!strcmp(v, "sarif")) o->format = FMT_SARIF;
  else return cli_fail("unknown format '%s' (text, json or sarif)", v);
  return 0;
}

static int cli_kb(cli_opts *o, const char *v)
{
  vec_push(&o->kb_files, v);
  return 0;
}

static int cli_fail_on(cli_opts *o, const char *v)
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

static int cli_jobs(cli_opts *o, const char *v)
{
  if (cli_int(v, 1, 1024, &o->jobs) < 0) return cli_fail("-j wants a number from 1 to 1024, not '%s'", v);
  return 0;
}

static int cli_compiler_view(cli_opts *o, const char *v)
{
  if (!strcmp(v, "build")) o->clang_view = false;
  else if (!strcmp(v, "clang")) o->clang_view = true;
  else return cli_fail("--compiler-view wants build or clang, not '%s'", v);
  return 0;
}

static int cli_max_size(cli_opts *o, const char *v)
{
  if (cli_int(v, 1, 4096, &o->max_mib) < 0) return cli_fail("--max-size wants MiB from 1 to 4096, not '%s'", v);
  return 0;
}

static int cli_tu_timeout(cli_opts *o, const char *v)
{
  if (cli_int(v, 0, 86400 * 7, &o->tu_timeout) < 0)
    return cli_fail("--tu-timeout wants seconds from 0 (no limit) to 604800, not '%s'", v);
  return 0;
}

/* One option at argv[*i]; returns 0, 1 (exit now) or -1. */
static int cli_option(int argc, char **argv, int *i, cli_opts *o)
{
  const char *a = argv[*i], *v;
  if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(usage, stdout); return 1; }
  if (!strcmp(a, "--version")) { printf("purist %s\n", PURIST_VERSION); return 1; }
  /* Flags: set a bool. */
  struct { const char *name; bool *dst; } flags[] = {
    { "--quiet", &o->quiet }, { "-q", &o->quiet }, { "--strict", &o->strict },
    { "--cheats-as-errors", &o->cheats_as_errors }, { "--html", &o->html },
    { "--whole-program", &o->whole_program },
    { "--include-may-not-return", &o->include_mnr }, { "--fix-misuse", &o->fix_misuse },
    { "--dry-run", &o->dry_run }, { "--suggested", &o->suggested }, { "--cflags", &o->rt_cflags },
    { "--ldflags", &o->rt_ldflags }, { "--no-cache", &o->no_cache }, { "--stats", &o->stats } };
  for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
    if (!strcmp(a, flags[k].name)) { *flags[k].dst = true; return 0; }
  if (!strncmp(a, "-j", 2) && a[2]) return cli_jobs(o, a + 2);
  if (!strncmp(a, "-p", 2) && a[2] && a[2] != '-') { o->db = a + 2; return 0; }
  /* Options with a value: stored as given (dst), or handed to a parser. */
  struct { const char *name; const char **dst; int (*parse)(cli_opts *, const char *); } opts[] = {
    { "-p", &o->db, NULL }, { "--root", &o->root, NULL }, { "-o", &o->output, NULL },
    { "--why", &o->why, NULL }, { "--color", &o->color, NULL }, { "--baseline", &o->baseline, NULL },
    { "--write-baseline", &o->write_baseline, NULL }, { "--format", NULL, cli_format },
    { "--fail-on", NULL, cli_fail_on }, { "-j", NULL, cli_jobs }, { "--kb", NULL, cli_kb },
    { "--verify", &o->verify, NULL }, { "--max-size", NULL, cli_max_size },
    { "--spelling", &o->spelling, NULL }, { "--from", &o->from, NULL },
    { "--cache-dir", &o->cache_dir, NULL }, { "--tu-timeout", NULL, cli_tu_timeout },
    { "--compiler-view", NULL, cli_compiler_view } };
  for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
    if (!cli_is(a, opts[k].name)) continue;
    if (!(v = cli_value(argc, argv, i, opts[k].name))) return cli_fail("%s needs a value", opts[k].name);
    if (opts[k].dst) { *opts[k].dst = v; return 0; }
    return opts[k].parse(o, v);
  }
  return cli_fail("unknown option '%s'", a);
}

int cli_parse(int argc, char **argv, cli_opts *o)
{
  memset(o, 0, sizeof *o);
  o->color = "auto";
  o->fail_on = 2;
  o->max_mib = 50;
  o->tu_timeout = 300;
  int i = 1;
  if (i < argc && argv[i][0] != '-') {
    o->cmd = cli_command_named(argv[i]);
    if (o->cmd == CMD_NONE) return cli_fail("unknown command '%s'", argv[i]);
    i++;
  }
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      for (i++; i < argc; i++) vec_push(&o->flags, argv[i]);
      break;
    }
    if (a[0] == '-' && a[1]) {
      int rc = cli_option(argc, argv, &i, o);
      if (rc) return rc;
    } else {
      vec_push(&o->files, argv[i]);
    }
  }
  if (o->cmd == CMD_NONE) {
    fputs(usage, stderr);
    return -1;
  }
  if (o->cmd == CMD_REPORT && !o->html)
    return cli_fail("%s", "report needs --html (its only format)");
  if ((o->html || o->verify) && o->cmd != CMD_REPORT)
    return cli_fail("%s", "--html and --verify are for report");
  if (o->format == FMT_SARIF && o->cmd != CMD_CHECK && o->cmd != CMD_SUGGEST && o->cmd != CMD_EXPLAIN
      && o->cmd != CMD_VERIFY)
    return cli_fail("%s", "--format=sarif is for check, suggest, explain and verify");
  struct stat st;   /* relative paths would be computed against nothing */
  if (o->root && (stat(o->root, &st) != 0 || !S_ISDIR(st.st_mode)))
    return cli_fail("--root %s: not an existing directory", o->root);
  if (strcmp(o->color, "auto") && strcmp(o->color, "always") && strcmp(o->color, "never"))
    return cli_fail("--color wants auto, always or never, not '%s'", o->color);
  return 0;
}

void cli_opts_free(cli_opts *o)
{
  vec_free(&o->kb_files);
  vec_free(&o->files);
  vec_free(&o->flags);
}

bool cli_std_attrs(const cli_opts *o)
{
  return o->spelling && !strcmp(o->spelling, "std");
}
