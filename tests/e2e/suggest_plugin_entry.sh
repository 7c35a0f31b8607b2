#!/usr/bin/env bash
# Plugin entry points (issue 30 item 9, found on PulseAudio): one prototype
# in a header whose name a macro renames in each compile (`#define
# plug_name CONCAT(PLUGIN, _LTX_plug_name)`, one function per plugin, found
# by the loader with dlsym) is no public API: no caller outside the
# analysed code can call those functions through it, so they gain nothing
# and suggest keeps them for --all. A function renamed once (nettle's
# `#define geo_area nettle_geo_area`) stays public API.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/include" "$T/p/plugins" "$T/p/lib" && cd "$T/p"
cat >include/plugin.h <<'C'
#define CONCAT1(a, b) a ## b
#define CONCAT(a, b) CONCAT1(a, b)
#define plug_name CONCAT(PLUGIN, _LTX_plug_name)
const char *plug_name(void);
C
cat >include/geo.h <<'C'
#define geo_area nettle_geo_area
long geo_area(long w, long h);
C
cat >plugins/a.c <<'C'
#include "plugin.h"
const char *plug_name(void) { return "a"; }
C
cat >plugins/b.c <<'C'
#include "plugin.h"
const char *plug_name(void) { return "b"; }
C
cat >lib/geo.c <<'C'
#include "geo.h"
long geo_area(long w, long h) { return w * h; }
C
printf '[{"directory":"%s","file":"plugins/a.c","arguments":["cc","-O2","-fPIC","-Iinclude","-DPLUGIN=mod_a","-c","plugins/a.c"]},
{"directory":"%s","file":"plugins/b.c","arguments":["cc","-O2","-fPIC","-Iinclude","-DPLUGIN=mod_b","-c","plugins/b.c"]},
{"directory":"%s","file":"lib/geo.c","arguments":["cc","-O2","-fPIC","-Iinclude","-c","lib/geo.c"]}]\n' \
  "$PWD" "$PWD" "$PWD" >compile_commands.json

check "a function renamed once is public API"
run suggest -p .
expect_rc 0
expect_stdout_has "'nettle_geo_area' can be declared const: .*public API \(declared in include/geo.h\)"

check "the plugins' entry points, one prototype for both, are not: nothing to gain without --all"
expect_stdout_lacks "_LTX_plug_name"
run suggest --all -p .
expect_rc 0
expect_stdout_has "note: 'mod_a_LTX_plug_name' can be declared const"
expect_stdout_has "note: 'mod_b_LTX_plug_name' can be declared const"
expect_stdout_lacks "_LTX_plug_name'.*public API"
