/* publish.c — findings as LSP diagnostics (textDocument/publishDiagnostics).
 *
 * Positions come from the analysis, so they are converted against the
 * file as it is on disk (what was analysed), not the editor's unsaved
 * text. A finding's range is the name at its position (a function's name,
 * a callee's name), so the editor underlines a word, not a point. A
 * document's diagnostics are sent again only when they changed: after a
 * save, the files whose findings a callee's new class changed are
 * republished, the others are left alone. */
#include "lsp/lsp_internal.h"
#include "util/fileio.h"
#include <stdlib.h>
#include <string.h>

#ifndef PURIST_DOCS_URL
#define PURIST_DOCS_URL "file:///usr/local/share/doc/purist/"
#endif

char *lsp_check_href(const char *check)
{
  return xasprintf("%schecks/%s.md", PURIST_DOCS_URL, check);   /* the page SARIF's helpUri names */
}

/* LSP's DiagnosticSeverity: 1 error, 2 warning, 3 information. */
static int publish_severity(diag_severity s)
{
  return s == DIAG_ERROR ? 1 : s == DIAG_WARNING ? 2 : 3;
}

/* A range over the name at (line, col) of text, or the point. */
static json_t *publish_name_range(const char *text, size_t len, unsigned line, unsigned col, bool utf8)
{
  unsigned n = lsp_ident_len(text, len, line, col);
  return lsp_range(text, len, line, col, line, col + n, utf8);
}

/* A diagnostic of the server's own (no check), at (line, col) of text. */
static json_t *publish_own(const char *text, size_t len, unsigned line, unsigned col, int severity,
                           const char *message, bool utf8)
{
  json_t *d = json_object();
  json_object_set_new(d, "range", publish_name_range(text, len, line, col, utf8));
  json_object_set_new(d, "severity", json_integer(severity));
  json_object_set_new(d, "source", json_string("purist"));
  json_object_set_new(d, "message", diag_json_str(message));
  return d;
}

/* The absolute path of a related location. Caller frees. */
static char *publish_abs(const lsp_analysis *a, const char *abs_file, const char *file)
{
  if (abs_file) return xstrdup(abs_file);
  if (file[0] == '/' || !a->root) return xstrdup(file);
  return xasprintf("%s/%s", a->root, file);
}

static json_t *publish_related(const lsp_server *s, const diag_related *r, const char *doc_path,
                               const char *text, size_t len)
{
  char *abs = publish_abs(&s->an, r->abs_file, r->file), *real = realpath(abs, NULL);
  const char *path = real ? real : abs;
  size_t olen = 0;
  char *other = strcmp(path, doc_path) ? file_read_all(path, &olen) : NULL;
  char *uri = lsp_path_to_uri(path);
  json_t *j = json_pack("{s:{s:s,s:o},s:o}", "location", "uri", uri, "range",
                        publish_name_range(other ? other : strcmp(path, doc_path) ? NULL : text,
                                           other ? olen : len, r->line, r->column, s->utf8),
                        "message", diag_json_str(r->message));
  free(uri);
  free(other);
  free(real);
  free(abs);
  return j;
}

static json_t *publish_finding(const lsp_server *s, const diag *f, const char *doc_path, const char *text,
                               size_t len)
{
  json_t *d = json_object();
  json_object_set_new(d, "range", publish_name_range(text, len, f->line, f->column, s->utf8));
  json_object_set_new(d, "severity", json_integer(publish_severity(f->severity)));
  json_object_set_new(d, "code", json_string(f->check));
  char *href = lsp_check_href(f->check);
  json_object_set_new(d, "codeDescription", json_pack("{s:s}", "href", href));
  free(href);
  json_object_set_new(d, "source", json_string("purist"));
  json_object_set_new(d, "message", diag_json_str(f->message));
  if (f->related.n) {
    json_t *rel = json_array();
    for (size_t i = 0; i < f->related.n; i++)
      json_array_append_new(rel, publish_related(s, &f->related.v[i], doc_path, text, len));
    json_object_set_new(d, "relatedInformation", rel);
  }
  if (f->function) json_object_set_new(d, "data", json_pack("{s:o}", "function", diag_json_str(f->function)));
  return d;
}

/* "path:L:C: error: …" naming doc_path (absolute, or relative to root):
 * its line and column; false if msg is not so. */
static bool publish_msg_pos(const char *msg, const char *doc_path, const char *root, unsigned *line,
                            unsigned *col)
{
  const char *rel = root ? fix_rel(doc_path, root) : NULL;
  size_t n = strlen(doc_path), rn = rel ? strlen(rel) : 0;
  const char *p = !strncmp(msg, doc_path, n) && msg[n] == ':' ? msg + n + 1
                : rel && !strncmp(msg, rel, rn) && msg[rn] == ':' ? msg + rn + 1 : NULL;
  if (!p) return false;
  char *end;
  unsigned long l = strtoul(p, &end, 10), c = 1;
  if (end == p || *end != ':') return false;
  if (end[1] >= '0' && end[1] <= '9') c = strtoul(end + 1, &end, 10);
  *line = (unsigned)l;
  *col = (unsigned)c;
  return l > 0;
}

/* The diagnostic of a TU that was not analysed, if doc is that TU. */
static json_t *publish_not_analysed(const lsp_server *s, const lsp_doc *doc, const char *text, size_t len)
{
  const lsp_analysis *a = &s->an;
  for (size_t i = 0; i < a->ri.not_analysed.n; i++) {
    const run_na *na = &a->ri.not_analysed.v[i];
    char *abs = publish_abs(a, NULL, na->file), *real = realpath(abs, NULL);
    bool mine = !strcmp(real ? real : abs, doc->path);
    free(real);
    free(abs);
    if (!mine) continue;
    unsigned line = 1, col = 1;
    publish_msg_pos(na->message, doc->path, a->root, &line, &col);
    char *m = xasprintf("purist could not analyse this file (%s): %s; its functions count as unknown "
                        "(normal) for the rest of the project", run_na_reason_name(na->reason), na->message);
    json_t *d = publish_own(text, len, line, col, 1, m, s->utf8);
    free(m);
    return d;
  }
  return NULL;
}

/* The one diagnostic of a file the analysis knows nothing of. */
static json_t *publish_unknown(const lsp_server *s, const lsp_doc *doc, const char *text, size_t len)
{
  const lsp_analysis *a = &s->an;
  const char *dot = strrchr(doc->path, '.');
  bool source = dot && (!strcmp(dot, ".c") || !strcmp(dot, ".i"));
  char *db = a->db ? xasprintf("%s/compile_commands.json", a->db) : xstrdup("compile_commands.json");
  char *m = source
    ? xasprintf("purist: this file is not in the compile database (%s): it is not analysed; "
                "add it to the build, or start the server with -p naming the build that compiles it", db)
    : xasprintf("purist: no file the compile database (%s) compiles declares a function here: "
                "nothing to check in this file", db);
  json_t *d = publish_own(text, len, 1, 1, 3, m, s->utf8);
  free(m);
  free(db);
  return d;
}

json_t *lsp_diagnostics_of(lsp_server *s, const lsp_doc *doc)
{
  json_t *arr = json_array();
  const lsp_analysis *a = &s->an;
  if (!doc->path || !a->done) return arr;
  size_t len = 0;
  char *text = file_read_all(doc->path, &len);
  if (a->error) {
    char *m = xasprintf("purist: %s", a->error);
    json_array_append_new(arr, publish_own(text, len, 1, 1, 2, m, s->utf8));
    free(m);
  } else if (strtab_find(a->tus, doc->path) == UINT32_MAX && strtab_find(a->seen, doc->path) == UINT32_MAX) {
    json_array_append_new(arr, publish_unknown(s, doc, text, len));
  } else {
    json_t *na = publish_not_analysed(s, doc, text, len);
    if (na) json_array_append_new(arr, na);
    for (size_t i = 0; i < a->findings.n; i++)
      if (!strcmp(a->real[i], doc->path))
        json_array_append_new(arr, publish_finding(s, &a->findings.v[i], doc->path, text, len));
  }
  free(text);
  return arr;
}

void lsp_publish_all(lsp_server *s, bool force)
{
  for (size_t i = 0; i < s->docs.n; i++) {
    lsp_doc *d = &s->docs.v[i];
    json_t *arr = lsp_diagnostics_of(s, d);
    if (!force && d->published && json_equal(arr, d->published)) {
      json_decref(arr);
      continue;
    }
    json_decref(d->published);
    d->published = arr;
    json_incref(arr);
    lsp_notify(s, "textDocument/publishDiagnostics", json_pack("{s:s,s:o}", "uri", d->uri, "diagnostics", arr));
  }
}
