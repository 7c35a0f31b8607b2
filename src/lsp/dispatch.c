/* dispatch.c — the server's loop: a message read, checked as JSON-RPC 2.0,
 * routed to its method; the lifecycle (initialize, shutdown, exit) and the
 * documents (didOpen, didChange, didSave, didClose). Whatever the client
 * sends, the answer is a message or nothing, never a crash: every field is
 * read through jansson's typed getters, which turn a wrong type into NULL. */
#include "lsp/lsp_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void dispatch_send(lsp_server *s, json_t *msg)
{
  if (lsp_transport_write(s->out, msg) < 0 && !s->exiting) {
    fprintf(stderr, "purist: lsp: the client's end is closed (%s): exiting\n", strerror(errno));
    s->exiting = true;   /* nobody to talk to */
    s->exit_status = 1;
  }
  json_decref(msg);
}

void lsp_notify(lsp_server *s, const char *method, json_t *params)
{
  dispatch_send(s, json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method, "params", params));
}

void lsp_reply(lsp_server *s, const json_t *id, json_t *result)
{
  json_t *m = json_pack("{s:s,s:o}", "jsonrpc", "2.0", "result", result ? result : json_null());
  json_object_set_new(m, "id", id ? json_deep_copy(id) : json_null());
  dispatch_send(s, m);
}

void lsp_reply_error(lsp_server *s, const json_t *id, int code, const char *message)
{
  json_t *m = json_pack("{s:s,s:{s:i,s:o}}", "jsonrpc", "2.0", "error", "code", code, "message",
                        diag_json_str(message));
  json_object_set_new(m, "id", id ? json_deep_copy(id) : json_null());
  dispatch_send(s, m);
}

void lsp_log(lsp_server *s, int type, const char *msg)
{
  fprintf(stderr, "purist: lsp: %s\n", msg);
  lsp_notify(s, "window/logMessage", json_pack("{s:i,s:o}", "type", type, "message", diag_json_str(msg)));
}

lsp_doc *lsp_doc_find(lsp_server *s, const char *uri)
{
  for (size_t i = 0; uri && i < s->docs.n; i++)
    if (!strcmp(s->docs.v[i].uri, uri)) return &s->docs.v[i];
  return NULL;
}

static void dispatch_doc_free(lsp_doc *d)
{
  free(d->uri);
  free(d->path);
  free(d->text);
  json_decref(d->published);
}

/* ---- lifecycle ---------------------------------------------------------- */

static bool dispatch_is_dir_with_db(const char *dir)
{
  char *f = xasprintf("%s/compile_commands.json", dir);
  struct stat st;
  bool ok = stat(f, &st) == 0 && S_ISREG(st.st_mode);
  free(f);
  return ok;
}

/* The workspace root of initialize's params (rootUri, rootPath, the first
 * workspace folder); NULL if none. Caller frees. */
static char *dispatch_root(const json_t *params)
{
  const char *uri = json_string_value(json_object_get(params, "rootUri"));
  if (!uri) uri = json_string_value(json_object_get(json_array_get(json_object_get(params, "workspaceFolders"), 0), "uri"));
  if (uri) return lsp_uri_to_path(uri);
  const char *path = json_string_value(json_object_get(params, "rootPath"));
  return path ? xstrdup(path) : NULL;
}

/* The compile database's directory, as `purist check` finds it (lsp.h);
 * NULL leaves it to the current directory's . and build/. Caller frees. */
static char *dispatch_find_db(lsp_server *s, const json_t *params)
{
  if (s->opts.db) {
    char *real = realpath(s->opts.db, NULL);
    return real ? real : xstrdup(s->opts.db);
  }
  char *root = dispatch_root(params), *db = NULL;
  const json_t *io = json_object_get(params, "initializationOptions");
  const char *given = json_string_value(json_object_get(io, "compilationDatabasePath"));
  if (!given) given = json_string_value(json_object_get(io, "buildPath"));
  if (given) db = given[0] == '/' || !root ? xstrdup(given) : xasprintf("%s/%s", root, given);
  else if (root && dispatch_is_dir_with_db(root)) db = xstrdup(root);
  else if (root) {
    char *b = xasprintf("%s/build", root);
    if (dispatch_is_dir_with_db(b)) db = b;
    else free(b);
  }
  free(root);
  return db;
}

/* Does the client accept positions in UTF-8 (LSP 3.17 positionEncodings)? */
static bool dispatch_client_utf8(const json_t *params)
{
  const json_t *encs = json_object_get(json_object_get(json_object_get(params, "capabilities"), "general"),
                                       "positionEncodings");
  size_t i;
  const json_t *e;
  json_array_foreach(encs, i, e)
    if (json_string_value(e) && !strcmp(json_string_value(e), "utf-8")) return true;
  return false;
}

static void on_initialize(lsp_server *s, const json_t *id, const json_t *params)
{
  if (s->initialized) { lsp_reply_error(s, id, LSP_INVALID_REQUEST, "initialize was already received"); return; }
  s->initialized = true;
  s->utf8 = dispatch_client_utf8(params);
  s->db = dispatch_find_db(s, params);
  s->opts.db = s->db;
  json_t *caps = json_pack("{s:s,s:{s:b,s:i,s:{s:b}},s:{s:[s]},s:b}",
                           "positionEncoding", s->utf8 ? "utf-8" : "utf-16",
                           "textDocumentSync", "openClose", 1, "change", 1, "save", "includeText", 0,
                           "codeActionProvider", "codeActionKinds", "quickfix",
                           "hoverProvider", 1);
  lsp_reply(s, id, json_pack("{s:o,s:{s:s,s:s}}", "capabilities", caps, "serverInfo", "name", "purist",
                             "version", PURIST_VERSION));
}

static void on_initialized(lsp_server *s, const json_t *id, const json_t *params)
{
  (void)id, (void)params;
  char *m = s->db ? xasprintf("compile database: %s/compile_commands.json", s->db)
                  : xstrdup("no compile database named: looking in . and build/ of the server's directory");
  lsp_log(s, 3, m);
  free(m);
}

static void on_shutdown(lsp_server *s, const json_t *id, const json_t *params)
{
  (void)params;
  s->shutdown = true;
  lsp_reply(s, id, json_null());
}

static void on_exit_note(lsp_server *s, const json_t *id, const json_t *params)
{
  (void)id, (void)params;
  s->exiting = true;
  s->exit_status = s->shutdown ? 0 : 1;
}

/* ---- documents --------------------------------------------------------- */

/* Analyses the project again and republishes what changed; the first
 * time, says in the editor when the project cannot be analysed. */
static void dispatch_analyse(lsp_server *s)
{
  bool first = !s->an.done;
  lsp_analysis_run(&s->an, &s->opts, s->kb);
  if (first && s->an.error)
    lsp_notify(s, "window/showMessage", json_pack("{s:i,s:o}", "type", 2, "message", diag_json_str(s->an.error)));
}

static void on_did_open(lsp_server *s, const json_t *id, const json_t *params)
{
  (void)id;
  const json_t *td = json_object_get(params, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  const json_t *text = json_object_get(td, "text");
  if (!uri || !json_is_string(text)) return;   /* a notification: nothing to answer */
  lsp_doc *d = lsp_doc_find(s, uri);
  if (!d) {
    vec_push(&s->docs, ((lsp_doc){ xstrdup(uri), lsp_uri_to_path(uri), NULL, 0, NULL }));
    d = &s->docs.v[s->docs.n - 1];
  }
  free(d->text);
  d->len = json_string_length(text);
  d->text = xmalloc(d->len + 1);
  memcpy(d->text, json_string_value(text), d->len + 1);
  if (!s->an.done && d->path) dispatch_analyse(s);
  lsp_publish_all(s, false);
}

/* One contentChanges item applied to d: a whole text, or a range of it
 * (sent by a client that ignores the Full sync the server asked for). */
static void dispatch_apply_change(lsp_server *s, lsp_doc *d, const json_t *ch)
{
  const json_t *text = json_object_get(ch, "text"), *range = json_object_get(ch, "range");
  if (!json_is_string(text)) return;
  size_t tl = json_string_length(text), lo = 0, hi = d->len;
  if (range) {
    const json_t *a = json_object_get(range, "start"), *b = json_object_get(range, "end");
    json_int_t al = json_integer_value(json_object_get(a, "line")), ac = json_integer_value(json_object_get(a, "character"));
    json_int_t bl = json_integer_value(json_object_get(b, "line")), bc = json_integer_value(json_object_get(b, "character"));
    if (al < 0 || ac < 0 || bl < 0 || bc < 0 || al > UINT32_MAX || bl > UINT32_MAX || ac > UINT32_MAX || bc > UINT32_MAX) return;
    lo = lsp_offset_of(d->text, d->len, (unsigned)al, (unsigned)ac, s->utf8);
    hi = lsp_offset_of(d->text, d->len, (unsigned)bl, (unsigned)bc, s->utf8);
    if (lo == (size_t)-1) lo = d->len;
    if (hi == (size_t)-1) hi = d->len;
    if (hi < lo) return;
  }
  char *n = xmalloc(d->len - (hi - lo) + tl + 1);
  memcpy(n, d->text, lo);
  memcpy(n + lo, json_string_value(text), tl);
  memcpy(n + lo + tl, d->text + hi, d->len - hi);
  d->len = d->len - (hi - lo) + tl;
  n[d->len] = '\0';
  free(d->text);
  d->text = n;
}

static void on_did_change(lsp_server *s, const json_t *id, const json_t *params)
{
  (void)id;
  lsp_doc *d = lsp_doc_find(s, json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri")));
  size_t i;
  const json_t *ch;
  if (d) json_array_foreach(json_object_get(params, "contentChanges"), i, ch) dispatch_apply_change(s, d, ch);
}

static void on_did_save(lsp_server *s, const json_t *id, const json_t *params)
{
  (void)id;
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
  if (!uri) return;
  dispatch_analyse(s);   /* a header's save changes every TU including it: the cache sees which */
  lsp_publish_all(s, false);
}

static void on_did_close(lsp_server *s, const json_t *id, const json_t *params)
{
  (void)id;
  lsp_doc *d = lsp_doc_find(s, json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri")));
  if (!d) return;
  lsp_notify(s, "textDocument/publishDiagnostics", json_pack("{s:s,s:[]}", "uri", d->uri, "diagnostics"));
  dispatch_doc_free(d);
  *d = s->docs.v[--s->docs.n];
}

static void on_code_action(lsp_server *s, const json_t *id, const json_t *params)
{
  const char *bad = NULL;
  json_t *r = lsp_code_actions(s, params, &bad);
  if (r) lsp_reply(s, id, r);
  else lsp_reply_error(s, id, LSP_INVALID_PARAMS, bad);
}

static void on_hover(lsp_server *s, const json_t *id, const json_t *params)
{
  const char *bad = NULL;
  json_t *r = lsp_hover(s, params, &bad);
  if (r) lsp_reply(s, id, r);
  else lsp_reply_error(s, id, LSP_INVALID_PARAMS, bad);
}

/* ---- routing ----------------------------------------------------------- */

typedef struct {
  const char *method;
  bool request;   /* answered; else a notification */
  void (*run)(lsp_server *s, const json_t *id, const json_t *params);
} dispatch_method;

static const dispatch_method dispatch_methods[] = {
  { "initialize", true, on_initialize },
  { "initialized", false, on_initialized },
  { "shutdown", true, on_shutdown },
  { "exit", false, on_exit_note },
  { "textDocument/didOpen", false, on_did_open },
  { "textDocument/didChange", false, on_did_change },
  { "textDocument/didSave", false, on_did_save },
  { "textDocument/didClose", false, on_did_close },
  { "textDocument/codeAction", true, on_code_action },
  { "textDocument/hover", true, on_hover },
};

/* Checks msg as a JSON-RPC 2.0 request or notification and runs it. */
static void dispatch_message(lsp_server *s, const json_t *msg)
{
  if (!json_is_object(msg)) { lsp_reply_error(s, NULL, LSP_INVALID_REQUEST, "a message must be a JSON object"); return; }
  const json_t *id = json_object_get(msg, "id"), *params = json_object_get(msg, "params");
  const json_t *method = json_object_get(msg, "method");
  if (id && !json_is_integer(id) && !json_is_string(id)) {
    lsp_reply_error(s, NULL, LSP_INVALID_REQUEST, "an id must be a number or a string");
    return;
  }
  const char *ver = json_string_value(json_object_get(msg, "jsonrpc"));
  if (!ver || strcmp(ver, "2.0")) { lsp_reply_error(s, id, LSP_INVALID_REQUEST, "jsonrpc must be \"2.0\""); return; }
  if (!method && id && (json_object_get(msg, "result") || json_object_get(msg, "error"))) return;   /* a response */
  if (!json_is_string(method)) { lsp_reply_error(s, id, LSP_INVALID_REQUEST, "method must be a string"); return; }
  if (params && !json_is_object(params) && !json_is_array(params)) {
    lsp_reply_error(s, id, LSP_INVALID_REQUEST, "params must be an object or an array");
    return;
  }
  const char *name = json_string_value(method);
  const dispatch_method *m = NULL;
  for (size_t i = 0; i < sizeof dispatch_methods / sizeof *dispatch_methods; i++)
    if (!strcmp(name, dispatch_methods[i].method)) m = &dispatch_methods[i];
  if (m && m->request != (id != NULL)) m = NULL;   /* a request sent as a notification, or the reverse */
  if (!id) {   /* notifications: run if known and allowed, else ignored */
    if (m && (s->initialized || m->run == on_exit_note) && (!s->shutdown || m->run == on_exit_note)) m->run(s, NULL, params);
    return;
  }
  if (!s->initialized && (!m || m->run != on_initialize)) {
    lsp_reply_error(s, id, LSP_NOT_INITIALIZED, "the server is not initialized yet");
    return;
  }
  if (s->shutdown) { lsp_reply_error(s, id, LSP_INVALID_REQUEST, "the server is shutting down"); return; }
  if (!m) {
    char *e = xasprintf("unknown method '%s'", name);
    lsp_reply_error(s, id, LSP_METHOD_NOT_FOUND, e);
    free(e);
    return;
  }
  m->run(s, id, params);
}

/* One message off the input; false at its end. */
static bool dispatch_one(lsp_server *s)
{
  char *body = NULL, *err = NULL;
  size_t len = 0;
  lsp_read_status st = lsp_transport_read(s->in, &body, &len, &err);
  if (st == LSP_READ_EOF) return false;
  if (st == LSP_READ_BAD) {
    lsp_reply_error(s, NULL, LSP_PARSE_ERROR, err);
    free(err);
    return true;
  }
  json_error_t je;
  json_t *msg = json_loadb(body, len, JSON_ALLOW_NUL, &je);
  if (!msg) {
    char *e = xasprintf("the message is not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
    lsp_reply_error(s, NULL, LSP_PARSE_ERROR, e);
    free(e);
  } else {
    dispatch_message(s, msg);
    json_decref(msg);
  }
  free(body);
  return true;
}

/* Keeps the protocol's descriptors to the server alone: standard output
 * becomes standard error (a stray printf, a worker's output, land in the
 * log, never inside a message) and standard input /dev/null (a child
 * cannot eat the client's messages). Returns the private copies. */
static int dispatch_take_fds(int in_fd, int out_fd, int *in_copy, int *out_copy)
{
  *in_copy = fcntl(in_fd, F_DUPFD_CLOEXEC, 3);
  *out_copy = fcntl(out_fd, F_DUPFD_CLOEXEC, 3);
  if (*in_copy < 0 || *out_copy < 0) return -1;
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null >= 0 && in_fd == STDIN_FILENO) dup2(null, STDIN_FILENO);
  if (null >= 0) close(null);
  if (out_fd == STDOUT_FILENO) dup2(STDERR_FILENO, STDOUT_FILENO);
  return 0;
}

int lsp_serve(const cli_opts *o, const kb *k, int in_fd, int out_fd)
{
  int in_copy, out_copy;
  if (dispatch_take_fds(in_fd, out_fd, &in_copy, &out_copy) < 0) {
    fprintf(stderr, "purist: lsp: %s\n", strerror(errno));
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);   /* a vanished client is a failed write, then an exit */
  lsp_server s = { .opts = *o, .kb = k, .exit_status = 1 };
  s.opts.quiet = true;        /* the link's warnings are not the editor's business */
  s.opts.progress = "none";
  s.opts.output = NULL;
  s.in = fdopen(in_copy, "rb");
  s.out = fdopen(out_copy, "wb");
  while (s.in && s.out && !s.exiting && dispatch_one(&s)) {}
  if (!s.exiting) fprintf(stderr, "purist: lsp: the input ended without exit: exiting\n");
  int rc = s.exiting ? s.exit_status : 1;
  for (size_t i = 0; i < s.docs.n; i++) dispatch_doc_free(&s.docs.v[i]);
  vec_free(&s.docs);
  lsp_analysis_free(&s.an);
  free(s.db);
  if (s.in) fclose(s.in);
  if (s.out) fclose(s.out);
  return rc;
}
