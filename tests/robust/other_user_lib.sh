# shellcheck shell=bash
# other_user_lib.sh — a second local user for the tests of issue 31 (purist
# run by user A never follows, trusts or writes through anything another
# user B can change). Sourced after tests/e2e/lib.sh. Creates user $OU
# (uid $OUID), removed on exit; as_other CMD... runs CMD as that user.
# Where no user can be made (not root, no useradd), the test is skipped
# with exit code 77 and says why.
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root to create a second local user"
command -v useradd >/dev/null && command -v userdel >/dev/null && command -v setpriv >/dev/null ||
  skip "useradd, userdel or setpriv is missing"
OU="pur$(printf '%x%x' $$ "$RANDOM")"
useradd -M -N -d /nonexistent -s /bin/false "$OU" >/dev/null 2>&1 || skip "useradd $OU failed"
OUID=$(id -u "$OU")
OGID=$(id -g "$OU")
trap 'chmod -R u+rwx "$T" "$XDG_CACHE_HOME" 2>/dev/null; rm -rf "$T" "$XDG_CACHE_HOME"; userdel -f "$OU" >/dev/null 2>&1 || userdel "$OU" >/dev/null 2>&1' EXIT
as_other() { setpriv --reuid="$OUID" --regid="$OGID" --clear-groups -- "$@"; }
# A directory $1 everyone can write (not sticky: the kernel's
# protected_symlinks does not save us there), reachable by the other user.
open_dir() { mkdir -p "$1"; chmod 777 "$1"; }
# plant_pid_links PREFIX TARGET: the other user's symlinks PREFIX.PID ->
# TARGET for the next 600 process ids (a predictable temporary's names),
# made by one process with symlink(2): an `ln` per link would use up the
# very ids it plants.
plant_pid_links() {
  if [ ! -x "$T/plant" ]; then
    cat >"$T/plant.c" <<'C'
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
  long last = 1000;
  FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "r");
  if (f && fscanf(f, "%ld", &last) != 1) last = 1000;
  char name[4096];
  for (long p = last + 1; argc == 3 && p <= last + 600; p++) {
    snprintf(name, sizeof name, "%s.%ld", argv[1], p);
    symlink(argv[2], name);
  }
  return argc == 3 ? 0 : 2;
}
C
    gcc -o "$T/plant" "$T/plant.c" || fail "cannot build the planter"
  fi
  as_other "$T/plant" "$1" "$2"
}
