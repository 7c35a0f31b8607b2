# shellcheck shell=bash
# lib.sh — what deps_check.sh and scan.sh share: which Debian packages a
# fresh machine has after scripts/deps.sh --test, and which package owns a
# file.
#
#   deps_load DEPS_SH MINBASE_LIST
# fills the associative arrays `closure` (the packages deps.sh lists, both
# sets, with their Depends/Pre-Depends closure over what is installed) and
# `base` (the minbase set: what mmdebstrap --variant=minbase installs), and
# sets `listed` (the names in deps.sh's lists). Returns 1 when deps.sh has
# no list.
#
#   deps_owners FILE...
# prints "FILE<TAB>PACKAGE" for each FILE dpkg knows, under any spelling of
# its path (link or target, with or without the /usr of merged /usr).
#
#   deps_allowed PACKAGE
# succeeds when PACKAGE is in the closure or the minbase set.

declare -A closure base

deps_load() {
  local deps_sh=$1 base_list=$2 st pkg deps pre provides v p a q b
  # Both lists: the build set pkgs=( … ) and the tests' test_pkgs=( … ).
  listed=$(sed -n '/^pkgs=(/,/)/p; /^test_pkgs=(/,/)/p' "$deps_sh" | sed 's/#.*//' |
           tr -s ' ()=\t' '\n' | grep -v '^\(test_\)\{0,1\}pkgs$' | grep .)
  [ -n "$listed" ] || { echo "deps: no pkgs=( … ) list in $deps_sh" >&2; return 1; }
  # The Depends/Pre-Depends closure over what is installed (dpkg's own
  # records: no apt lists needed). Alternatives count when installed;
  # virtual names resolve through installed Provides.
  local -A dep_of prov
  while IFS='|' read -r st pkg deps pre provides; do
    case $st in (ii*) ;; (*) continue;; esac
    dep_of[$pkg]="$deps, $pre"
    for v in ${provides//,/ }; do
      case $v in (*[a-z0-9]*) prov[${v%%:*}]+=" $pkg";; esac
    done
  done < <(dpkg-query -W -f='${db:Status-Abbrev}|${Package}|${Depends}|${Pre-Depends}|${Provides}\n' 2>/dev/null |
           sed 's/([^)]*)//g')
  local queue=($listed) alts
  while [ ${#queue[@]} -gt 0 ]; do
    p=${queue[0]}; queue=("${queue[@]:1}")
    p=${p%%:*}
    [ -n "${closure[$p]:-}" ] && continue
    closure[$p]=1
    # A listed package that is not installed under its name but is
    # provided by one that is (deps.sh counts it so): that one is in.
    for q in ${prov[$p]:-}; do queue+=("$q"); done
    IFS=',|' read -ra alts <<< "${dep_of[$p]:-}"
    for a in "${alts[@]}"; do
      a=${a// /}; a=${a%%:*}
      [ -n "$a" ] || continue
      [ -n "${dep_of[$a]+x}" ] && queue+=("$a")
      for q in ${prov[$a]:-}; do queue+=("$q"); done
    done
  done
  while read -r b; do base[${b%%:*}]=1; done < <(grep -v '^#' "$base_list")
  return 0
}

deps_candidates() {
  local r; r=$(readlink -f "$1")
  printf '%s\n' "$1" "$r" "/usr$r" "${r#/usr}" "/usr$1" "${1#/usr}"
}

deps_owners() {
  local -A owner_of
  local line pkgs path f c
  # dpkg is asked once for all of them (it reads its whole file list per call).
  while IFS= read -r line; do
    pkgs=${line%%: /*}; path=${line#"$pkgs: "}
    [ -n "${owner_of[$path]:-}" ] || owner_of[$path]=${pkgs%%,*}
  done < <(for f in "$@"; do deps_candidates "$f"; done | sort -u |
           xargs -d '\n' dpkg -S 2>/dev/null | sed 's/^\([^:,]*\)[^ ]*: /\1: /')
  for f in "$@"; do
    while read -r c; do
      [ -n "${owner_of[$c]:-}" ] && { printf '%s\t%s\n' "$f" "${owner_of[$c]}"; break; }
    done < <(deps_candidates "$f")
  done
}

deps_allowed() { [ -n "${closure[$1]:-}" ] || [ -n "${base[$1]:-}" ]; }
