#!/usr/bin/env bash
# Issue 31 items 5 and 14: the summary server's abstract socket name is
# world-visible; another user who binds it and never accepts must not hang
# root's `purist cc` (it used to block in connect() for ever): the
# launcher connects with a timeout, checks the peer's credentials before
# sending anything, and summarises in-process. A relative
# PURIST_CC_SERVER_STATS is the launcher's directory's, not /'s.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
. "$(dirname "$0")/other_user_lib.sh"
chmod 755 "$T"
cd "$T"
printf 'int twice(int x) { return 2 * x; }\n' >m.c
export PURIST_CC_SERVER_IDLE=2 PURIST_CC_SERVER_STATS=stats.txt
# servers: how many summary servers of this test's name listen.
names() { sed -n 's/.*@\(purist-cc-[0-9]*-[0-9a-f]*\)$/\1/p' /proc/net/unix | sort -u; }
before=$(names)

check "item 14: a relative PURIST_CC_SERVER_STATS lands in the launcher's directory"
"$PURIST" cc gcc -O2 -c m.c -o m.o || fail "purist cc failed"
name=$(comm -13 <(echo "$before") <(names) | head -n 1)
[ -n "$name" ] || fail "no summary server was started"
for _ in $(seq 100); do grep -q "@$name\$" /proc/net/unix || break; sleep 0.2; done
grep -q "@$name\$" /proc/net/unix && fail "the server did not end when idle"
for _ in $(seq 20); do [ -s stats.txt ] && break; sleep 0.2; done
[ -s "$T/stats.txt" ] || fail "no stats.txt in the launcher's directory"
rm -f /stats.txt 2>/dev/null || true

check "item 5: another user squats the server's name and never accepts: purist cc still ends, with its summary"
# The squatter: binds the name, listens with a backlog of 0, fills it with
# its own connections (the next connect() would block), then waits.
cat >squat.c <<'C'
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
int main(int argc, char **argv)
{
  struct sockaddr_un sa = { .sun_family = AF_UNIX };
  size_t n = strlen(argv[1]);
  memcpy(sa.sun_path + 1, argv[1], n);
  socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  if (argc != 3 || bind(s, (struct sockaddr *)&sa, len) != 0 || listen(s, 0) != 0) return 1;
  for (int i = 0; i < 4; i++) {
    int c = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    connect(c, (struct sockaddr *)&sa, len);
  }
  for (int i = 0; i < 1200 && access(argv[2], F_OK) != 0; i++) usleep(100000);
  return 0;
}
C
gcc -o squat squat.c || fail "cannot build the squatter"
as_other ./squat "$name" "$T/stop" &
squatter=$!
for _ in $(seq 50); do grep -q "@$name\$" /proc/net/unix && break; sleep 0.1; done
grep -q "@$name\$" /proc/net/unix || fail "the squatter could not bind the name"
start=$(date +%s)
set +e
timeout 60 "$PURIST" cc gcc -O2 -c m.c -o m2.o 2>"$T/err"
RC=$?
set -e
touch "$T/stop"
wait "$squatter" || true
[ "$RC" -ne 124 ] || fail "purist cc hung on the squatted socket"
[ "$RC" -eq 0 ] || fail "purist cc failed ($RC): $(cat "$T/err")"
[ $(($(date +%s) - start)) -lt 30 ] || fail "purist cc took $(($(date +%s) - start)) s"
run link m2.o
expect_ok
expect_stdout_has "twice: const"
echo ok
