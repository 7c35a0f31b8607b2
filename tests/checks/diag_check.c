/*
 * diag_check — run `purist check|suggest|explain --format=json` on one
 * fixture and hold its diagnostics against the expectations written in the
 * fixture's comments, on the very line where each diagnostic belongs.
 *
 *   diag_check PURIST COMMAND FIXTURE
 *
 * FIXTURE is a .c file or a directory (every *.c in it, sorted by name, is
 * an input; every *.c and *.h in it is scanned for expectations).  purist
 * runs with the fixture's directory as working directory, as
 *
 *   PURIST COMMAND --format=json ARGS... FILES... -- FLAGS...
 *
 * Directives, anywhere on a line after "//" (several on one line allowed):
 *   flags: ...                  compiler flags (joined over all inputs)
 *   args: ...                   extra purist options (joined over all inputs)
 *   expect-command: CMD...      the commands this fixture is run for
 *   expect-exit: N [command=CMD]   (default 0; without command= for all)
 *   expect-order: [command=CMD] NAME...   the first diagnostics of these
 *                functions come in this order (each must be reported)
 *   expect-diag: CHECK [severity=error|warning|note] [function=NAME]
 *                [line=+N|line=-N|line=N] [column=N] [msg~"substring"]...
 *                [msg!~"substring"]... [related=FILE:LINE]...
 * An expect-diag: says that exactly one diagnostic CHECK is reported at the
 * directive's own line of its own file (or at the line given by line=,
 * relative or absolute).  CHECK is compared exactly (`misuse` does not
 * match `misuse-void`).  Each diagnostic belongs to one command (misuse*,
 * cheat*, allowed* to check; suggest-* to suggest; dead-call, redundant-call,
 * loop-invariant-call to explain); a run of COMMAND holds only that
 * command's expectations.  Every reported diagnostic must be expected and
 * every expectation met.
 *
 * Exit status: 0 all expectations hold, 1 a mismatch (each printed as
 * "LABEL: ...", then the command that reproduces the run), 2 the checker
 * could not run or COMMAND is not among the fixture's expect-command:.
 */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "fxutil.h"

/* ---- small utilities ------------------------------------------------ */

static bool strvec_has(const struct strvec *sv, const char *s)
{
    for (size_t i = 0; i < sv->n; i++)
        if (strcmp(sv->v[i], s) == 0)
            return true;
    return false;
}

/* Reads a whole file; NULL (errno set) on failure. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = xrealloc(NULL, cap);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static bool parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

/* ---- the vocabulary ---------------------------------------------------- */

static const char *const commands[] = {"check", "suggest", "explain", NULL};
static const char *const severities[] = {"error", "warning", "note", NULL};

static bool in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

/*
 * The command whose output carries diagnostics of kind `check` (a known
 * check, or one refining it with a "-suffix"), or NULL for an unknown one.
 */
static const char *check_command(const char *check)
{
    static const struct {
        const char *check, *command;
    } table[] = {
        {"misuse", "check"},        {"cheat", "check"},       {"allowed", "check"},
        {"suggest-const", "suggest"}, {"suggest-pure", "suggest"},
        {"suggest-unsequenced", "suggest"}, {"suggest-reproducible", "suggest"},
        {"dead-call", "explain"},   {"redundant-call", "explain"},
        {"loop-invariant-call", "explain"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        size_t n = strlen(table[i].check);
        if (strncmp(check, table[i].check, n) == 0 && (check[n] == '\0' || check[n] == '-'))
            return table[i].command;
    }
    return NULL;
}

/* ---- the fixture ------------------------------------------------------ */

struct related {
    char *file;
    long line;
};

struct expect {
    char *where;       /* "file.c:12", for messages */
    char *file;        /* the file the diagnostic must be in */
    long line;         /* the line it must be at */
    long column;       /* 0 when not checked */
    char *check;
    char *severity;    /* NULL when not checked */
    char *function;    /* NULL when not checked */
    struct strvec msg_has, msg_lacks;
    struct related *rel;
    size_t nrel;
    long match;        /* index of the diagnostic it is matched with, or -1 */
};

struct fixture {
    char *label;            /* what messages start with: "command/name" */
    const char *command;
    char *dir;              /* working directory for purist */
    struct strvec inputs;   /* .c files, relative to dir, sorted */
    struct strvec scanned;  /* .c and .h files, relative to dir, sorted */
    struct strvec flags, args, commands;
    struct expect *ex;      /* this command's expectations only */
    size_t nex, capex;
    struct strvec wanted;   /* "CMD\tFILE:LINE" of every expectation, any command */
    long exit_expected;
    char *exit_where;
    bool exit_for_command;  /* the expect-exit: in force has command= */
    struct strvec order;    /* expect-order: names, in the order wanted */
    char *order_where;
    int errors;
};

static void fixture_fail(struct fixture *fx, const char *fmt, ...)
{
    va_list ap;
    printf("%s: ", fx->label);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fx->errors++;
}

static void expect_free(struct expect *e)
{
    free(e->where);
    free(e->file);
    free(e->check);
    free(e->severity);
    free(e->function);
    strvec_free(&e->msg_has);
    strvec_free(&e->msg_lacks);
    for (size_t i = 0; i < e->nrel; i++)
        free(e->rel[i].file);
    free(e->rel);
}

static void fixture_free(struct fixture *fx)
{
    for (size_t i = 0; i < fx->nex; i++)
        expect_free(&fx->ex[i]);
    free(fx->ex);
    free(fx->dir);
    free(fx->label);
    free(fx->exit_where);
    strvec_free(&fx->inputs);
    strvec_free(&fx->scanned);
    strvec_free(&fx->flags);
    strvec_free(&fx->args);
    strvec_free(&fx->commands);
    strvec_free(&fx->wanted);
    strvec_free(&fx->order);
    free(fx->order_where);
}

/*
 * Splits s into whitespace-separated words.  Double quotes group words
 * (and vanish); inside them a backslash escapes the next character.
 * Returns false on an unterminated quote.
 */
static bool split_words(const char *s, struct strvec *out)
{
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (!*s)
            return true;
        size_t n = 0;
        char *w = xrealloc(NULL, strlen(s) + 1);
        bool quoted = false;
        while (*s && (quoted || (*s != ' ' && *s != '\t' && *s != '\r'))) {
            if (*s == '"') {
                quoted = !quoted;
                s++;
            } else if (quoted && *s == '\\' && s[1]) {
                w[n++] = s[1];
                s += 2;
            } else {
                w[n++] = *s++;
            }
        }
        w[n] = '\0';
        strvec_push(out, w);
        if (quoted)
            return false;
    }
}

/* Parses one option of an expect-diag: line into e. */
static bool parse_diag_option(struct expect *e, const char *w, long here)
{
    if (strncmp(w, "severity=", 9) == 0) {
        if (!in_list(severities, w + 9))
            return false;
        free(e->severity);
        e->severity = xstrdup(w + 9);
    } else if (strncmp(w, "function=", 9) == 0 && w[9]) {
        free(e->function);
        e->function = xstrdup(w + 9);
    } else if (strncmp(w, "line=", 5) == 0) {
        long v;
        if (!parse_long(w + 5, &v))
            return false;
        e->line = (w[5] == '+' || w[5] == '-') ? here + v : v;
        return e->line > 0;
    } else if (strncmp(w, "column=", 7) == 0) {
        return parse_long(w + 7, &e->column) && e->column > 0;
    } else if (strncmp(w, "msg~", 4) == 0 && w[4]) {
        strvec_push(&e->msg_has, xstrdup(w + 4));
    } else if (strncmp(w, "msg!~", 5) == 0 && w[5]) {
        strvec_push(&e->msg_lacks, xstrdup(w + 5));
    } else if (strncmp(w, "related=", 8) == 0) {
        const char *colon = strrchr(w + 8, ':');
        long v;
        if (!colon || colon == w + 8 || !parse_long(colon + 1, &v) || v <= 0)
            return false;
        e->rel = xrealloc(e->rel, (e->nrel + 1) * sizeof *e->rel);
        e->rel[e->nrel].file = xstrndup(w + 8, (size_t)(colon - (w + 8)));
        e->rel[e->nrel].line = v;
        e->nrel++;
    } else {
        return false;
    }
    return true;
}

static void directive_expect_diag(struct fixture *fx, struct strvec *w, const char *where,
                                  const char *src, long lineno)
{
    if (w->n < 1) {
        fixture_fail(fx, "%s: malformed \"expect-diag:\" directive", where);
        return;
    }
    const char *cmd = check_command(w->v[0]);
    if (!cmd) {
        fixture_fail(fx, "%s: unknown check \"%s\"", where, w->v[0]);
        return;
    }
    struct expect e = {0};
    e.where = xstrdup(where);
    e.file = xstrdup(src);
    e.line = lineno;
    e.check = xstrdup(w->v[0]);
    e.match = -1;
    for (size_t i = 1; i < w->n; i++)
        if (!parse_diag_option(&e, w->v[i], lineno)) {
            fixture_fail(fx, "%s: bad expect-diag option \"%s\"", where, w->v[i]);
            expect_free(&e);
            return;
        }
    strvec_push(&fx->wanted, xasprintf("%s\t%s", cmd, where));
    if (strcmp(cmd, fx->command) != 0) {
        expect_free(&e);
        return;
    }
    if (fx->nex == fx->capex) {
        fx->capex = fx->capex ? 2 * fx->capex : 16;
        fx->ex = xrealloc(fx->ex, fx->capex * sizeof *fx->ex);
    }
    fx->ex[fx->nex++] = e;
}

/* Handles one directive; `text` is what follows the keyword's colon. */
static void fixture_directive(struct fixture *fx, const char *key, const char *text,
                              const char *src, long lineno, bool is_input)
{
    char *where = xasprintf("%s:%ld", src, lineno);
    struct strvec w = {0};
    if (!split_words(text, &w)) {
        fixture_fail(fx, "%s: unterminated quote in \"%s:\" directive", where, key);
        goto out;
    }
    if (strcmp(key, "flags") == 0 || strcmp(key, "args") == 0) {
        if (!is_input) {
            fixture_fail(fx, "%s: \"%s:\" is only read from .c inputs", where, key);
            goto out;
        }
        struct strvec *dst = key[0] == 'f' ? &fx->flags : &fx->args;
        for (size_t i = 0; i < w.n; i++) {
            strvec_push(dst, w.v[i]);
            w.v[i] = NULL;
        }
    } else if (strcmp(key, "expect-command") == 0) {
        if (w.n == 0)
            fixture_fail(fx, "%s: expected \"expect-command: check|suggest|explain...\"", where);
        for (size_t i = 0; i < w.n; i++) {
            if (!in_list(commands, w.v[i]))
                fixture_fail(fx, "%s: unknown command \"%s\"", where, w.v[i]);
            else if (!strvec_has(&fx->commands, w.v[i]))
                strvec_push(&fx->commands, xstrdup(w.v[i]));
        }
    } else if (strcmp(key, "expect-exit") == 0) {
        long v;
        const char *only = NULL;
        if (w.n == 2 && strncmp(w.v[1], "command=", 8) == 0 && in_list(commands, w.v[1] + 8))
            only = w.v[1] + 8;
        if (w.n < 1 || w.n > 2 || (w.n == 2 && !only) || !parse_long(w.v[0], &v) || v < 0 ||
            v > 255) {
            fixture_fail(fx, "%s: expected \"expect-exit: N [command=CMD]\"", where);
        } else if (only && strcmp(only, fx->command) != 0) {
            /* for another command */
        } else if (fx->exit_where && fx->exit_for_command == (only != NULL)) {
            fixture_fail(fx, "%s: second expect-exit (first at %s)", where, fx->exit_where);
        } else if (!fx->exit_where || only) {
            /* command= is more specific than a bare expect-exit: */
            free(fx->exit_where);
            fx->exit_expected = v;
            fx->exit_where = xstrdup(where);
            fx->exit_for_command = only != NULL;
        }
    } else if (strcmp(key, "expect-diag") == 0) {
        directive_expect_diag(fx, &w, where, src, lineno);
    } else if (strcmp(key, "expect-order") == 0) {
        size_t first = 0;
        if (w.n && strncmp(w.v[0], "command=", 8) == 0) {
            if (!in_list(commands, w.v[0] + 8)) {
                fixture_fail(fx, "%s: unknown command \"%s\"", where, w.v[0] + 8);
                goto out;
            }
            if (strcmp(w.v[0] + 8, fx->command) != 0)
                goto out;
            first = 1;
        }
        if (w.n < first + 2) {
            fixture_fail(fx, "%s: expected \"expect-order: [command=CMD] NAME NAME...\"", where);
        } else if (fx->order_where) {
            fixture_fail(fx, "%s: second expect-order (first at %s)", where, fx->order_where);
        } else {
            fx->order_where = xstrdup(where);
            for (size_t i = first; i < w.n; i++) {
                strvec_push(&fx->order, w.v[i]);
                w.v[i] = NULL;
            }
        }
    }
out:
    strvec_free(&w);
    free(where);
}

/*
 * Where a directive's text ends: at the next "//" outside double quotes
 * (another directive may follow on the line), or at the end of the line.
 */
static const char *directive_end(const char *s)
{
    bool quoted = false;
    for (; *s; s++) {
        if (quoted && *s == '\\' && s[1])
            s++;
        else if (*s == '"')
            quoted = !quoted;
        else if (!quoted && s[0] == '/' && s[1] == '/')
            return s;
    }
    return s;
}

/*
 * Finds the directives on a line: every "//" followed (after blanks) by a
 * known keyword and a colon.  A "//" followed by "expect" and anything else
 * is a typo and reported.
 */
static void fixture_scan_line(struct fixture *fx, const char *line, const char *src,
                              long lineno, bool is_input)
{
    static const char *const keys[] = {"expect-command", "expect-exit", "expect-diag",
                                       "expect-order", "flags", "args", NULL};
    const char *p = strstr(line, "//");
    while (p) {
        const char *q = p + 2;
        while (*q == ' ' || *q == '\t')
            q++;
        bool found = false;
        for (int k = 0; keys[k] && !found; k++) {
            size_t kl = strlen(keys[k]);
            if (strncmp(q, keys[k], kl) == 0 && q[kl] == ':') {
                const char *end = directive_end(q + kl + 1);
                char *text = xstrndup(q + kl + 1, (size_t)(end - (q + kl + 1)));
                fixture_directive(fx, keys[k], text, src, lineno, is_input);
                free(text);
                p = *end ? end : NULL;
                found = true;
            }
        }
        if (found)
            continue;
        if (strncmp(q, "expect", 6) == 0)
            fixture_fail(fx, "%s:%ld: unknown directive \"%.20s\"", src, lineno, q);
        p = strstr(p + 2, "//");
    }
}

static bool fixture_scan_file(struct fixture *fx, const char *rel, bool is_input)
{
    char *path = xasprintf("%s/%s", fx->dir, rel);
    char *text = read_file(path);
    if (!text) {
        fprintf(stderr, "diag_check: %s: %s\n", path, strerror(errno));
        free(path);
        return false;
    }
    long lineno = 1;
    for (char *line = text; line; lineno++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        fixture_scan_line(fx, line, rel, lineno, is_input);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    free(path);
    return true;
}

/* Fills dir, inputs and scanned from the FIXTURE argument. */
static bool fixture_collect(struct fixture *fx, const char *arg)
{
    return fixture_collect_files(arg, &fx->dir, &fx->inputs, &fx->scanned);
}

/* ---- running purist ----------------------------------------------------- */

/* ---- the report ----------------------------------------------------------- */

struct diag {
    const char *check, *severity, *file, *function, *message; /* borrowed */
    long line, column;
    json_t *related;   /* borrowed array, validated */
    bool matched;
};

static bool file_matches(const char *file, const char *want)
{
    size_t lf = strlen(file), lw = strlen(want);
    return strcmp(file, want) == 0 ||
           (lw < lf && file[lf - lw - 1] == '/' && strcmp(file + lf - lw, want) == 0);
}

/* Reads diagnostics[i] into d, reporting every missing key or wrong type. */
static bool diag_read(struct fixture *fx, json_t *obj, size_t i, struct diag *d)
{
    memset(d, 0, sizeof *d);
    if (!json_is_object(obj)) {
        fixture_fail(fx, "diagnostics[%zu]: expected an object, got another JSON type", i);
        return false;
    }
    bool ok = true;
    static const char *const strings[] = {"check", "severity", "file", "function", "message"};
    const char **dst[] = {&d->check, &d->severity, &d->file, &d->function, &d->message};
    for (int k = 0; k < 5; k++) {
        json_t *v = json_object_get(obj, strings[k]);
        if (!json_is_string(v)) {
            fixture_fail(fx, "diagnostics[%zu]: expected string \"%s\", got %s", i, strings[k],
                         v ? "another JSON type" : "no such key");
            ok = false;
        } else {
            *dst[k] = json_string_value(v);
        }
    }
    static const char *const ints[] = {"line", "column"};
    long *idst[] = {&d->line, &d->column};
    for (int k = 0; k < 2; k++) {
        json_t *v = json_object_get(obj, ints[k]);
        if (!json_is_integer(v) || json_integer_value(v) <= 0) {
            fixture_fail(fx, "diagnostics[%zu]: expected positive integer \"%s\", got %s", i,
                         ints[k], v ? "another value" : "no such key");
            ok = false;
        } else {
            *idst[k] = (long)json_integer_value(v);
        }
    }
    if (d->severity && !in_list(severities, d->severity)) {
        fixture_fail(fx, "diagnostics[%zu]: expected \"severity\" one of error|warning|note, "
                     "got %s", i, d->severity);
        ok = false;
    }
    if (d->check && !check_command(d->check)) {
        fixture_fail(fx, "diagnostics[%zu]: expected a known \"check\", got %s", i, d->check);
        ok = false;
    } else if (d->check && strcmp(check_command(d->check), fx->command) != 0) {
        fixture_fail(fx, "diagnostics[%zu]: expected a check of `%s`, got %s", i, fx->command,
                     d->check);
        ok = false;
    }
    json_t *rel = json_object_get(obj, "related");
    if (rel && !json_is_array(rel)) {
        fixture_fail(fx, "diagnostics[%zu]: expected array \"related\", got another JSON type", i);
        return false;
    }
    for (size_t k = 0; rel && k < json_array_size(rel); k++) {
        json_t *r = json_array_get(rel, k);
        if (!json_is_object(r) || !json_is_string(json_object_get(r, "file")) ||
            !json_is_integer(json_object_get(r, "line")) ||
            !json_is_integer(json_object_get(r, "column")) ||
            !json_is_string(json_object_get(r, "message"))) {
            fixture_fail(fx, "diagnostics[%zu].related[%zu]: expected an object with file, "
                         "line, column, message", i, k);
            ok = false;
        }
    }
    d->related = rel;
    return ok;
}

static bool has_related(const struct diag *d, const struct related *want)
{
    for (size_t k = 0; d->related && k < json_array_size(d->related); k++) {
        json_t *r = json_array_get(d->related, k);
        if (file_matches(json_string_value(json_object_get(r, "file")), want->file) &&
            json_integer_value(json_object_get(r, "line")) == want->line)
            return true;
    }
    return false;
}

/* Does diagnostic d meet every condition of expectation x? */
static bool expect_accepts(const struct expect *x, const struct diag *d)
{
    if (strcmp(x->check, d->check) != 0 || !file_matches(d->file, x->file) || x->line != d->line)
        return false;
    if ((x->column && x->column != d->column) ||
        (x->severity && strcmp(x->severity, d->severity) != 0) ||
        (x->function && strcmp(x->function, d->function) != 0))
        return false;
    for (size_t k = 0; k < x->msg_has.n; k++)
        if (!strstr(d->message, x->msg_has.v[k]))
            return false;
    for (size_t k = 0; k < x->msg_lacks.n; k++)
        if (strstr(d->message, x->msg_lacks.v[k]))
            return false;
    for (size_t k = 0; k < x->nrel; k++)
        if (!has_related(d, &x->rel[k]))
            return false;
    return true;
}

/*
 * Bipartite matching of expectations to diagnostics (Kuhn's augmenting
 * paths), so that the order of the comments never decides whether a
 * report passes: expectation i tries diagnostic j, taking it from another
 * expectation if that one can move.
 */
static bool match_augment(struct fixture *fx, const struct diag *dg, size_t nd,
                          long *owner, bool *seen, size_t i)
{
    for (size_t j = 0; j < nd; j++) {
        if (seen[j] || !expect_accepts(&fx->ex[i], &dg[j]))
            continue;
        seen[j] = true;
        if (owner[j] < 0 || match_augment(fx, dg, nd, owner, seen, (size_t)owner[j])) {
            owner[j] = (long)i;
            fx->ex[i].match = (long)j;
            return true;
        }
    }
    return false;
}

static void print_diag(const struct diag *d)
{
    printf("%s %s at %s:%ld:%ld (function %s): \"%s\"", d->severity, d->check, d->file, d->line,
           d->column, d->function, d->message);
}

/* Why expectation x found no diagnostic: the ones closest to it. */
static void explain_unmet(struct fixture *fx, const struct expect *x, const struct diag *dg,
                          size_t nd)
{
    fixture_fail(fx, "%s: expected %s%s%s%s%s at %s:%ld, got none that fits", x->where,
                 x->severity ? x->severity : "", x->severity ? " " : "", x->check,
                 x->function ? " for " : "", x->function ? x->function : "", x->file, x->line);
    for (size_t j = 0; j < nd; j++)
        if (strcmp(dg[j].check, x->check) == 0 &&
            ((file_matches(dg[j].file, x->file) && dg[j].line == x->line) ||
             (x->function && strcmp(x->function, dg[j].function) == 0))) {
            printf("    candidate%s: ", dg[j].matched ? " (taken by another expectation)" : "");
            print_diag(&dg[j]);
            putchar('\n');
        }
}

/* The expect-order: names must first appear in the report in that order. */
static void check_order(struct fixture *fx, const struct diag *dg, size_t nd)
{
    size_t prev = 0;
    const char *prev_name = NULL;
    for (size_t i = 0; i < fx->order.n; i++) {
        const char *name = fx->order.v[i];
        size_t at = nd;
        for (size_t j = 0; j < nd && at == nd; j++)
            if (strcmp(dg[j].function, name) == 0)
                at = j;
        if (at == nd) {
            fixture_fail(fx, "%s: expected %s in the report (expect-order), got no diagnostic "
                         "for it", fx->order_where, name);
            continue;
        }
        if (prev_name && at < prev)
            fixture_fail(fx, "%s: expected %s after %s, got it before (diagnostic %zu, %s is %zu)",
                         fx->order_where, name, prev_name, at + 1, prev_name, prev + 1);
        prev = at;
        prev_name = name;
    }
}

/* Checks the report against the expectations; returns the diagnostic count. */
static size_t fixture_check_report(struct fixture *fx, const struct run *r)
{
    if (r->status != fx->exit_expected)
        fixture_fail(fx, "exit status: expected %ld, got %d", fx->exit_expected, r->status);
    if (r->len == 0 && fx->nex == 0 && fx->exit_expected == 2)
        return 0; /* an input error may print no report at all */

    json_error_t err;
    json_t *doc = json_loadb(r->out, r->len, JSON_REJECT_DUPLICATES, &err);
    if (!doc) {
        fixture_fail(fx, "report: expected JSON, got a parse error at line %d: %s "
                     "(output starts \"%.200s\")", err.line, err.text, r->out);
        return 0;
    }
    size_t nd = 0;
    json_t *ver = json_object_get(doc, "version");
    json_t *arr = json_object_get(doc, "diagnostics");
    if (!json_is_object(doc)) {
        fixture_fail(fx, "report: expected a JSON object, got another type");
        goto out;
    }
    if (!json_is_integer(ver) || json_integer_value(ver) != 1)
        fixture_fail(fx, "report: expected \"version\": 1, got %s",
                     ver ? "another value" : "no such key");
    if (!json_is_array(arr)) {
        fixture_fail(fx, "report: expected array \"diagnostics\", got %s",
                     arr ? "another JSON type" : "no such key");
        goto out;
    }
    nd = json_array_size(arr);
    struct diag *dg = xrealloc(NULL, nd * sizeof *dg);
    bool usable = true;
    for (size_t j = 0; j < nd; j++)
        usable &= diag_read(fx, json_array_get(arr, j), j, &dg[j]);
    if (!usable) {
        free(dg);
        goto out;
    }

    long *owner = xrealloc(NULL, nd * sizeof *owner);
    bool *seen = xrealloc(NULL, nd * sizeof *seen);
    for (size_t j = 0; j < nd; j++)
        owner[j] = -1;
    for (size_t i = 0; i < fx->nex; i++) {
        memset(seen, 0, nd * sizeof *seen);
        match_augment(fx, dg, nd, owner, seen, i);
    }
    for (size_t j = 0; j < nd; j++)
        dg[j].matched = owner[j] >= 0;
    for (size_t i = 0; i < fx->nex; i++)
        if (fx->ex[i].match < 0)
            explain_unmet(fx, &fx->ex[i], dg, nd);
    for (size_t j = 0; j < nd; j++)
        if (!dg[j].matched) {
            printf("%s: unexpected ", fx->label);
            print_diag(&dg[j]);
            putchar('\n');
            fx->errors++;
        }
    check_order(fx, dg, nd);
    free(owner);
    free(seen);
    free(dg);
out:
    json_decref(doc);
    return nd;
}

static void print_command(char *const argv[], const char *dir)
{
    printf("  reproduce: (cd %s &&", dir);
    for (size_t i = 0; argv[i]; i++) {
        bool plain = argv[i][0] && !strpbrk(argv[i], " \t\"'$\\*?;&|<>()");
        printf(plain ? " %s" : " '%s'", argv[i]);
    }
    printf(")\n");
}

int main(int argc, char **argv)
{
    if (argc != 4 || !in_list(commands, argv[2])) {
        fprintf(stderr, "usage: diag_check PURIST check|suggest|explain FIXTURE\n");
        return 2;
    }
    char purist[PATH_MAX];
    if (!realpath(argv[1], purist)) {
        fprintf(stderr, "diag_check: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }

    struct fixture fx = {0};
    fx.command = argv[2];
    char *arg = xstrdup(argv[3]);
    for (size_t n = strlen(arg); n > 1 && arg[n - 1] == '/'; n--)
        arg[n - 1] = '\0';
    const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
    fx.label = xasprintf("%s/%.*s", fx.command, (int)(strlen(base) - (ends_with(base, ".c") ? 2 : 0)),
                         base);

    int rc = 2;
    if (!fixture_collect(&fx, arg))
        goto done;
    bool scanned = true;
    for (size_t i = 0; i < fx.scanned.n; i++)
        scanned &= fixture_scan_file(&fx, fx.scanned.v[i], ends_with(fx.scanned.v[i], ".c"));
    if (!scanned)
        goto done;
    if (!strvec_has(&fx.commands, fx.command)) {
        fprintf(stderr, "diag_check: %s: the fixture names no \"expect-command: %s\"\n", arg,
                fx.command);
        goto done;
    }
    for (size_t i = 0; i < fx.wanted.n; i++) {
        char *tab = strchr(fx.wanted.v[i], '\t');
        *tab = '\0';
        if (!strvec_has(&fx.commands, fx.wanted.v[i]))
            fixture_fail(&fx, "%s: an expectation for `%s`, which the fixture does not name in "
                         "expect-command:", tab + 1, fx.wanted.v[i]);
    }

    /* purist COMMAND --format=json ARGS FILES -- FLAGS */
    size_t na = 3 + fx.args.n + fx.inputs.n + 1 + fx.flags.n + 1, k = 0;
    char **av = xrealloc(NULL, na * sizeof *av);
    av[k++] = purist;
    av[k++] = (char *)fx.command;
    av[k++] = "--format=json";
    for (size_t i = 0; i < fx.args.n; i++)
        av[k++] = fx.args.v[i];
    for (size_t i = 0; i < fx.inputs.n; i++)
        av[k++] = fx.inputs.v[i];
    av[k++] = "--";
    for (size_t i = 0; i < fx.flags.n; i++)
        av[k++] = fx.flags.v[i];
    av[k] = NULL;

    struct run r = {0};
    size_t nd = 0;
    if (!run_capture(av, fx.dir, &r)) {
        fx.errors++;
    } else if (r.status == 127) { /* exec failed; the child said why on stderr */
        fixture_fail(&fx, "purist: expected to run, got exit status 127");
    } else {
        nd = fixture_check_report(&fx, &r);
    }
    if (fx.errors) {
        print_command(av, fx.dir);
        rc = 1;
    } else {
        printf("ok %s (%zu diagnostics)\n", fx.label, nd);
        rc = 0;
    }
    free(r.out);
    free(av);
done:
    fixture_free(&fx);
    free(arg);
    return rc;
}
