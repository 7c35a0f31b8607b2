/* lsp_internal.h — the server's state and the functions its files share.
 * One file per responsibility: transport.c (framing), dispatch.c (the
 * loop, JSON-RPC and the lifecycle), workspace.c (documents, URIs,
 * positions), analysis.c (the project through the pipeline), publish.c
 * (diagnostics), actions.c (code actions), hover.c. */
#ifndef PURIST_LSP_INTERNAL_H
#define PURIST_LSP_INTERNAL_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include "checks/checks.h"
#include "fix/fix.h"
#include "lsp/lsp.h"
#include "report/diag_out.h"
#include "report/run_info.h"
#include "util/strtab.h"
#include "util/vec.h"

/* JSON-RPC and LSP error codes. */
enum {
  LSP_PARSE_ERROR = -32700, LSP_INVALID_REQUEST = -32600, LSP_METHOD_NOT_FOUND = -32601,
  LSP_INVALID_PARAMS = -32602, LSP_NOT_INITIALIZED = -32002
};

/* The largest message body read (a bigger one is skipped, answered -32700). */
#define LSP_MAX_BODY ((size_t)256 << 20)

/* ---- transport.c ------------------------------------------------------- */

typedef enum { LSP_READ_OK, LSP_READ_EOF, LSP_READ_BAD } lsp_read_status;

/* Reads one framed message: LSP_READ_OK with *body (NUL-terminated, caller
 * frees) and *len; LSP_READ_EOF at the end of input (or in the middle of a
 * message); LSP_READ_BAD with *err (caller frees) for a header block
 * without a usable Content-Length or a body too big (skipped), the input
 * being positioned at the next header. */
lsp_read_status lsp_transport_read(FILE *in, char **body, size_t *len, char **err);
/* Writes msg framed and flushes; -1 if the output failed. */
int lsp_transport_write(FILE *out, const json_t *msg);

/* ---- workspace.c ------------------------------------------------------- */

typedef struct {
  char *uri;
  char *path;          /* absolute, symbolic links resolved when it exists; NULL: not a file: URI */
  char *text;          /* the editor's text (didOpen, didChange) */
  size_t len;
  json_t *published;   /* the diagnostics last sent for it; NULL: none yet */
} lsp_doc;

/* The path of a file: URI (percent-decoded, symbolic links resolved when
 * the file exists); NULL for another scheme. Caller frees. */
char *lsp_uri_to_path(const char *uri);
/* The file: URI of an absolute path, percent-encoded. Caller frees. */
char *lsp_path_to_uri(const char *path);
/* The 0-based LSP character of 1-based byte column col on 1-based line of
 * text (utf8: bytes; else UTF-16 code units). Past the end: the line's end. */
unsigned lsp_char_of(const char *text, size_t len, unsigned line, unsigned col, bool utf8);
/* The byte offset in text of an LSP position (0-based line and
 * character); (size_t)-1 if the line is past the end. */
size_t lsp_offset_of(const char *text, size_t len, unsigned line, unsigned ch, bool utf8);
/* The length in bytes of the identifier at byte column col (1-based) of
 * line, 0 if none starts there. */
unsigned lsp_ident_len(const char *text, size_t len, unsigned line, unsigned col);
/* An LSP Range from 1-based lines and byte columns of text (text NULL,
 * unreadable: the byte columns are taken as characters). */
json_t *lsp_range(const char *text, size_t len, unsigned line, unsigned col, unsigned end_line,
                  unsigned end_col, bool utf8);

/* ---- analysis.c -------------------------------------------------------- */

typedef struct {
  bool done;           /* an analysis ran (else the fields below are empty) */
  char *error;         /* why the project could not be analysed; NULL if it was */
  char *root;          /* the project root (absolute) */
  char *db;            /* the directory of compile_commands.json used; NULL: none found */
  link_prog *prog;     /* solved */
  diag_list findings;  /* check, suggest, explain, filtered as check filters */
  char **real;         /* per finding: its file, symbolic links resolved (compared with documents') */
  checks_gain *gains;  /* per function of prog; NULL until a hover needs it */
  run_info ri;         /* TUs not analysed */
  strtab *tus;         /* absolute paths of the database's source files */
  strtab *seen;        /* absolute paths of every file the summaries declare something in */
} lsp_analysis;

/* Analyses the project of o (o->db set, or none found: error says so)
 * into a, freeing what a held. The messages of the parse go to stderr. */
void lsp_analysis_run(lsp_analysis *a, const cli_opts *o, const kb *k);
void lsp_analysis_free(lsp_analysis *a);
/* What `fix --fix-misuse --all --include-may-not-return` would do to the
 * functions named (every function of those names: a static one may have
 * namesakes), planned for the files that define them only. NULL if
 * nothing can be planned (said on stderr). Caller frees. */
fix_plan *lsp_analysis_plan(const lsp_analysis *a, const cli_opts *o, const char *const *names, size_t n);

/* ---- the server (dispatch.c) ------------------------------------------ */

typedef struct lsp_server {
  cli_opts opts;       /* the command line's, with db set at initialize (not owned strings) */
  char *db;            /* the database directory chosen (owned); NULL: none */
  const kb *kb;
  FILE *in, *out;
  bool initialized, shutdown, exiting;
  int exit_status;
  bool utf8;           /* positions in bytes (the client accepts utf-8), else UTF-16 */
  VEC(lsp_doc) docs;
  lsp_analysis an;
} lsp_server;

/* Sends a notification / a response / an error response (steals params,
 * result; id may be NULL for null). */
void lsp_notify(lsp_server *s, const char *method, json_t *params);
void lsp_reply(lsp_server *s, const json_t *id, json_t *result);
void lsp_reply_error(lsp_server *s, const json_t *id, int code, const char *message);
/* "purist: …" as a window/logMessage (type 3 info, 2 warning, 1 error) and on stderr. */
void lsp_log(lsp_server *s, int type, const char *msg);
/* The open document of uri, or NULL. */
lsp_doc *lsp_doc_find(lsp_server *s, const char *uri);

/* ---- publish.c --------------------------------------------------------- */

/* Sends the diagnostics of every open document whose diagnostics differ
 * from those last sent (all of them when force). */
void lsp_publish_all(lsp_server *s, bool force);
/* The diagnostics of one document, as an LSP array (caller owns). */
json_t *lsp_diagnostics_of(lsp_server *s, const lsp_doc *d);
/* The URL of a check's documentation page (caller frees). */
char *lsp_check_href(const char *check);

/* ---- actions.c, hover.c ------------------------------------------------ */

/* textDocument/codeAction's result for params (caller owns), or NULL with
 * *bad set when params are unusable. */
json_t *lsp_code_actions(lsp_server *s, const json_t *params, const char **bad);
/* textDocument/hover's result (json null when there is nothing to say). */
json_t *lsp_hover(lsp_server *s, const json_t *params, const char **bad);

#endif
