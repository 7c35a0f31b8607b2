#!/usr/bin/env bash
# A file compiled once per definition of a macro that names its function
# (GMP's sec_aors_1.c: `FNAME_itch` is one function in one compile, another
# in the other; here two files include the template, as GMP's build links
# it under two names): the text of the definition is two functions', so fix leaves
# it alone with a note, although each renaming macro alone would be edited
# as written. Near miss: a file compiled once, whose name macro renames one
# function, is edited.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir "$T/p" && cd "$T/p"
cat >ops.h <<'EOF2'
int op_add_itch(int n);
int op_sub_itch(int n);
int op_one_itch(int n);
EOF2
cat >aors.c <<'EOF2'
#include "ops.h"
#ifdef ADD
#define FNAME_itch op_add_itch
#else
#define FNAME_itch op_sub_itch
#endif
int
FNAME_itch (int n)
{
  return n + 1;
}
EOF2
cat >one.c <<'EOF2'
#include "ops.h"
#define ONE_itch op_one_itch
int
ONE_itch (int n)
{
  return n * 2;
}
EOF2
printf '#define ADD 1\n#include "aors.c"\n' >add.c
printf '#include "aors.c"\n' >sub.c
cp aors.c "$T/aors.orig"
printf '[{"directory": "%s", "file": "add.c", "command": "cc -c add.c"},\n {"directory": "%s", "file": "sub.c", "command": "cc -c sub.c"},\n {"directory": "%s", "file": "one.c", "command": "cc -c one.c"}]\n' "$T/p" "$T/p" "$T/p" >compile_commands.json

run fix --all -p . --root "$T/p"
expect_rc 0
check "a definition whose name macro names two functions, one per compile, is left alone with a note"
same "$T/aors.orig" aors.c "aors.c before and after fix"
expect_stderr_has "^aors\.c:8:1: note: 'op_add_itch' is not edited: its name is a macro that names another function in another compile of this file \(edit it by hand\)$"
expect_stderr_has "^aors\.c:8:1: note: 'op_sub_itch' is not edited: its name is a macro"
check "the prototypes in the header are edited"
expect_file_has ops.h '^int op_add_itch\(int n\) __attribute__\(\(const\)\);$'
expect_file_has ops.h '^int op_sub_itch\(int n\) __attribute__\(\(const\)\);$'
check "near miss: a name macro of a file compiled once is edited as written"
expect_file_has one.c '^__attribute__\(\(const\)\) int$'
expect_file_has ops.h '^int op_one_itch\(int n\) __attribute__\(\(const\)\);$'
echo "ok"
