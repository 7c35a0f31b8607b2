/* Each expectation here is broken in one way by fake.json. */
// expect-command: check
// expect-exit: 0
// expect-order: w_order_b w_order_a
int w_severity(void); // expect-diag: misuse severity=warning function=w_severity
int w_function(void); // expect-diag: misuse function=w_function
int w_msg(void); // expect-diag: misuse function=w_msg msg~"zork"
int w_msg_not(void); // expect-diag: misuse function=w_msg_not msg!~"bar"
int w_line(void); // expect-diag: misuse function=w_line
int w_column(void); // expect-diag: misuse function=w_column column=3
int w_related(void); // expect-diag: misuse function=w_related related=t.c:1
int w_check(void); // expect-diag: misuse function=w_check
int w_order_a(void); // expect-diag: cheat function=w_order_a
int w_order_b(void); // expect-diag: cheat function=w_order_b
int w_missing(void); // expect-diag: misuse function=w_missing
