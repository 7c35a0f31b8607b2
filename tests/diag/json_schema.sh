#!/usr/bin/env bash
# json_schema.sh PURIST SRCDIR NODE_DIR — every JSON output of purist is
# described by its schema in docs/schema/ (issue 20 item 4): runs each
# command that writes JSON on the example project (and on inputs that are
# not analysed, so "not_analysed" is covered) and validates the outputs
# strictly (validate_json.mjs --strict: no undocumented key) with ajv from
# NODE_DIR (diag/sarif_npm_setup). verify's JSON is written by the same
# printer as check's (diag_print_json) and is not run here.
set -u
purist=$(realpath "$1")
src=$(realpath "$2")
node_dir=$3
schemas=$src/docs/schema
validator=$src/tests/diag/validate_json.mjs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/purist-schema.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0

# validate SCHEMA FILE... [--expect-invalid first]: runs the validator.
validate() { node "$validator" "$node_dir" --strict "$@" || fail=1; }
# out NAME ARGS...: runs purist with ARGS in $tmp/cwd, stdout to $tmp/NAME.json.
out() {
  local name=$1; shift
  (cd "$tmp/cwd" && "$purist" "$@") >"$tmp/$name.json" 2>"$tmp/$name.err"
  echo "$name: exit $? ($*)"
}

cmake -S "$src/examples" -B "$tmp/build" >"$tmp/cmake.log" 2>&1 || { echo "cannot configure examples"; cat "$tmp/cmake.log"; exit 2; }
mkdir -p "$tmp/cwd"
b=$tmp/build
out infer infer -p "$b" --format=json
for c in check suggest explain; do out "$c" "$c" -p "$b" --format=json; done
out summarize summarize -p "$b" -o "$tmp/all.purist"
out link link "$tmp/all.purist" --format=json
out baseline-run check -p "$b" --format=json --write-baseline "$tmp/baseline.json"
out impact impact -p "$b" --format=json -j2
# Not analysed: a file with errors, and a database entry purist cannot read.
printf 'int ok(int x) { return x + 1; }\n' >"$tmp/cwd/ok.c"
printf 'int broken(int x) { return x + ; }\n' >"$tmp/cwd/bad.c"
out infer-na infer --format=json ok.c bad.c
out check-na check --format=json ok.c bad.c
mkdir -p "$tmp/cwd/db"
printf '[{"directory": "%s", "file": "ok.c", "arguments": ["cc", "-c", "ok.c"]}, {"file": "x.c"}]\n' "$tmp/cwd" \
  >"$tmp/cwd/db/compile_commands.json"
out explain-na explain -p db --format=json
for f in infer-na check-na explain-na; do
  grep -q '"not_analysed"' "$tmp/$f.json" || { echo "FAIL: $f.json has no not_analysed"; fail=1; }
done

validate "$schemas/infer.schema.json" "$tmp/infer.json" "$tmp/link.json" "$tmp/infer-na.json"
validate "$schemas/diagnostics.schema.json" "$tmp/check.json" "$tmp/suggest.json" "$tmp/explain.json" \
  "$tmp/baseline-run.json" "$tmp/check-na.json" "$tmp/explain-na.json" "$src"/tests/checks/golden/*.json
validate "$schemas/baseline.schema.json" "$tmp/baseline.json"
validate "$schemas/impact.schema.json" "$tmp/impact.json"

# SARIF beside: check --with=suggest,explain (one run of all three) and a
# run whose invocation lists files not analysed, against the SARIF schema.
out with check -p "$b" --format=sarif --with=suggest,explain
out sarif-na check --format=sarif ok.c bad.c
node "$src/tests/diag/validate_sarif.mjs" "$node_dir" "$tmp/with.json" "$tmp/sarif-na.json" || fail=1

# The strict check means something: an undocumented key, a renamed one and
# a wrong value are each rejected.
jq '.functions[0].undocumented = 1' "$tmp/infer.json" >"$tmp/bad1.json"
jq '.diagnostics[0] |= (.sev = .severity | del(.severity))' "$tmp/check.json" >"$tmp/bad2.json"
jq '.not_analysed[0].reason = "gone"' "$tmp/check-na.json" >"$tmp/bad3.json"
validate --expect-invalid "$schemas/infer.schema.json" "$tmp/bad1.json"
validate --expect-invalid "$schemas/diagnostics.schema.json" "$tmp/bad2.json" "$tmp/bad3.json"
[ $fail -eq 0 ] && echo "json_schema: every JSON output matches its schema"
exit $fail
