/* diag_filter.c — the findings a user has chosen not to see.
 *
 * Suppression comments: `purist: ignore` or `purist: ignore[check,…]` in a
 * comment on the finding's line, or on a comment-only line right above it
 * (where a note about the next line naturally goes). The comment must be a
 * real comment: the source is lexed from the top of the file, so the words
 * in a string literal or in code do not count, and a line inside a
 * multi-line block comment does.
 *
 * Baselines: a JSON file of accepted findings, each its check, function
 * and message (never a line number), so code moving about does not
 * resurrect them; messages are compared through diag_key, which also
 * blanks the line numbers a message may quote. */
#include "report/diag_out.h"
#include "util/textenc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- suppression comments ----------------------------------------------- */

/* Where the lexer is: code, a // comment, a block comment, a string or a
 * character literal. */
enum { LX_CODE, LX_LINE, LX_BLOCK, LX_STR, LX_CHR };

typedef struct { size_t start; int state; } flt_line;

/* A line's comments, worked out once (com NULL: not yet): a file of one
 * huge line with thousands of findings on it was lexed once per finding,
 * quadratic (issue 31: 10,000 findings on one line took minutes). */
typedef struct { char *com; bool only; } flt_memo;

/* One source file, lexed once: the state at the start of each line. */
typedef struct {
  char *text;
  size_t len;
  VEC(flt_line) lines;
  flt_memo *memo;   /* per line, lazily */
} flt_file;

/* Advances over the character (or two-character token) at t[i], which is
 * not a newline, updating the lexer state. Comment text goes to `com` (a
 * '\n' between comments, so a marker cannot span two), and *code is set
 * when a non-blank character outside comments is passed. Returns the next
 * index; never consumes a newline. */
static size_t flt_step(const char *t, size_t n, size_t i, int *st, strbuf *com, bool *code)
{
  char c = t[i], next = i + 1 < n ? t[i + 1] : '\0';
  char one[2] = {c, '\0'};
  switch (*st) {
  case LX_CODE:
    if (c == '/' && (next == '/' || next == '*')) {
      *st = next == '/' ? LX_LINE : LX_BLOCK;
      if (com) sb_puts(com, "\n");
      return i + 2;
    }
    if (c == '"') *st = LX_STR;
    if (c == '\'') *st = LX_CHR;
    if (code && !isspace((unsigned char)c)) *code = true;
    return i + 1;
  case LX_BLOCK:
    if (c == '*' && next == '/') {
      *st = LX_CODE;
      return i + 2;
    }
    /* fallthrough */
  case LX_LINE:
    if (com) sb_puts(com, one);
    return i + 1;
  default:   /* LX_STR, LX_CHR */
    if (code) *code = true;
    if (c == '\\' && next && next != '\n') return i + 2;
    if (c == (*st == LX_STR ? '"' : '\'')) *st = LX_CODE;
    return i + 1;
  }
}

/* Reads and lexes path; false if it cannot be read. A newline ends a //
 * comment or a literal unless a backslash continues it. */
static bool flt_file_load(flt_file *f, const char *path)
{
  f->text = file_read_all(path, &f->len);
  if (!f->text) return false;
  int st = LX_CODE;
  flt_line first = {0, LX_CODE};
  vec_push(&f->lines, first);
  for (size_t i = 0; i < f->len;) {
    if (f->text[i] != '\n') {
      i = flt_step(f->text, f->len, i, &st, NULL, NULL);
      continue;
    }
    size_t j = i > 0 && f->text[i - 1] == '\r' ? i - 1 : i;
    bool continued = j > 0 && f->text[j - 1] == '\\';
    if (!continued && st != LX_BLOCK) st = LX_CODE;
    flt_line l = {++i, st};
    vec_push(&f->lines, l);
  }
  f->memo = xcalloc(f->lines.n, sizeof *f->memo);
  return true;
}

/* Frees what flt_file_load allocated (also after a failed load). */
static void flt_file_free(flt_file *f)
{
  for (size_t i = 0; f->memo && i < f->lines.n; i++) free(f->memo[i].com);
  free(f->memo);
  free(f->text);
  vec_free(&f->lines);
}

/* The comment text of line `line` (1-based), lexed on first use; *only
 * says whether the line holds comments and nothing else. NULL for a line
 * the file does not have. */
static const char *flt_line_comments(flt_file *f, unsigned line, strbuf *com, bool *only)
{
  *only = false;
  if (line == 0 || line > f->lines.n) return NULL;
  flt_memo *m = &f->memo[line - 1];
  if (!m->com) {
    sb_clear(com);
    int st = f->lines.v[line - 1].state;
    bool in_comment = st == LX_BLOCK || st == LX_LINE, code = false;
    for (size_t i = f->lines.v[line - 1].start; i < f->len && f->text[i] != '\n';)
      i = flt_step(f->text, f->len, i, &st, com, &code);
    m->only = !code && (in_comment || com->n > 0);   /* opening a comment adds to com */
    m->com = xstrdup(sb_str(com));
  }
  *only = m->only;
  return m->com;
}

/* Whether the ignore-list entry `name` (s[0..n)) covers check: the check
 * itself or a refinement of it, with or without the "purist-" prefix. */
static bool flt_name_matches(const char *s, size_t n, const char *check)
{
  if (n > 7 && strncmp(s, "purist-", 7) == 0) { s += 7; n -= 7; }
  return n > 0 && strncmp(check, s, n) == 0 && (check[n] == '\0' || check[n] == '-');
}

/* Whether the list at p ("[a, b]") names check; false if it is not closed. */
static bool flt_list_matches(const char *p, const char *check)
{
  const char *end = strchr(p, ']');
  const char *nl = strchr(p, '\n');
  if (!end || (nl && nl < end)) return false;
  for (p++; p < end;) {
    while (p < end && (isspace((unsigned char)*p) || *p == ',')) p++;
    const char *b = p;
    while (p < end && *p != ',' && !isspace((unsigned char)*p)) p++;
    if (p > b && flt_name_matches(b, (size_t)(p - b), check)) return true;
  }
  return false;
}

/* Whether some `purist: ignore…` marker in the comment text covers check. */
static bool flt_comment_suppresses(const char *com, const char *check)
{
  for (const char *p = strstr(com, "purist:"); p; p = strstr(p + 1, "purist:")) {
    const char *q = p + 7;
    while (*q == ' ' || *q == '\t') q++;
    if (strncmp(q, "ignore", 6) != 0) continue;
    q += 6;
    if (isalnum((unsigned char)*q) || *q == '_' || *q == '-') continue;   /* "ignored" */
    while (*q == ' ' || *q == '\t') q++;
    if (*q != '[') return true;
    if (flt_list_matches(q, check)) return true;
  }
  return false;
}

/* Whether a comment on `line`, or on the comment-only line above it,
 * suppresses d's check. */
static bool flt_suppressed(flt_file *f, const diag *d, unsigned line, strbuf *com)
{
  bool only;
  const char *here = flt_line_comments(f, line, com, &only);
  if (here && flt_comment_suppresses(here, d->check)) return true;
  const char *above = line > 1 ? flt_line_comments(f, line - 1, com, &only) : NULL;
  return above && only && flt_comment_suppresses(above, d->check);
}

/* The place a pass looks at: the finding's own line, or its function's
 * declaration. */
static const char *flt_path(const diag *d, bool at_decl)
{
  return at_decl ? (d->decl_abs_file ? d->decl_abs_file : "") : d->abs_file;
}

typedef struct { const diag *v; bool at_decl; } flt_order_ctx;

/* Orders indices into the list by the pass's file, then by index, so each
 * file's findings are adjacent and keep their relative order. */
static int flt_by_file(const void *a, const void *b, void *ctx)
{
  const flt_order_ctx *c = ctx;
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  int r = strcmp(flt_path(&c->v[x], c->at_decl), flt_path(&c->v[y], c->at_decl));
  return r ? r : (x < y ? -1 : x > y);
}

/* Clears keep[i] for the findings suppressed at their own line (or at
 * their function's declaration). Each file is read and lexed once. */
static void flt_pass(const diag_list *l, bool *keep, bool at_decl)
{
  size_t *order = xmalloc(l->n * sizeof *order);
  for (size_t i = 0; i < l->n; i++) order[i] = i;
  flt_order_ctx ctx = { l->v, at_decl };
  qsort_r(order, l->n, sizeof *order, flt_by_file, &ctx);
  strbuf com = {0};
  for (size_t g = 0; g < l->n;) {
    const char *path = flt_path(&l->v[order[g]], at_decl);
    size_t e = g;
    while (e < l->n && strcmp(flt_path(&l->v[order[e]], at_decl), path) == 0) e++;
    flt_file f = {0};
    if (path[0] && flt_file_load(&f, path))
      for (size_t k = g; k < e; k++) {
        const diag *d = &l->v[order[k]];
        if (keep[order[k]] && flt_suppressed(&f, d, at_decl ? d->decl_line : d->line, &com))
          keep[order[k]] = false;
      }
    flt_file_free(&f);
    g = e;
  }
  sb_free(&com);
  free(order);
}

void diag_filter_suppressed(diag_list *l)
{
  if (l->n == 0) return;
  bool *keep = xmalloc(l->n * sizeof *keep);
  for (size_t i = 0; i < l->n; i++) keep[i] = true;
  flt_pass(l, keep, false);
  flt_pass(l, keep, true);
  diag_list_keep(l, keep);
  free(keep);
}

/* ---- baselines ------------------------------------------------------------ */

/* Baseline entries sorted by check, function, message, so a rewritten
 * baseline diffs cleanly against the old one. */
static int flt_entry_cmp(const void *a, const void *b)
{
  const diag *x = *(const diag *const *)a, *y = *(const diag *const *)b;
  int c = strcmp(x->check, y->check);
  if (c) return c;
  if ((c = strcmp(x->function, y->function))) return c;
  return strcmp(x->message, y->message);
}

/* The baseline document: {"version":1,"tool":"purist","entries":[…]}. */
static json_t *flt_baseline_json(const diag_list *l)
{
  const diag **v = xmalloc((l->n ? l->n : 1) * sizeof *v);
  for (size_t i = 0; i < l->n; i++) v[i] = &l->v[i];
  qsort(v, l->n, sizeof *v, flt_entry_cmp);
  json_t *entries = json_array();
  for (size_t i = 0; i < l->n; i++) {
    json_t *e = json_object();
    json_object_set_new(e, "check", diag_json_str(v[i]->check));
    json_object_set_new(e, "function", diag_json_str(v[i]->function));
    json_object_set_new(e, "message", diag_json_str(v[i]->message));
    json_array_append_new(entries, e);
  }
  free(v);
  json_t *o = json_object();
  json_object_set_new(o, "version", json_integer(1));
  json_object_set_new(o, "tool", json_string("purist"));
  json_object_set_new(o, "entries", entries);
  return o;
}

/* Writes j to the already-open temporary fd, with the target's mode, and
 * makes it durable; closes fd. Returns 0, or -1 with errno set (0 if the
 * failing call did not say why). */
static int flt_write_fd(int fd, json_t *j, mode_t mode)
{
  FILE *f = fdopen(fd, "w");
  if (!f) {
    int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  errno = 0;
  int rc = fchmod(fd, mode) != 0 || json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 ||
           fputc('\n', f) == EOF || fflush(f) != 0 || fsync(fd) != 0 ? -1 : 0;
  int e = errno;
  if (fclose(f) != 0 && rc == 0) rc = -1, e = errno;
  errno = e;
  return rc;
}

int diag_baseline_write(const char *path, const diag_list *l, char **err)
{
  /* The temporary file sits beside the target so rename() is atomic: a
   * reader sees the old baseline or the new one, never half of one. */
  struct stat st;
  mode_t mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : 0644;
  char *tmp = xasprintf("%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  int rc = -1;
  if (fd >= 0) {
    json_t *j = flt_baseline_json(l);
    rc = flt_write_fd(fd, j, mode);
    json_decref(j);
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
  }
  if (rc != 0) {
    *err = xasprintf("%s: %s", path, strerror(errno ? errno : EIO));
    if (fd >= 0) unlink(tmp);
  }
  free(tmp);
  return rc;
}

/* The (check, function, message) of entry i, or an error message. */
static char *flt_entry_fields(const char *path, json_t *e, size_t i, const char *f[3])
{
  static const char *const keys[3] = {"check", "function", "message"};
  if (!json_is_object(e)) return xasprintf("%s: entry %zu is not an object", path, i + 1);
  for (int k = 0; k < 3; k++) {
    f[k] = json_string_value(json_object_get(e, keys[k]));
    if (!f[k]) return xasprintf("%s: entry %zu: \"%s\" is missing or not a string", path, i + 1, keys[k]);
  }
  return NULL;
}

/* How many findings each recorded one may still hide, indexed by the
 * strtab id of its diag_key. */
typedef VEC(unsigned) flt_counts;

/* Fills keys and counts from the parsed baseline. Returns NULL, or an
 * error message naming the file. */
static char *flt_baseline_counts(const char *path, json_t *root, strtab *keys, flt_counts *counts)
{
  json_t *ver = json_object_get(root, "version");
  json_t *entries = json_object_get(root, "entries");
  if (!json_is_object(root) || !json_is_integer(ver) || !json_is_array(entries))
    return xasprintf("%s: not a purist baseline (want {\"version\": 1, \"entries\": [...]})", path);
  if (json_integer_value(ver) != 1)
    return xasprintf("%s: baseline version %lld is not supported (want 1)", path,
                     (long long)json_integer_value(ver));
  for (size_t i = 0; i < json_array_size(entries); i++) {
    const char *f[3];
    char *why = flt_entry_fields(path, json_array_get(entries, i), i, f);
    if (why) return why;
    char *raw[3];   /* the bytes the writer encoded (util/textenc.h) */
    for (int k = 0; k < 3; k++) raw[k] = textenc_json_decode(f[k], strlen(f[k]));
    char *key = diag_key(raw[0], raw[1], raw[2]);
    for (int k = 0; k < 3; k++) free(raw[k]);
    uint32_t id = strtab_intern(keys, key);
    free(key);
    while (counts->n <= id) vec_push(counts, 0u);
    counts->v[id]++;
  }
  return NULL;
}

/* Whether the baseline still has an entry for d, using it up if so. */
static bool flt_baseline_take(const strtab *keys, flt_counts *counts, const diag *d)
{
  char *key = diag_key(d->check, d->function, d->message);
  uint32_t id = strtab_find(keys, key);
  free(key);
  if (id == UINT32_MAX || id >= counts->n || counts->v[id] == 0) return false;
  counts->v[id]--;
  return true;
}

/* Parses the baseline file; NULL with *err set on failure. */
static json_t *flt_baseline_load(const char *path, char **err)
{
  size_t len;
  const char *why;
  /* A regular file of bounded size, never a FIFO or a device (issue 31
   * item 9): 256 MiB is some million findings. */
  char *text = file_read_regular(path, (size_t)256 << 20, &len, &why);
  if (!text) {
    *err = xasprintf("%s: %s", path, !strcmp(why, "too large") ? "larger than 256 MiB" : why);
    return NULL;
  }
  json_error_t je;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  free(text);
  if (!root) *err = xasprintf("%s:%d:%d: %s", path, je.line, je.column, je.text);
  return root;
}

int diag_baseline_filter(diag_list *l, const char *path, char **err)
{
  json_t *root = flt_baseline_load(path, err);
  if (!root) return -1;
  strtab *keys = strtab_new();
  flt_counts counts = {0};
  char *why = flt_baseline_counts(path, root, keys, &counts);
  json_decref(root);
  if (why) {
    *err = why;
  } else {
    bool *keep = xmalloc((l->n ? l->n : 1) * sizeof *keep);
    for (size_t i = 0; i < l->n; i++) keep[i] = !flt_baseline_take(keys, &counts, &l->v[i]);
    diag_list_keep(l, keep);
    free(keep);
  }
  vec_free(&counts);
  strtab_free(keys);
  return why ? -1 : 0;
}
