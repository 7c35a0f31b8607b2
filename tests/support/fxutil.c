/* fxutil.c — see fxutil.h. */
#include "fxutil.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
        exit(2);
    }
    return q;
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xrealloc(NULL, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void strvec_push(struct strvec *sv, char *owned)
{
    if (sv->n == sv->cap) {
        sv->cap = sv->cap ? 2 * sv->cap : 8;
        sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
    }
    sv->v[sv->n++] = owned;
}

void strvec_free(struct strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return lx <= ls && strcmp(s + ls - lx, suffix) == 0;
}

/* Runs argv in dir with stdout captured; stdin is /dev/null, stderr passes. */
bool run_capture(char *const argv[], const char *dir, struct run *r)
{
    int fds[2];
    if (pipe(fds) != 0) {
        fprintf(stderr, "%s: pipe: %s\n", program_invocation_short_name, strerror(errno));
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork: %s\n", program_invocation_short_name, strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            close(null);
        }
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        if (chdir(dir) != 0) {
            fprintf(stderr, "%s: chdir %s: %s\n", program_invocation_short_name, dir, strerror(errno));
            _exit(127);
        }
        execv(argv[0], argv);
        fprintf(stderr, "%s: exec %s: %s\n", program_invocation_short_name, argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 8192;
    r->out = xrealloc(NULL, cap);
    r->len = 0;
    for (;;) {
        if (cap - r->len < 4096) {
            cap *= 2;
            r->out = xrealloc(r->out, cap);
        }
        ssize_t got = read(fds[0], r->out + r->len, cap - r->len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        r->len += (size_t)got;
    }
    r->out[r->len] = '\0';
    close(fds[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "%s: waitpid: %s\n", program_invocation_short_name, strerror(errno));
            return false;
        }
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return true;
}

bool fixture_collect_files(const char *arg, char **dir, struct strvec *inputs, struct strvec *scanned)
{
    struct stat st;
    if (stat(arg, &st) != 0) {
        fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, arg, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        const char *slash = strrchr(arg, '/');
        *dir = slash ? xstrndup(arg, (size_t)(slash - arg) + (slash == arg)) : xstrdup(".");
        const char *base = slash ? slash + 1 : arg;
        if (!ends_with(base, ".c")) {
            fprintf(stderr, "%s: %s: not a .c file or a directory\n", program_invocation_short_name, arg);
            return false;
        }
        strvec_push(inputs, xstrdup(base));
        strvec_push(scanned, xstrdup(base));
        return true;
    }
    *dir = xstrdup(arg);
    DIR *d = opendir(arg);
    if (!d) {
        fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, arg, strerror(errno));
        return false;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (ends_with(de->d_name, ".c"))
            strvec_push(inputs, xstrdup(de->d_name));
        if (ends_with(de->d_name, ".c") || ends_with(de->d_name, ".h"))
            strvec_push(scanned, xstrdup(de->d_name));
    }
    closedir(d);
    qsort(inputs->v, inputs->n, sizeof *inputs->v, cmp_str);
    qsort(scanned->v, scanned->n, sizeof *scanned->v, cmp_str);
    if (inputs->n == 0) {
        fprintf(stderr, "%s: %s: no .c files\n", program_invocation_short_name, arg);
        return false;
    }
    return true;
}
