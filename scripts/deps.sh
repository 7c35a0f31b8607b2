#!/usr/bin/env bash
# Installs what purist needs to build and test, on Debian 12, and nothing
# else. Quick when everything is already there: dpkg is asked first.
# Every tool the build, the demo and the tests run comes from a package
# listed here, from one of their Depends, or from the base image:
# tests/deps/deps_check.sh asserts that (CI runs it).
set -euo pipefail
pkgs=(cmake make gcc pkg-config libclang-19-dev clang-19 libcmocka-dev
      llvm-19              # llvm-config-19: only a Recommends of clang-19
      libclang-rt-19-dev   # clang-19 -fsanitize=fuzzer: the fuzz targets
      libjansson-dev libxxhash-dev
      libelf-dev distcc    # libelf: .purist sections; distcc: the build-farm test
      chromium graphviz    # the HTML report: its browser tests; dot lays out its graphs
      libgit2-dev patch    # fix --dry-run: unified diffs; patch applies them in its test
      time jq)             # bench/: peak RSS, compile databases
# Each command the project runs, and the package that provides it.
cmds=(cmake:cmake make:make gcc:gcc pkg-config:pkg-config llvm-config-19:llvm-19
      clang-19:clang-19 distccd:distcc chromium:chromium dot:graphviz patch:patch
      jq:jq /usr/bin/time:time node:nodejs npm:nodejs)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
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
