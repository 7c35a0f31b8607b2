#!/usr/bin/env bash
# No script of the project uses a command outside the packages
# scripts/deps.sh installs (either set, with their Depends) and the minbase
# set (tests/deps/minbase.txt). deps_check.sh checks a fixed list of tools;
# this reads the scripts themselves — the shell scripts under tests/,
# scripts/ and .ci/, the CMake files' COMMANDs, the node scripts'
# spawnSync calls — and finds each word in a command position (first word
# of a line or after | ; && || ( $( ` then do else !, and the command that
# env, nice, nohup, exec, command, xargs, time or timeout N run). Each such
# word that names a program on this machine must come from an allowed
# package: a test that runs, say, python3 or xxd would pass here and fail
# on a fresh Debian.
#
# usage: scan.sh [SOURCE_DIR]     exit 0 when every command is accounted for
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:-$here/../..}" && pwd)
. "$here/lib.sh"
deps_load "$src/scripts/deps.sh" "$here/minbase.txt" || exit 1
cd "$src" || exit 1

# scripts/pristine.sh runs on the host, not in the fresh root: it installs
# mmdebstrap itself. bench/ is not part of the README's commands.
shell_files=$(find tests scripts .ci -type f \( -name '*.sh' -o -name run \) ! -name pristine.sh | sort)
cmake_files=$(find tests -name '*.cmake' -o -name CMakeLists.txt | sort; echo CMakeLists.txt)
node_files=$(find tests -name '*.mjs' | sort)

# Shell: quoted text (over any number of lines) and comments removed, a
# command substitution inside double quotes kept, then the text split at
# each place a command starts; prints "FILE:LINE<TAB>WORD".
shell_words() {
  awk '
    FNR == 1 { st = "C"; stack = ""; depth = 0; heredoc = "" }
    heredoc != "" { if ($0 ~ "^[ \t]*" heredoc "$") heredoc = ""; next }
    {
      line = $0; out = ""; n = length(line)
      if (st == "C" && match(line, /<<-?[ ]*[\047"]?[A-Za-z_]+/)) {
        h = substr(line, RSTART, RLENGTH); gsub(/[<\047" -]/, "", h); heredoc = h
      }
      for (i = 1; i <= n; i++) {
        c = substr(line, i, 1)
        if (st == "S") { if (c == "\047") { st = "C"; out = out " x " }; continue }
        if (st == "D") {
          if (c == "\\") { i++; continue }
          if (c == "\"") { st = "C"; out = out " x "; continue }
          if (c == "$" && substr(line, i + 1, 1) == "(") {      # $( inside "…"
            stack = stack "D"; push_depth[length(stack)] = depth; depth = 0
            st = "C"; out = out "\n"; i++
          }
          continue
        }
        # st == "C": code
        if (c == "\\") { i++; out = out " "; continue }
        if (c == "\047") { st = "S"; continue }
        if (c == "\"") { st = "D"; continue }
        if (c == "#" && (i == 1 || substr(line, i - 1, 1) ~ /[ \t;|&(]/)) break
        if (c == "(") depth++
        if (c == ")") {
          if (depth == 0 && substr(stack, length(stack)) == "D") {
            depth = push_depth[length(stack)]; stack = substr(stack, 1, length(stack) - 1)
            st = "D"; out = out "\n"; continue
          }
          if (depth > 0) depth--
        }
        out = out c
      }
      gsub(/\$?\(\([^)]*\)\)/, " x ", out)                  # arithmetic
      gsub(/\|\||&&|[|;&`(){}!]|\$\(/, "\n", out)
      k = split(out, seg, "\n")
      for (s = 1; s <= k; s++) {
        m = split(seg[s], w, /[ \t]+/)
        for (j = 1; j <= m; j++) {
          x = w[j]
          if (x == "") continue
          if (x ~ /^[A-Za-z_][A-Za-z_0-9]*(\[[^]]*\])?\+?=/) continue       # VAR=value
          if (x ~ /^(then|do|else|elif|if|while|until|time|nice|nohup|exec|command|env|xargs|sudo|\$SUDO|-[A-Za-z-]+|[0-9]+[smh]?)$/) continue
          if (x ~ /^[A-Za-z_][A-Za-z0-9_.+-]*$/ || x ~ /^\/[A-Za-z0-9_.\/+-]+$/) print FILENAME ":" FNR "\t" x
          break
        }
      }
    }' "$@"
}

# CMake: the first word after COMMAND, and find_program names.
cmake_words() {
  awk '{
    line = $0; sub(/#.*/, "", line)
    while (match(line, /COMMAND[ \t]+[A-Za-z_\/][A-Za-z0-9_.\/+-]*/)) {
      x = substr(line, RSTART, RLENGTH); sub(/COMMAND[ \t]+/, "", x)
      print FILENAME ":" FNR "\t" x; line = substr(line, RSTART + RLENGTH)
    }
    if (match(line, /find_program\([A-Za-z_0-9]+[ \t]+[A-Za-z0-9_.+-]+/)) {
      x = substr(line, RSTART, RLENGTH); sub(/.*[ \t]/, "", x); print FILENAME ":" FNR "\t" x
    }
  }' "$@"
}

# Node: spawnSync/execFileSync/spawn/execSync with a literal program name.
node_words() {
  awk '{
    line = $0
    while (match(line, /(spawnSync|execFileSync|spawn|execSync|execFile)\([ ]*\047[^\047 ]+/)) {
      x = substr(line, RSTART, RLENGTH); sub(/.*\047/, "", x)
      print FILENAME ":" FNR "\t" x; line = substr(line, RSTART + RLENGTH)
    }
  }' "$@"
}

# Functions the scripts define are not commands.
declare -A defined
while read -r f; do defined[$f]=1; done < <(
  # shellcheck disable=SC2086
  sed -n 's/^[ \t]*\(function[ \t]\{1,\}\)\{0,1\}\([A-Za-z_][A-Za-z0-9_]*\)[ \t]*()[ \t]*{\{0,1\}.*/\2/p' $shell_files | sort -u)

declare -A where
while IFS=$'\t' read -r loc word; do
  [ -n "${defined[$word]:-}" ] && continue
  case $(type -t "$word" 2>/dev/null) in (builtin|keyword) continue;; esac
  [ -n "${where[$word]:-}" ] || where[$word]=$loc
done < <(
  # shellcheck disable=SC2086
  { shell_words $shell_files; cmake_words $cmake_files; node_words $node_files; })

# The words that name a program here, and their packages.
files=()
declare -A word_of
for w in "${!where[@]}"; do
  f=$(type -P "$w" 2>/dev/null) || continue
  files+=("$f"); word_of[$f]=$w
done
fail=0
declare -A pkg_of
while IFS=$'\t' read -r f pkg; do pkg_of[$f]=$pkg; done < <(deps_owners "${files[@]}")
report=$(for f in "${files[@]}"; do
  w=${word_of[$f]}; pkg=${pkg_of[$f]:-}
  if [ -z "$pkg" ]; then
    echo "scan: '$w' ($f, used at ${where[$w]}) belongs to no Debian package"
  elif deps_allowed "$pkg"; then
    echo "ok: $w from $pkg"
  else
    echo "scan: '$w' (used at ${where[$w]}) comes from package '$pkg', which scripts/deps.sh does not install (nor pulls in by Depends) and the minbase set lacks"
  fi
done | sort)
echo "$report"
case $report in (scan:*|*$'\n'scan:*) fail=1;; esac
# A scan that finds next to nothing has stopped reading the scripts.
n=$(printf '%s\n' "${!where[@]}" | grep -c .)
[ "$n" -ge 20 ] || { echo "scan: only $n command words found: the scan is broken"; fail=1; }
exit $fail
