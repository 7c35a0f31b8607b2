#!/usr/bin/env bash
# A report that could not be written is a failure: with stdout on a full
# disk (/dev/full), infer, infer --format=json, infer --why and link must
# exit non-zero (2: an input/output error) and say so on stderr, as they
# already do for -o /dev/full — not exit 0 with the report lost.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

[ -w /dev/full ] || { echo "  (skipped: no /dev/full)"; echo "ok"; exit 0; }
mkdir -p "$T/p"
cd "$T/p"
printf 'int g;\nint peek(void) { return g; }\nvoid poke(int v) { g = v; }\n' >a.c
run summarize -o a.purist a.c
expect_ok

# to_full ARGS...: runs purist with stdout on /dev/full; status in $RC.
to_full() {
  set +e
  "$PURIST" "$@" >/dev/full 2>"$T/err"
  RC=$?
  set -e
  : >"$T/out"
  LAST="purist $* >/dev/full"
}

check "sanity: -o /dev/full fails with exit 2"
run infer -o /dev/full a.c
expect_rc 2

for args in "infer a.c" "infer --format=json a.c" "infer --why poke a.c" "link a.purist"; do
  check "$args >/dev/full: exit 2 and a message on stderr"
  # shellcheck disable=SC2086
  to_full $args
  expect_rc 2
  [ -s "$T/err" ] || fail "nothing on stderr${NL}$(context)"
done
echo "ok"
