/*
** grid.h - cell arithmetic for printing items in columns, and a count
** of the cells printed so far.
*/
#ifndef EX_GRID_H
#define EX_GRID_H

#include "compiler.h"

/* Columns of COL_WIDTH, separated by GAP, that fit in WIDTH (at least 1). */
int grid_columns(int width, int col_width, int gap) EX_CONST;

/* Rows needed for ITEMS cells in COLS columns. */
int grid_rows(int items, int cols);

/* Number of cells handed out by grid_next_cell() so far. */
int grid_cells_drawn(void);

/* Claims the next cell and returns its index (0, 1, 2, ...). */
int grid_next_cell(void);

#endif /* EX_GRID_H */
