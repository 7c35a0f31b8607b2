#!/usr/bin/env bash
# lsp/malformed: whatever a client sends, the server answers with a
# JSON-RPC error or ignores it, and goes on: bad framing (-32700, the
# stream resynchronised at the next header), bodies that are not JSON
# (-32700), messages that are not requests (-32600), unknown methods
# (-32601; unknown notifications ignored), unusable params (-32602),
# requests before initialize (-32002); after all that it still serves
# and exits 0 on shutdown + exit.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
P=$T/proj
make_project "$P"
cat >"$T/script" <<'S'
send {"jsonrpc":"2.0","id":100,"method":"textDocument/hover","params":{}}
wait-id 100
send {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"@URI@","capabilities":{"general":{"positionEncodings":["utf-8","utf-16"]}}}}
wait-id 1
send {"jsonrpc":"2.0","method":"initialized","params":{}}
# a header line that is not one, then a well-formed request: answered
raw this is not a header\r\n
send {"jsonrpc":"2.0","id":2,"method":"shutdownx"}
wait-id 2
# a header block without Content-Length, its body glued to the next header
raw Content-Type: application/json\r\n\r\n{"jsonrpc":"2.0","id":77,"method":"x"}
send {"jsonrpc":"2.0","id":3,"method":"nope/nope"}
wait-id 3
# bodies that are not JSON, or not JSON-RPC
raw Content-Length: 9\r\n\r\n{"bad":,}
raw Content-Length: 5\r\n\r\n[1,2]
raw Content-Length: 22\r\n\r\n{"id":4,"method":"x"}\n
raw Content-Length: 43\r\n\r\n{"jsonrpc":"2.0","id":{"a":1},"method":"x"}
raw Content-Length: 40\r\n\r\n{"jsonrpc":"2.0","id":5,"method":[1,2]}\n
raw Content-Length: 12\r\n\r\n\xff\xfe not utf
raw Content-Length: abc\r\n\r\n
# an unknown notification: no answer at all
send {"jsonrpc":"2.0","method":"$/somethingElse","params":{}}
send {"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":{"textDocument":{"uri":3}}}
wait-id 6
send {"jsonrpc":"2.0","id":7,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"@URI@/x.c"},"range":{"start":{"line":-1}}}}
wait-id 7
send {"jsonrpc":"2.0","id":8,"method":"initialize","params":{}}
wait-id 8
# a notification with the wrong params: ignored; didOpen of a non-file URI: no crash
send {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":42}}
send {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:1","text":"int f(void);"}}}
send {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:1"},"contentChanges":[{"range":{"start":{"line":99,"character":99},"end":{"line":0,"character":0}},"text":"x"}]}}
open src/b.c
wait-diag src/b.c
send {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"@URI@/src/b.c"},"contentChanges":[{"range":{"start":{"line":4000000000,"character":1},"end":{"line":1,"character":-5}},"text":"y"},{"text":7}]}}
send {"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":{"textDocument":{"uri":"@URI@/src/b.c"},"position":{"line":4,"character":22}}}
wait-id 9
send {"jsonrpc":"2.0","id":10,"method":"shutdown"}
wait-id 10
send {"jsonrpc":"2.0","id":11,"method":"textDocument/hover","params":{}}
wait-id 11
send {"jsonrpc":"2.0","method":"exit"}
status
S
session "$P" "$T/script"
no_crash_log
[ "$RC" = 0 ] || fail "the client failed${NL}$(lsp_context)"

# err ID CODE: the error answer to request ID has code CODE.
err() {
  jq_true "map(select(.id == $1 and .error != null)) | length == 1 and .[0].error.code == $2" \
    "request $1 should be answered with error $2"
}
check "a request before initialize: -32002"
err 100 -32002
check "positionEncoding utf-8 is chosen when the client offers it"
jq_true 'map(select(.id == 1)) | .[0].result.capabilities.positionEncoding == "utf-8"' "utf-8 positions"
check "unknown request methods: -32601, naming the method; the stream resynchronised after bad framing"
err 2 -32601
err 3 -32601
jq_true 'map(select(.id == 2)) | .[0].error.message | contains("shutdownx")' "the error names the method"
check "bad framing and bodies that are not JSON: -32700 with id null"
jq_true '[.[] | select(.error.code == -32700 and .id == null)] | length == 5' \
  "5 parse errors: the bad header line, the header without Content-Length, the body that is not JSON, the body that is not UTF-8, the Content-Length that is not a number"
check "JSON that is not a JSON-RPC request: -32600 (with its id when it has a usable one)"
jq_true '[.[] | select(.error.code == -32600)] | map(.id) == [null, 4, null, 5, 8, 11]' \
  "invalid requests: an array, no jsonrpc, an object id, a method that is not a string, a second initialize, a request after shutdown"
check "params a method cannot use: -32602"
err 6 -32602
err 7 -32602
check "unknown notifications get no answer; the server still serves (hover after the rubbish)"
jq_true '[.[] | select(.id == 77)] | length == 0' "the body glued to a bad header is not answered"
jq_true 'map(select(.id == 9)) | .[0].result.contents.value | startswith("**sq**: const")' "hover on sq after the bad didChange"
check "shutdown then exit: status 0"
grep -qx '{"status":0}' "$T/msgs" || fail "exit status${NL}$(lsp_context)"
