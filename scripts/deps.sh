#!/usr/bin/env bash
# usage: scripts/deps.sh [--test]
# Installs, on Debian 12, what purist needs to build and run (the demo runs
# on that set alone); with --test (scripts/test.sh) also what the tests
# need. Each package is installed with --no-install-recommends, and the
# script says which ones it installs. Quick when everything is already
# there: dpkg is asked first.
# Every tool the build, the demo and the tests run comes from a package
# listed here, from one of their Depends, or from the minbase set
# (tests/deps/minbase.txt): the tests deps/installed and deps/scan assert
# that. Keep each list's closing parenthesis on its own line and none in
# its comments: those tests and a hook read the lists with sed.
set -euo pipefail
with_tests=0
case ${1:-} in
  --test) with_tests=1 ;;
  "") ;;
  *) echo "usage: scripts/deps.sh [--test]" >&2; exit 2 ;;
esac
# Building and running purist: the demo needs these and nothing more.
pkgs=(cmake make gcc pkg-config
      binutils                   # addr2line: verify names a system call's line
      libclang-19-dev llvm-19    # llvm-config-19 is only a Recommends of libclang-19-dev
      libjansson-dev libxxhash-dev
      libelf-dev                 # the .purist sections of purist cc
      libzstd-dev                # summaries packed inside objects, format 5
      libgit2-dev                # fix --dry-run: unified diffs
      libyaml-dev                # .purist, the configuration file
      libcmocka-dev              # the unit tests are part of the default build
      graphviz                   # dot lays out the HTML report's graphs
)
# The tests only: fuzz targets, browser and SARIF tests, the build farm.
test_pkgs=(clang-19 libclang-rt-19-dev   # clang-19 -fsanitize=fuzzer: the fuzz targets
           nodejs npm ca-certificates    # Debian's node 18; npm fetches pinned test packages over https
           chromium                      # the HTML report's browser tests
           distcc                        # the build-farm test
           patch                         # applies fix --dry-run's diffs
           time jq                       # bench/ and tests: peak RSS, compile databases
           groff-base                    # e2e/help_docs renders the man page, warnings as errors
           csmith libcsmith-dev          # gcc/differential: random programs and their csmith.h
           neovim                        # lsp/neovim: a real editor's LSP client, headless
           clang-tidy-19                 # bench/peers.sh: one clang-tidy process, the peer to beat
           libtool-bin                   # bench/launcher.sh: a shared library linked by libtool
)
# Each command the project runs, and the package that provides it.
cmds=(cmake:cmake make:make gcc:gcc pkg-config:pkg-config llvm-config-19:llvm-19
      dot:graphviz addr2line:binutils)
test_cmds=(clang-19:clang-19 distccd:distcc chromium:chromium patch:patch
           jq:jq /usr/bin/time:time node:nodejs npm:npm groff:groff-base csmith:csmith
           nvim:neovim clang-tidy-19:clang-tidy-19 libtool:libtool-bin)
if [ "$with_tests" = 1 ]; then
  pkgs+=("${test_pkgs[@]}")
  cmds+=("${test_cmds[@]}")
fi

# What is installed, and what installed packages provide (a node package
# from another source that ships npm provides npm).
present=$(dpkg-query -W -f='${db:Status-Abbrev}|${Package}|${Provides}\n' 2>/dev/null |
  awk -F'|' '$1 ~ /^ii/ { print $2; n = split($3, v, /, */)
                          for (i = 1; i <= n; i++) { sub(/ .*/, "", v[i]); if (v[i] != "") print v[i] } }')
missing=()
for p in "${pkgs[@]}"; do
  printf '%s\n' "$present" | grep -qxF "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]} (apt-get install --no-install-recommends)" >&2
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "deps: installed ${missing[*]}" >&2
fi
# A failed or partial install fails here, naming the package, not later in CMake.
absent=()
for c in "${cmds[@]}"; do
  command -v "${c%%:*}" >/dev/null 2>&1 || absent+=("${c%%:*} (package ${c##*:})")
done
if [ ${#absent[@]} -gt 0 ]; then
  echo "deps: still missing after the install: ${absent[*]}" >&2
  exit 1
fi
