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
trap 'chmod -R u+rwx "$T" "$XDG_CACHE_HOME" 2>/dev/null; rm -rf "$T" "$XDG_CACHE_HOME"; userdel "$OU" >/dev/null 2>&1' EXIT
as_other() { setpriv --reuid="$OUID" --regid="$OGID" --clear-groups -- "$@"; }
# A directory $1 everyone can write (not sticky: the kernel's
# protected_symlinks does not save us there), reachable by the other user.
open_dir() { mkdir -p "$1"; chmod 777 "$1"; }
# plant_pid_links PREFIX TARGET: the other user's symlinks PREFIX.PID ->
# TARGET for the next 600 process ids (a predictable temporary's names).
plant_pid_links() {
  local last
  last=$(cat /proc/sys/kernel/ns_last_pid 2>/dev/null || echo 1000)
  as_other bash -c 'for ((i = $1; i <= $1 + 600; i++)); do ln -s "$3" "$2.$i"; done' _ "$last" "$1" "$2"
}
