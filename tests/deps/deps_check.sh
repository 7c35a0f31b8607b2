#!/usr/bin/env bash
# Every tool and library purist's build, demo and tests use must come from a
# package that scripts/deps.sh installs, from one of their Depends (not
# Recommends: deps.sh installs with --no-install-recommends), or from the
# base machine image. A package installed by hand on this machine would
# otherwise hide a missing install step (llvm-config-19 did).
#
# usage: deps_check.sh [DEPS_SH [BASE_LIST]]
# Exit 0 when every item is accounted for, 1 naming each one that is not.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
deps_sh=${1:-$here/../../scripts/deps.sh}
base_list=${2:-$here/base-image.txt}

# The commands the project runs (build, demo, tests, bench), and the files of
# the libraries it links or includes.
tools=(cmake make gcc cc pkg-config llvm-config-19 clang-19 ar strip readelf objcopy
       distcc distccd chromium dot patch jq /usr/bin/time node npm git timeout od)
pc_modules=(jansson libxxhash libelf libgit2 cmocka)

# Both lists: the build set pkgs=( … ) and the tests' test_pkgs=( … ).
listed=$(sed -n '/^pkgs=(/,/)/p; /^test_pkgs=(/,/)/p' "$deps_sh" | sed 's/#.*//' |
         tr -s ' ()=\t' '\n' | grep -v '^\(test_\)\{0,1\}pkgs$' | grep .)
[ -n "$listed" ] || { echo "deps_check: no pkgs=( … ) list in $deps_sh" >&2; exit 1; }

# The Depends/Pre-Depends closure of the listed packages, over what is
# installed (dpkg's own records: no apt lists needed). Alternatives count
# when installed; virtual names resolve through installed Provides.
declare -A dep_of prov closure
while IFS='|' read -r pkg deps pre provides; do
  dep_of[$pkg]="$deps, $pre"
  for v in ${provides//,/ }; do
    case $v in (*[a-z0-9]*) prov[${v%%:*}]+=" $pkg";; esac
  done
done < <(dpkg-query -W -f='${Package}|${Depends}|${Pre-Depends}|${Provides}\n' 2>/dev/null |
         sed 's/([^)]*)//g')
queue=($listed)
while [ ${#queue[@]} -gt 0 ]; do
  p=${queue[0]}; queue=("${queue[@]:1}")
  p=${p%%:*}
  [ -n "${closure[$p]:-}" ] && continue
  closure[$p]=1
  IFS=',|' read -ra alts <<< "${dep_of[$p]:-}"
  for a in "${alts[@]}"; do
    a=${a// /}; a=${a%%:*}
    [ -n "$a" ] || continue
    [ -n "${dep_of[$a]+x}" ] && queue+=("$a")
    for q in ${prov[$a]:-}; do queue+=("$q"); done
  done
done

declare -A base
while read -r b; do base[$b]=1; done < <(grep -v '^#' "$base_list")

# Everything to check, as "WHAT<TAB>FILE"; dpkg is asked once for all of
# them (it reads its whole file list per call).
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

# A file may be recorded under its link's path or its target's, with or
# without the /usr of a merged-/usr system: ask for each spelling.
candidates() {
  local r; r=$(readlink -f "$1")
  printf '%s\n' "$1" "$r" "/usr$r" "${r#/usr}" "/usr$1" "${1#/usr}"
}
declare -A owner_of
while IFS= read -r line; do
  pkgs=${line%%: /*}; path=${line#"$pkgs: "}
  [ -n "${owner_of[$path]:-}" ] || owner_of[$path]=${pkgs%%,*}
done < <(for it in "${items[@]}"; do candidates "${it#*$'\t'}"; done | sort -u |
         xargs -d '\n' dpkg -S 2>/dev/null | sed 's/^\([^:,]*\)[^ ]*: /\1: /')

for it in "${items[@]}"; do
  what=${it%%$'\t'*}; file=${it#*$'\t'}; pkg=
  while read -r c; do
    [ -n "${owner_of[$c]:-}" ] && { pkg=${owner_of[$c]}; break; }
  done < <(candidates "$file")
  if [ -z "$pkg" ]; then
    echo "deps_check: $what ($file) belongs to no Debian package"; fail=1
  elif [ -n "${closure[$pkg]:-}" ] || [ -n "${base[$pkg]:-}" ]; then
    echo "ok: $what from $pkg"
  else
    echo "deps_check: $what comes from package '$pkg', which scripts/deps.sh does not install (nor pulls in by Depends) and the base image lacks"
    fail=1
  fi
done
exit $fail
