/* Every expectation met (against fake-*.json): the checker must pass. */
// expect-command: check suggest
// flags: -I. -DSELF
// args: --cheats-as-errors
// expect-exit: 1 command=check
#include "b.h"
int f(void); // expect-diag: misuse // expect-diag: misuse function=g msg~"needle \"quoted\" // not a directive"
// expect-diag: cheat line=+1 severity=error function=h column=7 msg~"cached" msg!~"misuse" related=b.h:3
int h(void);
int unrelated(void); // the suggest expectations are in b.h
