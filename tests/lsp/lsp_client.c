/* lsp_client.c — a scripted LSP client for the tests of `purist lsp`.
 *
 *   lsp_client ROOT SCRIPT -- SERVER ARGS...
 *
 * Starts the server with pipes for its standard input and output, then
 * runs SCRIPT, one step a line ('#' starts a comment); every message the
 * server sends is printed on stdout as one line of JSON (keys sorted), so
 * the test asserts on it with jq. In a step, @ROOT@ is ROOT and @URI@ is
 * file://ROOT. Steps:
 *   send JSON        frame JSON (one line) and send it
 *   raw TEXT         send TEXT as it is, after \r \n \xHH \\ escapes (malformed input)
 *   open FILE        textDocument/didOpen of ROOT/FILE with its contents
 *   change FILE      textDocument/didChange: the whole text, read from ROOT/FILE now
 *   save FILE        textDocument/didSave of ROOT/FILE
 *   sh COMMAND       run COMMAND with sh -c in ROOT (edit a file between two steps)
 *   wait-id N        read messages until the response with id N
 *   wait-diag FILE   read messages until diagnostics for ROOT/FILE are published
 *   quiet SECONDS    read messages for that long; a message published then fails
 *   mark LABEL       print {"mark":LABEL,"t":SECONDS since the client started} (bench/lsp.sh)
 *   eof              close the server's standard input
 *   status           wait for the server to end; prints {"status":N}
 * Exit status 0 when the script ran to its end; 3 when a wait timed out
 * (LSP_CLIENT_TIMEOUT seconds, default 120) or the server ended first;
 * 2 on a bad script. Its own framing code, on purpose: the server's is
 * what is under test. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int to, from;          /* pipes to the server's stdin, from its stdout */
  pid_t pid;
  char *buf;             /* bytes read, not yet a whole message */
  size_t n, cap;
  const char *root;
  double timeout;
  double start;          /* when the client started (mark) */
  bool ended;            /* the server closed its output */
} client;

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(int rc, const char *fmt, const char *arg)
{
  fprintf(stderr, "lsp_client: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(rc);
}

/* s with @ROOT@ and @URI@ replaced (caller frees). */
static char *subst(const client *c, const char *s)
{
  char *uri;
  if (asprintf(&uri, "file://%s", c->root) < 0) exit(2);
  size_t cap = strlen(s) + 1, k = 0;
  for (const char *p = s; (p = strchr(p, '@')); p++) cap += strlen(uri);
  char *o = malloc(cap);
  while (*s) {
    const char *w = !strncmp(s, "@ROOT@", 6) ? c->root : !strncmp(s, "@URI@", 5) ? uri : NULL;
    if (w) {
      k += (size_t)sprintf(o + k, "%s", w);
      s += w == uri ? 5 : 6;
    } else {
      o[k++] = *s++;
    }
  }
  o[k] = '\0';
  free(uri);
  return o;
}

static void send_bytes(client *c, const char *b, size_t n)
{
  while (n) {
    ssize_t w = write(c->to, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) die(3, "the server stopped reading (%s)", strerror(errno));
    b += w;
    n -= (size_t)w;
  }
}

static void send_json(client *c, json_t *m)
{
  char *s = json_dumps(m, JSON_COMPACT);
  char head[64];
  int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(s));
  send_bytes(c, head, (size_t)h);
  send_bytes(c, s, strlen(s));
  free(s);
  json_decref(m);
}

/* One whole message from the buffer (caller decrefs), or NULL if none yet. */
static json_t *take_message(client *c)
{
  if (!c->n) return NULL;
  char *end = memmem(c->buf, c->n, "\r\n\r\n", 4);
  if (!end) return NULL;
  size_t hlen = (size_t)(end - c->buf) + 4;
  char *cl = memmem(c->buf, hlen, "Content-Length: ", 16);
  if (!cl) die(3, "%s", "a message from the server has no Content-Length");
  size_t len = strtoul(cl + 16, NULL, 10);
  if (c->n < hlen + len) return NULL;
  json_error_t e;
  json_t *m = json_loadb(c->buf + hlen, len, 0, &e);
  if (!m) die(3, "the server sent a body that is not JSON: %s", e.text);
  memmove(c->buf, c->buf + hlen + len, c->n - hlen - len);
  c->n -= hlen + len;
  char *line = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);
  printf("%s\n", line);
  fflush(stdout);
  free(line);
  return m;
}

/* The next message, waiting until deadline; NULL at the deadline or when
 * the server ended. */
static json_t *next_message(client *c, double deadline)
{
  for (;;) {
    json_t *m = take_message(c);
    if (m || c->ended) return m;
    double left = deadline - now();
    if (left <= 0) return NULL;
    struct pollfd p = { c->from, POLLIN, 0 };
    int r = poll(&p, 1, (int)(left * 1000) + 1);
    if (r <= 0) continue;
    if (c->n + 65536 > c->cap) c->buf = realloc(c->buf, c->cap = (c->n + 65536) * 2);
    ssize_t got = read(c->from, c->buf + c->n, c->cap - c->n);
    if (got <= 0) c->ended = true;
    else c->n += (size_t)got;
  }
}

static bool is_diag_for(const json_t *m, const char *uri)
{
  const char *meth = json_string_value(json_object_get(m, "method"));
  const char *u = json_string_value(json_object_get(json_object_get(m, "params"), "uri"));
  return meth && !strcmp(meth, "textDocument/publishDiagnostics") && u && !strcmp(u, uri);
}

static void wait_for(client *c, json_int_t id, const char *uri, const char *step)
{
  double deadline = now() + c->timeout;
  for (;;) {
    json_t *m = next_message(c, deadline);
    if (!m) die(3, c->ended ? "the server ended before: %s" : "timed out waiting: %s", step);
    bool hit = uri ? is_diag_for(m, uri)
                   : json_is_integer(json_object_get(m, "id")) && json_integer_value(json_object_get(m, "id")) == id &&
                     !json_object_get(m, "method");
    json_decref(m);
    if (hit) return;
  }
}

static char *read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) die(2, "cannot read %s", path);
  char *b = NULL;
  size_t cap = 0, n = 0, got;
  do {
    if (n + 4096 > cap) b = realloc(b, cap = (n + 4096) * 2);
    got = fread(b + n, 1, cap - n, f);
    n += got;
  } while (got);
  fclose(f);
  *len = n;
  return b;
}

static char *uri_of(const client *c, const char *file)
{
  char *u;
  if (asprintf(&u, "file://%s/%s", c->root, file) < 0) exit(2);
  return u;
}

/* didOpen / didChange / didSave of ROOT/file. */
static void doc_step(client *c, const char *kind, const char *file)
{
  char *uri = uri_of(c, file), *path;
  if (asprintf(&path, "%s/%s", c->root, file) < 0) exit(2);
  json_t *params;
  if (!strcmp(kind, "save")) {
    params = json_pack("{s:{s:s}}", "textDocument", "uri", uri);
  } else {
    size_t len;
    char *text = read_file(path, &len);
    json_t *t = json_stringn(text, len);
    if (!t) die(2, "%s is not UTF-8", path);
    static int version = 1;
    params = !strcmp(kind, "open")
      ? json_pack("{s:{s:s,s:s,s:i,s:o}}", "textDocument", "uri", uri, "languageId", "c", "version", version++, "text", t)
      : json_pack("{s:{s:s,s:i},s:[{s:o}]}", "textDocument", "uri", uri, "version", version++, "contentChanges", "text", t);
    free(text);
  }
  const char *method = !strcmp(kind, "open") ? "textDocument/didOpen"
                     : !strcmp(kind, "save") ? "textDocument/didSave" : "textDocument/didChange";
  send_json(c, json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method, "params", params));
  free(uri);
  free(path);
}

/* raw's escapes: \r \n \xHH \\ . */
static void raw_step(client *c, const char *s)
{
  size_t n = 0;
  char *b = malloc(strlen(s) + 1);
  for (; *s; s++) {
    if (*s == '\\' && s[1]) {
      s++;
      if (*s == 'x' && s[1] && s[2]) {   /* \xHH: a byte */
        char hex[3] = { s[1], s[2], '\0' };
        b[n++] = (char)strtol(hex, NULL, 16);
        s += 2;
        continue;
      }
      b[n++] = *s == 'r' ? '\r' : *s == 'n' ? '\n' : *s;
    } else {
      b[n++] = *s;
    }
  }
  send_bytes(c, b, n);
  free(b);
}

static void run_step(client *c, char *line)
{
  line[strcspn(line, "\n")] = '\0';
  char *arg = strchr(line, ' ');
  if (arg) *arg++ = '\0';
  if (!*line || *line == '#') return;
  char *a = arg ? subst(c, arg) : strdup("");
  if (!strcmp(line, "send")) {
    json_error_t e;
    json_t *m = json_loads(a, 0, &e);
    if (!m) die(2, "send: not JSON: %s", a);
    send_json(c, m);
  } else if (!strcmp(line, "raw")) {
    raw_step(c, a);
  } else if (!strcmp(line, "open") || !strcmp(line, "change") || !strcmp(line, "save")) {
    doc_step(c, line, a);
  } else if (!strcmp(line, "sh")) {
    char *cmd;
    if (asprintf(&cmd, "cd '%s' && %s", c->root, a) < 0 || system(cmd) != 0) die(2, "sh: failed: %s", a);
    free(cmd);
  } else if (!strcmp(line, "wait-id")) {
    wait_for(c, strtoll(a, NULL, 10), NULL, a);
  } else if (!strcmp(line, "wait-diag")) {
    char *uri = uri_of(c, a);
    wait_for(c, 0, uri, a);
    free(uri);
  } else if (!strcmp(line, "quiet")) {
    double deadline = now() + strtod(a, NULL);
    json_t *m;
    while ((m = next_message(c, deadline))) {
      bool diag = !strcmp(json_string_value(json_object_get(m, "method")) ? json_string_value(json_object_get(m, "method")) : "",
                          "textDocument/publishDiagnostics");
      json_decref(m);
      if (diag) die(3, "%s", "diagnostics were published during a quiet step");
    }
  } else if (!strcmp(line, "mark")) {
    printf("{\"mark\":\"%s\",\"t\":%.6f}\n", a, now() - c->start);
    fflush(stdout);
  } else if (!strcmp(line, "eof")) {
    close(c->to);
    c->to = -1;
  } else if (!strcmp(line, "status")) {
    double deadline = now() + c->timeout;
    json_t *m;
    while ((m = next_message(c, deadline))) json_decref(m);   /* what it still says, printed */
    int st;
    while (waitpid(c->pid, &st, WNOHANG) == 0) {
      if (now() > deadline) die(3, "%s", "the server did not end");
      usleep(10000);
    }
    printf("{\"status\":%d}\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    c->pid = 0;
  } else {
    die(2, "unknown step '%s'", line);
  }
  free(a);
}

int main(int argc, char **argv)
{
  if (argc < 5 || strcmp(argv[3], "--")) die(2, "%s", "usage: lsp_client ROOT SCRIPT -- SERVER ARGS...");
  signal(SIGPIPE, SIG_IGN);
  client c = { .root = argv[1], .start = now() };
  const char *t = getenv("LSP_CLIENT_TIMEOUT");
  c.timeout = t ? atof(t) : 120;
  FILE *script = fopen(argv[2], "r");
  if (!script) die(2, "cannot read %s", argv[2]);
  int in[2], out[2];
  if (pipe(in) < 0 || pipe(out) < 0) die(2, "%s", "pipe");
  c.pid = fork();
  if (c.pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[1]);
    close(out[0]);
    execvp(argv[4], argv + 4);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  c.to = in[1];
  c.from = out[0];
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, script) > 0) run_step(&c, line);
  free(line);
  fclose(script);
  if (c.pid) {   /* the script did not wait: do not leave the server behind */
    kill(c.pid, SIGTERM);
    waitpid(c.pid, NULL, 0);
  }
  free(c.buf);
  return 0;
}
