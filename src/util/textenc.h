/* textenc.h — one lossless encoding of byte strings in JSON text.
 *
 * File names, function names and messages are bytes; JSON (and so
 * purist's JSON, SARIF and the HTML report's data) holds Unicode text.
 * The rule (docs/file-names.md), applied by every writer of JSON:
 *
 *   - a valid UTF-8 sequence is written as the character it encodes,
 *     except a character in U+EF80..U+EFFF;
 *   - every other byte b (a byte that is not part of valid UTF-8, or one
 *     byte of a character in U+EF80..U+EFFF) is written as U+EF00 + b,
 *     a private-use character in U+EF80..U+EFFF.
 *
 * So "lat\xE9n.c" is written "lat\uEFE9n.c". The output is always valid
 * UTF-8 (any JSON parser reads it), text that is UTF-8 comes out
 * unchanged (U+EF80..U+EFFF is a private-use range no real name uses),
 * and decoding (each U+EF80..U+EFFF back to its byte) gives back exactly
 * the original bytes. It is MirBSD's OPTU-8 mapping. */
#ifndef PURIST_TEXTENC_H
#define PURIST_TEXTENC_H
#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if s does not
 * start one (overlong forms, surrogates, > U+10FFFF, cut short). */
size_t textenc_utf8_len(const unsigned char *s, size_t avail);
/* s encoded by the rule above; NUL-terminated, caller frees. */
char *textenc_json(const char *s);
/* The bytes that s[0..len) encodes: the rule above reversed
 * (NUL-terminated, caller frees). NULL if they would hold a NUL byte. */
char *textenc_json_decode(const char *s, size_t len);

/* Writes s[0..len) for a terminal: a control character (C0 but a tab
 * when tabs, DEL, C1 as UTF-8) is written as "<U+001B>", as clang shows
 * one in a source line: an ESC or BEL in a file name or a quoted line no
 * longer reaches the terminal, and a newline in a file name no longer
 * splits a diagnostic line. */
void textenc_put_text(FILE *out, const char *s, size_t len, int tabs);
/* The columns textenc_put_text gives the character at s (1, or 8). */
int textenc_text_width(const unsigned char *s, size_t avail, int tabs);

#endif
