/* html_model.c — the project as the HTML page sees it (html_internal.h). */
#include "report/html_internal.h"
#include "report/infer_out.h"
#include "report/reason.h"
#include "util/ptrmap.h"
#include <string.h>

/* Builds adjacency lists from the (from, to) pairs in edges (link
 * indices, n pairs), dropping repeated pairs; reverse swaps the ends. */
static html_adj html_adj_build(size_t nv, const uint32_t *edges, size_t n, bool reverse)
{
  html_adj a = { xcalloc(nv + 1, sizeof *a.off), xmalloc((n ? n : 1) * sizeof *a.to) };
  for (size_t i = 0; i < n; i++) a.off[edges[2 * i + reverse] + 1]++;
  for (size_t v = 0; v < nv; v++) a.off[v + 1] += a.off[v];
  uint32_t *fill = xmalloc((nv ? nv : 1) * sizeof *fill);
  memcpy(fill, a.off, nv * sizeof *fill);
  for (size_t i = 0; i < n; i++) {
    uint32_t from = edges[2 * i + reverse], to = edges[2 * i + !reverse];
    bool dup = false;
    for (uint32_t k = a.off[from]; k < fill[from] && !dup; k++) dup = a.to[k] == to;
    if (!dup) a.to[fill[from]++] = to;
  }
  /* Compact away the slots of dropped duplicates. */
  uint32_t w = 0;
  for (size_t v = 0; v < nv; v++) {
    uint32_t lo = a.off[v], hi = fill[v];
    a.off[v] = w;
    for (uint32_t k = lo; k < hi; k++) a.to[w++] = a.to[k];
  }
  a.off[nv] = w;
  free(fill);
  return a;
}

/* Callers and callees of every function with a body. */
static void html_model_graph(html_model *m)
{
  const link_prog *p = m->p;
  VEC(uint32_t) edges = {0};
  for (size_t f = 0; f < p->funcs.n; f++) {
    const link_func *fn = &p->funcs.v[f];
    for (uint32_t i = 0; i < fn->ncall; i++) {
      vec_push(&edges, (uint32_t)f);
      vec_push(&edges, p->calls.v[fn->call_off + i].callee);
    }
  }
  m->callees = html_adj_build(p->funcs.n, edges.v, edges.n / 2, false);
  m->callers = html_adj_build(p->funcs.n, edges.v, edges.n / 2, true);
  vec_free(&edges);
}

/* The function a finding is about: the one named so whose declaration is
 * where the finding says (check, suggest, explain record it), else the one
 * of that name defined in the finding's file, else any of that name. */
static int32_t html_model_find_fn(const html_model *m, const ptrmap *byname, const int32_t *next,
                                  const diag *d)
{
  const link_prog *p = m->p;
  uint32_t id = strtab_find(p->strs, d->function);
  uint32_t *head = id == UINT32_MAX ? NULL : ptrmap_get(byname, (uint64_t)id + 1);
  if (!head) return -1;
  int32_t in_file = -1, any = -1;
  for (int32_t f = (int32_t)*head; f >= 0; f = next[f]) {
    const link_func *fn = &p->funcs.v[f];
    const char *file = strtab_get(p->strs, fn->loc.file);
    if (d->decl_abs_file && !strcmp(file, d->decl_abs_file) && fn->loc.line == d->decl_line) return f;
    if (in_file < 0 && !strcmp(file, d->abs_file)) in_file = f;
    if (any < 0 || (!link_has_body(&p->funcs.v[any]) && link_has_body(fn))) any = f;
  }
  return in_file >= 0 ? in_file : any;
}

/* Every finding, and the function each is about. */
static void html_model_findings(html_model *m)
{
  const link_prog *p = m->p;
  const diag_list *lists[2] = { m->o->findings, m->o->verify };
  size_t total = (lists[0] ? lists[0]->n : 0) + (lists[1] ? lists[1]->n : 0);
  m->finds = xmalloc((total ? total : 1) * sizeof *m->finds);
  for (int l = 0; l < 2; l++)
    for (size_t i = 0; lists[l] && i < lists[l]->n; i++) m->finds[m->nfinds++] = &lists[l]->v[i];
  /* Functions by name: byname[name id + 1] = first, next[] = the others. */
  ptrmap byname = {0};
  int32_t *next = xmalloc((p->funcs.n ? p->funcs.n : 1) * sizeof *next);
  for (size_t f = p->funcs.n; f-- > 0;) {
    uint64_t key = (uint64_t)p->funcs.v[f].name + 1;
    uint32_t *h = ptrmap_get(&byname, key);
    next[f] = h ? (int32_t)*h : -1;
    ptrmap_put(&byname, key, (uint32_t)f);
  }
  m->find_fn = xmalloc((m->nfinds ? m->nfinds : 1) * sizeof *m->find_fn);
  m->nfind_of = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *m->nfind_of);
  m->worst_of = xcalloc(p->funcs.n ? p->funcs.n : 1, 1);
  for (size_t i = 0; i < m->nfinds; i++) {
    int32_t f = m->find_fn[i] = html_model_find_fn(m, &byname, next, m->finds[i]);
    if (f < 0) continue;
    m->nfind_of[f]++;
    uint8_t w = (uint8_t)(1 + m->finds[i]->severity);
    if (w > m->worst_of[f]) m->worst_of[f] = w;
  }
  ptrmap_free(&byname);
  free(next);
}

void html_model_init(html_model *m, const link_prog *p, const html_opts *o)
{
  memset(m, 0, sizeof *m);
  m->p = p;
  m->o = o;
  m->listed = infer_listed(p, o->root, &m->nlisted);
  html_model_graph(m);
  html_model_findings(m);
  m->dix = xmalloc((p->funcs.n ? p->funcs.n : 1) * sizeof *m->dix);
}

void html_model_free(html_model *m)
{
  free(m->listed);
  free(m->callers.off);
  free(m->callers.to);
  free(m->callees.off);
  free(m->callees.to);
  free(m->finds);
  free(m->find_fn);
  free(m->nfind_of);
  free(m->worst_of);
  free(m->dix);
  vec_free(&m->shown);
}

/* ---- selection: what a page of a given size can carry ---- */

/* Bytes a function's entry takes in the page, about (its reason and chain
 * step are the bulk; each neighbour index a few bytes). */
static size_t html_est_func(const html_model *m, uint32_t f, strbuf *tmp)
{
  const link_func *fn = &m->p->funcs.v[f];
  sb_clear(tmp);
  reason_class(tmp, m->p, fn, m->o->root);
  reason_step(tmp, m->p, fn, m->o->root);
  if (fn->st.mnr) reason_mnr(tmp, m->p, fn, m->o->root);
  size_t nb = (m->callers.off[f + 1] - m->callers.off[f]) + (m->callees.off[f + 1] - m->callees.off[f]);
  return 220 + strtab_len(m->p->strs, fn->name) + tmp->n + 8 * nb;
}

/* Bytes a finding takes, without its source lines. */
static size_t html_est_find(const diag *d)
{
  size_t n = 200 + strlen(d->check) + strlen(d->file) + strlen(d->function) + strlen(d->message);
  for (size_t i = 0; i < d->related.n; i++) n += 80 + strlen(d->related.v[i].file) + strlen(d->related.v[i].message);
  return n;
}

enum { HTML_EST_SNIPPET = 600, HTML_EST_GRAPH = 2000, HTML_EST_BASE = 64 * 1024 };

/* Functions that matter most first: with errors, with any finding, then
 * by number of callers; infer's order breaks ties. */
static int html_prio_cmp(const void *a, const void *b, void *ctx)
{
  const html_model *m = ctx;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  if (m->worst_of[x] != m->worst_of[y]) return m->worst_of[x] > m->worst_of[y] ? -1 : 1;
  uint32_t cx = m->callers.off[x + 1] - m->callers.off[x], cy = m->callers.off[y + 1] - m->callers.off[y];
  if (cx != cy) return cx > cy ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Shows f (if not yet shown). */
static void html_show(html_model *m, uint32_t f)
{
  if (m->dix[f] >= 0) return;
  m->dix[f] = (int32_t)m->shown.n;
  vec_push(&m->shown, f);
}

/* Adds what the shown functions refer to: the functions along each chain
 * of first causes, and callees that are not in the table (library and
 * system-header functions); callees in the table that were left out stay
 * out. */
static void html_show_referenced(html_model *m, const bool *listed)
{
  const link_prog *p = m->p;
  for (size_t i = 0; i < m->shown.n; i++) {   /* m->shown grows as we go */
    uint32_t f = m->shown.v[i];
    const link_func *fn = &p->funcs.v[f];
    if (fn->why.kind == WHY_CALL) html_show(m, p->calls.v[fn->why.index].callee);
    for (uint32_t k = m->callees.off[f]; k < m->callees.off[f + 1]; k++)
      if (!listed[m->callees.to[k]]) html_show(m, m->callees.to[k]);
  }
}

/* The level a page of `budget` bytes can have, from estimates; fills
 * est[] (per listed position) with the functions' own sizes. */
static html_level html_choose_level(const html_model *m, size_t budget, size_t *est, size_t *find_est)
{
  strbuf tmp = {0};
  size_t funcs = 0, finds = 0, ngraph = 0;
  for (size_t i = 0; i < m->nlisted; i++) {
    est[i] = html_est_func(m, m->listed[i], &tmp);
    funcs += est[i];
    ngraph += m->callees.off[m->listed[i] + 1] > m->callees.off[m->listed[i]];
  }
  sb_free(&tmp);
  for (size_t i = 0; i < m->nfinds; i++) finds += find_est[i] = html_est_find(m->finds[i]);
  size_t extras = m->nfinds * HTML_EST_SNIPPET + (ngraph < 2000 ? ngraph : 2000) * HTML_EST_GRAPH;
  if (HTML_EST_BASE + funcs + finds + extras <= budget) return HTML_FULL;
  if (HTML_EST_BASE + funcs + finds <= budget) return HTML_NO_EXTRAS;
  return HTML_TOP;
}

void html_model_select(html_model *m, size_t budget, html_level min_level, double keep_ratio)
{
  const link_prog *p = m->p;
  size_t *est = xmalloc((m->nlisted ? m->nlisted : 1) * sizeof *est);
  size_t *find_est = xmalloc((m->nfinds ? m->nfinds : 1) * sizeof *find_est);
  bool *listed = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *listed);
  size_t *own = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *own);  /* est by link index */
  for (size_t i = 0; i < m->nlisted; i++) listed[m->listed[i]] = true;
  m->level = html_choose_level(m, budget, est, find_est);
  if (m->level < min_level) m->level = min_level;
  for (size_t i = 0; i < m->nlisted; i++) own[m->listed[i]] = est[i];
  for (size_t i = 0; i < m->nfinds; i++)
    if (m->find_fn[i] >= 0) own[m->find_fn[i]] += find_est[i];
  for (size_t f = 0; f < p->funcs.n; f++) m->dix[f] = -1;
  m->shown.n = 0;
  if (m->level < HTML_TOP) {
    for (size_t i = 0; i < m->nlisted; i++) html_show(m, m->listed[i]);
  } else {
    uint32_t *order = xmalloc((m->nlisted ? m->nlisted : 1) * sizeof *order);
    memcpy(order, m->listed, m->nlisted * sizeof *order);
    qsort_r(order, m->nlisted, sizeof *order, html_prio_cmp, m);
    /* The references added afterwards are small; leave them a tenth. */
    size_t room = (size_t)((double)budget * keep_ratio * 0.9), used = HTML_EST_BASE;
    bool *keep = xcalloc(p->funcs.n ? p->funcs.n : 1, sizeof *keep);
    for (size_t i = 0; i < m->nlisted && used + own[order[i]] <= room; i++) {
      keep[order[i]] = true;
      used += own[order[i]];
    }
    for (size_t i = 0; i < m->nlisted; i++)   /* in infer's order */
      if (keep[m->listed[i]]) html_show(m, m->listed[i]);
    free(keep);
    free(order);
  }
  m->nshown_listed = m->shown.n;
  html_show_referenced(m, listed);
  free(est);
  free(find_est);
  free(listed);
  free(own);
}
