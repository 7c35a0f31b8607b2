/*
** grid.c - cell arithmetic, and the count of cells printed so far.
*/
#include "grid.h"
#include "num.h"
#include "util.h"

static int cells_drawn;   /* advanced by grid_next_cell() */

/* purist: const — integer arithmetic; declared EX_CONST, and it is */
int grid_columns(int width, int col_width, int gap)
{
    return ex_max(1, (width + gap) / (col_width + gap));
}

/* purist: const — calls only num_div_ceil() (num.c), which is const */
int grid_rows(int items, int cols)
{
    return num_div_ceil(items, cols);
}

/* purist: pure — reads the static cells_drawn */
int grid_cells_drawn(void)
{
    return cells_drawn;
}

/* purist: normal — writes the static cells_drawn */
int grid_next_cell(void)
{
    return cells_drawn++;
}
