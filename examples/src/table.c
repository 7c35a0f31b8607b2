/*
** table.c - the size units.  The table is const data, so reading its
** numbers and handing out its string pointers costs no purity.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

static const struct {
    const char *name;
    long factor;
} units[] = {
    { "B",   1L },
    { "KiB", 1L << 10 },
    { "MiB", 1L << 20 },
    { "GiB", 1L << 30 },
};

#define N_UNITS ((int)(sizeof units / sizeof units[0]))

/* purist: const — returns a string from the read-only table without reading it */
const char *table_unit_name(int idx)
{
    if (idx < 0 || idx >= N_UNITS)
        return NULL;
    return units[idx].name;
}

/* purist: const — only reads numbers from the read-only table */
int table_unit_pick(long bytes)
{
    int i;

    for (i = N_UNITS - 1; i > 0; i--)
        if (bytes >= units[i].factor)
            break;
    return i;
}

/* purist: pure — strcmp() reads the string NAME points to */
long table_unit_factor(const char *name)
{
    for (int i = 0; i < N_UNITS; i++)
        if (strcmp(units[i].name, name) == 0)
            return units[i].factor;
    return 0;
}

/* purist: pure, may not return — the fprintf() is on a path that ends in abort(): it counts as a read */
long table_unit_scale(long bytes, int idx)
{
    if (idx < 0 || idx >= N_UNITS) {
        fprintf(stderr, "table_unit_scale: no unit %d\n", idx);
        abort();
    }
    return bytes / units[idx].factor;
}
