/* config.c — see config.h. The YAML is loaded as a document (libyaml's
 * node tree): a .purist is a few lines, and a tree makes every error's
 * line and column available. */
#include "cli/config.h"
#include "cli/cli_table.h"
#include "cli/project.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>
#include "util/fileio.h"
#include "util/safefs.h"
#include "util/strbuf.h"

/* A .purist is a few lines: a megabyte is far beyond any real one, and
 * nesting past 64 levels is an attack on the parser, not a setting
 * (issue 31 item 10). */
enum { CONFIG_NAME_MAX = 4096, CONFIG_MAX_BYTES = 1 << 20, CONFIG_MAX_DEPTH = 64 };
static const char config_name[] = ".purist";

typedef struct {
  cli_opts *o;
  yaml_document_t *doc;
  const char *path;      /* the file, for messages */
  char *dir;             /* its directory: file-valued keys are relative to it */
} config_ctx;

/* Another user's file, or one others can write, steers nothing (issue 31
 * item 3): true, after a one-line warning naming the file and why, if
 * path is such a file. */
static bool config_untrusted(const char *path, const char *what)
{
  struct stat st;
  char *why = NULL;
  if (stat(path, &st) != 0 || safefs_trusted(&st, &why)) return false;
  fprintf(stderr, "purist: warning: ignoring %s %s: it %s\n", what, path, why);
  free(why);
  return true;
}

/* "purist: FILE:LINE:COL: error: MSG" for a node; returns -1. */
static int config_error(const config_ctx *c, const yaml_node_t *n, const char *fmt, const char *arg)
{
  fprintf(stderr, "purist: %s:%zu:%zu: error: ", c->path, n->start_mark.line + 1, n->start_mark.column + 1);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return -1;
}

static const char *config_scalar(const yaml_node_t *n)
{
  return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* YAML's null: "~", "null" or nothing, unquoted. */
static bool config_is_null(const yaml_node_t *n)
{
  const char *s = config_scalar(n);
  return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
         (!*s || !strcmp(s, "~") || !strcasecmp(s, "null"));
}

/* A YAML 1.1 boolean; -1 if s is not one. */
static int config_bool(const char *s)
{
  static const char *const yes[] = { "true", "yes", "on" }, *const no[] = { "false", "no", "off" };
  for (size_t i = 0; i < 3; i++) {
    if (!strcasecmp(s, yes[i])) return 1;
    if (!strcasecmp(s, no[i])) return 0;
  }
  return -1;
}

/* A copy of v that lives as long as o; made absolute against the file's
 * directory for a key whose value is a file or a directory. */
static const char *config_keep(const config_ctx *c, const cli_optdef *d, const char *v)
{
  bool path = d->complete && d->complete[0] == '@' && v[0] != '/';
  char *s = path ? xasprintf("%s/%s", c->dir, v) : xstrdup(v);
  vec_push(&c->o->owned, s);
  return s;
}

/* One value (a scalar) of option d. */
static int config_set_one(const config_ctx *c, const cli_optdef *d, const yaml_node_t *n)
{
  const char *v = config_scalar(n);
  if (!v) return config_error(c, n, "'%s' wants a single value here", d->config);
  if (d->kind == CLI_FLAG) {
    int b = config_bool(v);
    if (b < 0) return config_error(c, n, "'%s' wants true or false", d->config);
    *(bool *)((char *)c->o + d->off) = b;
    return 0;
  }
  const char *kept = config_keep(c, d, v);
  if (!strcmp(d->config, "kb") && config_untrusted(kept, "the knowledge base")) return 0;
  if (cli_opt_set(c->o, d, kept) == 0) return 0;
  return config_error(c, n, "the value of '%s' is refused (above)", d->config);
}

/* checks: {cheat: off, misuse: on}, the mapping form of "-cheat,misuse". */
static int config_checks_map(const config_ctx *c, const cli_optdef *d, const yaml_node_t *n)
{
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(c->doc, p->key), *v = yaml_document_get_node(c->doc, p->value);
    const char *name = config_scalar(k), *on = config_scalar(v);
    int b = on ? config_bool(on) : -1;
    if (!name || b < 0) return config_error(c, v, "checks: wants CHECK: on or off, e.g. 'cheat: off'%s", "");
    char *item = xasprintf("%s%s", b ? "" : "-", name);
    vec_push(&c->o->owned, item);
    if (cli_opt_set(c->o, d, item) < 0) return config_error(c, k, "the check '%s' is refused (above)", name);
  }
  return 0;
}

/* Sets option d from its key's value node: a scalar, a list of them, or
 * (checks) a mapping. */
static int config_set(const config_ctx *c, const cli_optdef *d, const yaml_node_t *n)
{
  if (config_is_null(n)) return 0;
  if (n->type == YAML_MAPPING_NODE && !strcmp(d->config, "checks")) return config_checks_map(c, d, n);
  if (n->type != YAML_SEQUENCE_NODE) return config_set_one(c, d, n);
  if (d->kind != CLI_PARSE) return config_error(c, n, "'%s' wants one value, not a list", d->config);
  for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
    if (config_set_one(c, d, yaml_document_get_node(c->doc, *it)) < 0) return -1;
  return 0;
}

/* The keys the file may hold, for an error's message (caller frees). */
static char *config_keys(void)
{
  strbuf b = {0};
  for (size_t i = 0; i < cli_noptdefs; i++)
    if (cli_optdefs[i].config) sb_printf(&b, "%s%s", b.n ? ", " : "", cli_optdefs[i].config);
  char *s = xstrdup(sb_str(&b));
  sb_free(&b);
  return s;
}

/* Moves the list's items out (the command line's), for putting them back
 * after the file's. */
static void config_take(cli_strs *list, cli_strs *saved)
{
  *saved = *list;
  memset(list, 0, sizeof *list);
}

static void config_put_back(cli_strs *list, cli_strs *saved)
{
  for (size_t i = 0; i < saved->n; i++) vec_push(list, saved->v[i]);
  vec_free(saved);
}

/* One key: value pair of the top mapping. */
static int config_pair(const config_ctx *c, const yaml_node_t *k, const yaml_node_t *v)
{
  const char *key = config_scalar(k);
  const cli_optdef *d = key ? cli_opt_by_key(key) : NULL;
  if (!d) {
    char *keys = config_keys();
    fprintf(stderr, "purist: %s:%zu:%zu: error: unknown key '%s' (the keys: %s)\n", c->path,
            k->start_mark.line + 1, k->start_mark.column + 1, key ? key : "?", keys);
    free(keys);
    return -1;
  }
  bool adds = !strcmp(key, "checks") || !strcmp(key, "kb");   /* the command line's come after */
  if (c->o->given[d - cli_optdefs] && !adds) return 0;
  if (!adds) return config_set(c, d, v);
  cli_strs *list = !strcmp(key, "checks") ? &c->o->checks : (cli_strs *)&c->o->kb_files, saved;
  config_take(list, &saved);
  int rc = config_set(c, d, v);
  config_put_back(list, &saved);
  return rc;
}

/* The line of a mark, for messages. */
static size_t config_line(yaml_mark_t m)
{
  return m.line + 1;
}

/* A first pass over the events: no nesting deeper than CONFIG_MAX_DEPTH
 * (it stops at the first level too deep, so 300 KB of '[' cost nothing)
 * and one document only. 0, or -1 after saying why. */
static int config_prescan(const char *path, const char *text, size_t len)
{
  yaml_parser_t parser;
  yaml_event_t ev;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  int depth = 0, docs = 0, rc = 0;
  for (bool done = false; !done && rc == 0;) {
    if (!yaml_parser_parse(&parser, &ev)) break;   /* the load says what is wrong */
    if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) depth++;
    if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) depth--;
    if (depth > CONFIG_MAX_DEPTH) {
      fprintf(stderr, "purist: %s:%zu:%zu: error: nested more than %d levels deep\n", path,
              config_line(ev.start_mark), ev.start_mark.column + 1, CONFIG_MAX_DEPTH);
      rc = -1;
    }
    if (ev.type == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
      fprintf(stderr, "purist: %s:%zu: error: a second YAML document (a .purist holds one)\n", path,
              config_line(ev.start_mark));
      rc = -1;
    }
    done = ev.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&parser);
  return rc;
}

/* No mapping of the document holds a key twice (a repeated `checks:`
 * used to be merged silently): 0, or -1 naming both lines. */
static int config_no_duplicates(const char *path, yaml_document_t *doc)
{
  for (yaml_node_t *n = doc->nodes.start; n < doc->nodes.top; n++) {
    if (n->type != YAML_MAPPING_NODE) continue;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
      for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++) {
        yaml_node_t *a = yaml_document_get_node(doc, q->key), *b = yaml_document_get_node(doc, p->key);
        const char *x = config_scalar(a), *y = config_scalar(b);
        if (!x || !y || strcmp(x, y) != 0) continue;
        fprintf(stderr, "purist: %s:%zu:%zu: error: duplicate key '%s' (first at line %zu)\n", path,
                config_line(b->start_mark), b->start_mark.column + 1, y, config_line(a->start_mark));
        return -1;
      }
  }
  return 0;
}

/* The file's text: a regular file of at most CONFIG_MAX_BYTES, read
 * without blocking (a FIFO, /dev/zero: refused, issue 31 item 9). */
static char *config_slurp(const char *path, size_t *len)
{
  const char *why;
  char *text = file_read_regular(path, CONFIG_MAX_BYTES, len, &why);
  if (!text && !strcmp(why, "too large"))
    fprintf(stderr, "purist: %s: larger than %d KiB; a .purist is a few lines\n", path, CONFIG_MAX_BYTES >> 10);
  else if (!text)
    fprintf(stderr, "purist: %s: %s\n", path, why);
  return text;
}

/* Applies the loaded document's top mapping to o. */
static int config_apply_doc(cli_opts *o, const char *path, yaml_document_t *doc)
{
  int rc = config_no_duplicates(path, doc);
  yaml_node_t *root = yaml_document_get_root_node(doc);
  const char *slash = strrchr(path, '/');
  config_ctx c = { o, doc, path, slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".") };
  if (rc == 0 && root && root->type != YAML_MAPPING_NODE && !config_is_null(root))
    rc = config_error(&c, root, "%s", "the file should be 'key: value' lines (a YAML mapping)");
  for (yaml_node_pair_t *p = root && root->type == YAML_MAPPING_NODE ? root->data.mapping.pairs.start : NULL;
       rc == 0 && p && p < root->data.mapping.pairs.top; p++)
    rc = config_pair(&c, yaml_document_get_node(doc, p->key), yaml_document_get_node(doc, p->value));
  free(c.dir);
  return rc;
}

/* Reads path into o; 0, or -1 after saying why. */
static int config_read(cli_opts *o, const char *path)
{
  size_t len = 0;
  char *text = config_slurp(path, &len);
  if (!text) return -1;
  if (config_prescan(path, text, len) < 0) { free(text); return -1; }
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  int rc;
  if (!yaml_parser_load(&parser, &doc)) {
    fprintf(stderr, "purist: %s:%zu:%zu: error: %s (the file is YAML: 'key: value' lines)\n", path,
            parser.problem_mark.line + 1, parser.problem_mark.column + 1, parser.problem ? parser.problem : "bad YAML");
    rc = -1;
  } else {
    rc = config_apply_doc(o, path, &doc);
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&parser);
  free(text);
  return rc;
}

/* Is d a place the upward walk stops after: a repository's root (it
 * holds .git) or a file system's (its parent is on another device)? A
 * .purist above the project's repository is not the project's. */
static bool config_walk_ends(const char *d, const struct stat *here)
{
  char *git = xasprintf("%s%s.git", d, strcmp(d, "/") ? "/" : "");
  struct stat st, up;
  bool end = lstat(git, &st) == 0;
  free(git);
  char *parent = xasprintf("%s/..", d);
  if (!end && stat(parent, &up) == 0 && up.st_dev != here->st_dev) end = true;
  free(parent);
  return end;
}

/* The first .purist from dir upward (caller frees), or NULL; the walk
 * stops at a repository or file-system root. A file another user owns,
 * or others can write, is ignored with a warning, and ends the walk. */
static char *config_find(const char *dir)
{
  char *d = xstrdup(dir);
  for (;;) {
    char *p = xasprintf("%s%s%s", d, strcmp(d, "/") ? "/" : "", config_name);
    struct stat st, here;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
      free(d);
      if (!config_untrusted(p, "the configuration")) return p;
      free(p);
      return NULL;
    }
    free(p);
    char *slash = strrchr(d, '/');
    if (!slash || !strcmp(d, "/") || stat(d, &here) != 0 || config_walk_ends(d, &here)) break;
    slash[slash == d] = '\0';   /* "/a/b" → "/a"; "/a" → "/" */
  }
  free(d);
  return NULL;
}

int config_apply(cli_opts *o)
{
  if (o->no_config) return 0;
  char *path;
  if (o->config_file) {
    path = xstrdup(o->config_file);
  } else {
    char *start = project_config_start(o);
    path = config_find(start);
    free(start);
    if (!path) return 0;
  }
  o->config_read = path;
  return config_read(o, path);
}

/* ---- config --dump ------------------------------------------------------ */

/* A YAML single-quoted scalar: nothing in it is special but the quote. */
static void dump_quoted(FILE *out, const char *s)
{
  fputc('\'', out);
  for (; *s; s++) {
    if (*s == '\'') fputc('\'', out);
    fputc(*s, out);
  }
  fputc('\'', out);
}

static void dump_list(FILE *out, const cli_strs *l)
{
  fputc('[', out);
  for (size_t i = 0; i < l->n; i++) {
    if (i) fputs(", ", out);
    dump_quoted(out, l->v[i]);
  }
  fputs("]\n", out);
}

/* The value of a key whose option has a parser, as the file would hold it. */
static void dump_parsed(FILE *out, const cli_opts *o, const char *key)
{
  static const char *const fail_on[] = { "never", "warning", "error", "never" };
  if (!strcmp(key, "checks")) dump_list(out, &o->checks);
  else if (!strcmp(key, "exclude")) dump_list(out, &o->excludes);
  else if (!strcmp(key, "skip")) dump_list(out, &o->skips);
  else if (!strcmp(key, "include")) dump_list(out, &o->includes);
  else if (!strcmp(key, "library")) dump_list(out, &o->libraries);
  else if (!strcmp(key, "kb")) dump_list(out, (const cli_strs *)&o->kb_files);
  else if (!strcmp(key, "color")) fprintf(out, "%s\n", o->color);
  else if (!strcmp(key, "fail-on")) fprintf(out, "%s\n", fail_on[o->fail_on & 3]);
  else if (!strcmp(key, "jobs")) o->jobs ? fprintf(out, "%d\n", o->jobs) : fputs("~   # the number of cores\n", out);
  else if (!strcmp(key, "tu-timeout")) fprintf(out, "%d\n", o->tu_timeout);
  else if (!strcmp(key, "compiler-view")) fputs(o->clang_view ? "clang\n" : "build\n", out);
  else if (!strcmp(key, "progress")) fprintf(out, "%s\n", o->progress);
  else if (!strcmp(key, "cache-max-size")) fprintf(out, "%llu   # bytes; 0: no limit\n", (unsigned long long)o->cache_max);
  else fputs("~   # see purist --help\n", out);
}

int config_dump(const cli_opts *o, FILE *out)
{
  if (o->config_read) fprintf(out, "# purist's settings: %s, then the command line\n", o->config_read);
  else fputs("# purist's settings: no .purist found (defaults), then the command line\n", out);
  for (size_t i = 0; i < cli_noptdefs; i++) {
    const cli_optdef *d = &cli_optdefs[i];
    if (!d->config) continue;
    fprintf(out, "%s: ", d->config);
    if (d->kind == CLI_FLAG) {
      fputs(*(const bool *)((const char *)o + d->off) ? "true\n" : "false\n", out);
    } else if (d->kind == CLI_STR) {
      const char *v = *(const char *const *)((const char *)o + d->off);
      if (v) dump_quoted(out, v);
      else fputc('~', out);
      fputc('\n', out);
    } else {
      dump_parsed(out, o, d->config);
    }
  }
  return ferror(out) ? -1 : 0;
}
