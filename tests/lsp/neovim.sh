#!/usr/bin/env bash
# lsp/neovim: a real editor. Neovim from Debian (scripts/deps.sh --test),
# headless, its built-in LSP client: purist's diagnostics arrive in the
# editor with their places, severities, source and check, and a hover
# answers through it.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"
command -v nvim >/dev/null || fail "nvim is not installed (scripts/deps.sh --test installs neovim)"
P=$T/proj
make_project "$P"
export P PURIST OUT=$T/nvim.out
# Neovim's own state (shada, logs) in the scratch directory, not the user's.
export XDG_CONFIG_HOME=$T/xdg-config XDG_DATA_HOME=$T/xdg-data XDG_STATE_HOME=$T/xdg-state
set +e
timeout 240 nvim --headless --clean -i NONE -c "luafile $(dirname "$0")/neovim.lua" </dev/null >"$T/nvim.log" 2>&1
RC=$?
set -e
[ -f "$OUT" ] || fail "Neovim wrote nothing (status $RC)${NL}$(show "$T/nvim.log")"
check "the diagnostics in the editor: place, severity, source, check"
want='4:22 3 purist loop-invariant-call
4:39 3 purist redundant-call
5:2 2 purist dead-call'
[ "$(grep -v '^hover' "$OUT")" = "$want" ] || fail "Neovim holds:${NL}$(show "$OUT")${NL}expected:${NL}$want"
check "a hover through the editor's client"
grep -qx "hover: \*\*getv\*\*: pure (declared: __attribute__((const)))" "$OUT" || fail "hover:${NL}$(show "$OUT")"
check "Neovim ended normally"
[ "$RC" = 0 ] || fail "nvim exited with $RC${NL}$(show "$T/nvim.log")"
