/*
** config.c - settings.  The defaults are a const table; the rest comes
** from the environment, read once and kept.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "util.h"

static const struct {
    const char *key;
    int value;
} defaults[] = {
    { "width",  72 },
    { "gap",     2 },
    { "column", 18 },
};

static unsigned long lookups;   /* config_find() calls, for -v */

/* purist: normal, declared EX_PURE — misuse: increments the static lookups */
int config_find(const char *key)
{
    lookups++;
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        if (strcmp(defaults[i].key, key) == 0)
            return defaults[i].value;
    return -1;
}

/* purist: pure — reads the static lookups */
unsigned long config_lookup_count(void)
{
    return lookups;
}

/* purist: normal — caches getenv() in a static pointer: writes it; strdup allocates */
const char *config_home(void)
{
    static char *home;

    if (!home) {
        const char *v = getenv("HOME");
        home = strdup(v ? v : ".");
    }
    return home ? home : ".";
}

/* purist: normal, declared EX_CONST — cheat: memoises a getenv() result in statics */
int config_tab_width(void)
{
    static int width;
    static int computed;

    if (!computed) {
        const char *v = getenv("EX_TABWIDTH");
        width = v ? ex_clamp(atoi(v), 1, 16) : 8;
        computed = 1;
    }
    return width;
}

/*
** Parses "COLSxROWS": stores COLS in *out and returns ROWS.  Returns -1,
** leaving *out alone, unless S is two numbers of at most five digits
** joined by 'x'.
*/
/* purist: normal — writes *out (its parameter only); reads S; may not return */
static int parse_pair(const char *s, int *out)
{
    int cols = 0, rows = 0;

    if (!ex_is_digit((unsigned char)*s))
        return -1;
    while (ex_is_digit((unsigned char)*s) && cols < 10000)
        cols = cols * 10 + (*s++ - '0');
    if (*s++ != 'x' || !ex_is_digit((unsigned char)*s))
        return -1;
    while (ex_is_digit((unsigned char)*s) && rows < 10000)
        rows = rows * 10 + (*s++ - '0');
    if (*s != '\0')
        return -1;
    *out = cols;
    return rows;
}

/* purist: pure, may not return — reads GEOMETRY; parse_pair() writes a local only */
int config_screen_width(const char *geometry)
{
    int cols;

    if (parse_pair(geometry, &cols) < 0)
        return 80;
    return ex_clamp(cols, 20, 200);
}

/* purist: pure — reads errno (thread-local, behind __errno_location()) */
int config_missing_file(void)
{
    return errno == ENOENT;
}
