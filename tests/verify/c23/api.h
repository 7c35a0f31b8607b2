/* api.h — C23 promises checked at run time (issue 15): unsequenced as
 * const, reproducible as pure, with the standard's allowances. */
#ifndef C23_API_H
#define C23_API_H

/* honest */
int honest(int x) [[unsequenced]];
int reads_level_r(int x) [[reproducible]];            /* reads a global: fine for reproducible */
int split(int x, int *out) [[unsequenced]];           /* writes through its pointer: allowed (note) */
int memo_r(int n) [[reproducible]];                   /* a private memo: allowed (note) */

/* dishonest */
int memo_u(int n) [[unsequenced]];                    /* a memo: not stateless */
int counted(int x) [[reproducible]];                  /* bumps a global on every call */
int reads_level(int x) [[unsequenced]];               /* reads a global: not independent */

extern int level;

#endif
