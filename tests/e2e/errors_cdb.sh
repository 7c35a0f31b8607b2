#!/usr/bin/env bash
# Broken compile databases: exit 2, nothing on stdout, exactly one line on
# stderr naming the database (and where it is broken), no crash.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
printf 'int good(int x) { return x; }\n' >good.c

db() { printf '%s' "$1" >compile_commands.json; }

check "malformed JSON: the message has the database's name and line:column"
db '[
  {"directory": ".", "file": "good.c",
   "command": "cc -c good.c"
  ,,
]
'
run infer
expect_usage_error 'compile_commands\.json:4:[0-9]+'

check "malformed JSON through -p: same message"
run infer -p .
expect_usage_error 'compile_commands\.json:4:[0-9]+'

check "empty file"
db ''
run infer
expect_usage_error 'compile_commands\.json'

check "a JSON object instead of an array"
db '{"directory": ".", "file": "good.c", "command": "cc -c good.c"}'
run infer
expect_usage_error 'compile_commands\.json.*array'

check "a JSON string instead of an array"
db '"hello"'
run infer
expect_usage_error 'compile_commands\.json'

check "an entry that is not an object"
db '[42]'
run infer
expect_usage_error 'compile_commands\.json'

check "an entry without \"file\" (the second one): reported, the first analysed, exit 2 (issue 12)"
db '[{"directory": ".", "file": "good.c", "command": "cc -c good.c"},
     {"directory": ".", "command": "cc -c good.c"}]'
run infer
expect_rc 2
expect_stderr_has 'compile_commands\.json: entry 1 needs .*file'
expect_stdout_has '^good\.c:1: good: const'

check "an entry with an empty \"arguments\" list: said and skipped, not analysed without flags (issue 31)"
db '[{"directory": ".", "file": "good.c", "arguments": []},
     {"directory": ".", "file": "good.c", "arguments": ["cc", "-DX", "-c", "good.c"]}]'
run infer
expect_rc 2
expect_stderr_has 'compile_commands\.json: entry 0: "arguments" is empty \(no compiler, no flags\)'
expect_stdout_has '^good\.c:1: good: const'
db '[{"directory": ".", "file": "good.c", "command": "   "}]'
run infer
expect_stderr_has 'compile_commands\.json: entry 0: "command" is empty'

check "an entry without \"directory\""
db '[{"file": "good.c", "command": "cc -c good.c"}]'
run infer
expect_usage_error 'compile_commands\.json.*directory'

check "an entry with neither \"arguments\" nor \"command\""
db '[{"directory": ".", "file": "good.c"}]'
run infer
expect_usage_error 'compile_commands\.json.*(arguments|command)'

check "\"file\" of the wrong type"
db '[{"directory": ".", "file": 7, "command": "cc -c good.c"}]'
run infer
expect_usage_error 'compile_commands\.json'

check "a \"command\" with an unterminated quote"
db '[{"directory": ".", "file": "good.c", "command": "cc -DX=\"oops -c good.c"}]'
run infer
expect_usage_error 'compile_commands\.json'

check "an empty array: nothing to analyse, no crash"
db '[]'
run infer
no_crash
[ "$RC" -eq 0 ] || [ "$RC" -eq 2 ] || fail "expected exit 0 or 2${NL}$(context)"

check "summarize on a malformed database: exit 2, no summary file"
db '[{'
run summarize -o out.purist
expect_usage_error 'compile_commands\.json'
[ ! -e out.purist ] || fail "summarize left out.purist behind"
echo "ok"
