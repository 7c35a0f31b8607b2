#!/usr/bin/env bash
# bench/launcher.sh — what `purist cc` costs a real build (issue 24).
#
#   bench/launcher.sh [--project DIR --build CMD --binary PATH [--configure CMD]]
#                     [--purist BIN] [--before BIN] [--no-ccache] [--jobs N] [--keep]
#
# Builds a project plain (CC=gcc) and through `purist cc gcc`, each in a
# fresh copy, and prints the CPU (user + system of the whole build, every
# child included), the wall time, the size of all objects, the binary's size
# and its sidecar's (BINARY.purist), and each as a ratio to the plain build.
# --before BIN adds the same build through another purist (an older
# commit's) beside it. Unless --no-ccache, it also builds with ccache
# (CCACHE_DIR fresh, cold then warm), plain (CC="ccache gcc") and with
# purist behind ccache (docs/scaling.md: ccache runs a one-line purist-gcc
# script); the warm rows are the second build of a cleaned tree.
#
# The default project is Lua 5.4 (`apt-get source -d lua5.4`, its upstream
# tarball): --build 'make -C src linux-noreadline CC="$CC -std=gnu99"',
# --binary src/lua. CMD runs in bash in the copy with CC set to the
# compiler of the variant; --configure runs first and is not timed
# (tmux: --configure 'sh autogen.sh >/dev/null 2>&1; ./configure CC="$CC"'
# --build 'make -j1' --binary tmux). --purist defaults to build-bench's
# Release purist, built from this tree. -j1 by default: CPU is what counts.
#
# A libtool shared library (issue 35 item 6): with libtool installed
# (package libtool-bin), the files --libtool GLOB names (default for Lua:
# src/*.c less lua.c and luac.c; '!FILE' leaves one out) are compiled with
# `libtool --mode=compile` through each CC and linked into a .so by
# `libtool --mode=link gcc`, as a tree configured with plain gcc links
# whatever CC make is given. The rows libtool-plain and libtool-purist give
# the .so's size and its sidecar's; the line after them, the .purist bytes
# left inside the .so and whether `purist link` says so (its note).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
project='' configure='' buildcmd='' binary='' purist='' before='' ccache=1 keep=0 jobs=1 ltglob=
while [ $# -gt 0 ]; do
  case $1 in
    --project) project=$(cd "$2" && pwd); shift 2 ;;
    --configure) configure=$2; shift 2 ;;
    --build) buildcmd=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --purist) purist=$2; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --no-ccache) ccache=0; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --libtool) ltglob=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "launcher.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

say() { echo "launcher.sh: $*" >&2; }
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
bench_workdir
[ -x /usr/bin/time ] || { say "needs GNU time (/usr/bin/time, package time)"; exit 2; }
if [ "$ccache" -eq 1 ] && ! command -v ccache >/dev/null; then
  say "ccache is not installed: the ccache rows are left out (apt-get install ccache)"
  ccache=0
fi

if [ -z "$purist" ]; then
  say "building purist (Release) in $build"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
  cmake --build "$build" -j"$(nproc)" --target purist >/dev/null
  purist=$build/purist
fi
purist=$(cd "$(dirname "$purist")" && pwd)/$(basename "$purist")
[ -z "$before" ] || before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")

if [ -z "$project" ]; then
  say "fetching Lua 5.4's upstream tarball (apt-get source -d lua5.4)"
  (cd "$work" && apt-get source -d -qq lua5.4 >/dev/null 2>&1) || { say "apt-get source failed (deb-src lines?)"; exit 2; }
  tar -xzf "$work"/lua5.4_*.orig.tar.gz -C "$work"
  project=$(echo "$work"/lua-5.*)
  buildcmd='make -C src linux-noreadline CC="$CC -std=gnu99"'
  binary=src/lua
  [ -n "$ltglob" ] || ltglob='src/*.c !src/lua.c !src/luac.c'
fi
[ -n "$buildcmd" ] && [ -n "$binary" ] || { say "--project needs --build and --binary"; exit 2; }

# The wrapper ccache runs as its compiler (ccache takes one word).
wrap() {
  printf '#!/bin/sh\nexec %s cc gcc "$@"\n' "$1" >"$work/$2"
  chmod +x "$work/$2"
}
wrap "$purist" purist-gcc
[ -z "$before" ] || wrap "$before" before-gcc

# run_build NAME CC [warm]: a fresh copy configured and built with CC; sets
# cpu, wall, objs, bin, side. With warm, the same copy is cleaned and built
# again (ccache's second build), and that is what is measured.
run_build() {
  local name=$1 cc=$2 warm=${3:-} dir=$work/b-$1
  rm -rf "$dir"
  cp -a "$project" "$dir"   # -a: timestamps kept, or automake wants autoconf again
  say "$name: CC=\"$cc\""
  if [ -n "$configure" ]; then
    (cd "$dir" && CC=$cc bash -c "$configure") >"$dir.configure.log" 2>&1 || { say "$name: configure failed ($dir.configure.log)"; exit 1; }
  fi
  if [ -n "$warm" ]; then
    (cd "$dir" && CC=$cc MAKEFLAGS="-j$jobs" bash -c "$buildcmd") >"$dir.cold.log" 2>&1 || { say "$name: cold build failed"; exit 1; }
    find "$dir" -name '*.o' -delete
    rm -f "$dir/$binary" "$dir/$binary.purist"
    find "$dir" -name '*.a' -delete
  fi
  rm -f "$dir.server"
  (cd "$dir" && CC=$cc MAKEFLAGS="-j$jobs" PURIST_CC_SERVER_STATS=$dir.server PURIST_CC_SERVER_IDLE=10 /usr/bin/time -f '%U %S %e' -o "$dir.time" bash -c "$buildcmd") \
    >"$dir.log" 2>&1 || { say "$name: build failed ($dir.log)"; tail -5 "$dir.log" >&2; exit 1; }
  read -r u s wall <"$dir.time"
  cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
  server_cpu "$dir.server"
  cpu=$(awk -v a="$cpu" -v b="$scpu" 'BEGIN { print a + b }')
  objs=$(find "$dir" -name '*.o' -printf '%s\n' | awk '{ t += $1 } END { print t + 0 }')
  bin=$(stat -c %s "$dir/$binary")
  side=$( [ -f "$dir/$binary.purist" ] && stat -c %s "$dir/$binary.purist" || echo 0)
}

# server_cpu FILE: the CPU (user + system) of the summary server this
# build started (src/cc/ccserver.h: its parses are no child of the build,
# so GNU time does not see them); each server appends to FILE when it ends,
# PURIST_CC_SERVER_IDLE seconds after its last compile: waits until none
# is left. Sets scpu (0 if no server ran: an older purist,
# PURIST_CC_SERVER=0).
server_cpu() {
  local i
  for i in $(seq 300); do   # a minute at most
    local e live=0
    for e in $(grep -lsF "PURIST_CC_SERVER_STATS=$1" /proc/[0-9]*/environ 2>/dev/null); do
      tr '\0' ' ' <"${e%/environ}/cmdline" 2>/dev/null | grep -q __cc-server && live=1
    done
    [ "$live" -eq 1 ] || break
    sleep 0.2
  done
  scpu=$(awk '{ t += $1 + $2 } END { print t + 0 }' "$1" 2>/dev/null || echo 0)
}

rows=()
row() {   # NAME CC [warm]
  run_build "$@"
  rows+=("$1|$cpu|$wall|$objs|$bin|$side")
}
row plain gcc
[ -z "$before" ] || row before "$before cc gcc"
row purist "$purist cc gcc"
export PURIST_CC_EMBED=1
row embedded "$purist cc gcc"
unset PURIST_CC_EMBED
if [ "$ccache" -eq 1 ]; then
  export CCACHE_DIR=$work/ccache-plain
  row ccache-warm "ccache gcc" warm
  export CCACHE_DIR=$work/ccache-purist
  row ccache+purist-warm "ccache $work/purist-gcc" warm
  unset CCACHE_DIR
fi

# run_libtool NAME CC: the --libtool files of a fresh copy compiled by
# libtool through CC and linked by libtool with plain gcc into libbench.la;
# sets cpu, wall, objs, bin (the .so), side (its sidecar), sec (the .purist
# bytes inside the .so) and note (1 when `purist link` says so).
run_libtool() {
  local name=$1 cc=$2 dir=$work/b-$1 f g
  rm -rf "$dir"; cp -a "$project" "$dir"
  say "$name: libtool --mode=compile $cc, --mode=link gcc"
  local srcs=() skip=()
  for g in $ltglob; do case $g in !*) skip+=("${g#!}") ;; *) srcs+=("$g") ;; esac; done
  {
    printf 'set -e\nlos=()\n'
    printf 'for f in %s; do\n' "${srcs[*]}"
    for g in "${skip[@]}"; do printf '  [ "$f" = %q ] && continue\n' "$g"; done
    printf '  libtool --quiet --tag=CC --mode=compile %s -O2 -c "$f" -o "${f%%.c}.lo"\n' "$cc"
    printf '  los+=("${f%%.c}.lo")\ndone\n'
    printf 'libtool --quiet --tag=CC --mode=link gcc -O2 -o libbench.la "${los[@]}" -rpath /usr/local/lib -lm\n'
  } >"$dir.lt.sh"
  rm -f "$dir.server"
  (cd "$dir" && PURIST_CC_SERVER_STATS=$dir.server PURIST_CC_SERVER_IDLE=10 /usr/bin/time -f '%U %S %e' -o "$dir.time" \
     bash "$dir.lt.sh") >"$dir.log" 2>&1 || { say "$name: libtool build failed ($dir.log)"; tail -5 "$dir.log" >&2; exit 1; }
  read -r u s wall <"$dir.time"
  cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
  server_cpu "$dir.server"
  cpu=$(awk -v a="$cpu" -v b="$scpu" 'BEGIN { print a + b }')
  objs=$(find "$dir" -path '*/.libs/*.o' -printf '%s\n' | awk '{ t += $1 } END { print t + 0 }')
  f=$(find "$dir/.libs" -name 'libbench.so.*' -type f | head -n 1)
  [ -n "$f" ] || { say "$name: libtool made no libbench.so"; exit 1; }
  bin=$(stat -c %s "$f")
  side=$( [ -f "$f.purist" ] && stat -c %s "$f.purist" || echo 0)
  sec=$(objdump -h "$f" | awk '$2 == ".purist" { print $3 }')
  sec=$((16#${sec:-0}))
  note=0
  "$purist" link "$f" >/dev/null 2>"$dir.link.err" || true
  if grep -q 'linked without purist cc' "$dir.link.err"; then note=1; fi
  return 0
}
lt_line=''
if [ -n "$ltglob" ] && ! command -v libtool >/dev/null; then
  say "libtool is not installed: the libtool rows are left out (scripts/deps.sh --test installs libtool-bin)"
  ltglob=''
fi
if [ -n "$ltglob" ]; then
  run_libtool libtool-plain gcc
  rows+=("libtool-plain|$cpu|$wall|$objs|$bin|$side")
  run_libtool libtool-purist "$purist cc gcc"
  rows+=("libtool-purist|$cpu|$wall|$objs|$bin|$side")
  lt_line=$(awk -v s="$sec" -v b="$bin" -v n="$note" 'BEGIN {
    printf "libtool-purist: the .so keeps %d bytes of .purist (%.0f%% of it); purist link %s", s, b ? 100 * s / b : 0,
           n ? "notes it (linked without purist cc)" : "says nothing" }')
fi

base() { printf '%s\n' "${rows[@]}" | awk -F'|' -v n="$1" '$1 == n'; }
IFS='|' read -r _ pcpu pwall pobjs pbin _ <<<"$(base plain)"
[ "$ccache" -eq 0 ] || IFS='|' read -r _ ccpu cwall cobjs cbin _ <<<"$(base ccache-warm)"
echo "project: $project ($binary), -j$jobs; purist: $purist${before:+; before: $before}"
printf '%-20s %9s %7s %9s %7s %11s %8s %11s %8s %11s\n' build 'CPU s' ratio 'wall s' ratio 'objects' ratio 'binary' ratio 'sidecar'
for r in "${rows[@]}"; do
  IFS='|' read -r n c w o b sd <<<"$r"
  bc_=$pcpu bw=$pwall bo=$pobjs bb=$pbin
  case $n in ccache*) [ "$n" = ccache-warm ] || { bc_=$ccpu bw=$cwall bo=$cobjs bb=$cbin; } ;; esac
  [ "$n" != libtool-purist ] || IFS='|' read -r _ bc_ bw bo bb _ <<<"$(base libtool-plain)"
  [ "$n" != libtool-plain ] || { bc_=$c bw=$w bo=$o bb=$b; }
  awk -v n="$n" -v c="$c" -v w="$w" -v o="$o" -v b="$b" -v sd="$sd" -v c0="$bc_" -v w0="$bw" -v o0="$bo" -v b0="$bb" \
    'BEGIN { printf "%-20s %9.2f %6.2fx %9.2f %6.2fx %11d %7.2fx %11d %7.2fx %11d\n", n, c, c / c0, w, w / w0, o, o / o0, b, b / b0, sd }' 
done
echo "ratios: to the plain build; ccache+purist-warm's to ccache-warm (both the second build, from a warm cache);"
echo "libtool-purist's to libtool-plain (the .so as binary)"
[ -z "$lt_line" ] || echo "$lt_line"
