# shellcheck shell=bash
# lib.sh — shared by the language server's tests: e2e/lib.sh (PURIST, T,
# check, fail), the scripted client (CLIENT: lsp_client.c) and a small
# project whose findings are known:
#   include/m.h   sq (suggested const), getv (declared const, reads a
#                 global: misuse), twice (suggested const, public API)
#   src/a.c       their bodies
#   src/b.c       calls of sq the compiler would delete, merge and hoist
# Usage: . lib.sh PURIST LSP_CLIENT
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh" "$1"
case "$2" in
  /*) CLIENT=$2 ;;
  *) CLIENT=$PWD/$2 ;;
esac
[ -x "$CLIENT" ] || fail "no client at $CLIENT"

# make_project DIR: the project above, its compile database at its root.
make_project() {
  mkdir -p "$1/src" "$1/include"
  cat >"$1/include/m.h" <<'C'
int sq(int x);
int getv(void) __attribute__((const));
int twice(int x);
C
  cat >"$1/src/a.c" <<'C'
#include "m.h"
int counter;
int sq(int x) { return x * x; }
int getv(void) { return counter; }
int twice(int x) { return 2 * x; }
C
  cat >"$1/src/b.c" <<'C'
#include "m.h"
int use(int n)
{
  int s = 0;
  for (int i = 0; i < sq(n); i++) s += sq(n);
  sq(3);
  return s + getv();
}
C
  cat >"$1/compile_commands.json" <<J
[{"directory":"$1","file":"$1/src/a.c","arguments":["gcc","-Iinclude","-c","src/a.c"]},
 {"directory":"$1","file":"$1/src/b.c","arguments":["gcc","-Iinclude","-c","src/b.c"]}]
J
}

# session ROOT SCRIPT [SERVER ARGS...]: runs the client with the script
# against `purist lsp ARGS`; the messages go to $T/msgs (one a line), the
# server's log to $T/log, the client's status to $RC.
session() {
  local root=$1 script=$2
  shift 2
  set +e
  "$CLIENT" "$root" "$script" -- "$PURIST" lsp "$@" >"$T/msgs" 2>"$T/log"
  RC=$?
  set -e
}

# lsp_context: what the session said, for failure messages.
lsp_context() {
  echo "  client status: $RC"
  echo "  messages:"; show "$T/msgs"
  echo "  log:"; show "$T/log"
}

# no_crash_log: no sanitizer report or crash in the server's log.
no_crash_log() {
  if grep -Eq 'Sanitizer|runtime error:|Assertion .* failed' "$T/log"; then
    fail "the server reported a memory error, a leak or undefined behaviour${NL}$(lsp_context)"
  fi
}

# jq_true FILTER DESCRIPTION: FILTER (over all the messages, slurped) is true.
jq_true() {
  [ "$(jq -s "$1" "$T/msgs")" = true ] || fail "$2${NL}  jq: $1${NL}$(lsp_context)"
}

# diags_of URI N: the Nth (1-based; -1 the last) diagnostics published for URI, as one JSON array.
diags_of() {
  jq -cs --arg u "$1" --argjson n "$2" \
    '[.[] | select(.method == "textDocument/publishDiagnostics" and .params.uri == $u) | .params.diagnostics]
     | if $n < 0 then .[$n] else .[$n - 1] end' "$T/msgs"
}
