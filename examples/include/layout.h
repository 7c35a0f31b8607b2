/*
** layout.h - page layout on top of grid.h.
*/
#ifndef EX_LAYOUT_H
#define EX_LAYOUT_H

/* Gap, in characters, between two columns. */
#define LAYOUT_GAP 2

/* Rows needed to show ITEMS cells of COL_WIDTH in a line of WIDTH. */
int layout_rows(int items, int width, int col_width);

/* Share, 0..100, of TOTAL cells that have been drawn. */
int layout_percent_done(int total);

/* Claims the next cell and returns its column in a COLS-column grid. */
int layout_next_column(int cols);

/* Number of cells on the last row when ITEMS fill COLS columns. */
int layout_last_row(int items, int cols);

#endif /* EX_LAYOUT_H */
