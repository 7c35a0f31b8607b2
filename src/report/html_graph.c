/* html_graph.c — impurity graphs laid out by Graphviz dot.
 *
 * A function's graph: the function, the chain of first causes from it to
 * the first impure effect (or to a library function), and its direct
 * callees. dot only computes the layout: the graphs it is given name their
 * nodes n0, n1, … and carry no text at all (each node's size is fixed from
 * the length of the label the page will draw), and its `-Tplain` output is
 * read as numbers. The page draws the SVG itself with DOM calls, so no
 * string from the project ever passes through dot, and nothing dot writes
 * becomes markup. All graphs go to one dot process, in one input file. */
#include "report/html_internal.h"
#include "report/diag_out.h"
#include "report/reason.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { HTML_GRAPH_CHAIN_MAX = 12, HTML_GRAPH_CALLEES_MAX = 16, HTML_GRAPH_EFFECT_MAX = 60 };

typedef struct {
  int32_t fn;        /* data index, or -1 for the effect that ends the chain */
  char *text;        /* the effect's words */
  bool chain;
} hg_node;

typedef struct {
  uint32_t from, to;
  bool chain;
} hg_edge;

typedef struct {
  VEC(hg_node) nodes;
  VEC(hg_edge) edges;
} hg_graph;

static void hg_graph_free(hg_graph *g)
{
  for (size_t i = 0; i < g->nodes.n; i++) free(g->nodes.v[i].text);
  vec_free(&g->nodes);
  vec_free(&g->edges);
}

/* The node of function f (link index), added if new; -1 if f is not shown. */
static int hg_node_of(const html_model *m, hg_graph *g, uint32_t f, bool chain)
{
  int32_t di = m->dix[f];
  if (di < 0) return -1;
  for (size_t i = 0; i < g->nodes.n; i++)
    if (g->nodes.v[i].fn == di) { g->nodes.v[i].chain |= chain; return (int)i; }
  hg_node n = { di, NULL, chain };
  vec_push(&g->nodes, n);
  return (int)g->nodes.n - 1;
}

static void hg_edge_add(hg_graph *g, int from, int to, bool chain)
{
  if (from < 0 || to < 0) return;
  for (size_t i = 0; i < g->edges.n; i++)
    if (g->edges.v[i].from == (uint32_t)from && g->edges.v[i].to == (uint32_t)to) {
      g->edges.v[i].chain |= chain;
      return;
    }
  hg_edge e = { (uint32_t)from, (uint32_t)to, chain };
  vec_push(&g->edges, e);
}

/* The effect that ends a chain at f, cut to a node's width. */
static char *hg_effect_text(const html_model *m, const link_func *f)
{
  strbuf b = {0};
  reason_head(&b, m->p, f, m->o->root);
  if (b.n > HTML_GRAPH_EFFECT_MAX) {
    size_t cut = HTML_GRAPH_EFFECT_MAX;
    while (cut > 0 && ((unsigned char)b.s[cut] & 0xC0) == 0x80) cut--;   /* not inside a UTF-8 sequence */
    b.s[cut] = '\0';
    b.n = cut;
    sb_puts(&b, "…");
  }
  char *s = xstrdup(sb_str(&b));
  sb_free(&b);
  return s;
}

/* Builds the graph of f: chain first, then the other callees. */
static void hg_build(const html_model *m, uint32_t f, hg_graph *g)
{
  const link_prog *p = m->p;
  int prev = hg_node_of(m, g, f, true);
  const link_func *cur = &p->funcs.v[f];
  for (int steps = 0; cur->why.kind == WHY_CALL && steps < HTML_GRAPH_CHAIN_MAX; steps++) {
    uint32_t callee = p->calls.v[cur->why.index].callee;
    size_t before = g->nodes.n;
    int n = hg_node_of(m, g, callee, true);
    hg_edge_add(g, prev, n, true);
    if (n < 0 || g->nodes.n == before) { cur = NULL; break; }   /* recursion: the chain closes */
    prev = n;
    cur = &p->funcs.v[callee];
    if (!link_has_body(cur)) { cur = NULL; break; }
  }
  if (cur && cur->why.kind == WHY_EFFECT && cur->cls != PURITY_CONST) {
    hg_node e = { -1, hg_effect_text(m, cur), true };
    vec_push(&g->nodes, e);
    hg_edge_add(g, prev, (int)g->nodes.n - 1, true);
  }
  for (uint32_t k = m->callees.off[f], taken = 0; k < m->callees.off[f + 1] && taken < HTML_GRAPH_CALLEES_MAX; k++, taken++)
    hg_edge_add(g, 0, hg_node_of(m, g, m->callees.to[k], false), false);
}

/* The width, in inches, of the label the page draws in a node: the longer
 * of its two lines at about 7 px a character (12 px monospace), plus padding. */
static double hg_width(const html_model *m, const hg_node *n)
{
  size_t len = n->text ? strlen(n->text)
                       : strtab_len(m->p->strs, m->p->funcs.v[m->shown.v[n->fn]].name);
  if (len < 10) len = 10;
  return (double)(len * 7 + 24) / 72.0;
}

/* Writes graph number k in dot's language: ids and numbers only. */
static void hg_write_dot(const html_model *m, const hg_graph *g, size_t k, FILE *f)
{
  fprintf(f, "digraph g%zu {\n graph [rankdir=LR, nodesep=0.2, ranksep=0.4];\n node [shape=box, fixedsize=true, height=0.5];\n", k);
  for (size_t i = 0; i < g->nodes.n; i++) fprintf(f, " n%zu [width=%.2f];\n", i, hg_width(m, &g->nodes.v[i]));
  for (size_t i = 0; i < g->edges.n; i++) fprintf(f, " n%u -> n%u;\n", g->edges.v[i].from, g->edges.v[i].to);
  fputs("}\n", f);
}

/* Runs `dot -Tplain` with stdin from fd; returns its output (caller frees)
 * or NULL with *why set. */
static char *hg_run_dot(const char *dot, int fd, char **why)
{
  int out[2];
  if (pipe(out) != 0) { *why = xasprintf("pipe: %s", strerror(errno)); return NULL; }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  char *argv[] = { (char *)dot, "-Tplain", NULL };
  pid_t pid;
  int rc = posix_spawnp(&pid, dot, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    *why = xasprintf("%s: %s; graphs are drawn as trees", dot, strerror(rc));
    return NULL;
  }
  strbuf b = {0};
  char chunk[65536];
  ssize_t n;
  while ((n = read(out[0], chunk, sizeof chunk - 1)) != 0) {
    if (n < 0) { if (errno == EINTR) continue; break; }
    chunk[n] = '\0';
    sb_puts(&b, chunk);
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    *why = xasprintf("%s failed (status %d); graphs are drawn as trees", dot, status);
    sb_free(&b);
    return NULL;
  }
  char *s = xstrdup(sb_str(&b));
  sb_free(&b);
  return s;
}

/* A coordinate in points (dot's inches x 72), to a tenth: finer is
 * invisible and only makes the page bigger. */
static json_t *hg_pt(double inches)
{
  return json_real(round(inches * 720.0) / 10.0);
}

/* Parses one graph of dot's plain output starting at *pos, into a JSON
 * graph for g; advances *pos past its "stop". NULL if it is malformed. */
static json_t *hg_parse_plain(const char *text, size_t *pos, const hg_graph *g)
{
  double scale, gw, gh = 0;
  json_t *nodes = json_array(), *edges = json_array();
  for (size_t i = 0; i < g->nodes.n; i++) json_array_append_new(nodes, json_null());
  bool ok = false;
  while (text[*pos]) {
    const char *line = text + *pos;
    size_t len = strcspn(line, "\n");
    *pos += len + (line[len] == '\n');
    char *l = xstrndup(line, len), *save = NULL;
    char *word = strtok_r(l, " ", &save);
    if (!word) { free(l); continue; }
    if (!strcmp(word, "stop")) { free(l); ok = true; break; }
    if (!strcmp(word, "graph") && sscanf(save, "%lf %lf %lf", &scale, &gw, &gh) == 3) {
      /* sizes known; nodes and edges follow */
    } else if (!strcmp(word, "node")) {
      unsigned id;
      double x, y, w, h;
      if (sscanf(save, "n%u %lf %lf %lf %lf", &id, &x, &y, &w, &h) == 5 && id < g->nodes.n) {
        const hg_node *n = &g->nodes.v[id];
        json_t *o = json_pack("{s:i,s:b,s:o,s:o,s:o,s:o}", "fn", n->fn, "chain", n->chain,
                              "x", hg_pt(x), "y", hg_pt(gh - y), "w", hg_pt(w), "h", hg_pt(h));
        if (n->text) json_object_set_new(o, "text", diag_json_str(n->text));
        json_array_set_new(nodes, id, o);
      }
    } else if (!strcmp(word, "edge")) {
      unsigned from, to;
      int np, used;
      if (sscanf(save, "n%u n%u %d%n", &from, &to, &np, &used) == 3 && np > 0 && np < 1000) {
        json_t *pts = json_array();
        const char *s = save + used;
        double x, y;
        int k;
        for (int i = 0; i < np && sscanf(s, "%lf %lf%n", &x, &y, &k) == 2; i++, s += k) {
          json_array_append_new(pts, hg_pt(x));
          json_array_append_new(pts, hg_pt(gh - y));
        }
        bool chain = false;
        for (size_t i = 0; i < g->edges.n; i++)
          if (g->edges.v[i].from == from && g->edges.v[i].to == to) chain = g->edges.v[i].chain;
        json_array_append_new(edges, json_pack("{s:i,s:i,s:b,s:o}", "from", from, "to", to, "chain", chain, "points", pts));
      }
    }
    free(l);
  }
  for (size_t i = 0; ok && i < g->nodes.n; i++) ok = !json_is_null(json_array_get(nodes, i));
  if (!ok) {
    json_decref(nodes);
    json_decref(edges);
    return NULL;
  }
  return json_pack("{s:o,s:o,s:o,s:o}", "width", hg_pt(gw), "height", hg_pt(gh), "nodes", nodes, "edges", edges);
}

json_t *html_graph_layout(const html_model *m, const uint32_t *want, size_t n, const char *dot, char **why)
{
  /* The input goes through an unlinked temporary file: dot reads all of
   * it while we read its output, with no risk of a pipe deadlock. */
  const char *tmpdir = getenv("TMPDIR");
  char *path = xasprintf("%s/purist-dot-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) {
    *why = xasprintf("%s: %s; graphs are drawn as trees", path, strerror(errno));
    free(path);
    return NULL;
  }
  unlink(path);
  free(path);
  hg_graph *graphs = xcalloc(n, sizeof *graphs);
  FILE *f = fdopen(dup(fd), "w");
  for (size_t k = 0; k < n; k++) {
    hg_build(m, want[k], &graphs[k]);
    if (f) hg_write_dot(m, &graphs[k], k, f);
  }
  json_t *out = NULL;
  if (!f || fclose(f) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
    *why = xasprintf("could not write dot's input: %s; graphs are drawn as trees", strerror(errno));
  } else {
    char *plain = hg_run_dot(dot, fd, why);
    size_t pos = 0;
    out = plain ? json_object() : NULL;
    for (size_t k = 0; plain && k < n; k++) {
      json_t *g = hg_parse_plain(plain, &pos, &graphs[k]);
      char key[16];
      snprintf(key, sizeof key, "%d", m->dix[want[k]]);
      if (g) json_object_set_new(out, key, g);
    }
    free(plain);
  }
  close(fd);
  for (size_t k = 0; k < n; k++) hg_graph_free(&graphs[k]);
  free(graphs);
  return out;
}
