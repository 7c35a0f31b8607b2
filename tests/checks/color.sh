#!/usr/bin/env bash
# Colours in text output: --color=always colours even into a pipe;
# --color=never never does; --color=auto colours on a terminal only, and
# not at all when NO_COLOR is set (https://no-color.org).  The terminal is
# a pseudo-terminal from script(1), when it is installed, with TERM=xterm:
# the caller's TERM may be dumb (CI, scripts/pristine.sh), which turns
# --color=auto off by design.
#
#   color.sh PURIST SRCDIR
set -u
purist=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/purist-color.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake -S "$src/examples" -B "$tmp/build" >"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; exit 2; }

fail=0
# A colour is an SGR sequence, ESC [ params m.  (Other control sequences,
# such as the progress line's ESC [ K on a terminal's stderr, are not
# colours.)
sgr=$'\033''\[[0-9;]*m'
# expect NAME yes|no FILE: whether FILE holds an ANSI colour sequence.
expect() {
    if grep -qE "$sgr" "$3"; then got=yes; else got=no; fi
    if [ "$got" = "$2" ]; then echo "check: $1: ok"
    else echo "check: $1: FAIL (ANSI colours expected: $2, found: $got)"; head -5 "$3" | cat -v; fail=1; fi
}
# nonempty NAME FILE: the run printed diagnostics at all.
nonempty() {
    grep -q 'purist-' "$2" || { echo "check: $1: FAIL (no diagnostics printed)"; fail=1; }
}

for cmd in check suggest explain; do
    env -u NO_COLOR "$purist" $cmd -p "$tmp/build" --color=always >"$tmp/always" 2>&1
    nonempty "$cmd --color=always" "$tmp/always"
    expect "$cmd --color=always into a pipe" yes "$tmp/always"
    env -u NO_COLOR "$purist" $cmd -p "$tmp/build" --color=never >"$tmp/never" 2>&1
    expect "$cmd --color=never" no "$tmp/never"
    NO_COLOR=1 "$purist" $cmd -p "$tmp/build" --color=auto >"$tmp/nocolor" 2>&1
    nonempty "$cmd NO_COLOR=1 --color=auto" "$tmp/nocolor"
    expect "$cmd NO_COLOR=1 --color=auto into a pipe" no "$tmp/nocolor"
    env -u NO_COLOR "$purist" $cmd -p "$tmp/build" --color=auto >"$tmp/auto" 2>&1
    expect "$cmd --color=auto into a pipe" no "$tmp/auto"
    if command -v script >/dev/null 2>&1; then
        env -u NO_COLOR TERM=xterm script -qec "'$purist' $cmd -p '$tmp/build' --color=auto" /dev/null \
            </dev/null >"$tmp/tty" 2>&1
        nonempty "$cmd --color=auto on a terminal" "$tmp/tty"
        expect "$cmd --color=auto on a terminal" yes "$tmp/tty"
        NO_COLOR=1 TERM=xterm script -qec "'$purist' $cmd -p '$tmp/build' --color=auto" /dev/null \
            </dev/null >"$tmp/ttyno" 2>&1
        nonempty "$cmd NO_COLOR=1 --color=auto on a terminal" "$tmp/ttyno"
        expect "$cmd NO_COLOR=1 --color=auto on a terminal" no "$tmp/ttyno"
    else
        echo "check: $cmd --color=auto on a terminal: skipped (no script(1))"
    fi
done
exit $fail
