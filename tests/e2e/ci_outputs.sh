#!/usr/bin/env bash
# CI-ready outputs (issue 20 item 4): a file purist could not analyse is in
# the SARIF and JSON, not only on stderr and in the exit status — SARIF
# invocations[0].executionSuccessful false with one toolExecutionNotification
# per file (reason errors, timed-out, crashed, bad-entry), JSON
# "not_analysed" — and a complete run says so (executionSuccessful true, no
# "not_analysed" key). Each command's SARIF run has its own
# automationDetails.id, so GitHub code scanning keeps their uploads apart.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
command -v jq >/dev/null || fail "jq is needed (scripts/deps.sh installs it)"
cd "$T"
printf 'int g;\nint get(void) __attribute__((const));\nint get(void) { return g; }\n' >ok.c
printf 'int broken(int x) { return x + ; }\n' >bad.c

# jqt FILTER FILE: jq's answer, failing the test if the file is not JSON.
jqt() { jq -r "$1" "$2" || fail "not JSON: $2$NL$(show "$2")"; }

check "a clean run: executionSuccessful true, no notifications, no not_analysed key"
run check --no-cache --format=sarif ok.c
expect_rc 1
[ "$(jqt '.runs[0].invocations[0].executionSuccessful' "$T/out")" = true ] || fail "not successful$NL$(context)"
[ "$(jqt '.runs[0].invocations[0].toolExecutionNotifications' "$T/out")" = null ] || fail "notifications in a clean run"
run check --no-cache --format=json ok.c
[ "$(jqt 'has("not_analysed")' "$T/out")" = false ] || fail "not_analysed in a clean run$NL$(context)"
run infer --no-cache --format=json ok.c
[ "$(jqt 'has("not_analysed")' "$T/out")" = false ] || fail "infer: not_analysed in a clean run"

check "automationDetails.id is purist/COMMAND/ for check, suggest and explain"
for cmd in check suggest explain; do
  run "$cmd" --no-cache --format=sarif ok.c
  [ "$(jqt '.runs[0].automationDetails.id' "$T/out")" = "purist/$cmd/" ] || fail "$cmd: wrong id$NL$(context)"
done

check "check --with=suggest,explain: one SARIF run with all three commands' findings, its own id"
mkdir w && cd w
printf 'int twice(int x);\nint g;\nint get(void) __attribute__((const));\n' >w.h
printf '#include "w.h"\nint twice(int x) { return 2 * x; }\nint get(void) { return g; }\n' >lib.c
printf '#include "w.h"\nint use(int v) { twice(v); return twice(v) + twice(v); }\n' >use.c
for cmd in check suggest explain; do
  run "$cmd" --no-cache --format=sarif lib.c use.c
  jqt '[.runs[0].results[].ruleId] | unique | .[]' "$T/out" >"$T/ids.$cmd"
  [ -s "$T/ids.$cmd" ] || fail "$cmd found nothing to combine$NL$(context)"
done
run check --no-cache --format=sarif --with=suggest,explain lib.c use.c
expect_rc 1
[ "$(jqt '.runs | length' "$T/out")" = 1 ] || fail "not one run"
[ "$(jqt '.runs[0].automationDetails.id' "$T/out")" = "purist/check+suggest+explain/" ] || fail "wrong id$NL$(context)"
jqt '[.runs[0].results[].ruleId] | unique | .[]' "$T/out" >"$T/ids.with"
sort -u "$T/ids.check" "$T/ids.suggest" "$T/ids.explain" >"$T/ids.all"
same "$T/ids.all" "$T/ids.with" "the rules of check --with=suggest,explain and of the three runs"
n=$(jqt '.runs[0].results | length' "$T/out")
run check --no-cache --format=json --with=suggest,explain lib.c use.c
[ "$(jqt '.diagnostics | length' "$T/out")" = "$n" ] || fail "JSON and SARIF disagree on the count"
run check --no-cache --format=sarif --with=explain lib.c use.c
[ "$(jqt '.runs[0].automationDetails.id' "$T/out")" = "purist/check+explain/" ] || fail "wrong id for --with=explain"
run check --with=fix lib.c
expect_usage_error "--with wants suggest, explain or both"
run suggest --with=explain lib.c
expect_usage_error "--with is for check"
cd "$T"

check "a file with errors: SARIF notification (reason errors, at the file), JSON not_analysed, exit 2"
run check --no-cache --format=sarif ok.c bad.c
expect_rc 2
[ "$(jqt '.runs[0].invocations[0].executionSuccessful' "$T/out")" = false ] || fail "executionSuccessful is not false$NL$(context)"
[ "$(jqt '.runs[0].invocations[0].toolExecutionNotifications | length' "$T/out")" = 1 ] || fail "not one notification"
n='.runs[0].invocations[0].toolExecutionNotifications[0]'
[ "$(jqt "$n.properties.reason" "$T/out")" = errors ] || fail "reason is not errors"
[ "$(jqt "$n.level" "$T/out")" = error ] || fail "level is not error"
[ "$(jqt "$n.locations[0].physicalLocation.artifactLocation.uri" "$T/out")" = bad.c ] || fail "not at bad.c"
jqt "$n.message.text" "$T/out" | grep -q 'bad\.c:1:[0-9]*: error: expected expression' || fail "message is not the error"
[ "$(jqt '.runs[0].results | length' "$T/out")" -ge 1 ] || fail "ok.c's finding is missing"
for cmd in check infer; do
  run "$cmd" --no-cache --format=json ok.c bad.c
  expect_rc 2
  [ "$(jqt '.not_analysed | length' "$T/out")" = 1 ] || fail "$cmd: not one not_analysed entry$NL$(context)"
  [ "$(jqt '.not_analysed[0].file + " " + .not_analysed[0].reason' "$T/out")" = "bad.c errors" ] ||
    fail "$cmd: wrong entry$NL$(context)"
  [ "$(jqt '.version' "$T/out")" = 1 ] || fail "$cmd: version key lost"
done
run infer --no-cache --format=json ok.c bad.c
[ "$(jqt '.functions | length' "$T/out")" = 1 ] || fail "infer: functions key changed"

check "a parse past --tu-timeout: reason timed-out"
{
  echo '#define M0(x) x+x'
  for i in $(seq 1 16); do echo "#define M$i(x) M$((i - 1))(M$((i - 1))(x))"; done
  echo 'int bomb(void) { return M16(1); }'
} >bomb.c
run check --no-cache --tu-timeout 1 -j1 --format=sarif bomb.c ok.c
expect_rc 2
[ "$(jqt "$n.properties.reason + \" \" + $n.locations[0].physicalLocation.artifactLocation.uri" "$T/out")" = "timed-out bomb.c" ] ||
  fail "no timed-out notification for bomb.c$NL$(context)"

check "a parse that crashes: reason crashed"
awk 'BEGIN { print "int nest(int x) {"; for (i = 0; i < 10000; i++) print "if (x)"; print "x++;"; print "return x; }" }' >ifs.c
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0
PURIST_PARSE_STACK_MIB=1 run check --no-cache -j1 --format=json ifs.c ok.c
expect_rc 2
[ "$(jqt '.not_analysed[0].file + " " + .not_analysed[0].reason' "$T/out")" = "ifs.c crashed" ] ||
  fail "no crashed entry for ifs.c$NL$(context)"

check "a compile-database entry purist cannot read: reason bad-entry, at the database"
mkdir db && cp ok.c db/
cat >db/compile_commands.json <<JSON
[ {"directory": "$T/db", "file": "ok.c", "arguments": ["cc", "-c", "ok.c"]},
  {"directory": "$T/db", "arguments": ["cc", "-c", "gone.c"]} ]
JSON
run check --no-cache -p db --format=sarif
expect_rc 2
[ "$(jqt "$n.properties.reason + \" \" + $n.locations[0].physicalLocation.artifactLocation.uri" "$T/out")" = "bad-entry compile_commands.json" ] ||
  fail "no bad-entry notification at compile_commands.json$NL$(context)"
jqt "$n.message.text" "$T/out" | grep -q 'entry 1' || fail "the message does not name the entry"
echo "ok"
