#!/usr/bin/env bash
# The two output formats of infer (DESIGN §4, README "Use"):
#  - JSON: {"version": 1, "functions": [...]}, every function object with the
#    contract keys name, file, line, linkage, class, declared,
#    may_not_return, reason, with values of the documented shapes;
#  - text: one line per function, `file:line: name: class — reason`;
#  - both list the same functions in the same order;
#  - -o FILE writes the output to FILE and nothing to stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat >a.c <<'EOF2'
#include <string.h>
int counter;
static int twice(int x) { return 2 * x; }
int quad(int x) { return twice(twice(x)); }
int peek(void) { return counter; }
void poke(int v) { counter = v; }
__attribute__((pure)) int slen(const char *s) { return (int)strlen(s); }
__attribute__((const)) int lies(void) { return counter; }
int forever(int x) { while (x) { } return 1; }
EOF2
cat >b.c <<'EOF2'
int quad(int x);
static int twice(int x) { return x + x; }
int octo(int x) { return twice(quad(x)); }
EOF2

check "--format=json: version 1, contract keys on every function object"
run infer --format=json a.c b.c
expect_ok
n=$(json_check_functions "$T/out")
[ "$n" -eq 9 ] || fail "expected 9 function objects, got $n${NL}$(context)"
cp "$T/out" "$T/json"

check "JSON values: file, line (of the name), linkage, class, declared, may_not_return"
expect_json "$T/json" quad file '"a.c"'
expect_json "$T/json" quad line 4
expect_json "$T/json" quad linkage '"external"'
expect_json "$T/json" quad class '"const"'
expect_json "$T/json" quad declared '"none"'
expect_json "$T/json" quad may_not_return false
expect_json "$T/json" peek class '"pure"'
expect_json "$T/json" poke class '"normal"'
expect_json "$T/json" slen declared '"pure"'
expect_json "$T/json" slen class '"pure"'
expect_json "$T/json" lies declared '"const"'
expect_json "$T/json" forever may_not_return true
expect_json "$T/json" octo file '"b.c"'
expect_json "$T/json" octo class '"const"'

check "JSON: the two static twice() are two internal functions, one per file"
[ "$(json_count "$T/json" twice)" -eq 2 ] || fail "expected two twice objects${NL}$(show "$T/json")"
json_flat "$T/json" >"$T/json.flat"
[ "$(count_lines "\.linkage${TAB}\"internal\"\$" "$T/json.flat")" -eq 2 ] || fail "expected two internal functions${NL}$(show "$T/json")"

check "JSON: reasons are non-empty and name the cause"
expect_json "$T/json" poke reason "\"writes global 'counter' (a.c:6:20)\""

check "--format json (separate value) is the same"
run infer --format json a.c b.c
expect_ok
same "$T/json" "$T/out" "--format=json and --format json outputs"

check "text (default): every line is file:line: name: class — reason"
run infer a.c b.c
expect_ok
cp "$T/out" "$T/text"
bad=$(grep -Evc '^[^ :]+:[1-9][0-9]*: [A-Za-z_][A-Za-z0-9_]*: (const|pure|normal)([,(][^—]*)? — [^ ].*$' "$T/text" || true)
[ "$bad" -eq 0 ] || fail "$bad line(s) do not look like 'file:line: name: class — reason'${NL}$(show "$T/text")"
[ "$(wc -l <"$T/text")" -eq "$n" ] || fail "text has $(wc -l <"$T/text") lines, JSON $n functions"

check "--format=text is the default"
run infer --format=text a.c b.c
expect_ok
same "$T/text" "$T/out" "default and --format=text outputs"

check "text and JSON list the same functions, in the same order, with the same file/line/class"
sed -n 's/^\([^:]*\):\([0-9]*\): \([A-Za-z0-9_]*\): \(const\|pure\|normal\).*/\1 \2 \3 \4/p' "$T/text" >"$T/from_text"
: >"$T/from_json"
for ((i = 0; i < n; i++)); do
  v() { sed -n "s/^functions\.$i\.$1${TAB}//p" "$T/json.flat" | sed 's/^"\(.*\)"$/\1/'; }
  echo "$(v file) $(v line) $(v name) $(v class)" >>"$T/from_json"
done
same "$T/from_text" "$T/from_json" "functions in text and JSON"

check "text: declared attribute and may-not-return are shown before the dash"
grep -Eq '^a\.c:7: slen: pure, declared pure — ' "$T/text" || fail "slen line${NL}$(show "$T/text")"
grep -Eq '^a\.c:9: forever: const, may not return.* — ' "$T/text" || fail "forever line${NL}$(show "$T/text")"

check "-o FILE (text): FILE holds the report, stdout is empty"
run infer -o "$T/report.txt" a.c b.c
expect_ok
expect_stdout_empty
same "$T/text" "$T/report.txt" "stdout report and -o report"

check "-o FILE (json): FILE holds the JSON, stdout is empty"
run infer --format=json -o "$T/report.json" a.c b.c
expect_ok
expect_stdout_empty
same "$T/json" "$T/report.json" "stdout JSON and -o JSON"

check "-o overwrites an existing file completely"
for i in $(seq 500); do echo 'stale line'; done >"$T/report.txt"
run infer -o "$T/report.txt" a.c b.c
expect_ok
same "$T/text" "$T/report.txt" "stdout report and the overwritten -o report"

check "--quiet does not change stdout"
run infer --quiet a.c b.c
expect_rc 0
same "$T/text" "$T/out" "outputs with and without --quiet"
echo "ok"
