#!/usr/bin/env bash
# Installs what purist needs to build and test, on Debian 12, and nothing
# else. Quick when everything is already there: dpkg is asked first.
set -euo pipefail
pkgs=(cmake make gcc pkg-config libclang-19-dev clang-19 libcmocka-dev
      libjansson-dev libxxhash-dev
      libelf-dev distcc    # libelf: .purist sections; distcc: the build-farm test
      chromium graphviz    # the HTML report: its browser tests; dot lays out its graphs
      libgit2-dev patch    # fix --dry-run: unified diffs; patch applies them in its test
      time jq)             # bench/: peak RSS, compile databases
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
