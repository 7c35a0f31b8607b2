/*
** text.c - statistics over a text.  Everything reads the text through a
** pointer, so the best any of these can be is pure.
*/
#include <string.h>

#include "text.h"
#include "log.h"
#include "util.h"

/* purist: pure — reads the buffer through BUF; declared EX_PURE, and it is */
uint32_t text_checksum(const unsigned char *buf, size_t len)
{
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < len; i++) {
        h ^= buf[i];
        h *= 16777619u;
    }
    return h;
}

/* purist: pure, may not return — reads S; walking to the NUL is not provably finite */
size_t text_count_words(const char *s)
{
    size_t n = 0;
    int in_word = 0;

    for (; *s; s++) {
        if (ex_is_space((unsigned char)*s))
            in_word = 0;
        else if (!in_word) {
            in_word = 1;
            n++;
        }
    }
    return n;
}

/* purist: pure, may not return — reads S; walking to the NUL is not provably finite */
size_t text_count_digits(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        if (ex_is_digit((unsigned char)*s))
            n++;
    return n;
}

/* purist: pure — reads S; the strlen(s) in the loop test is hoistable: no stores */
size_t text_count_upper(const char *s)
{
    size_t n = 0;

    for (size_t i = 0; i < strlen(s); i++)
        if (s[i] >= 'A' && s[i] <= 'Z')
            n++;
    return n;
}

/* purist: normal — stores through DST, which also keeps strlen(s) in the loop test */
void text_copy_lower(char *dst, const char *s)
{
    size_t i;

    for (i = 0; i < strlen(s); i++)
        dst[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
    dst[i] = '\0';
}

/* purist: normal — writes *ST (only through its out-parameter) */
void text_stats_compute(const char *s, struct text_stats *st)
{
    size_t len = strlen(s);
    size_t run = 0;

    memset(st, 0, sizeof *st);
    st->words = text_count_words(s);
    st->digits = text_count_digits(s);
    st->upper = text_count_upper(s);
    st->checksum = text_checksum((const unsigned char *)s, len);
    for (size_t i = 0; i <= len; i++) {
        if (i < len && !ex_is_space((unsigned char)s[i])) {
            run++;
            continue;
        }
        if (i < len && s[i] == '\n')
            st->lines++;
        if (run > 0)
            st->word_len[(run < TEXT_MAX_LEN ? run : TEXT_MAX_LEN) - 1]++;
        run = 0;
    }
}

/* purist: normal — log_msg() (log.c) writes to stderr */
long total(const int *counts, size_t n)
{
    long sum = 0;

    for (size_t i = 0; i < n; i++)
        sum += counts[i];
    log_msg(LOG_DEBUG, "total of %zu buckets: %ld", n, sum);
    return sum;
}
