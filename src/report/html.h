/* html.h — `purist report --html`: one self-contained HTML page.
 *
 * The page is a template (data/report/report.html, .css, .js, embedded at
 * build time) plus the project's data as one JSON document in a
 * <script type="application/json"> block: functions with class, reason,
 * chain step, callers and callees; findings of check, suggest, explain
 * (and of a verify report) with the source lines around them; counts for
 * the overview; impurity graphs laid out by Graphviz `dot` when it is
 * installed. The page's script renders everything with DOM APIs and
 * textContent, never markup built from data, and a Content-Security-Policy
 * allows no network access and only the page's own script.
 *
 * A page that would exceed max_bytes is summarised (docs/decisions.md):
 * first without source snippets and graphs, then with only the functions
 * that matter most; the overview's counts always cover the whole project. */
#ifndef PURIST_HTML_H
#define PURIST_HTML_H
#include <stdio.h>
#include "link/link.h"
#include "report/diag.h"
#include "report/run_info.h"

typedef struct {
  const char *root;          /* project root, absolute: paths are shown relative to it */
  const char *tool_version;
  const diag_list *findings; /* check, suggest, explain findings, suggestions ranked by gain */
  const diag_list *verify;   /* a verify report's diagnostics, or NULL */
  const char *verify_file;   /* where they came from, for the page */
  size_t max_bytes;          /* a larger page is summarised */
  const char *dot;           /* Graphviz dot program; NULL or "" for none */
  const run_info *run;       /* the files not analysed and why (the page lists them); may be NULL */
} html_opts;

/* Writes the report of the solved program p to out. Returns 0, or -1 if
 * writing failed (errno set). */
int html_write(FILE *out, const link_prog *p, const html_opts *o);

/* Writes the report to the file at path, atomically (a temporary file
 * renamed into place). Returns 0, or -1 with *err = "path: why" (caller
 * frees) and any previous file at path left as it was. */
int html_write_file(const char *path, const link_prog *p, const html_opts *o, char **err);

/* Reads a verify report (`{"version":1,"diagnostics":[…]}`, DESIGN.md §4)
 * into out; `related` entries are kept when present. Relative paths are
 * taken relative to root for reading source lines. Returns 0, or -1 with
 * *err set to "path: why" (caller frees) and out unchanged. */
int html_verify_load(const char *path, const char *root, diag_list *out, char **err);

#endif
