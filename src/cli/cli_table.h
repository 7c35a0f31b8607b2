/* cli_table.h — purist's commands and options, one table each
 * (cli_table.c). Everything the user reads or types about the command line
 * comes from them: the parser (options.c), `--help` and `purist help CMD`
 * (cli_help.c), the man page and bash completion (doc/gendoc.c, at build
 * time) and the keys of the configuration file (config.c). Adding an
 * option is one row here and, if it has a value to check, one parser. */
#ifndef PURIST_CLI_TABLE_H
#define PURIST_CLI_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include "cli/options.h"

/* Which commands an option belongs to (bit 1 << cli_command). */
#define CLI_BIT(c) (1u << (c))
#define CLI_FINDINGS (CLI_BIT(CMD_CHECK) | CLI_BIT(CMD_SUGGEST) | CLI_BIT(CMD_EXPLAIN))
#define CLI_PARSING (CLI_BIT(CMD_INFER) | CLI_BIT(CMD_SUMMARIZE) | CLI_FINDINGS | CLI_BIT(CMD_REPORT) | \
                     CLI_BIT(CMD_FIX) | CLI_BIT(CMD_IMPACT) | CLI_BIT(CMD_VERIFY))
#define CLI_READING (CLI_PARSING | CLI_BIT(CMD_LINK))   /* commands that read C or summaries */
#define CLI_ALL 0xffffffffu

typedef enum {
  CLI_FLAG,    /* bool at off; no value */
  CLI_STR,     /* const char * at off; any value */
  CLI_PARSE,   /* value checked and stored by parse */
} cli_kind;

typedef struct {
  const char *name;      /* "--format"; every option has a long name */
  char short_name;       /* 'p' for -p, or 0 */
  const char *alias;     /* another long name ("--build-path"), or NULL */
  const char *arg;       /* the value's name in help ("DIR"), NULL for a flag */
  const char *complete;  /* completion: "text|json|sarif", "@file", "@dir", or NULL */
  unsigned cmds;         /* CLI_BIT()s of the commands it applies to */
  cli_kind kind;
  size_t off;            /* CLI_FLAG, CLI_STR: offsetof(cli_opts, field) */
  int (*parse)(cli_opts *o, const char *v);   /* CLI_PARSE: 0, or -1 after saying why */
  const char *config;    /* its key in .purist, or NULL if the file cannot set it */
  const char *help;      /* what it does; lines separated by '\n' */
} cli_optdef;

typedef struct {
  const char *name;      /* "infer" */
  cli_command cmd;
  const char *synopsis;  /* after "purist NAME " */
  const char *summary;   /* one line, for the command list */
  const char *desc;      /* a paragraph; lines separated by '\n' */
} cli_cmddef;

extern const cli_optdef cli_optdefs[];
extern const size_t cli_noptdefs;
extern const cli_cmddef cli_cmddefs[];
extern const size_t cli_ncmddefs;
/* The environment variables purist reads, for the man page: name, meaning. */
extern const char *const cli_envvars[][2];
extern const size_t cli_nenvvars;

/* The command named s, or NULL. */
const cli_cmddef *cli_cmd_find(const char *s);
/* The command's row, by its enum value (NULL for CMD_NONE). */
const cli_cmddef *cli_cmd_def(cli_command c);
/* The option whose long name, alias or short name ("-p") is exactly s; NULL if none. */
const cli_optdef *cli_opt_find(const char *s);
/* The option whose configuration key is key; NULL if none. */
const cli_optdef *cli_opt_by_key(const char *key);
/* Sets option d to v (NULL for a flag) in o; 0, or -1 after saying why on
 * stderr. The caller marks o->given (the command line) or not (.purist). */
int cli_opt_set(cli_opts *o, const cli_optdef *d, const char *v);
/* "purist: MSG (see purist --help)" on stderr, fmt with one %s; returns -1. */
int cli_fail(const char *fmt, const char *arg);

#endif
