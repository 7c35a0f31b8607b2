#!/usr/bin/env bash
# Every tool and library purist's build, demo and tests use must come from a
# package that scripts/deps.sh installs (either set), from one of their
# Depends (not Recommends: deps.sh installs with --no-install-recommends),
# or from the minbase set (tests/deps/minbase.txt: what mmdebstrap
# --variant=minbase installs, the root scripts/pristine.sh starts from). A
# package installed by hand on this machine would otherwise hide a missing
# install step (llvm-config-19 did).
#
# usage: deps_check.sh [DEPS_SH [MINBASE_LIST]]
# Exit 0 when every item is accounted for, 1 naming each one that is not.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
deps_load "${1:-$here/../../scripts/deps.sh}" "${2:-$here/minbase.txt}" || exit 1

# The commands the project runs (build, demo, tests, bench), and the files of
# the libraries it links or includes.
tools=(cmake make gcc cc pkg-config llvm-config-19 clang-19 ar strip readelf objcopy
       distcc distccd chromium dot patch jq /usr/bin/time node npm timeout od)
pc_modules=(jansson libxxhash libzstd libelf libgit2 cmocka)

# Everything to check, as "WHAT<TAB>FILE".
items=()
fail=0
for t in "${tools[@]}"; do
  f=$(command -v "$t") || { echo "deps_check: command '$t' is not installed"; fail=1; continue; }
  items+=("command $t"$'\t'"$f")
done
for m in "${pc_modules[@]}"; do
  f=$(pkg-config --path "$m" 2>/dev/null) || { echo "deps_check: pkg-config module '$m' is missing"; fail=1; continue; }
  items+=("pkg-config $m"$'\t'"$f")
done
if libdir=$(llvm-config-19 --libdir 2>/dev/null); then
  items+=("libclang"$'\t'"$libdir/libclang.so")
  items+=("clang-c/Index.h"$'\t'"$(llvm-config-19 --includedir)/clang-c/Index.h")
  items+=("libFuzzer"$'\t'"$(clang-19 -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)")
fi

declare -A pkg_of
while IFS=$'\t' read -r file pkg; do pkg_of[$file]=$pkg; done < <(deps_owners "${items[@]#*$'\t'}")
for it in "${items[@]}"; do
  what=${it%%$'\t'*}; file=${it#*$'\t'}; pkg=${pkg_of[$file]:-}
  if [ -z "$pkg" ]; then
    echo "deps_check: $what ($file) belongs to no Debian package"; fail=1
  elif deps_allowed "$pkg"; then
    echo "ok: $what from $pkg"
  else
    echo "deps_check: $what comes from package '$pkg', which scripts/deps.sh does not install (nor pulls in by Depends) and the minbase set lacks"
    fail=1
  fi
done
exit $fail
