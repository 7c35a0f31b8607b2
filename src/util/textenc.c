/* textenc.c — byte strings as valid UTF-8, losslessly (textenc.h). */
#include "util/textenc.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include <string.h>

#define TEXTENC_BASE 0xEF00u   /* byte b is written as U+EF00 + b (b >= 0x80) */

size_t textenc_utf8_len(const unsigned char *s, size_t avail)
{
  if (avail == 0) return 0;
  if (s[0] < 0x80) return 1;
  size_t n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
  if (n == 0 || s[0] >= 0xF8 || n > avail) return 0;
  unsigned cp = s[0] & (0x7F >> n);
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

/* Is the valid 3-byte sequence at s a character of the escape range? */
static int textenc_reserved(const unsigned char *s, size_t n)
{
  if (n != 3) return 0;
  unsigned cp = ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
  return cp >= TEXTENC_BASE + 0x80 && cp <= TEXTENC_BASE + 0xFF;
}

static void textenc_put_cp(strbuf *b, unsigned cp)
{
  char u[4] = { (char)(0xE0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3F)),
                (char)(0x80 | (cp & 0x3F)), '\0' };
  sb_puts(b, u);
}

char *textenc_json(const char *s)
{
  const unsigned char *p = (const unsigned char *)s;
  size_t len = strlen(s);
  strbuf b = {0};
  for (size_t i = 0; i < len;) {
    size_t n = textenc_utf8_len(p + i, len - i);
    if (n && !textenc_reserved(p + i, n)) {
      sb_printf(&b, "%.*s", (int)n, s + i);
      i += n;
    } else {
      /* Every byte of a reserved character, or the one byte that is not
       * UTF-8; the next byte starts afresh. */
      size_t k = n ? n : 1;
      for (size_t j = 0; j < k; j++) textenc_put_cp(&b, TEXTENC_BASE + p[i + j]);
      i += k;
    }
  }
  char *out = xstrdup(sb_str(&b));
  sb_free(&b);
  return out;
}

char *textenc_json_decode(const char *s, size_t len)
{
  const unsigned char *p = (const unsigned char *)s;
  strbuf b = {0};
  for (size_t i = 0; i < len;) {
    if (p[i] == 0) { sb_free(&b); return NULL; }
    size_t n = textenc_utf8_len(p + i, len - i);
    if (n && textenc_reserved(p + i, n)) {
      unsigned cp = ((p[i] & 0x0Fu) << 12) | ((p[i + 1] & 0x3Fu) << 6) | (p[i + 2] & 0x3Fu);
      char c = (char)(cp - TEXTENC_BASE);
      sb_printf(&b, "%c", c);
      i += 3;
    } else {
      size_t k = n ? n : 1;
      sb_printf(&b, "%.*s", (int)k, s + i);
      i += k;
    }
  }
  char *out = xstrdup(sb_str(&b));
  sb_free(&b);
  return out;
}

/* Bytes of the control character at s, or 0 if none starts there. */
static size_t textenc_control(const unsigned char *s, size_t avail, int tabs)
{
  if (s[0] < 0x20) return tabs && s[0] == '\t' ? 0 : 1;
  if (s[0] == 0x7F) return 1;
  return avail >= 2 && s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F ? 2 : 0;
}

void textenc_put_text(FILE *out, const char *s, size_t len, int tabs)
{
  const unsigned char *p = (const unsigned char *)s;
  size_t from = 0;
  for (size_t i = 0; i < len;) {
    size_t n = textenc_control(p + i, len - i, tabs);
    if (!n) { i++; continue; }
    fwrite(s + from, 1, i - from, out);
    unsigned cp = n == 2 ? p[i + 1] : p[i];
    fprintf(out, "<U+%04X>", cp);
    i += n;
    from = i;
  }
  fwrite(s + from, 1, len - from, out);
}

int textenc_text_width(const unsigned char *s, size_t avail, int tabs)
{
  return textenc_control(s, avail, tabs) ? 8 : 1;
}
