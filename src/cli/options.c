/* options.c — parses purist's command line. */
#include "cli/options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
  "usage: purist COMMAND [options] [files...] [-- compiler flags]\n"
  "\n"
  "commands:\n"
  "  infer       classify every function: const, pure or normal, with the reason\n"
  "  summarize   write the per-TU summaries to a file (-o FILE)\n"
  "  link        read summary files and print what infer prints\n"
  "  check       verify declared pure/const attributes against the bodies\n"
  "  suggest     where pure/const attributes belong, ranked by what they buy\n"
  "  explain     what the compiler does with calls of pure/const functions\n"
  "  cache clean remove the summary cache (of -p DIR, or --cache-dir DIR)\n"
  "\n"
  "options:\n"
  "  -p DIR            directory of compile_commands.json (default: . then build/)\n"
  "  --root DIR        project root for relative paths (default: the project of -p)\n"
  "  --format=FMT      text (default), json or sarif (sarif: check, suggest, explain)\n"
  "  --fail-on=SEV     exit 1 on findings of this severity or worse: error (default),\n"
  "                    warning or never\n"
  "  --cheats-as-errors  report deliberate cheats (memoisation) as errors, not notes\n"
  "  --baseline FILE   hide findings recorded in FILE\n"
  "  --write-baseline FILE  record the current findings in FILE\n"
  "  -o FILE           write the output to FILE\n"
  "  -j N              parse N files at once (default: number of cores)\n"
  "  --why NAME        print the chain of causes for function NAME\n"
  "  --strict          count effects on paths that end in a noreturn call\n"
  "  --kb FILE         add knowledge-base entries (format of data/libc.kb)\n"
  "  --quiet           no progress or warnings on stderr\n"
  "  --color=WHEN      auto, always or never\n"
  "  --cache-dir DIR   summary cache (default: .purist-cache beside compile_commands.json;\n"
  "                    env PURIST_CACHE_DIR); files named without a database: none\n"
  "  --no-cache        parse every file; read and write no cache\n"
  "  --stats           print cache hits, misses and files parsed on stderr\n"
  "  --version, --help\n";

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

static int cli_jobs(cli_opts *o, const char *v)
{
  char *end;
  long n = strtol(v, &end, 10);
  if (*end || n < 1 || n > 1024) return cli_fail("-j wants a number from 1 to 1024, not '%s'", v);
  o->jobs = (int)n;
  return 0;
}

/* One option at argv[*i]; returns 0, 1 (exit now) or -1. */
static int cli_option(int argc, char **argv, int *i, cli_opts *o)
{
  const char *a = argv[*i], *v;
  if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(usage, stdout); return 1; }
  if (!strcmp(a, "--version")) { printf("purist %s\n", PURIST_VERSION); return 1; }
  if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) { o->quiet = true; return 0; }
  if (!strcmp(a, "--strict")) { o->strict = true; return 0; }
  if (!strcmp(a, "--cheats-as-errors")) { o->cheats_as_errors = true; return 0; }
  if (!strcmp(a, "--no-cache")) { o->no_cache = true; return 0; }
  if (!strcmp(a, "--stats")) { o->stats = true; return 0; }
  if (!strncmp(a, "-j", 2) && a[2]) return cli_jobs(o, a + 2);
  if (!strncmp(a, "-p", 2) && a[2] && a[2] != '-') { o->db = a + 2; return 0; }
  /* Options with a value: stored as given (dst), or handed to a parser. */
  struct { const char *name; const char **dst; int (*parse)(cli_opts *, const char *); } opts[] = {
    { "-p", &o->db, NULL }, { "--root", &o->root, NULL }, { "-o", &o->output, NULL },
    { "--why", &o->why, NULL }, { "--color", &o->color, NULL }, { "--baseline", &o->baseline, NULL },
    { "--write-baseline", &o->write_baseline, NULL }, { "--format", NULL, cli_format },
    { "--fail-on", NULL, cli_fail_on }, { "-j", NULL, cli_jobs }, { "--kb", NULL, cli_kb },
    { "--cache-dir", &o->cache_dir, NULL } };
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
  if (o->format == FMT_SARIF && o->cmd != CMD_CHECK && o->cmd != CMD_SUGGEST && o->cmd != CMD_EXPLAIN)
    return cli_fail("%s", "--format=sarif is for check, suggest and explain");
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
