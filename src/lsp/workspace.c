/* workspace.c — what the server knows of the client's files: URIs and
 * paths, and positions. purist's positions are 1-based lines and byte
 * columns; LSP's are 0-based lines and characters counted in UTF-16 code
 * units, unless the client accepts "utf-8" (then bytes), which the server
 * then chooses, as clangd does. */
#include "lsp/lsp_internal.h"
#include "util/strbuf.h"
#include <ctype.h>
#include <limits.h>
#include <string.h>

static int ws_hex(int c)
{
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *lsp_uri_to_path(const char *uri)
{
  if (strncmp(uri, "file://", 7) != 0) return NULL;
  const char *p = uri + 7;
  if (*p != '/') {   /* file://host/path: only the local host */
    if (strncmp(p, "localhost/", 10) != 0) return NULL;
    p += 9;
  }
  char *out = xmalloc(strlen(p) + 1), *o = out;
  for (; *p && *p != '?' && *p != '#'; p++) {
    int h, l;
    if (*p == '%' && (h = ws_hex((unsigned char)p[1])) >= 0 && (l = ws_hex((unsigned char)p[2])) >= 0) {
      *o++ = (char)(h * 16 + l);
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = '\0';
  if (strlen(out) != (size_t)(o - out)) {   /* a %00: no such path */
    free(out);
    return NULL;
  }
  char *real = realpath(out, NULL);
  if (real) { free(out); return real; }
  return out;
}

char *lsp_path_to_uri(const char *path)
{
  strbuf b = {0};
  sb_puts(&b, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++)
    if (isalnum(*p) || strchr("-._~/", *p)) sb_printf(&b, "%c", *p);
    else sb_printf(&b, "%%%02X", *p);
  char *s = xstrdup(sb_str(&b));
  sb_free(&b);
  return s;
}

/* The byte offset of the start of 1-based line in text, (size_t)-1 past
 * the end; lines end at "\n", "\r\n" or a lone "\r", as clang counts. */
static size_t ws_line_start(const char *t, size_t len, unsigned line)
{
  size_t i = 0;
  for (unsigned l = 1; l < line; l++) {
    while (i < len && t[i] != '\n' && t[i] != '\r') i++;
    if (i >= len) return (size_t)-1;
    i += (t[i] == '\r' && i + 1 < len && t[i + 1] == '\n') ? 2 : 1;
  }
  return i;
}

static size_t ws_line_end(const char *t, size_t len, size_t start)
{
  while (start < len && t[start] != '\n' && t[start] != '\r') start++;
  return start;
}

/* UTF-16 code units of the UTF-8 sequence starting with byte c (a stray
 * continuation byte or invalid byte counts one, as editors show it). */
static unsigned ws_units(unsigned char c)
{
  return c >= 0xf0 && c < 0xf8 ? 2 : 1;
}

static size_t ws_seq_len(unsigned char c)
{
  return c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xc0 && c < 0xe0 ? 2 : 1;
}

unsigned lsp_char_of(const char *text, size_t len, unsigned line, unsigned col, bool utf8)
{
  if (col == 0) col = 1;
  if (!text || utf8) return col - 1;
  size_t start = ws_line_start(text, len, line);
  if (start == (size_t)-1) return col - 1;
  size_t end = ws_line_end(text, len, start), want = start + col - 1;
  unsigned ch = 0;
  size_t i = start;
  for (; i < end && i < want; i += ws_seq_len((unsigned char)text[i])) ch += ws_units((unsigned char)text[i]);
  if (i < want) ch += (unsigned)(want - i > UINT_MAX / 2 ? 0 : want - i);   /* past the line: as bytes */
  return ch;
}

size_t lsp_offset_of(const char *text, size_t len, unsigned line, unsigned ch, bool utf8)
{
  if (line >= UINT_MAX) return (size_t)-1;
  size_t start = ws_line_start(text, len, line + 1);
  if (start == (size_t)-1) return (size_t)-1;
  size_t end = ws_line_end(text, len, start);
  if (utf8) return start + ch < end ? start + ch : end;
  size_t i = start;
  for (unsigned u = 0; i < end && u < ch; i += ws_seq_len((unsigned char)text[i])) u += ws_units((unsigned char)text[i]);
  return i < end ? i : end;
}

static bool ws_is_id(char c)
{
  return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

unsigned lsp_ident_len(const char *text, size_t len, unsigned line, unsigned col)
{
  if (!text || col == 0) return 0;
  size_t start = ws_line_start(text, len, line);
  if (start == (size_t)-1) return 0;
  size_t end = ws_line_end(text, len, start), i = start + col - 1;
  if (i >= end || !ws_is_id(text[i]) || (i > start && ws_is_id(text[i - 1]))) return 0;
  size_t j = i;
  while (j < end && ws_is_id(text[j])) j++;
  return (unsigned)(j - i);
}

json_t *lsp_range(const char *text, size_t len, unsigned line, unsigned col, unsigned end_line,
                  unsigned end_col, bool utf8)
{
  if (line == 0) line = 1;
  if (end_line == 0) end_line = line;
  return json_pack("{s:{s:I,s:I},s:{s:I,s:I}}",
                   "start", "line", (json_int_t)line - 1, "character",
                   (json_int_t)lsp_char_of(text, len, line, col, utf8),
                   "end", "line", (json_int_t)end_line - 1, "character",
                   (json_int_t)lsp_char_of(text, len, end_line, end_col, utf8));
}
