/* unlinked.c — in the compile database, but linked into no program: its
 * const function is watched and never found. */
int never_linked(int x) __attribute__((const));
int never_linked(int x) { return x + 1; }
