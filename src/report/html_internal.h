/* html_internal.h — what the parts of the HTML report share.
 *
 *   html_model.c   the project as the page sees it: which functions are
 *                  shown, callers and callees, findings by function, the
 *                  summarising of reports over the size limit
 *   html_json.c    the model as the page's JSON document
 *   html_source.c  source lines around a finding
 *   html_graph.c   impurity graphs laid out by Graphviz dot
 *   html_page.c    the template filled in and written out
 *
 * Indices: `link` indices are into link_prog.funcs; `data` indices are
 * positions in the page's "functions" array. */
#ifndef PURIST_HTML_INTERNAL_H
#define PURIST_HTML_INTERNAL_H
#include <jansson.h>
#include "report/html.h"

/* How much of the project the page carries. */
typedef enum {
  HTML_FULL = 0,       /* everything */
  HTML_NO_EXTRAS = 1,  /* no source snippets, no graphs */
  HTML_TOP = 2         /* and only the functions that matter most */
} html_level;

/* A compressed adjacency list: the neighbours of v are to[off[v]..off[v+1]). */
typedef struct {
  uint32_t *off, *to;
} html_adj;

typedef struct {
  const link_prog *p;
  const html_opts *o;
  uint32_t *listed;          /* defined functions, in infer's order */
  size_t nlisted;
  html_adj callers, callees; /* distinct, by link index */
  const diag **finds;        /* every finding: the findings, then verify's */
  size_t nfinds;
  int32_t *find_fn;          /* link index of each finding's function, -1 if unknown */
  uint32_t *nfind_of;        /* findings per link index */
  uint8_t *worst_of;         /* 1 + worst severity of a finding per link index, 0 if none */
  /* The selection (html_model_select): */
  html_level level;
  int32_t *dix;              /* link index -> data index, -1 if not shown */
  VEC(uint32_t) shown;       /* data index -> link index */
  size_t nshown_listed;      /* of the listed functions */
} html_model;

/* Builds everything but the selection. */
void html_model_init(html_model *m, const link_prog *p, const html_opts *o);
void html_model_free(html_model *m);
/* Chooses the level (at least min_level) and the shown functions for a
 * page of about `budget` bytes; keep_ratio (0..1] shrinks the HTML_TOP
 * selection when a first try came out too big. */
void html_model_select(html_model *m, size_t budget, html_level min_level, double keep_ratio);

/* The page's data document for the current selection (caller decrefs). */
json_t *html_json_build(const html_model *m);

/* {"first": line, "lines": [...]} around `line` of the file at abs_path,
 * or NULL if it cannot be read. The cache keeps files read so far. */
typedef struct html_src_cache html_src_cache;
html_src_cache *html_src_cache_new(void);
void html_src_cache_free(html_src_cache *c);
json_t *html_src_lines(html_src_cache *c, const char *abs_path, unsigned line, unsigned around);

/* Lays out the impurity graph of each shown function in want[] (link
 * indices) with the dot program; returns {"<data index>": graph, …}, or
 * NULL when dot could not be run (*why says why; caller frees). */
json_t *html_graph_layout(const html_model *m, const uint32_t *want, size_t n, const char *dot, char **why);

#endif
