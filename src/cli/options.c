/* options.c — parses purist's command line with the option table
 * (cli_table.c), in the forms clang-tidy and GNU tools accept:
 * --opt=value, --opt value, -xVALUE, -x=VALUE, -x VALUE; FILE... anywhere;
 * everything after "--" is compiler flags (or verify's command). */
#include "cli/options.h"
#include "cli/cli_help.h"
#include "cli/cli_table.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Levenshtein distance of a and b, capped at 9 (names are short). */
static int cli_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  if (la > 40 || lb > 40) return 9;
  int row[41];
  for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[lb] < 9 ? row[lb] : 9;
}

/* "unknown option '--jbos'": names the nearest option when one is close. */
static int cli_unknown(const char *a)
{
  size_t n = strcspn(a, "=");
  char *name = xstrndup(a, n);
  const char *best = NULL;
  int bd = 3;   /* at most two edits away */
  for (size_t i = 0; i < cli_noptdefs; i++) {
    int d = cli_distance(name, cli_optdefs[i].name);
    if (d < bd) { bd = d; best = cli_optdefs[i].name; }
  }
  if (best) fprintf(stderr, "purist: unknown option '%s'; did you mean %s? (see purist --help)\n", name, best);
  else cli_fail("unknown option '%s'", name);
  free(name);
  return -1;
}

/* "-p needs a value (DIR)": names the option as the user wrote it. */
static int cli_needs_value(const char *as, const cli_optdef *d)
{
  fprintf(stderr, "purist: %s needs a value (%s) (see purist --help)\n", as, d->arg);
  return -1;
}

/* Sets an option from the command line: it overrides .purist. */
static int cli_given(cli_opts *o, const cli_optdef *d, const char *v)
{
  o->given[d - cli_optdefs] = 1;
  return cli_opt_set(o, d, v);
}

/* A long option at argv[*i]: --name, --name=value or --name value. */
static int cli_long(int argc, char **argv, int *i, cli_opts *o)
{
  const char *a = argv[*i], *eq = strchr(a, '=');
  char *name = eq ? xstrndup(a, (size_t)(eq - a)) : xstrdup(a);
  const cli_optdef *d = cli_opt_find(name);
  int rc;
  if (!d) rc = cli_unknown(a);
  else if (!d->arg && eq) rc = cli_fail("%s takes no value", name);
  else if (!d->arg) rc = cli_given(o, d, NULL);
  else if (eq) rc = cli_given(o, d, eq + 1);
  else if (*i + 1 < argc) rc = cli_given(o, d, argv[++*i]);
  else rc = cli_needs_value(name, d);
  free(name);
  return rc;
}

/* A short option at argv[*i]: -q, -pDIR, -p=DIR or -p DIR. */
static int cli_short(int argc, char **argv, int *i, cli_opts *o)
{
  const char *a = argv[*i];
  char head[3] = { '-', a[1], '\0' };
  const cli_optdef *d = cli_opt_find(head);
  if (!d) return cli_unknown(a);
  if (!d->arg) return a[2] ? cli_unknown(a) : cli_given(o, d, NULL);
  if (a[2]) return cli_given(o, d, a + 2 + (a[2] == '='));
  if (*i + 1 < argc) return cli_given(o, d, argv[++*i]);
  return cli_needs_value(head, d);
}

/* purist help [COMMAND]: prints it; 1, or -1 for an unknown command. */
static int cli_help_command(const cli_opts *o)
{
  if (o->files.n > 1) return cli_fail("%s", "help takes one command (purist help COMMAND)");
  const cli_cmddef *c = o->files.n ? cli_cmd_find(o->files.v[0]) : NULL;
  if (o->files.n && !c) return cli_fail("help: unknown command '%s'", o->files.v[0]);
  cli_help_print(stdout, c);
  return 1;
}

/* The checks of option combinations, after the whole line is read. */
static int cli_check(const cli_opts *o)
{
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
  if ((o->with_suggest || o->with_explain) && o->cmd != CMD_CHECK)
    return cli_fail("%s", "--with is for check (purist check --with=suggest,explain)");
  if (o->cmd == CMD_CONFIG && o->files.n)
    return cli_fail("config takes no files: '%s'", o->files.v[0]);
  return 0;
}

static void cli_defaults(cli_opts *o)
{
  memset(o, 0, sizeof *o);
  o->color = "auto";
  o->fail_on = 2;
  o->max_mib = 50;
  o->tu_timeout = 300;
  o->cache_max = (uint64_t)1 << 30;   /* CACHE_DEFAULT_MAX_SIZE */
  o->progress = "auto";
}

int cli_parse(int argc, char **argv, cli_opts *o)
{
  cli_defaults(o);
  int i = 1;
  if (i < argc && argv[i][0] != '-') {
    const cli_cmddef *c = cli_cmd_find(argv[i]);
    if (!c) return cli_fail("unknown command '%s'", argv[i]);
    o->cmd = c->cmd;
    i++;
  }
  for (; i < argc; i++) {
    const char *a = argv[i];
    int rc = 0;
    if (!strcmp(a, "--")) {
      o->dashdash = true;
      for (i++; i < argc; i++) vec_push(&o->flags, argv[i]);
      break;
    }
    if (a[0] == '-' && a[1] == '-') rc = cli_long(argc, argv, &i, o);
    else if (a[0] == '-' && a[1]) rc = cli_short(argc, argv, &i, o);
    else vec_push(&o->files, argv[i]);
    if (rc) return rc;
  }
  if (o->help) {
    cli_help_print(stdout, cli_cmd_def(o->cmd));
    return 1;
  }
  if (o->cmd == CMD_HELP) return cli_help_command(o);
  if (o->version) { cli_version_print(stdout); return 1; }
  if (o->cmd == CMD_NONE) {
    cli_help_usage(stderr);
    return -1;
  }
  return cli_check(o) < 0 ? -1 : 0;
}

void cli_opts_free(cli_opts *o)
{
  vec_free(&o->kb_files);
  vec_free(&o->files);
  vec_free(&o->flags);
  vec_free(&o->checks);
  vec_free(&o->excludes);
  vec_free(&o->skips);
  vec_free(&o->libraries);
  vec_free(&o->includes);
  for (size_t i = 0; i < o->owned.n; i++) free((char *)o->owned.v[i]);
  vec_free(&o->owned);
  free(o->config_read);
}

bool cli_std_attrs(const cli_opts *o)
{
  return o->spelling && !strcmp(o->spelling, "std");
}
