/* transport.c — LSP's base protocol: a header block (`Content-Length: N`,
 * maybe `Content-Type: …`, each line ending in "\r\n", then an empty
 * line), then N bytes of JSON. A client that gets the framing wrong must
 * cost one error answer, never the server: a bad header line is consumed
 * alone, so the next well-formed header is read as one. */
#include "lsp/lsp_internal.h"
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

/* A header line longer than this is not a header (its rest is skipped). */
#define LSP_MAX_LINE 4096

typedef enum { LINE_OK, LINE_EOF, LINE_LONG } line_status;

/* One line without its "\r\n" (or "\n") into buf (size LSP_MAX_LINE). */
static line_status transport_line(FILE *in, char *buf, size_t *n)
{
  size_t k = 0;
  bool long_line = false;
  int c;
  while ((c = getc(in)) != EOF && c != '\n') {
    if (k + 1 < LSP_MAX_LINE) buf[k++] = (char)c;
    else long_line = true;
  }
  if (c == EOF && k == 0 && !long_line) return LINE_EOF;
  if (k && buf[k - 1] == '\r') k--;
  buf[k] = '\0';
  *n = k;
  return long_line ? LINE_LONG : LINE_OK;
}

/* Reads and drops n bytes; false at end of input. */
static bool transport_skip(FILE *in, size_t n)
{
  char tmp[4096];
  while (n) {
    size_t want = n < sizeof tmp ? n : sizeof tmp, got = fread(tmp, 1, want, in);
    if (got == 0) return false;
    n -= got;
  }
  return true;
}

/* The value of a Content-Length header: a whole decimal number; -1 if not one. */
static long long transport_length(const char *v)
{
  while (*v == ' ' || *v == '\t') v++;
  if (!isdigit((unsigned char)*v)) return -1;
  long long n = 0;
  for (; isdigit((unsigned char)*v); v++) {
    if (n > (long long)LSP_MAX_BODY * 16) return (long long)LSP_MAX_BODY * 16;   /* huge: skipped anyway */
    n = n * 10 + (*v - '0');
  }
  while (*v == ' ' || *v == '\t') v++;
  return *v ? -1 : n;
}

/* "Content-Length:" in line, in any case, wherever it starts; NULL if absent. */
static const char *transport_find_length(const char *line)
{
  for (const char *p = line; *p; p++)
    if (!strncasecmp(p, "Content-Length:", 15)) return p;
  return NULL;
}

lsp_read_status lsp_transport_read(FILE *in, char **body, size_t *len, char **err)
{
  char line[LSP_MAX_LINE];
  long long length = -2;   /* -2: no Content-Length yet; -1: an unreadable one */
  size_t n, lines = 0;
  for (;;) {
    line_status st = transport_line(in, line, &n);
    if (st == LINE_EOF) return LSP_READ_EOF;
    if (st == LINE_LONG) {
      *err = xstrdup("a header line longer than 4096 bytes (is the Content-Length header missing?)");
      return LSP_READ_BAD;
    }
    if (n == 0) {
      if (lines == 0) continue;   /* blank lines between messages: tolerated */
      break;
    }
    lines++;
    const char *cl = transport_find_length(line);
    if (cl) {   /* maybe after the unterminated body of a bad message: resynchronised here */
      length = transport_length(cl + 15);
      continue;
    }
    size_t name = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-");
    if (name == 0 || line[name] != ':') {
      *err = xasprintf("not a header line: '%.80s' (a message starts with Content-Length: N)", line);
      return LSP_READ_BAD;
    }
  }
  if (length < 0) {
    *err = xstrdup(length == -2 ? "a header without Content-Length" : "a Content-Length that is not a number");
    return LSP_READ_BAD;
  }
  if ((unsigned long long)length > LSP_MAX_BODY) {
    if (!transport_skip(in, (size_t)length)) return LSP_READ_EOF;
    *err = xasprintf("a message of %lld bytes (at most %zu are read)", length, LSP_MAX_BODY);
    return LSP_READ_BAD;
  }
  char *b = xmalloc((size_t)length + 1);
  if (fread(b, 1, (size_t)length, in) != (size_t)length) {
    free(b);
    return LSP_READ_EOF;
  }
  b[length] = '\0';
  *body = b;
  *len = (size_t)length;
  return LSP_READ_OK;
}

int lsp_transport_write(FILE *out, const json_t *msg)
{
  char *s = json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII);
  if (!s) return -1;
  size_t n = strlen(s);
  int rc = fprintf(out, "Content-Length: %zu\r\n\r\n", n) < 0 || fwrite(s, 1, n, out) != n || fflush(out) != 0
               ? -1 : 0;
  free(s);
  return rc;
}
