#!/usr/bin/env bash
# Usage errors: exit status 2, nothing on stdout, exactly one line on stderr
# that names the culprit, and no crash.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
printf 'int f(int x) { return x; }\n' >f.c
printf '[{"directory": "%s", "file": "f.c", "arguments": ["cc", "-c", "f.c"]}]\n' "$T/p" >compile_commands.json

check "sanity: the project itself is fine"
run infer
expect_ok

check "unknown option --bogus"
run infer --bogus
expect_usage_error '--bogus'

check "unknown option after the files"
run infer f.c --frobnicate-harder
expect_usage_error '--frobnicate-harder'

check "unknown command"
run frobnicate -p .
expect_usage_error 'frobnicate'

check "no command at all: exit 2 (usage on stderr)"
run
expect_rc 2
expect_stdout_empty
[ -s "$T/err" ] || fail "expected a usage message on stderr${NL}$(context)"

check "--help: exit 0, usage on stdout naming the commands"
run --help
expect_ok
expect_stdout_has 'infer'
expect_stdout_has 'summarize'
expect_stdout_has 'link'

check "-p of a directory that does not exist"
run infer -p "$T/no/such/dir"
expect_usage_error "$T/no/such/dir"

check "-p of a directory without compile_commands.json"
mkdir -p empty
run infer -p empty
expect_usage_error 'empty(/compile_commands\.json)?'

check "-p without a value"
run infer -p
expect_usage_error '-p'

check "-j 0"
run infer -j 0
expect_usage_error '-j'

check "-j0, -j -3, -j x"
for j in -j0 "-j -3" "-j x"; do
  # shellcheck disable=SC2086
  run infer $j
  expect_usage_error '-j'
done

check "--format=xml"
run infer --format=xml
expect_usage_error 'xml'

check "--format xml (separate value)"
run infer --format xml
expect_usage_error 'xml'

check "--color=sometimes"
run infer --color=sometimes
expect_usage_error 'sometimes'

check "--why of a function that is not in the analysed code"
run infer --why no_such_function
expect_usage_error 'no_such_function'

check "--kb FILE that does not exist"
run infer --kb "$T/missing.kb"
expect_usage_error 'missing\.kb'

check "a named source file that does not exist (no database)"
run infer nonexistent.c -- -DX
expect_usage_error 'nonexistent\.c'

check "infer -o into a directory that does not exist"
run infer -o "$T/no/such/dir/out.txt"
expect_rc 2
expect_stdout_empty
expect_stderr_has "$T/no/such/dir/out\\.txt"
[ ! -e "$T/no/such/dir/out.txt" ] || fail "an output file appeared"
echo "ok"
