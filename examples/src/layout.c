/*
** layout.c - page layout.  Each function here reaches a different kind of
** leaf through grid.c, so its class is decided two files away.
*/
#include "layout.h"
#include "grid.h"
#include "util.h"

/* purist: const — layout.c -> grid.c -> num.c, integer arithmetic throughout */
int layout_rows(int items, int width, int col_width)
{
    return grid_rows(items, grid_columns(width, col_width, LAYOUT_GAP));
}

/* purist: pure — grid_cells_drawn() reads a global counter */
int layout_percent_done(int total)
{
    if (total <= 0)
        return 100;
    return ex_min(100, grid_cells_drawn() * 100 / total);
}

/* purist: normal — grid_next_cell() increments a global counter */
int layout_next_column(int cols)
{
    return grid_next_cell() % cols;
}

/* purist: normal — writes *full and *rest (only its out-parameters) */
static void split_cells(int items, int cols, int *full, int *rest)
{
    *full = items / cols;
    *rest = items % cols;
}

/* purist: const — split_cells() writes only this function's own locals */
int layout_last_row(int items, int cols)
{
    int full, rest;

    split_cells(items, cols, &full, &rest);
    if (rest != 0)
        return rest;
    return full > 0 ? cols : 0;
}
