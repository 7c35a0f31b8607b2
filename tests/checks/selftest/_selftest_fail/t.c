/* Deliberately wrong expectations against the real purist: the run must
 * fail, and for the reasons the self-test's regular expression names. */
// expect-command: check
// expect-exit: 1

int level;

__attribute__((const)) int read_level(void) // expect-diag: misuse function=read_level msg~"this text is not in the message"
{
    return level;
}

void set_level(int v) { level = v; }
