#!/usr/bin/env bash
# A real distcc farm on loopback: distccd runs `purist cc` as its compiler
# (DISTCC_CMDLIST maps the compiler name the client sends to a wrapper, so
# no system directory is touched), the example project is built through
# distcc with CMake, local fallback disabled; the objects come back with
# their .purist sections (the client side never runs purist), and purist
# link of the executable prints exactly what purist infer -p prints.
# Exit 77 (skipped) only if distcc is not installed.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/cc_lib.sh"
if ! command -v distcc >/dev/null || ! command -v distccd >/dev/null; then
  echo "SKIP: distcc is not installed (scripts/deps.sh installs it)"
  exit 77
fi
GCC=$(command -v gcc)
SRV=$T/srv
PIDFILE=$SRV/distccd.pid
stop_farm() {
  if [ -s "$PIDFILE" ]; then kill "$(cat "$PIDFILE")" 2>/dev/null || true; fi
  if [ -n "${DPID:-}" ]; then kill "$DPID" 2>/dev/null || true; wait "$DPID" 2>/dev/null || true; fi
}
trap 'stop_farm; chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T" "$XDG_CACHE_HOME"' EXIT

# The server may run as another user (distccd run by root drops to nobody):
# what it runs must be readable by all.
chmod 755 "$T"
mkdir -p "$T/bin" "$SRV" "$T/client"
chmod 1777 "$SRV"
cp "$PURIST" "$T/bin/purist"
cp "$(dirname "$PURIST")/purist-engine" "$T/bin/purist-engine"   # the front runs the engine beside it
printf '#!/bin/sh\nexec %s cc %s "$@"\n' "$T/bin/purist" "$GCC" >"$T/bin/gcc"
chmod 755 "$T/bin/gcc"
# The client names the compiler as invoked, or with the target prefix.
ln -s gcc "$T/bin/$(gcc -dumpmachine)-gcc"
printf '%s\n' "$T/bin/gcc" "$T/bin/$(gcc -dumpmachine)-gcc" >"$T/cmdlist"
chmod 644 "$T/cmdlist"

check "distccd starts on a free loopback port"
user=()
[ "$(id -u)" -ne 0 ] || user=(--user nobody)
for attempt in 1 2 3 4 5; do
  PORT=$((20000 + RANDOM % 40000))
  DISTCC_CMDLIST=$T/cmdlist TMPDIR=$SRV distccd --daemon --no-detach --allow 127.0.0.1 \
    --listen 127.0.0.1 --port "$PORT" --pid-file "$PIDFILE" --log-file "$SRV/distccd.log" \
    --log-level=info "${user[@]}" &
  DPID=$!
  for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break 2
    kill -0 "$DPID" 2>/dev/null || break
    sleep 0.1
  done
  stop_farm
  DPID=
  [ "$attempt" -lt 5 ] || fail "distccd did not start${NL}$(show "$SRV/distccd.log")"
done

check "the example project built through distcc (CMake, no local fallback)"
copy_examples "$T/p"
chmod -R a+rX "$T/p"
cd "$T/p"
export DISTCC_HOSTS="127.0.0.1:$PORT/2" DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 DISTCC_DIR=$T/client
cmake -S . -B build -DCMAKE_C_COMPILER="$GCC" -DCMAKE_C_COMPILER_LAUNCHER=distcc >cmake.log 2>&1 ||
  fail "cmake failed${NL}$(show cmake.log)"
cmake --build build -j2 >build.log 2>&1 || fail "the build through distcc failed${NL}$(show build.log)${NL}$(show "$SRV/distccd.log")"

check "every TU was compiled remotely, by purist cc on the server"
n=$(grep -c 'COMPILE_OK.*/bin/.*gcc .*\.c$' "$SRV/distccd.log" || true)
[ "$n" -ge 8 ] || fail "distccd compiled $n of the 8 TUs${NL}$(show "$SRV/distccd.log")"
for o in build/CMakeFiles/*/src/*.o; do
  [ -n "$(section_offset "$o")" ] || fail "$o came back without a .purist section"
done

check "purist link build/demo == purist infer -p build"
run infer -p build
expect_ok
# distcc's servers compile preprocessed text, which has no macros left:
# the macro a witness comes from (", in expansion of macro 'errno'") is
# the one thing their summaries cannot know.
sed "s/, in expansion of macro '[^']*'//" "$T/out" > infer.txt
[ "$(wc -l <infer.txt)" -ge 40 ] || fail "infer listed too few functions${NL}$(show infer.txt)"
run link build/demo
expect_ok
same infer.txt "$T/out" "infer -p build and link of the distcc-built demo"
echo "ok"
