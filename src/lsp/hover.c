/* hover.c — textDocument/hover on a function's name: what purist knows of
 * it, the answer to "why is it not const?" without leaving the editor:
 * its class and declared attribute, the reason, what an attribute would
 * gain at the calls in other files, and the chain of causes (--why). */
#include "link/c23.h"
#include "lsp/lsp_internal.h"
#include "report/reason.h"
#include "util/fileio.h"
#include <ctype.h>
#include <string.h>

static bool hover_is_id(char c)
{
  return isalnum((unsigned char)c) || c == '_';
}

/* The identifier around offset off of text (caller frees), its bounds in *b, *e; NULL if none. */
static char *hover_ident(const char *text, size_t len, size_t off, size_t *b, size_t *e)
{
  if (off > len) return NULL;
  size_t i = off, j = off;
  while (i > 0 && hover_is_id(text[i - 1])) i--;
  while (j < len && hover_is_id(text[j])) j++;
  if (i == j || isdigit((unsigned char)text[i])) return NULL;
  *b = i;
  *e = j;
  return xstrndup(text + i, j - i);
}

/* The function named name the hover means: the one defined in this file,
 * else one with a body, else any; -1 if none. */
static long hover_func(const link_prog *p, const char *name, const char *path)
{
  long best = -1;
  int rank = 0;
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    if (strcmp(strtab_get(p->strs, f->name), name)) continue;
    int r = 1 + link_has_body(f);
    if (r == 2) {
      char *real = realpath(strtab_get(p->strs, f->loc.file), NULL);
      if (real && !strcmp(real, path)) r = 3;
      free(real);
    }
    if (r > rank) { rank = r; best = fi; }
  }
  return best;
}

static const char *hover_declared(uint8_t d)
{
  if (d & SUM_DECL_CONST) return "__attribute__((const))";
  if (d & SUM_DECL_PURE) return "__attribute__((pure))";
  if (d & SUM_DECL_C23) return declared_c23_name(d);
  return "no attribute";
}

/* The markdown of function fi. */
static void hover_text(strbuf *b, const lsp_analysis *a, uint32_t fi)
{
  const link_prog *p = a->prog;
  const link_func *f = &p->funcs.v[fi];
  sb_printf(b, "**%s**: %s", strtab_get(p->strs, f->name), purity_name((purity)f->cls));
  if (f->st.mnr) sb_puts(b, ", may not return");
  sb_printf(b, " (declared: %s)\n\n", hover_declared(f->declared));
  strbuf r = {0};
  reason_class(&r, p, f, a->root);
  if (*sb_str(&r)) sb_printf(b, "Reason: %s\n\n", sb_str(&r));
  if (f->st.mnr) {
    sb_clear(&r);
    reason_mnr(&r, p, f, a->root);
    sb_printf(b, "May not return: %s\n\n", sb_str(&r));
  }
  if (checks_suggestable(p, f) && a->gains) {
    const checks_gain *g = &a->gains[fi];
    sb_printf(b, "Gain of the attribute: the compiler could delete %u, merge %u and hoist %u calls in other files",
              g->dead, g->merged, g->hoisted);
    if (g->header) sb_puts(b, "; public API: callers outside the analysed code gain too");
    sb_puts(b, "\n\n");
  }
  sb_clear(&r);
  reason_chain(&r, p, f, a->root);
  while (r.n && r.s[r.n - 1] == '\n') r.s[--r.n] = '\0';
  if (*sb_str(&r)) sb_printf(b, "Why (`purist infer --why %s`):\n```text\n%s\n```\n", strtab_get(p->strs, f->name),
                             sb_str(&r));
  sb_free(&r);
}

json_t *lsp_hover(lsp_server *s, const json_t *params, const char **bad)
{
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
  const json_t *pos = json_object_get(params, "position");
  json_int_t line = json_integer_value(json_object_get(pos, "line"));
  json_int_t ch = json_integer_value(json_object_get(pos, "character"));
  if (!uri || !json_is_object(pos) || line < 0 || ch < 0 || line > UINT32_MAX || ch > UINT32_MAX) {
    *bad = "hover needs textDocument.uri and a position";
    return NULL;
  }
  lsp_doc *d = lsp_doc_find(s, uri);
  const lsp_analysis *a = &s->an;
  if (!d || !d->path || !a->done || a->error || !a->prog) return json_null();
  size_t off = lsp_offset_of(d->text, d->len, (unsigned)line, (unsigned)ch, s->utf8), b, e;
  char *name = off == (size_t)-1 ? NULL : hover_ident(d->text, d->len, off, &b, &e);
  long fi = name ? hover_func(a->prog, name, d->path) : -1;
  free(name);
  if (fi < 0) return json_null();
  if (!a->gains) s->an.gains = checks_gains_new(a->prog, checks_whole_program(a->prog, s->opts.whole_program));
  strbuf t = {0};
  hover_text(&t, a, (uint32_t)fi);
  json_t *range = json_pack("{s:{s:I,s:I},s:{s:I,s:I}}", "start", "line", line, "character",
                            (json_int_t)(s->utf8 ? b - (off - (size_t)ch) : (size_t)ch - (off - b)),
                            "end", "line", line, "character",
                            (json_int_t)(s->utf8 ? e - (off - (size_t)ch) : (size_t)ch + (e - off)));
  json_t *r = json_pack("{s:{s:s,s:o},s:o}", "contents", "kind", "markdown", "value", diag_json_str(sb_str(&t)),
                        "range", range);
  sb_free(&t);
  return r;
}
