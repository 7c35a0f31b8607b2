#!/usr/bin/env bash
# check on code that declares no pure or const function prints no finding;
# a first-time user running it on such a project learns why the output is
# empty and where to go next, on stderr (stdout stays the findings). A
# project that declares one gets no such line; the C library's own
# prototypes (strlen is pure) do not count as the project's.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat >plain.c <<'EOF2'
#include <string.h>
int twice(int x) { return 2 * x; }
size_t len(const char *s) { return strlen(s); }
EOF2
cat >annotated.c <<'EOF2'
__attribute__((const)) int thrice(int x) { return 3 * x; }
EOF2

check "nothing declared: exit 0, empty stdout, the reason on stderr"
run check plain.c
expect_rc 0
expect_stdout_empty
expect_stderr_has 'no function of the analysed code is declared pure or const'
expect_stderr_has 'purist suggest'

check "one function declared: no such line"
run check plain.c annotated.c
expect_rc 0
expect_stderr_lacks 'nothing to check'

check "--quiet: nothing said"
run check --quiet plain.c
expect_rc 0
expect_stderr_lacks 'nothing to check'
