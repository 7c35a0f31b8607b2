#!/usr/bin/env bash
# Issue 12 item 5: file names that are not UTF-8 (lat\xE9n.c) come out of
# every JSON writer by one lossless rule (docs/file-names.md, textenc.h):
# each byte b that is not part of valid UTF-8 is U+EF00+b, so "lat\xE9n.c"
# is "lat\uEFE9n.c" in infer and check --format=json, in the SARIF
# messages and in the HTML report's data; SARIF URIs percent-encode the
# byte (lat%E9n.c). A name that is UTF-8 is unchanged; a name holding a
# character of U+EF80..U+EFFF itself is escaped byte by byte, so the two
# never meet. A baseline written with such names hides the same findings.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
cd "$T"
command -v jq >/dev/null || fail "jq is needed (scripts/deps.sh installs it)"
latin=$(printf 'lat\xe9n.c')
enc=$(printf 'lat\xee\xbf\xa9n.c')           # U+EFE9 in UTF-8
pua=$(printf '\xee\xbe\x80p.c')              # a name holding U+EF80 itself
pua_enc=$(printf '\xee\xbf\xae\xee\xbe\xbe\xee\xbe\x80p.c')   # U+EFEE U+EFBE U+EF80
cat >"$latin" <<'EOF2'
int g;
__attribute__((pure)) int lat(int *p) { g = *p; return g; }
int sq(int x) { return x * x; }
EOF2
printf 'int na(int x) { return x + 1; }\n' >"$(printf 'na\xc3\xafve.c')"
printf 'int pu(int x) { return x - 1; }\n' >"$pua"

check "infer --format=json: the file and the reason name lat\\xE9n.c by the rule"
run infer --format=json "$latin" "$(printf 'na\xc3\xafve.c')" "$pua"
expect_rc 0
jq -e . "$T/out" >/dev/null || fail "infer's JSON does not parse$NL$(context)"
[ "$(jq -r '.functions[] | select(.name=="sq") | .file' "$T/out")" = "$enc" ] ||
  fail "sq's file is not lat\\uEFE9n.c$NL$(context)"
jq -r '.functions[] | select(.name=="lat") | .reason' "$T/out" | grep -qF "($enc:2:" ||
  fail "lat's reason does not name the file by the rule$NL$(context)"
[ "$(jq -r '.functions[] | select(.name=="na") | .file' "$T/out")" = "$(printf 'na\xc3\xafve.c')" ] ||
  fail "a UTF-8 name changed$NL$(context)"
[ "$(jq -r '.functions[] | select(.name=="pu") | .file' "$T/out")" = "$pua_enc" ] ||
  fail "a name holding U+EF80 is not escaped byte by byte$NL$(context)"

check "check --format=json: file, related file and message by the rule"
run check --format=json "$latin"
expect_rc 1
jq -e . "$T/out" >/dev/null || fail "check's JSON does not parse$NL$(context)"
[ "$(jq -r '.diagnostics[0].file' "$T/out")" = "$enc" ] || fail "wrong file$NL$(context)"
[ "$(jq -r '.diagnostics[0].related[0].file' "$T/out")" = "$enc" ] || fail "wrong related file$NL$(context)"
jq -r '.diagnostics[0].message' "$T/out" | grep -qF "$enc:2:41" || fail "wrong message$NL$(context)"
grep -q $'\xef\xbf\xbd' "$T/out" && fail "U+FFFD in the output: the name was lost$NL$(context)"

check "check --format=sarif: the URI percent-encodes the byte, the message uses the rule"
run check --format=sarif "$latin"
expect_rc 1
[ "$(jq -r '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri' "$T/out")" = 'lat%E9n.c' ] ||
  fail "wrong SARIF uri$NL$(context)"
jq -r '.runs[0].results[0].message.text' "$T/out" | grep -qF "$enc:2:41" || fail "wrong SARIF message$NL$(context)"

check "report --html: the page's data names the file by the rule"
run report --html -o page.html "$latin"
[ "$RC" -le 1 ] || fail "report failed$NL$(context)"
grep -q 'lat\\uEFE9n\.c' page.html || fail "the page's data does not hold lat\\uEFE9n.c"

check "a baseline written with the name hides the same finding"
run check --write-baseline base.json "$latin"
run check --baseline base.json "$latin"
expect_rc 0
echo "PASS"
