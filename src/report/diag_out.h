/* diag_out.h — presenting diagnostics (diag.h): GCC-style text, JSON,
 * SARIF 2.1.0, and the two ways a user hides findings — suppression
 * comments in the source and a baseline file of accepted findings.
 *
 * The printers print the list in its order (call diag_sort first for
 * deterministic output) and return 0, or -1 if writing failed. The filters
 * remove diagnostics from the list, freeing them. Nothing here prints an
 * error: failures come back as -1 and a message the caller frees. */
#ifndef PURIST_DIAG_OUT_H
#define PURIST_DIAG_OUT_H
#include <stdbool.h>
#include <stdio.h>
#include "report/diag.h"
#include "report/run_info.h"

/* --- text (diag_text.c) ------------------------------------------------ */

/* GCC/Clang style: `file:line:col: severity: message [purist-check]`, the
 * source line with a caret under the column, each related location as a
 * note (with its own source line and caret), then a summary line such as
 * `1 error, 2 warnings generated.` (none for an empty list). Source lines
 * are read from abs_file; an unreadable file just has no snippet. ANSI
 * colours as GCC's defaults when `color` is true. */
int diag_print_text(FILE *out, const diag_list *l, bool color);
/* Whether to colour output to `out` for --color=`when` (auto, always,
 * never; NULL means auto). auto: only on a terminal whose TERM is not
 * "dumb", and never when NO_COLOR is set to a non-empty value. */
bool diag_use_color(const char *when, FILE *out);

/* --- JSON (diag_json.c) ------------------------------------------------- */

/* {"version":1,"diagnostics":[{"check","severity","file","line","column",
 * "function","message","related":[{"file","line","column","message"}]}]},
 * one diagnostic per line (DESIGN.md §4); "not_analysed" after them when ri
 * lists TUs that were not analysed (run_info.h; ri may be NULL). */
int diag_print_json(FILE *out, const diag_list *l, const run_info *ri);

/* --- SARIF (diag_sarif.c) ----------------------------------------------- */

/* A SARIF 2.1.0 log with one run. root_uri is the absolute project root (a
 * path, or a file: URI); relative paths are given relative to it through
 * the uriBaseId SRCROOT. NULL leaves SRCROOT for the consumer to define.
 * ri (may be NULL) gives automationDetails.id and the invocation's
 * executionSuccessful and toolExecutionNotifications (run_info.h). Every
 * rule has a helpUri to its page, docs/checks/CHECK.md. */
int diag_print_sarif(FILE *out, const diag_list *l, const char *root_uri,
                     const char *tool_version, const run_info *ri);

/* --- suppression and baselines (diag_filter.c) -------------------------- */

/* Removes every diagnostic suppressed by a comment `purist: ignore` (all
 * checks) or `purist: ignore[check,…]` on its own line, or alone on the
 * line above. A listed name matches the check itself and its refinements:
 * `misuse` hides `misuse-void`; `purist-misuse` is accepted too. */
void diag_filter_suppressed(diag_list *l);
/* Writes the list's findings to `path` as a baseline (JSON: check,
 * function, message; no line numbers), atomically. On failure returns -1
 * and sets *err to a message naming the file (caller frees). */
int diag_baseline_write(const char *path, const diag_list *l, char **err);
/* Removes the diagnostics recorded in the baseline at `path`; a recorded
 * finding hides as many equal findings as it was recorded times. A missing
 * or malformed file returns -1 with *err set to `path:line:col: why` (or
 * `path: why` when no line applies) and leaves the list as it was. */
int diag_baseline_filter(diag_list *l, const char *path, char **err);

/* --- helpers shared by the above (diag.c, diag_json.c) ------------------ */

/* The identity of a finding independent of where it sits: check, function
 * and message with the line and column numbers inside the message blanked
 * ("at line 33", "util.c:14:12"), so that edits above it do not change it.
 * Baselines and SARIF fingerprints compare these. Caller frees. */
char *diag_key(const char *check, const char *function, const char *message);
/* A JSON string for s (jansson's json_t); bytes that are not UTF-8 are
 * written by textenc's lossless rule (util/textenc.h, docs/file-names.md)
 * instead of making the string, and the output, invalid. */
struct json_t *diag_json_str(const char *s);
/* Keeps the diagnostics i with keep[i], in order, and frees the others. */
void diag_list_keep(diag_list *l, const bool *keep);

#endif
