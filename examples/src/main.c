/*
** main.c - the demo: statistics about a short text, printed in columns.
**
**   usage: demo [-v]...
**   environment: EX_GEOMETRY ("COLSxROWS"), EX_TABWIDTH, EX_UNIT ("KiB"...)
**
** The static functions here hold the call sites that `purist explain`
** talks about: a dead call, calls that merge, calls a store keeps apart.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "grid.h"
#include "layout.h"
#include "log.h"
#include "num.h"
#include "table.h"
#include "text.h"

#define MAX_CELLS 16
#define CELL_SIZE 24

static const char sample[] =
    "A pure function may read memory but never changes it.\n"
    "A const function reads nothing but its 2 arguments,\n"
    "so calling it twice with the same values gives the same answer.\n"
    "The compiler may then drop a call, or merge 2 into 1.\n";

static volatile sig_atomic_t interrupted;   /* set by on_sigint() */

/* purist: normal — writes the volatile interrupted */
static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* purist: normal — reads the volatile interrupted */
static int should_stop(void)
{
    return interrupted != 0;
}

/*
** Stores the name of unit IDX in *name and its length in *len; returns 0
** if there is no such unit.  The first two lookups merge if table_unit_name()
** is declared pure; the store to *name keeps the third apart unless it is
** declared const.
*/
/* purist: normal — writes *name and *len (only through its out-parameters) */
static int unit_label(int idx, const char **name, size_t *len)
{
    if (table_unit_name(idx)) {
        *name = table_unit_name(idx);
        *len = strlen(table_unit_name(idx));
        return 1;
    }
    return 0;
}

/* purist: normal — I/O (printf, log_msg) */
static void print_summary(const char *text, const struct text_stats *st)
{
    char title[32];

    log_msg(LOG_INFO, "summary of %zu bytes", strlen(text));  /* impure: kept */
    text_count_upper(text);   /* "recount to be sure": the result is dropped */
    text_copy_lower(title, "TEXT STATISTICS");
    printf("%s (%zu words, checksum %08lx)\n",
           title, st->words, (unsigned long)st->checksum);
}

/* purist: normal — I/O, and layout_next_column() advances a global counter */
static void print_grid(char cells[][CELL_SIZE], int n, int width, int colw)
{
    int cols = grid_columns(width, colw, LAYOUT_GAP);

    log_msg(LOG_INFO, "%d cells in %d rows, %d on the last",
            n, layout_rows(n, width, colw), layout_last_row(n, cols));
    for (int i = 0; i < n && !should_stop(); i++) {
        int col = layout_next_column(cols);

        if (col == cols - 1 || i == n - 1)
            printf("%s\n", cells[i]);
        else
            printf("%-*s", colw + LAYOUT_GAP, cells[i]);
    }
    log_msg(LOG_DEBUG, "drew %d%% of the grid", layout_percent_done(n));
}

/* purist: normal — I/O, environment, signals */
int main(int argc, char **argv)
{
    char cells[MAX_CELLS][CELL_SIZE];
    char path[256];
    struct text_stats st;
    const char *geometry = getenv("EX_GEOMETRY");
    const char *unit = getenv("EX_UNIT");
    const char *label = "";
    size_t label_len = 0;
    long bytes = (long)sizeof sample - 1, factor;
    int n = 0, width, tab, idx;
    FILE *rc;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") != 0) {
            fprintf(stderr, "usage: demo [-v]...\n");
            return 2;
        }
        log_level++;
    }
    signal(SIGINT, on_sigint);

    log_set_context("config");
    width = geometry ? config_screen_width(geometry) : config_find("width");
    tab = config_tab_width();
    snprintf(path, sizeof path, "%s/.exdemorc", config_home());
    rc = fopen(path, "r");
    if (rc) {
        log_msg(LOG_INFO, "found %s (this demo does not read it)", path);
        fclose(rc);
    } else if (config_missing_file()) {
        log_msg(LOG_INFO, "no %s, using the defaults", path);
    }

    log_set_context("stats");
    text_stats_compute(sample, &st);
    print_summary(sample, &st);
    if (total(st.word_len, TEXT_MAX_LEN) != (long)st.words)
        log_msg(LOG_WARN, "word-length histogram does not add up");

    idx = table_unit_pick(bytes);
    unit_label(idx, &label, &label_len);
    unit = unit ? unit : "KiB";
    factor = table_unit_factor(unit) ? table_unit_factor(unit) : 1;

    snprintf(cells[n++], CELL_SIZE, "size %ld %.*s",
             table_unit_scale(bytes, idx), (int)label_len, label);
    snprintf(cells[n++], CELL_SIZE, "in %s %.2f",
             unit, (double)bytes / (double)factor);
    snprintf(cells[n++], CELL_SIZE, "lines %zu (%s)", st.lines,
             num_is_even((unsigned)st.lines) ? "even" : "odd");
    snprintf(cells[n++], CELL_SIZE, "words/line %d",
             num_checked_div((int)st.words, (int)st.lines));
    snprintf(cells[n++], CELL_SIZE, "digits %zu", st.digits);
    snprintf(cells[n++], CELL_SIZE, "upper %zu", st.upper);
    for (int k = 0; k < TEXT_MAX_LEN; k++)
        snprintf(cells[n++], CELL_SIZE, "len %d%s: %d", k + 1,
                 k == TEXT_MAX_LEN - 1 ? "+" : "", st.word_len[k]);
    snprintf(cells[n++], CELL_SIZE, "tab stops %d", num_div_ceil(width, tab));
    snprintf(cells[n++], CELL_SIZE, "gcd(w, tab) %d",
             num_apply(num_gcd, width, tab));

    log_set_context("layout");
    print_grid(cells, n, width, config_find("column"));
    log_msg(LOG_INFO, "config_find() calls: %lu", config_lookup_count());
    return EXIT_SUCCESS;
}
