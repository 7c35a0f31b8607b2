// expect-order: command=suggest zed alpha
int zed(void); // expect-diag: suggest-const function=zed
int alpha(void); // expect-diag: suggest-pure function=alpha msg~"2 call sites"
