/*
 * fixture_check — run `purist infer --format=json` on one fixture and hold
 * its report against the expectations written in the fixture's comments.
 *
 *   fixture_check PURIST FIXTURE
 *
 * FIXTURE is a .c file or a directory (every *.c in it, sorted by name, is
 * an input; every *.c and *.h in it is scanned for expectations).  purist
 * runs with the fixture's directory as working directory, as
 *
 *   PURIST infer --format=json ARGS... FILES... -- FLAGS...
 *
 * Directives, one per line, anywhere on the line after "//":
 *   flags: ...                compiler flags (joined over all inputs)
 *   args: ...                 extra purist options (joined over all inputs)
 *   expect: NAME CLASS [mnr|!mnr] [declared=D] [linkage=L] [line=N|line=.]
 *           [c23=unsequenced|reproducible|none] [declared_c23=…]
 *           [file=F] [reason~"substring"]...
 *   expect-absent: NAME [file=F]
 *   expect-count: NAME N [file=F]
 *   expect-exit: N            (default 0)
 * `file=F` selects the entries whose file is F or ends in "/F"; `line=.`
 * means the line of the comment itself.  An `expect:` entry must be listed
 * exactly once unless an `expect-count:` for the same NAME (and file) says
 * otherwise.  Every listed function must be covered by an expectation.
 *
 * Exit status: 0 all expectations hold, 1 a mismatch (each printed as
 * "FIXTURE: NAME: expected X, got Y"), 2 the checker could not run.
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

/* Reads a whole file; NULL (errno set) on failure. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = xrealloc(NULL, cap);
    size_t got;
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
    if (len)
        *len = n;
    return buf;
}

/* ---- the vocabulary of the contract ---------------------------------- */

enum { ANY = -1 };

static const char *const class_names[] = {"const", "pure", "normal", NULL};
static const char *const declared_names[] = {"const", "pure", "none", "reproducible", "unsequenced", NULL};
static const char *const c23_names[] = {"unsequenced", "reproducible", "none", NULL};
static const char *const linkage_names[] = {"internal", "external", NULL};

static int name_index(const char *const *names, const char *s)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return ANY;
}

/* ---- the fixture ------------------------------------------------------ */

enum expect_kind { EXPECT_FN, EXPECT_ABSENT, EXPECT_COUNT };

struct expect {
    enum expect_kind kind;
    char *where;   /* "file.c:12", for messages */
    char *name;
    char *file;    /* selector; NULL selects any file */
    int cls, declared, linkage, mnr; /* index into *_names, 0/1, or ANY */
    int c23, declared_c23;           /* index into c23_names, or ANY */
    long line;     /* ANY when not checked */
    long count;    /* EXPECT_COUNT */
    struct strvec reasons;
};

struct entry {
    const char *name, *file, *reason; /* borrowed from the JSON document */
    long line;
    int cls, declared, linkage, mnr;
    int c23, declared_c23;  /* ANY when the report has no such key */
    bool covered;
};

struct fixture {
    const char *label;      /* what messages start with */
    char *dir;              /* working directory for purist */
    struct strvec inputs;   /* .c files, relative to dir, sorted */
    struct strvec scanned;  /* .c and .h files, relative to dir, sorted */
    struct strvec flags, args;
    struct expect *ex;
    size_t nex, capex;
    long exit_expected;
    char *exit_where;
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

static void fixture_free(struct fixture *fx)
{
    for (size_t i = 0; i < fx->nex; i++) {
        struct expect *e = &fx->ex[i];
        free(e->where);
        free(e->name);
        free(e->file);
        strvec_free(&e->reasons);
    }
    free(fx->ex);
    free(fx->dir);
    free(fx->exit_where);
    strvec_free(&fx->inputs);
    strvec_free(&fx->scanned);
    strvec_free(&fx->flags);
    strvec_free(&fx->args);
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
        size_t cap = strlen(s) + 1, n = 0;
        char *w = xrealloc(NULL, cap);
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

static struct expect *fixture_add_expect(struct fixture *fx, enum expect_kind kind,
                                         const char *where)
{
    if (fx->nex == fx->capex) {
        fx->capex = fx->capex ? 2 * fx->capex : 16;
        fx->ex = xrealloc(fx->ex, fx->capex * sizeof *fx->ex);
    }
    struct expect *e = &fx->ex[fx->nex++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->where = xstrdup(where);
    e->cls = e->declared = e->linkage = e->mnr = ANY;
    e->c23 = e->declared_c23 = ANY;
    e->line = ANY;
    e->count = 1;
    return e;
}

/* Parses the options after NAME CLASS of an `expect:` line. */
static bool parse_expect_option(struct expect *e, const char *w, long here)
{
    if (strcmp(w, "mnr") == 0) {
        e->mnr = 1;
    } else if (strcmp(w, "!mnr") == 0) {
        e->mnr = 0;
    } else if (strncmp(w, "declared=", 9) == 0) {
        e->declared = name_index(declared_names, w + 9);
        return e->declared != ANY;
    } else if (strncmp(w, "c23=", 4) == 0) {
        e->c23 = name_index(c23_names, w + 4);
        return e->c23 != ANY;
    } else if (strncmp(w, "declared_c23=", 13) == 0) {
        e->declared_c23 = name_index(c23_names, w + 13);
        return e->declared_c23 != ANY;
    } else if (strncmp(w, "linkage=", 8) == 0) {
        e->linkage = name_index(linkage_names, w + 8);
        return e->linkage != ANY;
    } else if (strncmp(w, "line=", 5) == 0) {
        if (strcmp(w + 5, ".") == 0)
            e->line = here;
        else
            return parse_long(w + 5, &e->line) && e->line > 0;
    } else if (strncmp(w, "file=", 5) == 0 && w[5]) {
        free(e->file);
        e->file = xstrdup(w + 5);
    } else if (strncmp(w, "reason~", 7) == 0 && w[7]) {
        strvec_push(&e->reasons, xstrdup(w + 7));
    } else {
        return false;
    }
    return true;
}

/* Handles one directive; `text` is what follows the keyword's colon. */
static void fixture_directive(struct fixture *fx, const char *key, const char *text,
                              const char *src, long lineno, bool is_input)
{
    char *where = xasprintf("%s:%ld", src, lineno);
    struct strvec w = {0};
    if (!split_words(text, &w)) {
        fixture_fail(fx, "%s: unterminated quote in \"%s\" directive", where, key);
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
    } else if (strcmp(key, "expect-exit") == 0) {
        long v;
        if (w.n != 1 || !parse_long(w.v[0], &v) || v < 0 || v > 255)
            fixture_fail(fx, "%s: expected \"expect-exit: N\"", where);
        else if (fx->exit_where)
            fixture_fail(fx, "%s: second expect-exit (first at %s)", where, fx->exit_where);
        else {
            fx->exit_expected = v;
            fx->exit_where = xstrdup(where);
        }
    } else if (strcmp(key, "expect-absent") == 0) {
        struct expect *e;
        if (w.n < 1)
            goto malformed;
        e = fixture_add_expect(fx, EXPECT_ABSENT, where);
        e->name = xstrdup(w.v[0]);
        for (size_t i = 1; i < w.n; i++) {
            if (strncmp(w.v[i], "file=", 5) != 0 || !w.v[i][5])
                goto malformed;
            free(e->file);
            e->file = xstrdup(w.v[i] + 5);
        }
    } else if (strcmp(key, "expect-count") == 0) {
        struct expect *e;
        long n;
        if (w.n < 2 || !parse_long(w.v[1], &n) || n < 0)
            goto malformed;
        e = fixture_add_expect(fx, EXPECT_COUNT, where);
        e->name = xstrdup(w.v[0]);
        e->count = n;
        for (size_t i = 2; i < w.n; i++) {
            if (strncmp(w.v[i], "file=", 5) != 0 || !w.v[i][5])
                goto malformed;
            free(e->file);
            e->file = xstrdup(w.v[i] + 5);
        }
    } else if (strcmp(key, "expect") == 0) {
        struct expect *e;
        if (w.n < 2)
            goto malformed;
        e = fixture_add_expect(fx, EXPECT_FN, where);
        e->name = xstrdup(w.v[0]);
        e->cls = name_index(class_names, w.v[1]);
        if (e->cls == ANY)
            goto malformed;
        for (size_t i = 2; i < w.n; i++)
            if (!parse_expect_option(e, w.v[i], lineno)) {
                fixture_fail(fx, "%s: unknown expect option \"%s\"", where, w.v[i]);
                goto out;
            }
    }
    goto out;
malformed:
    fixture_fail(fx, "%s: malformed \"%s:\" directive", where, key);
out:
    strvec_free(&w);
    free(where);
}

/*
 * Finds the directive on a line: the first "//" followed (after blanks) by
 * a known keyword and a colon.  A "//" followed by "expect" and anything
 * else is a typo and reported.
 */
static void fixture_scan_line(struct fixture *fx, const char *line, const char *src,
                              long lineno, bool is_input)
{
    static const char *const keys[] = {"expect-absent", "expect-count", "expect-exit",
                                       "expect", "flags", "args", NULL};
    for (const char *p = strstr(line, "//"); p; p = strstr(p + 2, "//")) {
        const char *q = p + 2;
        while (*q == ' ' || *q == '\t')
            q++;
        for (int k = 0; keys[k]; k++) {
            size_t kl = strlen(keys[k]);
            if (strncmp(q, keys[k], kl) == 0 && q[kl] == ':') {
                fixture_directive(fx, keys[k], q + kl + 1, src, lineno, is_input);
                return;
            }
        }
        if (strncmp(q, "expect", 6) == 0) {
            fixture_fail(fx, "%s:%ld: unknown directive \"%.20s\"", src, lineno, q);
            return;
        }
    }
}

static bool fixture_scan_file(struct fixture *fx, const char *rel, bool is_input)
{
    char *path = xasprintf("%s/%s", fx->dir, rel);
    char *text = read_file(path, NULL);
    if (!text) {
        fprintf(stderr, "fixture_check: %s: %s\n", path, strerror(errno));
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

/* ---- checking ----------------------------------------------------------- */

static bool file_matches(const char *file, const char *want)
{
    if (!want)
        return true;
    size_t lf = strlen(file), lw = strlen(want);
    return strcmp(file, want) == 0 ||
           (lw < lf && file[lf - lw - 1] == '/' && strcmp(file + lf - lw, want) == 0);
}

/*
 * Reads one element of "functions" into e, reporting every missing key or
 * wrong type.  Returns false if the element is unusable.
 */
static bool entry_read(struct fixture *fx, json_t *fn, size_t i, struct entry *e)
{
    memset(e, 0, sizeof *e);
    if (!json_is_object(fn)) {
        fixture_fail(fx, "functions[%zu]: expected an object, got another JSON type", i);
        return false;
    }
    bool ok = true;
    json_t *v = json_object_get(fn, "name");
    e->name = json_is_string(v) ? json_string_value(v) : NULL;
    const char *who = e->name ? e->name : "?";
    static const char *const strings[] = {"name", "file", "reason"};
    const char **dst[] = {&e->name, &e->file, &e->reason};
    for (int k = 0; k < 3; k++) {
        v = json_object_get(fn, strings[k]);
        if (!json_is_string(v)) {
            fixture_fail(fx, "functions[%zu] (%s): expected string \"%s\", got %s", i, who,
                         strings[k], v ? "another JSON type" : "no such key");
            ok = false;
        } else {
            *dst[k] = json_string_value(v);
        }
    }
    v = json_object_get(fn, "line");
    if (!json_is_integer(v) || json_integer_value(v) <= 0) {
        fixture_fail(fx, "functions[%zu] (%s): expected positive integer \"line\", got %s", i,
                     who, v ? "another value" : "no such key");
        ok = false;
    } else {
        e->line = (long)json_integer_value(v);
    }
    v = json_object_get(fn, "may_not_return");
    if (!json_is_boolean(v)) {
        fixture_fail(fx, "functions[%zu] (%s): expected boolean \"may_not_return\", got %s", i,
                     who, v ? "another JSON type" : "no such key");
        ok = false;
    } else {
        e->mnr = json_is_true(v);
    }
    static const char *const enums[] = {"class", "declared", "linkage"};
    static const char *const *const vocab[] = {class_names, declared_names, linkage_names};
    static const char *const vocab_text[] = {"const|pure|normal", "const|pure|none|reproducible|unsequenced",
                                             "internal|external"};
    int *edst[] = {&e->cls, &e->declared, &e->linkage};
    for (int k = 0; k < 3; k++) {
        v = json_object_get(fn, enums[k]);
        int idx = json_is_string(v) ? name_index(vocab[k], json_string_value(v)) : ANY;
        if (idx == ANY) {
            const char *got = json_is_string(v) ? json_string_value(v)
                            : v ? "another JSON type" : "no such key";
            fixture_fail(fx, "functions[%zu] (%s): expected \"%s\" one of %s, got %s", i, who,
                         enums[k], vocab_text[k], got);
            ok = false;
        }
        *edst[k] = idx;
    }
    v = json_object_get(fn, "c23");   /* optional keys (issue 15) */
    e->c23 = json_is_string(v) ? name_index(c23_names, json_string_value(v)) : ANY;
    v = json_object_get(fn, "declared_c23");
    e->declared_c23 = json_is_string(v) ? name_index(c23_names, json_string_value(v)) : ANY;
    return ok;
}

static long expected_count(const struct fixture *fx, const struct expect *e)
{
    for (size_t j = 0; j < fx->nex; j++) {
        const struct expect *c = &fx->ex[j];
        if (c->kind == EXPECT_COUNT && strcmp(c->name, e->name) == 0 &&
            ((!c->file && !e->file) || (c->file && e->file && strcmp(c->file, e->file) == 0)))
            return c->count;
    }
    return 1;
}

static bool has_fn_expect(const struct fixture *fx, const struct expect *c)
{
    for (size_t j = 0; j < fx->nex; j++) {
        const struct expect *e = &fx->ex[j];
        if (e->kind == EXPECT_FN && strcmp(c->name, e->name) == 0 &&
            ((!c->file && !e->file) || (c->file && e->file && strcmp(c->file, e->file) == 0)))
            return true;
    }
    return false;
}

static void check_entry(struct fixture *fx, const struct expect *x, const struct entry *e)
{
    const char *n = x->name;
    if (x->cls != ANY && x->cls != e->cls)
        fixture_fail(fx, "%s: expected class %s, got %s (%s:%ld, reason \"%s\")", n,
                     class_names[x->cls], class_names[e->cls], e->file, e->line, e->reason);
    if (x->mnr != ANY && x->mnr != e->mnr)
        fixture_fail(fx, "%s: expected may_not_return %s, got %s (reason \"%s\")", n,
                     x->mnr ? "true" : "false", e->mnr ? "true" : "false", e->reason);
    if (x->declared != ANY && x->declared != e->declared)
        fixture_fail(fx, "%s: expected declared %s, got %s", n, declared_names[x->declared],
                     declared_names[e->declared]);
    if (x->c23 != ANY && x->c23 != e->c23)
        fixture_fail(fx, "%s: expected c23 %s, got %s (reason \"%s\")", n, c23_names[x->c23],
                     e->c23 == ANY ? "no c23 key" : c23_names[e->c23], e->reason);
    if (x->declared_c23 != ANY && x->declared_c23 != e->declared_c23)
        fixture_fail(fx, "%s: expected declared_c23 %s, got %s", n, c23_names[x->declared_c23],
                     e->declared_c23 == ANY ? "no declared_c23 key" : c23_names[e->declared_c23]);
    if (x->linkage != ANY && x->linkage != e->linkage)
        fixture_fail(fx, "%s: expected linkage %s, got %s", n, linkage_names[x->linkage],
                     linkage_names[e->linkage]);
    if (x->line != ANY && x->line != e->line)
        fixture_fail(fx, "%s: expected line %ld, got %ld", n, x->line, e->line);
    for (size_t k = 0; k < x->reasons.n; k++)
        if (!strstr(e->reason, x->reasons.v[k]))
            fixture_fail(fx, "%s: expected reason containing \"%s\", got \"%s\"", n,
                         x->reasons.v[k], e->reason);
}

/* Checks the report against the expectations; returns the function count. */
static size_t fixture_check_report(struct fixture *fx, const struct run *r)
{
    if (r->status != fx->exit_expected)
        fixture_fail(fx, "exit status: expected %ld, got %d", fx->exit_expected, r->status);

    bool any_fn = false;
    for (size_t j = 0; j < fx->nex; j++)
        any_fn |= fx->ex[j].kind != EXPECT_ABSENT;
    if (r->len == 0 && !any_fn && fx->exit_expected == 2)
        return 0; /* a usage error may print no report at all */

    json_error_t err;
    json_t *doc = json_loadb(r->out, r->len, JSON_REJECT_DUPLICATES, &err);
    if (!doc) {
        fixture_fail(fx, "report: expected JSON, got a parse error at line %d: %s "
                     "(output starts \"%.200s\")", err.line, err.text, r->out);
        return 0;
    }
    size_t nfn = 0;
    json_t *ver = json_object_get(doc, "version");
    json_t *fns = json_object_get(doc, "functions");
    if (!json_is_object(doc)) {
        fixture_fail(fx, "report: expected a JSON object, got another type");
        goto out;
    }
    if (!json_is_integer(ver) || json_integer_value(ver) != 1)
        fixture_fail(fx, "report: expected \"version\": 1, got %s",
                     ver ? "another value" : "no such key");
    if (!json_is_array(fns)) {
        fixture_fail(fx, "report: expected array \"functions\", got %s",
                     fns ? "another JSON type" : "no such key");
        goto out;
    }
    nfn = json_array_size(fns);
    struct entry *ent = xrealloc(NULL, nfn * sizeof *ent);
    bool usable = true;
    for (size_t i = 0; i < nfn; i++)
        usable &= entry_read(fx, json_array_get(fns, i), i, &ent[i]);
    if (!usable) {
        free(ent);
        goto out;
    }

    for (size_t j = 0; j < fx->nex; j++) {
        const struct expect *x = &fx->ex[j];
        if (x->kind == EXPECT_COUNT && has_fn_expect(fx, x))
            continue; /* checked with its expect: line */
        long want = x->kind == EXPECT_FN ? expected_count(fx, x)
                  : x->kind == EXPECT_COUNT ? x->count : 0;
        long got = 0;
        for (size_t i = 0; i < nfn; i++) {
            if (strcmp(ent[i].name, x->name) != 0 || !file_matches(ent[i].file, x->file))
                continue;
            got++;
            if (x->kind == EXPECT_FN)
                check_entry(fx, x, &ent[i]);
            ent[i].covered = true; /* an unwanted entry is reported once */
            if (x->kind == EXPECT_ABSENT)
                fixture_fail(fx, "%s: expected absent, got listed at %s:%ld", x->name,
                             ent[i].file, ent[i].line);
        }
        if (x->kind != EXPECT_ABSENT && got != want)
            fixture_fail(fx, "%s: expected listed %ld time(s)%s%s, got %ld", x->name, want,
                         x->file ? " in " : "", x->file ? x->file : "", got);
    }
    for (size_t i = 0; i < nfn; i++)
        if (!ent[i].covered)
            fixture_fail(fx, "%s: expected no entry (the fixture has no expectation for it), "
                         "got %s at %s:%ld", ent[i].name, class_names[ent[i].cls],
                         ent[i].file, ent[i].line);
    free(ent);
out:
    json_decref(doc);
    return nfn;
}

/* Rejects expectations that contradict each other before purist runs. */
static void fixture_lint(struct fixture *fx)
{
    if (fx->nex == 0 && !fx->exit_where)
        fixture_fail(fx, "no expectations in the fixture");
    for (size_t i = 0; i < fx->nex; i++)
        for (size_t j = i + 1; j < fx->nex; j++) {
            const struct expect *a = &fx->ex[i], *b = &fx->ex[j];
            bool same_file = (!a->file && !b->file) ||
                             (a->file && b->file && strcmp(a->file, b->file) == 0);
            if (strcmp(a->name, b->name) != 0 || !same_file)
                continue;
            if (a->kind == b->kind || a->kind == EXPECT_ABSENT || b->kind == EXPECT_ABSENT)
                fixture_fail(fx, "%s: conflicting expectations at %s and %s", a->name,
                             a->where, b->where);
        }
}

static void print_command(char *const argv[], const char *dir)
{
    printf("  (cd %s &&", dir);
    for (size_t i = 0; argv[i]; i++)
        printf(" %s", argv[i]);
    printf(")\n");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fixture_check PURIST FIXTURE\n");
        return 2;
    }
    char purist[PATH_MAX];
    if (!realpath(argv[1], purist)) {
        fprintf(stderr, "fixture_check: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }

    struct fixture fx = {0};
    char *label = xstrdup(argv[2]);
    for (size_t n = strlen(label); n > 1 && label[n - 1] == '/'; n--)
        label[n - 1] = '\0';
    fx.label = strrchr(label, '/') ? strrchr(label, '/') + 1 : label;

    int rc = 2;
    if (!fixture_collect(&fx, label))
        goto done;
    bool scanned = true;
    for (size_t i = 0; i < fx.scanned.n; i++) {
        bool is_input = ends_with(fx.scanned.v[i], ".c");
        scanned &= fixture_scan_file(&fx, fx.scanned.v[i], is_input);
    }
    if (!scanned)
        goto done;
    fixture_lint(&fx);

    /* purist infer --format=json ARGS FILES -- FLAGS */
    size_t na = 3 + fx.args.n + fx.inputs.n + 1 + fx.flags.n + 1, k = 0;
    char **av = xrealloc(NULL, na * sizeof *av);
    av[k++] = purist;
    av[k++] = "infer";
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
    size_t nfn = 0;
    if (!run_capture(av, fx.dir, &r)) {
        fx.errors++;
    } else {
        if (r.status == 127) /* exec failed; the child said why on stderr */
            fixture_fail(&fx, "purist: expected to run, got exit status 127");
        else
            nfn = fixture_check_report(&fx, &r);
    }
    if (fx.errors) {
        print_command(av, fx.dir);
        rc = 1;
    } else {
        printf("ok %s (%zu functions)\n", fx.label, nfn);
        rc = 0;
    }
    free(r.out);
    free(av);
done:
    fixture_free(&fx);
    free(label);
    return rc;
}
