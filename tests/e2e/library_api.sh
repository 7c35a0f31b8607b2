#!/usr/bin/env bash
# A database holding a library, a test program and a tool (issue 29): the
# mains make the database a whole program, yet the library's exported
# functions are public API — callers outside the analysed code gain from
# their attributes. Exported: defined in a -fPIC TU with default
# visibility, or in a file --library (or .purist `library:`) names. A
# hidden function of the -fPIC library, and the tool's own helpers, stay
# without a public-API gain.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/include" "$T/p/lib" "$T/p/static" "$T/p/tests" "$T/p/tools" && cd "$T/p"
cat >include/geo.h <<'C'
long geo_area(long w, long h);
long geo_hidden(long w);
long geo_perimeter(long w, long h);
C
cat >lib/geo.c <<'C'
#include "geo.h"
long geo_area(long w, long h) { return w * h; }
__attribute__((visibility("hidden"))) long geo_hidden(long w) { return w + 1; }
C
cat >static/perim.c <<'C'
#include "geo.h"
long geo_perimeter(long w, long h) { return 2 * (w + h); }
C
cat >tools/tool.h <<'C'
long tool_scale(long v);
C
cat >tools/tool.c <<'C'
#include "geo.h"
#include "tool.h"
long tool_scale(long v) { return v * 10; }
int main(int argc, char **argv) { (void)argv; return (int)tool_scale(geo_hidden(argc)); }
C
cat >tests/t.c <<'C'
#include "geo.h"
int main(int argc, char **argv) { (void)argv; return (int)(geo_area(argc, 1) + geo_perimeter(argc, 1)); }
C
printf '[{"directory":"%s","file":"lib/geo.c","arguments":["cc","-O2","-fPIC","-Iinclude","-c","lib/geo.c"]},
{"directory":"%s","file":"static/perim.c","arguments":["cc","-O2","-Iinclude","-c","static/perim.c"]},
{"directory":"%s","file":"tools/tool.c","arguments":["cc","-O2","-Iinclude","-c","tools/tool.c"]},
{"directory":"%s","file":"tests/t.c","arguments":["cc","-O2","-Iinclude","-c","tests/t.c"]}]\n' \
  "$PWD" "$PWD" "$PWD" "$PWD" >compile_commands.json

check "a -fPIC TU's default-visibility function is public API though the database defines main"
run suggest -p .
expect_rc 0
expect_stdout_has "'geo_area' can be declared const: .*public API \(declared in include/geo.h\)"

check "its hidden function, and functions of the programs, are not"
expect_stdout_lacks "'geo_hidden'.*public API"
expect_stdout_lacks "'geo_perimeter'.*public API"
expect_stdout_lacks "'tool_scale'.*public API"

check "--library=static/** makes the non-PIC library's functions public API too"
run suggest -p . --library='static/**'
expect_rc 0
expect_stdout_has "'geo_perimeter' can be declared const: .*public API \(declared in include/geo.h\)"
expect_stdout_lacks "'tool_scale'.*public API"

check ".purist library: says the same"
printf 'library: [static]\n' >.purist
run suggest -p .
expect_rc 0
expect_stdout_has "'geo_perimeter' can be declared const: .*public API"
echo "ok"
