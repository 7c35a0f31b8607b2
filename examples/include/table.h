/*
** table.h - the size units (B, KiB, MiB, GiB) used to print byte counts.
*/
#ifndef EX_TABLE_H
#define EX_TABLE_H

/* Name of unit IDX ("B", "KiB", ...), or NULL if IDX is out of range. */
const char *table_unit_name(int idx);

/* Index of the largest unit not bigger than BYTES (0 for tiny counts). */
int table_unit_pick(long bytes);

/* Bytes per unit for the unit called NAME, or 0 if there is no such unit. */
long table_unit_factor(const char *name);

/* BYTES expressed in unit IDX, rounded down.  IDX must be valid. */
long table_unit_scale(long bytes, int idx);

#endif /* EX_TABLE_H */
