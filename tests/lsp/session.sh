#!/usr/bin/env bash
# lsp/session: an editor's session with purist lsp, as a scripted client:
# initialize → didOpen → diagnostics → code actions (the edits fix makes)
# → hover → edit + save → only the files whose findings changed are
# republished → shutdown → exit, status 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
P=$T/proj
make_project "$P"
U=file://$P
cat >"$T/script" <<'S'
send {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"@URI@","capabilities":{}}}
wait-id 1
send {"jsonrpc":"2.0","method":"initialized","params":{}}
open src/b.c
wait-diag src/b.c
open include/m.h
wait-diag include/m.h
open src/a.c
wait-diag src/a.c
send {"jsonrpc":"2.0","id":2,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"@URI@/include/m.h"},"range":{"start":{"line":1,"character":0},"end":{"line":2,"character":0}},"context":{"diagnostics":[{"range":{"start":{"line":1,"character":4},"end":{"line":1,"character":8}},"code":"misuse","message":"x"}]}}}
wait-id 2
send {"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"@URI@/src/b.c"},"position":{"line":6,"character":14}}}
wait-id 3
sh sed -i 's/return x \* x;/counter++; return x * x;/; s/return counter;/return 42;/' src/a.c
change src/a.c
save src/a.c
# republished in the order they were opened: b.c, then m.h
wait-diag include/m.h
quiet 1
send {"jsonrpc":"2.0","id":4,"method":"shutdown"}
wait-id 4
send {"jsonrpc":"2.0","method":"exit"}
status
S
# What purist fix would write, before the session edits a.c.
(cd "$P" && "$PURIST" fix --dry-run --fix-misuse --all --include-may-not-return >"$T/diff" 2>/dev/null) || true
session "$P" "$T/script"
no_crash_log
[ "$RC" = 0 ] || fail "the client failed${NL}$(lsp_context)"

check "initialize answers with the capabilities (UTF-16 positions by default)"
jq_true 'map(select(.id == 1)) | .[0].result.capabilities | .positionEncoding == "utf-16" and .hoverProvider == true
         and .codeActionProvider.codeActionKinds == ["quickfix"] and .textDocumentSync.change == 1' \
  "initialize's capabilities"

check "didOpen: the findings of check, suggest and explain in the file, with code, href, severity, related"
b1=$(diags_of "$U/src/b.c" 1)
[ "$(jq -c '[.[].code] | sort' <<<"$b1")" = '["dead-call","loop-invariant-call","redundant-call"]' ] ||
  fail "b.c's diagnostics: $b1"
jq -e '.[] | select(.code == "dead-call") | .severity == 2 and .range.start == {"line":5,"character":2}
       and .range.end == {"line":5,"character":4} and .source == "purist"
       and (.codeDescription.href | endswith("/checks/dead-call.md"))' <<<"$b1" >/dev/null ||
  fail "the dead-call diagnostic: $b1"
jq -e --arg u "$U/src/b.c" '.[] | select(.code == "redundant-call") | .relatedInformation[0]
       | .location.uri == $u and .location.range.start == {"line":4,"character":22} and .message == "the first call"' \
  <<<"$b1" >/dev/null || fail "the redundant call's related location: $b1"
m1=$(diags_of "$U/include/m.h" 1)
jq -e --arg u "$U/src/a.c" '.[] | select(.code == "misuse") | .severity == 1 and .range.start == {"line":1,"character":4}
       and .relatedInformation[0].location.uri == $u and .relatedInformation[0].location.range.start == {"line":3,"character":24}' \
  <<<"$m1" >/dev/null || fail "the misuse diagnostic and its witness: $m1"
[ "$(jq -c '[.[] | select(.code == "suggest-const") | .data.function] | sort' <<<"$m1")" = '["sq","twice"]' ] ||
  fail "m.h's suggestions: $m1"
[ "$(diags_of "$U/src/a.c" 1)" = '[]' ] || fail "a.c has no finding: an empty list is published for it"

check "codeAction: the edits fix makes, one quick fix per function of the range"
acts=$(jq -cs 'map(select(.id == 2)) | .[0].result' "$T/msgs")
[ "$(jq -r '[.[].title] | sort | join("|")' <<<"$acts")" = "purist: add __attribute__((const)) on 'twice' (2 declarations)|purist: const -> pure on 'getv'" ] ||
  fail "the code actions: $acts"
jq -e '.[] | select(.title | contains("getv")) | .kind == "quickfix" and .diagnostics[0].code == "misuse"' <<<"$acts" >/dev/null ||
  fail "the getv action names its diagnostic: $acts"
# Each edit applied to the header gives the line purist fix --dry-run writes.
cp "$P/include/m.h" "$T/m.h"
for row in $(jq -r --arg u "$U/include/m.h" '.[].edit.changes[$u][] | [.range.start.line, .range.start.character,
               .range.end.character, (.newText | @base64)] | join(":")' <<<"$acts" | sort -t: -k1,1nr -k2,2nr); do
  IFS=: read -r l s e txt <<<"$row"
  awk -v L=$((l + 1)) -v S="$s" -v E="$e" -v X="$(base64 -d <<<"$txt")" \
    'NR == L { $0 = substr($0, 1, S) X substr($0, E + 1) } { print }' "$T/m.h" >"$T/m.h.new"
  mv "$T/m.h.new" "$T/m.h"
done
for f in getv twice; do
  want=$(grep "^+int $f(.*;$" "$T/diff" | cut -c2-)
  got=$(grep "$f" "$T/m.h")
  [ -n "$want" ] && [ "$want" = "$got" ] || fail "the action's edit of $f gives '$got', fix gives '$want'${NL}$(show "$T/diff")"
done

check "hover on a function's name: class, declared attribute, reason, the chain of --why"
hv=$(jq -cs 'map(select(.id == 3)) | .[0].result' "$T/msgs")
jq -e '.contents.kind == "markdown" and (.contents.value | startswith("**getv**: pure (declared: __attribute__((const)))"))
       and (.contents.value | contains("reads global '"'counter'"'")) and .range.start == {"line":6,"character":13}' \
  <<<"$hv" >/dev/null || fail "the hover: $hv"

check "after a save, the files whose findings changed are republished, with the new findings"
b2=$(diags_of "$U/src/b.c" 2)
[ "$b2" = '[]' ] || fail "sq writes a global now: no call of it can be deleted, b.c should have none: $b2"
m2=$(diags_of "$U/include/m.h" 2)
[ "$(jq -c '[.[] | [.code, .data.function]]' <<<"$m2")" = '[["suggest-const","twice"]]' ] ||
  fail "after the save, m.h should keep only twice's suggestion: $m2"
check "a file whose findings did not change is not republished"
[ "$(jq -s --arg u "$U/src/a.c" '[.[] | select(.params.uri == $u)] | length' "$T/msgs")" = 1 ] ||
  fail "a.c's (empty) diagnostics were sent again${NL}$(lsp_context)"

check "shutdown then exit: status 0"
grep -qx '{"status":0}' "$T/msgs" || fail "the server's exit status${NL}$(lsp_context)"
jq_true 'map(select(.id == 4)) | .[0] | has("result") and .result == null' "shutdown's answer"
