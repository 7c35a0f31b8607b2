#!/usr/bin/env bash
# Dependency files requested through the preprocessor, as Kbuild (the Linux
# kernel, and projects that copy its makefiles) does: -Wp,-MD,path.d and
# -Wp,-MMD,path.d.  Like -MD -MF, they belong to the build: purist must
# neither create nor overwrite them.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
printf 'int f(int x) { return x; }\n' >a.c
printf 'int g(int x) { return x + 1; }\n' >b.c
printf 'original contents, must survive\n' >.b.o.d
cp .b.o.d b.keep
cat >compile_commands.json <<EOF2
[
  {"directory": "$T/p", "file": "a.c", "command": "gcc -Wp,-MMD,.a.o.d -nostdinc -c -o a.o a.c"},
  {"directory": "$T/p", "file": "b.c", "arguments": ["gcc", "-Wp,-MD,.b.o.d", "-c", "-o", "b.o", "b.c"]}
]
EOF2

check "infer on a database with -Wp,-MMD,.a.o.d and -Wp,-MD,.b.o.d succeeds"
run infer
expect_ok
expect_stdout_has '^a\.c:1: f: const'
expect_stdout_has '^b\.c:1: g: const'

check "-Wp,-MMD,.a.o.d: purist did not create .a.o.d"
[ ! -e .a.o.d ] || fail "purist created the build's dependency file .a.o.d:${NL}$(show .a.o.d)"

check "-Wp,-MD,.b.o.d: purist did not overwrite the existing .b.o.d"
same b.keep .b.o.d "the build's .b.o.d before and after purist"

check "files + flags: purist infer c.c -- -Wp,-MD,.c.o.d does not create .c.o.d"
printf 'int h(void) { return 3; }\n' >c.c
run infer c.c -- -Wp,-MD,.c.o.d
expect_ok
[ ! -e .c.o.d ] || fail "purist created .c.o.d"
echo "ok"
