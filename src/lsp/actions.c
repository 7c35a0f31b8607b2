/* actions.c — textDocument/codeAction: the quick fixes. For each function
 * a finding in the requested range concerns, the edits `purist fix
 * --fix-misuse --include-may-not-return` plans for it (the attribute added
 * to every declaration, through the project's own macro; a wrong one
 * removed or const downgraded to pure), as one WorkspaceEdit over every
 * file it touches. The edits are computed against the files on disk, as
 * analysed: a document with unsaved changes gets no action until it is
 * saved (its positions would be wrong). */
#include "lsp/lsp_internal.h"
#include "util/fileio.h"
#include <string.h>

/* Is "quickfix" among context.only (or is there no such filter)? */
static bool actions_wanted(const json_t *context)
{
  const json_t *only = json_object_get(context, "only"), *k;
  size_t i;
  if (!json_is_array(only)) return true;
  json_array_foreach(only, i, k) {
    const char *v = json_string_value(k);
    if (v && (!*v || !strcmp(v, "quickfix"))) return true;
  }
  return false;
}

/* Does the editor's text of d differ from the file on disk? */
static bool actions_unsaved(const lsp_doc *d)
{
  size_t len;
  char *disk = file_read_all(d->path, &len);
  bool differ = !disk || len != d->len || memcmp(disk, d->text, len) != 0;
  free(disk);
  return differ;
}

/* The TextEdits of spans, as WorkspaceEdit.changes: {uri: [edit…]}. */
static json_t *actions_changes(const lsp_server *s, const fix_spans *sp)
{
  json_t *changes = json_object();
  for (size_t i = 0; i < sp->n; i++) {
    const fix_span *x = &sp->v[i];
    size_t len = 0;
    char *text = file_read_all(x->file, &len), *uri = lsp_path_to_uri(x->file);
    json_t *list = json_object_get(changes, uri);
    if (!list) {
      list = json_array();
      json_object_set_new(changes, uri, list);
    }
    json_array_append_new(list, json_pack("{s:o,s:o}", "range",
                                          lsp_range(text, len, x->line, x->col, x->end_line, x->end_col, s->utf8),
                                          "newText", diag_json_str(x->text)));
    free(uri);
    free(text);
  }
  return changes;
}

/* The client's diagnostics (context.diagnostics) that are finding f. */
static json_t *actions_diagnostics(const json_t *context, const diag *f)
{
  json_t *out = json_array();
  const json_t *d;
  size_t i;
  json_array_foreach(json_object_get(context, "diagnostics"), i, d) {
    const char *code = json_string_value(json_object_get(d, "code"));
    json_int_t line = json_integer_value(json_object_get(json_object_get(json_object_get(d, "range"), "start"), "line"));
    if (code && !strcmp(code, f->check) && line + 1 == (json_int_t)f->line) json_array_append(out, (json_t *)d);
  }
  return out;
}

/* The quick fix for function f's finding, or NULL if fix plans nothing. */
static json_t *actions_for(lsp_server *s, const fix_plan *pl, const diag *f, const json_t *context)
{
  fix_spans sp = {0};
  fix_notes notes = {0};
  json_t *a = NULL;
  if (fix_plan_spans(pl, f->function, &sp, &notes)) {
    const fix_edit_info *e = fix_plan_edit(pl, sp.v[0].edit);
    char *title = sp.n > 1 ? xasprintf("purist: %s on '%s' (%zu declarations)", e->what, f->function, sp.n)
                           : xasprintf("purist: %s on '%s'", e->what, f->function);
    a = json_pack("{s:o,s:s,s:o,s:{s:o},s:b}", "title", diag_json_str(title), "kind", "quickfix",
                  "diagnostics", actions_diagnostics(context, f), "edit", "changes", actions_changes(s, &sp),
                  "isPreferred", 1);
    free(title);
  }
  for (size_t i = 0; i < notes.n; i++) {
    fprintf(stderr, "purist: lsp: %s\n", notes.v[i].text);
    free(notes.v[i].text);
  }
  vec_free(&notes);
  fix_spans_free(&sp);
  return a;
}

json_t *lsp_code_actions(lsp_server *s, const json_t *params, const char **bad)
{
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
  const json_t *range = json_object_get(params, "range"), *context = json_object_get(params, "context");
  json_int_t lo = json_integer_value(json_object_get(json_object_get(range, "start"), "line"));
  json_int_t hi = json_integer_value(json_object_get(json_object_get(range, "end"), "line"));
  if (!uri || !json_is_object(range) || lo < 0 || hi < lo) {
    *bad = "codeAction needs textDocument.uri and a range";
    return NULL;
  }
  json_t *out = json_array();
  lsp_doc *d = lsp_doc_find(s, uri);
  const lsp_analysis *a = &s->an;
  if (!d || !d->path || !a->done || a->error || !actions_wanted(context) || actions_unsaved(d))
    return out;
  VEC(const char *) seen = {0};   /* the functions concerned, once each */
  VEC(size_t) first = {0};        /* the first finding of each, in the range */
  for (size_t i = 0; i < a->findings.n; i++) {
    const diag *f = &a->findings.v[i];
    if (!f->function || strcmp(a->real[i], d->path) || f->line < lo + 1 || f->line > hi + 1) continue;
    bool dup = false;
    for (size_t k = 0; k < seen.n && !dup; k++) dup = !strcmp(seen.v[k], f->function);
    if (dup) continue;
    vec_push(&seen, f->function);
    vec_push(&first, i);
  }
  fix_plan *pl = lsp_analysis_plan(a, &s->opts, seen.v, seen.n);
  const fix_notes *why = pl ? fix_plan_notes(pl) : NULL;   /* what fix would not do, and why: to the log */
  for (size_t k = 0; why && k < why->n; k++) fprintf(stderr, "purist: lsp: %s\n", why->v[k].text);
  for (size_t k = 0; pl && k < first.n; k++) {
    json_t *act = actions_for(s, pl, &a->findings.v[first.v[k]], context);
    if (act) json_array_append_new(out, act);
  }
  fix_plan_free(pl);
  vec_free(&first);
  vec_free(&seen);
  return out;
}
