#!/usr/bin/env bash
# Golden outputs of `purist check`, `suggest` and `explain` on the bundled
# example project, in text (--color=never), JSON and SARIF, and of
# `suggest --all` in text.
#
#   golden.sh PURIST SRCDIR            compare with tests/checks/golden/
#   golden.sh PURIST SRCDIR --update   rewrite the golden files from this run
#                                      (review the diff before committing it)
#
# examples/ is configured into a temporary build directory (only its
# compile_commands.json is needed) and purist runs from an unrelated
# directory: the paths it prints are relative to examples/, the project
# root, so the outputs do not depend on where anything lives.  The one
# absolute path in the output, SARIF's originalUriBaseIds SRCROOT uri
# (file:///…/examples/), is replaced by file:///@EXAMPLES@/, and the docs'
# base URL of each rule's helpUri and of informationUri (a build setting,
# PURIST_DOCS_URL) by
# file:///@DOCS@/; nothing else is normalised.  The exit status of each command is kept in
# golden/exit-status.txt.
set -u
purist=$(realpath "$1")
src=$(realpath "$2")
update=${3:-}
golden=$src/tests/checks/golden
examples=$src/examples

tmp=$(mktemp -d "${TMPDIR:-/tmp}/purist-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! cmake -S "$examples" -B "$tmp/build" >"$tmp/cmake.log" 2>&1; then
    echo "golden: cannot configure $examples:"; cat "$tmp/cmake.log"; exit 2
fi
mkdir -p "$tmp/out" "$tmp/cwd"

: >"$tmp/out/exit-status.txt"
for cmd in check suggest explain; do
    for fmt in text json sarif; do
        case $fmt in text) ext=txt ;; *) ext=$fmt ;; esac
        out=$tmp/out/$cmd.$ext
        (cd "$tmp/cwd" && "$purist" "$cmd" -p "$tmp/build" --format=$fmt --color=never) \
            >"$out" 2>"$tmp/$cmd.$ext.stderr"
        rc=$?
        echo "$cmd --format=$fmt: $rc" >>"$tmp/out/exit-status.txt"
        if [ "$fmt" = sarif ]; then
            sed -i -e "s|file://$examples/|file:///@EXAMPLES@/|g" \
                -e 's|"helpUri": "[^"]*/checks/|"helpUri": "file:///@DOCS@/checks/|' \
                -e 's|"informationUri": "[^"]*/README.md"|"informationUri": "file:///@DOCS@/README.md"|' "$out"
        fi
        if [ "$rc" -ge 2 ] || [ -s "$tmp/$cmd.$ext.stderr" ]; then
            echo "golden: $cmd --format=$fmt exited $rc, stderr:"; cat "$tmp/$cmd.$ext.stderr"
        fi
    done
done
# suggest --all: the suggestions that gain nothing too, as notes (text only).
(cd "$tmp/cwd" && "$purist" suggest --all -p "$tmp/build" --color=never) >"$tmp/out/suggest-all.txt" 2>"$tmp/suggest-all.stderr"
echo "suggest --all --format=text: $?" >>"$tmp/out/exit-status.txt"

if [ "$update" = --update ]; then
    mkdir -p "$golden"
    cp "$tmp"/out/* "$golden"/
    echo "golden: rewrote $(ls "$tmp/out" | wc -l) files in $golden"
    exit 0
elif [ -n "$update" ]; then
    echo "usage: golden.sh PURIST SRCDIR [--update]" >&2; exit 2
fi

fail=0
for f in "$tmp"/out/*; do
    name=$(basename "$f")
    if [ ! -f "$golden/$name" ]; then
        echo "check: golden/$name: FAIL (no golden file)"; fail=1; continue
    fi
    if diff -u --label "golden/$name" --label "actual/$name" "$golden/$name" "$f" >"$tmp/diff"; then
        echo "check: golden/$name: ok"
    else
        echo "check: golden/$name: FAIL"; cat "$tmp/diff"; fail=1
    fi
done
for g in "$golden"/*; do
    [ -f "$tmp/out/$(basename "$g")" ] || { echo "check: golden/$(basename "$g"): FAIL (not produced)"; fail=1; }
done
if [ $fail -ne 0 ]; then
    echo "reproduce: (cd <any dir> && $purist COMMAND -p <examples build dir> --format=FMT --color=never)"
    echo "if the change is intended: bash $src/tests/checks/golden.sh $purist $src --update"
fi
exit $fail
