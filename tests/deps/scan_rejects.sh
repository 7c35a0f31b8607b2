#!/usr/bin/env bash
# deps/scan must fail on a script that runs a command no listed package
# provides: a copy of scripts/deps.sh without jq, and a test that runs jq,
# is refused, naming jq and where it is used. Proof that a pass of
# deps/scan means something.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/purist-scan.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/scripts" "$T/tests/x" "$T/.ci"
lists='/^\(test_\)\{0,1\}pkgs=(/,/)/'
sed "${lists}s/\([ (]\)jq\([ )]\)/\1\2/" "$here/../../scripts/deps.sh" >"$T/scripts/deps.sh"
sed -n "${lists}p" "$T/scripts/deps.sh" | sed 's/#.*//' | grep -qw jq &&
  { echo "FAIL: could not drop jq from the copy of deps.sh"; exit 1; }
: >"$T/CMakeLists.txt"
# Enough ordinary commands for the scan to count as reading the script.
printf '%s\n' '#!/bin/sh' 'set -eu' 'cat a | sort | uniq | head -1 | tail -1 >b' \
  'mkdir -p c; cp b c/; mv c d; rm -rf d; ls; touch e; wc -l e; cut -c1 e; tr a b <e' \
  'sed -n 1p e; grep -q x e || true; find . -name e; sleep 0; date; env; printf x; echo x' \
  'if cmp e e; then diff e e; fi' 'out=$(jq -r .a "$f")   # the one not listed' >"$T/tests/x/t.sh"
out=$(bash "$here/scan.sh" "$T" 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: scan.sh passed a test that runs jq with jq unlisted"; exit 1; }
echo "$out" | grep -q "^scan: 'jq' (used at tests/x/t.sh:7)" ||
  { echo "FAIL: scan.sh did not name jq and tests/x/t.sh:7"; exit 1; }
echo "$out" | grep -q "^scan: '\(cat\|sort\|grep\)'" && { echo "FAIL: scan.sh refused a minbase command"; exit 1; }
echo ok
