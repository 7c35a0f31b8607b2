/*
** text.h - statistics over a NUL-terminated text.
*/
#ifndef EX_TEXT_H
#define EX_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "compiler.h"

/* word_len[k] counts words of k + 1 characters; the last bucket also
** counts all longer words. */
#define TEXT_MAX_LEN 8

struct text_stats {
    size_t lines;                 /* newline characters */
    size_t words;                 /* runs of non-space characters */
    size_t digits;                /* '0'..'9' */
    size_t upper;                 /* 'A'..'Z' */
    uint32_t checksum;            /* text_checksum() of the whole text */
    int word_len[TEXT_MAX_LEN];   /* histogram of word lengths */
};

/* 32-bit FNV-1a hash of the LEN bytes at BUF. */
uint32_t text_checksum(const unsigned char *buf, size_t len) EX_PURE;

/* Counts in S: words, decimal digits, upper-case ASCII letters. */
size_t text_count_words(const char *s);
size_t text_count_digits(const char *s);
size_t text_count_upper(const char *s);

/* Copies S to DST in lower case; DST must hold strlen(S) + 1 bytes. */
void text_copy_lower(char *dst, const char *s);

/* Fills *ST with the statistics of S. */
void text_stats_compute(const char *s, struct text_stats *st);

/* Sum of the N entries of COUNTS (logged at debug level). */
long total(const int *counts, size_t n);

#endif /* EX_TEXT_H */
