/*
 * A stand-in for purist, used only by diag_check's self-tests: it lets the
 * checker be tested against reports written by hand.  Run in the fixture
 * directory, it
 *   - checks that it was called as `check|suggest|explain --format=json
 *     ... -- ...` and that every input named before "--" exists in the
 *     working directory (proving diag_check changed directory);
 *   - if fake.argv exists, checks that its arguments (one per line, from
 *     the command on) are exactly those lines;
 *   - prints fake.json and exits with the number in fake.exit (default 0).
 * Each fake.X is first looked for as fake-COMMAND.X.
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *slurp(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* fake-COMMAND.EXT, else fake.EXT; a copy the caller frees, or NULL. */
static char *fake_file(const char *command, const char *ext)
{
    char name[64];
    snprintf(name, sizeof name, "fake-%s.%s", command, ext);
    const char *text = slurp(name);
    if (!text) {
        snprintf(name, sizeof name, "fake.%s", ext);
        text = slurp(name);
    }
    return text ? strdup(text) : NULL;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "check") && strcmp(argv[1], "suggest") &&
                     strcmp(argv[1], "explain")) || strcmp(argv[2], "--format=json") != 0) {
        fputs("fake_purist: expected `check|suggest|explain --format=json ...`\n", stderr);
        return 98;
    }
    int dd = 0;
    for (int i = 3; i < argc && !dd; i++) {
        struct stat st;
        if (strcmp(argv[i], "--") == 0)
            dd = i;
        else if (argv[i][0] != '-' && stat(argv[i], &st) != 0) {
            fprintf(stderr, "fake_purist: no input %s in the working directory\n", argv[i]);
            return 98;
        }
    }
    if (!dd) {
        fputs("fake_purist: no \"--\" before the compiler flags\n", stderr);
        return 98;
    }
    char *want = fake_file(argv[1], "argv");
    if (want) {
        const char *p = want;
        for (int i = 1; i < argc; i++) {
            size_t n = strlen(argv[i]);
            if (strncmp(p, argv[i], n) != 0 || p[n] != '\n') {
                fprintf(stderr, "fake_purist: argument %d is \"%s\", not as in fake.argv\n",
                        i, argv[i]);
                return 98;
            }
            p += n + 1;
        }
        if (*p) {
            fputs("fake_purist: fewer arguments than fake.argv lists\n", stderr);
            return 98;
        }
        free(want);
    }
    char *ex = fake_file(argv[1], "exit");
    int status = ex ? atoi(ex) : 0;
    char *json = fake_file(argv[1], "json");
    if (json)
        fputs(json, stdout);
    free(ex);
    free(json);
    return status;
}
