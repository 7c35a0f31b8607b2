#!/usr/bin/env bash
# lsp/robust: what an editor meets beyond the happy path. A file the
# compile database does not compile, a header nothing declares in, a TU
# that does not parse, a workspace without a database: each gets one
# diagnostic that says so. The database is found from -p, from
# initializationOptions, from the workspace root. A client that vanishes
# (end of input) ends the server (status 1, as LSP says); the server
# writes nothing in the project.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
P=$T/proj
make_project "$P"
printf 'int lonely(int x) { return x; }\n' >"$P/src/c.c"
printf '/* nothing */\n' >"$P/include/other.h"
printf '#include "m.h"\nint broken(int x)\n{\n  return x +;\n}\n' >"$P/src/bad.c"
jq --arg d "$P" '. + [{"directory":$d,"file":($d + "/src/bad.c"),"arguments":["gcc","-Iinclude","-c","src/bad.c"]}]' \
  "$P/compile_commands.json" >"$T/cdb" && mv "$T/cdb" "$P/compile_commands.json"
listing() { (cd "$P" && find . -printf '%p %s %T@\n' | sort); }
listing >"$T/before"
U=file://$P

cat >"$T/script" <<'S'
send {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"@URI@","capabilities":{}}}
wait-id 1
send {"jsonrpc":"2.0","method":"initialized","params":{}}
open src/c.c
wait-diag src/c.c
open include/other.h
wait-diag include/other.h
open src/bad.c
wait-diag src/bad.c
open src/b.c
wait-diag src/b.c
eof
status
S
session "$P" "$T/script"
no_crash_log
[ "$RC" = 0 ] || fail "the client failed${NL}$(lsp_context)"
check "a source file outside the compile database: one informative diagnostic"
c=$(diags_of "$U/src/c.c" 1)
jq -e 'length == 1 and .[0].severity == 3 and (.[0].message | contains("not in the compile database"))' <<<"$c" >/dev/null ||
  fail "c.c: $c"
check "a header nothing in the database declares in: one informative diagnostic"
o=$(diags_of "$U/include/other.h" 1)
jq -e 'length == 1 and .[0].severity == 3 and (.[0].message | contains("nothing to check"))' <<<"$o" >/dev/null ||
  fail "other.h: $o"
check "a TU that does not parse: an error at clang's first error, saying it was not analysed"
bad=$(diags_of "$U/src/bad.c" 1)
jq -e 'length == 1 and .[0].severity == 1 and .[0].range.start.line == 3
       and (.[0].message | contains("could not analyse this file")) and (.[0].message | contains("expected expression"))' \
  <<<"$bad" >/dev/null || fail "bad.c: $bad"
check "the rest of the project is still analysed"
[ "$(diags_of "$U/src/b.c" 1 | jq length)" = 3 ] || fail "b.c's findings$(lsp_context)"
check "end of input without exit: the server ends with status 1"
grep -qx '{"status":1}' "$T/msgs" || fail "exit status at end of input${NL}$(lsp_context)"
grep -q 'input ended without exit' "$T/log" || fail "the log says why it ended${NL}$(lsp_context)"
check "the server wrote nothing in the project"
listing >"$T/after"
diff "$T/before" "$T/after" >/dev/null || fail "the project changed:${NL}$(diff "$T/before" "$T/after")"

check "no compile database in the workspace: one diagnostic saying so, and a message"
mkdir -p "$T/nodb"
cp "$P/src/b.c" "$T/nodb/"
cat >"$T/script2" <<'S'
send {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"@URI@","capabilities":{}}}
wait-id 1
open b.c
wait-diag b.c
send {"jsonrpc":"2.0","id":2,"method":"shutdown"}
wait-id 2
send {"jsonrpc":"2.0","method":"exit"}
status
S
cd "$T/nodb"
session "$T/nodb" "$T/script2"
cd "$T"
no_crash_log
[ "$RC" = 0 ] || fail "the client failed${NL}$(lsp_context)"
n=$(diags_of "file://$T/nodb/b.c" 1)
jq -e 'length == 1 and .[0].severity == 2 and (.[0].message | contains("compile_commands.json"))' <<<"$n" >/dev/null ||
  fail "no database: $n${NL}$(lsp_context)"
jq_true 'map(select(.method == "window/showMessage")) | length == 1' "a window/showMessage says it"
grep -qx '{"status":0}' "$T/msgs" || fail "exit status${NL}$(lsp_context)"

check "the database from initializationOptions.compilationDatabasePath (relative to the root), and from -p"
mkdir -p "$P/out"
mv "$P/compile_commands.json" "$P/out/"
sed 's|"rootUri":"@URI@"|"rootUri":"@URI@","initializationOptions":{"compilationDatabasePath":"out"}|; s|b\.c|src/b.c|' \
  "$T/script2" >"$T/script3"
session "$P" "$T/script3"
[ "$RC" = 0 ] && [ "$(diags_of "$U/src/b.c" 1 | jq length)" = 3 ] ||
  fail "initializationOptions: b.c's findings${NL}$(lsp_context)"
sed 's|b\.c|src/b.c|' "$T/script2" >"$T/script4"
(cd "$T" && session "$P" "$T/script4" -p "$P/out")
[ "$RC" = 0 ] && [ "$(diags_of "$U/src/b.c" 1 | jq length)" = 3 ] || fail "-p: b.c's findings${NL}$(lsp_context)"
