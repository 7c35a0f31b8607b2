#!/usr/bin/env bash
# Issue 31 items 1, 2 and 4: files of another local user never steer,
# redirect or receive root's writes. The summary cache and the compiler-
# view cache in a directory another user owns or can write are not used
# (one warning); symlinks planted inside a cache are never followed by
# clean, prune or a write; a cache file another user wrote is ignored; the
# temporaries of -o and of the sidecar are fresh files (O_EXCL|O_NOFOLLOW),
# never a link another user planted at their predictable name.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/other_user_lib.sh"
. "$(dirname "$0")/../cc/cc_lib.sh"
chmod 755 "$T"
write_generated_project "$T/p" 3
cd "$T/p"
run infer -p . --no-cache
expect_rc 0
cp "$T/out" "$T/ref.out"

check "item 1: a cache directory another user owns: one warning naming it and its owner, no entry written, correct output"
mkdir "$T/shared"
chown "$OU" "$T/shared"
XDG_CACHE_HOME=$T/shared run infer -p . --stats
expect_rc 0
same "$T/ref.out" "$T/out" "output beside another user's cache"
[ "$(grep -c warning "$T/err")" -eq 1 ] || fail "expected exactly one warning${NL}$(context)"
expect_stderr_has "cannot use the cache directory $T/shared/purist: $T/shared is owned by user $OU \\(uid $OUID\\)"
[ -z "$(ls -A "$T/shared")" ] || fail "root wrote into another user's directory: $(ls -A "$T/shared")"

check "item 1: a cache directory everyone can write: refused, and the other user's planted links lead nowhere"
open_dir "$T/open/purist"
mkdir "$T/victim"
echo keep >"$T/victim/precious.r"; echo keep >"$T/victim/precious.m"; echo keep >"$T/victim/x.tmp1"
as_other ln -s "$T/victim" "$T/open/purist/ab"
as_other ln -s "$T/created-by-root" "$T/open/purist/prune.lock"
as_other touch "$T/open/purist/CACHEDIR.TAG"
XDG_CACHE_HOME=$T/open run infer -p . --cache-max-size 1 --stats
expect_rc 0
same "$T/ref.out" "$T/out" "output beside an open cache"
expect_stderr_has "cannot use the cache directory $T/open/purist: $T/open/purist is writable by others"
XDG_CACHE_HOME=$T/open run cache clean
expect_rc 2
expect_stderr_has "writable by others; nothing removed"
[ -f "$T/victim/precious.r" ] && [ -f "$T/victim/precious.m" ] && [ -f "$T/victim/x.tmp1" ] ||
  fail "files outside the cache were removed through a planted shard link"
[ ! -e "$T/created-by-root" ] || fail "root created a file through a planted prune.lock link"

check "item 1: links inside root's own cache (planted while it was open) are not followed by clean, prune or writes"
run infer -p . --cache-dir "$T/own" --stats
expect_rc 0
for s in "$T"/own/??; do rm -rf "$s"; ln -s "$T/victim" "$s"; done
rm -f "$T/own/prune.lock"; ln -s "$T/created-by-root" "$T/own/prune.lock"
run infer -p . --cache-dir "$T/own" --cache-max-size 1 --stats
expect_rc 0
same "$T/ref.out" "$T/out" "output with planted shard links"
run cache clean --cache-dir "$T/own"
[ -f "$T/victim/precious.r" ] && [ -f "$T/victim/precious.m" ] && [ -f "$T/victim/x.tmp1" ] ||
  fail "files outside the cache were removed through a shard link"
[ "$(ls "$T/victim" | wc -l)" -eq 3 ] || fail "root wrote entries through a shard link: $(ls "$T/victim")"
[ ! -e "$T/created-by-root" ] || fail "root created a file through a prune.lock link"

check "item 2: a compiler-view entry another user wrote is ignored; an open view cache is not used"
mkdir "$T/ccp" && cd "$T/ccp"
printf '#ifdef PURIST_MARK_CACHED\nint marked(int x) { return x; }\n#endif\nint plain_fn(int x) { return x + 1; }\n' >m.c
export PURIST_CC_CACHE=$T/ccview
"$PURIST" cc gcc -O2 -c m.c -o m.o || fail "purist cc failed"
dm=$(ls "$T"/ccview/ccview-*.dm)
echo '#define PURIST_MARK_CACHED 1' >>"$dm"
chown "$OU" "$dm"
"$PURIST" cc gcc -O2 -c m.c -o m2.o || fail "purist cc failed"
run link m2.o
expect_ok
expect_stdout_lacks 'marked'
export PURIST_CC_CACHE=$T/ccopen
open_dir "$T/ccopen"
"$PURIST" cc gcc -O2 -c m.c -o m3.o || fail "purist cc failed"
[ -z "$(ls -A "$T/ccopen")" ] || fail "root wrote into an open view cache: $(ls -A "$T/ccopen")"
unset PURIST_CC_CACHE

check "item 4: -o into a directory everyone can write: the other user's links at the temporary's name are not written through"
open_dir "$T/odir"
echo precious >"$T/victim/file"
cd "$T/p"
plant_pid_links "$T/odir/report.txt.tmp" "$T/victim/file"
run infer -p . --no-cache -o "$T/odir/report.txt"
expect_rc 0
[ "$(cat "$T/victim/file")" = precious ] || fail "root wrote through a planted -o temporary link"
same "$T/ref.out" "$T/odir/report.txt" "the report"

check "item 4: -o naming another user's link: the link is replaced, its target untouched"
as_other ln -s "$T/victim/file" "$T/odir/r2.txt"
run infer -p . --no-cache -o "$T/odir/r2.txt"
expect_rc 0
[ "$(cat "$T/victim/file")" = precious ] || fail "root wrote through another user's link at the -o path"
[ ! -L "$T/odir/r2.txt" ] || fail "the link is still there"

check "item 4: the sidecar's temporary: never through a planted link"
mkdir "$T/sc" && cd "$T/sc"
printf 'int twice(int x) { return 2 * x; }\nint main(void) { return twice(0); }\n' >main.c
open_dir "$T/sc/bin"
plant_pid_links "$T/sc/bin/demo.purist.tmp" "$T/victim/file"
"$PURIST" cc gcc -O2 -c main.c -o main.o && "$PURIST" cc gcc main.o -o bin/demo || fail "purist cc failed"
[ "$(cat "$T/victim/file")" = precious ] || fail "root wrote the sidecar through a planted link"
[ -f bin/demo.purist ] || fail "no sidecar"
echo "ok"
