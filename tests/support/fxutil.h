/* fxutil.h — what the two fixture checkers (fixture_check for infer,
 * diag_check for check/suggest/explain) share: small allocation helpers,
 * a vector of strings, and running purist with its output captured.
 * Messages are prefixed with the running program's name. */
#ifndef PURIST_TEST_FXUTIL_H
#define PURIST_TEST_FXUTIL_H
#include <stdbool.h>
#include <stddef.h>

void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable vector of owned strings. */
struct strvec {
    char **v;
    size_t n, cap;
};

void strvec_push(struct strvec *sv, char *owned);
void strvec_free(struct strvec *sv);
int cmp_str(const void *a, const void *b);
bool ends_with(const char *s, const char *suffix);

/* The files of a fixture argument (a .c file, or a directory of them):
 * the directory, the .c inputs and every .c/.h to scan, sorted. */
bool fixture_collect_files(const char *arg, char **dir, struct strvec *inputs, struct strvec *scanned);

/* The captured run of a command. */
struct run {
    char *out;
    size_t len;
    int status; /* exit status, or 128 + signal */
};

/* Runs argv in dir with stdout captured; stdin is /dev/null, stderr passes. */
bool run_capture(char *const argv[], const char *dir, struct run *r);

#endif
