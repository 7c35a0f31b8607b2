/* html_json.c — the page's data document (html_internal.h).
 *
 * Every string from the project (names, paths, messages, source lines)
 * goes in through diag_json_str, so bytes that are not UTF-8 cannot make
 * the document invalid. Keys are spelled out: the document is also what a
 * reader of the page's source sees. */
#include "report/html_internal.h"
#include "report/diag_out.h"
#include "report/reason.h"
#include "report/c23_reason.h"
#include <string.h>

/* Graphs are laid out for at most this many functions, those with findings
 * first: one dot run takes about a millisecond a graph; the rest get the
 * page's indented tree. */
enum { HTML_GRAPH_MAX = 2000, HTML_LIST_MAX = 500, HTML_SNIPPET_AROUND = 2 };

static const char *html_declared(const link_func *f)
{
  if ((f->declared & SUM_DECL_CONST) || (f->flags & SFF_BUILTIN_CONST)) return "const";
  if ((f->declared & SUM_DECL_PURE) || (f->flags & SFF_BUILTIN_PURE)) return "pure";
  return "none";
}

/* Which command a finding comes from, by its check's name. */
static const char *html_origin(const html_model *m, size_t i)
{
  const char *c = m->finds[i]->check;
  if (m->o->findings && i >= m->o->findings->n) return "verify";
  if (!strncmp(c, "misuse", 6) || !strncmp(c, "cheat", 5) || !strncmp(c, "allowed", 7)) return "check";
  if (!strncmp(c, "suggest", 7)) return "suggest";   /* suggest-unsequenced too */
  return "explain";
}

/* Sets key to the string s, built with diag_json_str. */
static void html_set_str(json_t *o, const char *key, const char *s)
{
  json_object_set_new(o, key, diag_json_str(s));
}

/* The data indices of the shown neighbours of f, at most HTML_LIST_MAX. */
static json_t *html_neighbours(const html_model *m, const html_adj *a, uint32_t f)
{
  json_t *arr = json_array();
  for (uint32_t k = a->off[f]; k < a->off[f + 1] && json_array_size(arr) < HTML_LIST_MAX; k++)
    if (m->dix[a->to[k]] >= 0) json_array_append_new(arr, json_integer(m->dix[a->to[k]]));
  return arr;
}

/* The C23 class (issue 15): "c23", "declared_c23" and "c23_reason". */
static void html_func_c23(const html_model *m, uint32_t f, json_t *o, strbuf *tmp)
{
  const link_prog *p = m->p;
  json_object_set_new(o, "declared_c23", json_string(declared_c23_name(p->funcs.v[f].declared)));
  if (!p->c23) return;
  json_object_set_new(o, "c23", json_string(c23_class_name((c23_class)p->c23[f].cls)));
  sb_clear(tmp);
  c23_reason(tmp, p, f, m->o->root);
  html_set_str(o, "c23_reason", sb_str(tmp));
}

/* What the page says about one function; file is its index in "files". */
static json_t *html_func(const html_model *m, uint32_t f, uint32_t file, bool defined, strbuf *tmp)
{
  const link_prog *p = m->p;
  const link_func *fn = &p->funcs.v[f];
  json_t *o = json_object();
  html_set_str(o, "name", strtab_get(p->strs, fn->name));
  json_object_set_new(o, "file", json_integer(file));
  json_object_set_new(o, "line", json_integer(fn->loc.line));
  json_object_set_new(o, "column", json_integer(fn->loc.col));
  json_object_set_new(o, "class", json_string(purity_name((purity)fn->cls)));
  json_object_set_new(o, "declared", json_string(html_declared(fn)));
  json_object_set_new(o, "linkage", json_string(fn->linkage == SUM_INTERNAL ? "internal" : "external"));
  json_object_set_new(o, "may_not_return", json_boolean(fn->st.mnr));
  json_object_set_new(o, "defined", json_boolean(defined));
  sb_clear(tmp);
  reason_class(tmp, p, fn, m->o->root);
  html_set_str(o, "reason", sb_str(tmp));
  if (fn->st.mnr) {
    sb_clear(tmp);
    reason_mnr(tmp, p, fn, m->o->root);
    html_set_str(o, "may_not_return_reason", sb_str(tmp));
  }
  sb_clear(tmp);
  const link_func *next = reason_step(tmp, p, fn, m->o->root);
  /* A chain that ends in a call of a function without a body still links
   * to that function: its page entry says what is known of it. */
  if (!next && fn->why.kind == WHY_CALL) next = &p->funcs.v[p->calls.v[fn->why.index].callee];
  html_set_str(o, "step", sb_str(tmp));
  json_object_set_new(o, "next", json_integer(next ? m->dix[next - p->funcs.v] : -1));
  json_object_set_new(o, "callers", html_neighbours(m, &m->callers, f));
  json_object_set_new(o, "ncallers", json_integer(m->callers.off[f + 1] - m->callers.off[f]));
  json_object_set_new(o, "callees", html_neighbours(m, &m->callees, f));
  json_object_set_new(o, "ncallees", json_integer(m->callees.off[f + 1] - m->callees.off[f]));
  json_object_set_new(o, "suggested", json_string(""));
  json_object_set_new(o, "findings", json_array());
  html_func_c23(m, f, o, tmp);
  return o;
}

/* "files" and "functions". */
static void html_json_funcs(const html_model *m, json_t *doc, strtab *files)
{
  const link_prog *p = m->p;
  json_t *arr = json_array();
  strbuf tmp = {0};
  for (size_t d = 0; d < m->shown.n; d++) {
    uint32_t f = m->shown.v[d];
    const link_func *fn = &p->funcs.v[f];
    sb_clear(&tmp);
    reason_path(&tmp, p, fn->loc.file, m->o->root);
    uint32_t file = strtab_intern(files, sb_str(&tmp));
    bool defined = (fn->flags & SFF_BODY) && !(fn->flags & SFF_SYSTEM);
    json_array_append_new(arr, html_func(m, f, file, defined, &tmp));
  }
  sb_free(&tmp);
  json_object_set_new(doc, "functions", arr);
}

static json_t *html_related(const diag *d)
{
  json_t *arr = json_array();
  for (size_t i = 0; i < d->related.n; i++) {
    const diag_related *r = &d->related.v[i];
    json_t *o = json_object();
    html_set_str(o, "file", r->file);
    json_object_set_new(o, "line", json_integer(r->line));
    json_object_set_new(o, "column", json_integer(r->column));
    html_set_str(o, "message", r->message);
    json_array_append_new(arr, o);
  }
  return arr;
}

static json_t *html_finding(const html_model *m, size_t i, html_src_cache *src)
{
  const diag *d = m->finds[i];
  json_t *o = json_object();
  html_set_str(o, "check", d->check);
  json_object_set_new(o, "severity", json_string(diag_severity_name(d->severity)));
  json_object_set_new(o, "origin", json_string(html_origin(m, i)));
  html_set_str(o, "file", d->file);
  json_object_set_new(o, "line", json_integer(d->line));
  json_object_set_new(o, "column", json_integer(d->column));
  html_set_str(o, "function", d->function);
  json_object_set_new(o, "fn", json_integer(m->find_fn[i] >= 0 ? m->dix[m->find_fn[i]] : -1));
  html_set_str(o, "message", d->message);
  if (d->gain >= 0) {   /* suggestions: what they buy, for ranking (issue 19) */
    json_object_set_new(o, "gain", json_integer(d->gain));
    json_object_set_new(o, "public_api", json_boolean(d->public_api));
  }
  json_object_set_new(o, "related", html_related(d));
  json_t *lines = src ? html_src_lines(src, d->abs_file, d->line, HTML_SNIPPET_AROUND) : NULL;
  if (lines) json_object_set_new(o, "source", lines);
  return o;
}

/* "findings"; each shown function lists its findings and what is suggested
 * for it. At level HTML_TOP, findings of functions left out are left out. */
static void html_json_findings(const html_model *m, json_t *doc)
{
  json_t *arr = json_array(), *funcs = json_object_get(doc, "functions");
  html_src_cache *src = m->level == HTML_FULL ? html_src_cache_new() : NULL;
  for (size_t i = 0; i < m->nfinds; i++) {
    int32_t di = m->find_fn[i] >= 0 ? m->dix[m->find_fn[i]] : -1;
    if (m->level == HTML_TOP && m->find_fn[i] >= 0 && di < 0) continue;
    if (di >= 0) {
      json_t *fo = json_array_get(funcs, (size_t)di);
      json_array_append_new(json_object_get(fo, "findings"), json_integer((json_int_t)json_array_size(arr)));
      const char *c = m->finds[i]->check;
      if (!strcmp(c, "suggest-const") || !strcmp(c, "suggest-pure"))
        json_object_set_new(fo, "suggested", json_string(c + 8));
    }
    json_array_append_new(arr, html_finding(m, i, src));
  }
  html_src_cache_free(src);
  json_object_set_new(doc, "findings", arr);
}

/* Counts one function into a {"const","pure","normal"} object. */
static void html_count_class(json_t *o, purity c)
{
  const char *k = purity_name(c);
  json_object_set_new(o, k, json_integer(json_integer_value(json_object_get(o, k)) + 1));
}

static json_t *html_class_counts(void)
{
  return json_pack("{s:i,s:i,s:i}", "const", 0, "pure", 0, "normal", 0);
}

/* "totals" and "directories": over every defined function, shown or not. */
static void html_json_totals(const html_model *m, json_t *doc)
{
  const link_prog *p = m->p;
  json_t *tot = html_class_counts(), *dirs = json_object();
  json_int_t mnr = 0, mnr_cp = 0, dconst = 0, dpure = 0, dwrong = 0, unseq = 0, repro = 0, dc23 = 0, dc23wrong = 0;
  strbuf tmp = {0};
  for (size_t i = 0; i < m->nlisted; i++) {
    const link_func *fn = &p->funcs.v[m->listed[i]];
    html_count_class(tot, (purity)fn->cls);
    mnr += fn->st.mnr;
    mnr_cp += fn->st.mnr && fn->cls != PURITY_NORMAL;   /* where it matters: const or pure but for that */
    const char *d = html_declared(fn);
    dconst += !strcmp(d, "const");
    dpure += !strcmp(d, "pure");
    dwrong += (!strcmp(d, "const") && fn->cls > PURITY_CONST) || (!strcmp(d, "pure") && fn->cls > PURITY_PURE);
    if (p->c23) {
      c23_class c = (c23_class)p->c23[m->listed[i]].cls, dc = c23_declared(fn->declared);
      unseq += c == C23_UNSEQUENCED;
      repro += c == C23_REPRODUCIBLE;
      dc23 += dc != C23_NONE;
      dc23wrong += dc != C23_NONE && c > dc;
    }
    sb_clear(&tmp);
    reason_path(&tmp, p, fn->loc.file, m->o->root);
    char *slash = strrchr(tmp.s, '/');
    const char *dir = slash ? (*slash = '\0', tmp.s) : ".";
    json_t *dc = json_object_get(dirs, dir);
    if (!dc) json_object_set_new(dirs, dir, dc = html_class_counts());
    html_count_class(dc, (purity)fn->cls);
  }
  sb_free(&tmp);
  json_object_set_new(tot, "functions", json_integer((json_int_t)m->nlisted));
  json_object_set_new(tot, "may_not_return", json_integer(mnr));
  json_object_set_new(tot, "may_not_return_const_pure", json_integer(mnr_cp));
  json_object_set_new(tot, "declared_const", json_integer(dconst));
  json_object_set_new(tot, "declared_pure", json_integer(dpure));
  json_object_set_new(tot, "declared_wrong", json_integer(dwrong));
  json_object_set_new(tot, "c23_unsequenced", json_integer(unseq));
  json_object_set_new(tot, "c23_reproducible", json_integer(repro));
  json_object_set_new(tot, "declared_c23", json_integer(dc23));
  json_object_set_new(tot, "declared_c23_wrong", json_integer(dc23wrong));
  json_object_set_new(doc, "totals", tot);
  json_object_set_new(doc, "directories", dirs);
}

/* "checks": {check: {"origin", "error", "warning", "note"}} over every finding. */
static void html_json_checks(const html_model *m, json_t *doc)
{
  json_t *checks = json_object();
  for (size_t i = 0; i < m->nfinds; i++) {
    const diag *d = m->finds[i];
    json_t *c = json_object_get(checks, d->check);
    if (!c) {
      c = json_pack("{s:s,s:i,s:i,s:i}", "origin", html_origin(m, i), "error", 0, "warning", 0, "note", 0);
      json_object_set_new(checks, d->check, c);
    }
    const char *sev = diag_severity_name(d->severity);
    json_object_set_new(c, sev, json_integer(json_integer_value(json_object_get(c, sev)) + 1));
  }
  json_object_set_new(doc, "checks", checks);
}

/* "graphs" (and how they were made, in "summary"). */
static void html_json_graphs(const html_model *m, json_t *doc, json_t *summary)
{
  if (m->level != HTML_FULL || !m->o->dot || !*m->o->dot) {
    json_object_set_new(summary, "graphs", json_string(m->level != HTML_FULL ? "summarised" : "no dot"));
    return;
  }
  VEC(uint32_t) want = {0};
  for (int pass = 0; pass < 2; pass++)   /* functions with findings first */
    for (size_t d = 0; d < m->nshown_listed && want.n < HTML_GRAPH_MAX; d++) {
      uint32_t f = m->shown.v[d];
      if ((m->nfind_of[f] > 0) == (pass == 0) && m->callees.off[f + 1] > m->callees.off[f]) vec_push(&want, f);
    }
  char *why = NULL;
  json_t *g = want.n ? html_graph_layout(m, want.v, want.n, m->o->dot, &why) : json_object();
  json_object_set_new(summary, "graphs", json_string(g ? "dot" : "no dot"));
  if (why) html_set_str(summary, "graphs_note", why);
  json_object_set_new(doc, "graphs", g ? g : json_object());
  free(why);
  vec_free(&want);
}

/* "not_analysed": [{"file","reason","message"}…], as the JSON output's
 * (run_info.h): the page says which files its counts leave out. */
static void html_json_not_analysed(const html_model *m, json_t *doc)
{
  json_t *arr = json_array();
  for (size_t i = 0; m->o->run && i < m->o->run->not_analysed.n; i++) {
    const run_na *na = &m->o->run->not_analysed.v[i];
    json_array_append_new(arr, json_pack("{s:o,s:s,s:o}", "file", diag_json_str(na->file),
                                         "reason", run_na_reason_name(na->reason),
                                         "message", diag_json_str(na->message)));
  }
  json_object_set_new(doc, "not_analysed", arr);
}

json_t *html_json_build(const html_model *m)
{
  json_t *doc = json_object(), *summary = json_object();
  json_object_set_new(doc, "version", json_integer(1));
  html_set_str(doc, "tool", m->o->tool_version);
  html_set_str(doc, "root", m->o->root ? m->o->root : "");
  strtab *files = strtab_new();
  html_json_funcs(m, doc, files);
  json_t *farr = json_array();
  for (uint32_t i = 0; i < strtab_count(files); i++) json_array_append_new(farr, diag_json_str(strtab_get(files, i)));
  json_object_set_new(doc, "files", farr);
  strtab_free(files);
  html_json_findings(m, doc);
  html_json_totals(m, doc);
  html_json_checks(m, doc);
  html_json_not_analysed(m, doc);
  size_t shown = 0;
  for (size_t d = 0; d < m->shown.n; d++) {
    const link_func *fn = &m->p->funcs.v[m->shown.v[d]];
    shown += (fn->flags & SFF_BODY) && !(fn->flags & SFF_SYSTEM);
  }
  json_object_set_new(summary, "level", json_integer(m->level));
  json_object_set_new(summary, "functions_shown", json_integer((json_int_t)shown));
  json_object_set_new(summary, "findings", json_integer((json_int_t)m->nfinds));
  json_object_set_new(summary, "findings_shown", json_integer((json_int_t)json_array_size(json_object_get(doc, "findings"))));
  json_object_set_new(summary, "max_bytes", json_integer((json_int_t)m->o->max_bytes));
  json_object_set_new(summary, "list_max", json_integer(HTML_LIST_MAX));
  html_json_graphs(m, doc, summary);
  json_object_set_new(doc, "summary", summary);
  json_object_set_new(doc, "verify", m->o->verify_file
    ? json_pack("{s:o,s:I}", "file", diag_json_str(m->o->verify_file), "count", (json_int_t)(m->o->verify ? m->o->verify->n : 0))
    : json_null());
  return doc;
}
