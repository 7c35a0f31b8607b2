#!/usr/bin/env bash
# usage: scripts/pristine.sh [COMMIT]          (as root; COMMIT: default HEAD)
# Proves the README on a stock Debian: builds a fresh Debian root with
# `mmdebstrap --variant=minbase` from the host's own Debian apt sources
# (o=Debian in apt-cache policy; the release is the host's), copies in
# only the host's CA certificates and npm settings (so https and npm work
# as on the host, e.g. behind a proxy with its own CA), clones COMMIT into
# it and runs exactly the README's two commands there in a chroot, as a
# new user would: scripts/demo.sh, then scripts/test.sh. .ci/run runs this.
# proc, devpts and /dev/shm are mounted in the root and unmounted on every
# exit; the root is removed unless PRISTINE_KEEP=1 (then its path is
# printed). PRISTINE_DIR picks the parent directory (default /var/tmp).
# Exit status: that of the first failing step, 0 when both commands pass.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
[ "$(id -u)" -eq 0 ] || { echo "pristine: run as root (mmdebstrap, mount and chroot need it)" >&2; exit 2; }
commit=$(git rev-parse --verify "${1:-HEAD}^{commit}") ||
  { echo "pristine: '${1:-HEAD}' is not a commit of $src" >&2; exit 2; }
say() { echo "pristine: $* ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" >&2; }

if ! command -v mmdebstrap >/dev/null 2>&1; then
  say "installing mmdebstrap on the host"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

# The host's Debian sources, one "deb URL SUITE COMPONENTS" line per URL and
# suite, from what apt itself uses (any sources format, nothing else).
sources=$(apt-cache policy | awk '
  /^ *[0-9]+ [a-z]+:\/\// { url = $2; split($3, sc, "/"); pend = 1; next }
  pend && $1 == "release" {
    if ($2 ~ /(^|,)o=Debian(,|$)/ && !((url, sc[1], sc[2]) in seen)) {
      seen[url, sc[1], sc[2]] = 1
      key = url " " sc[1]
      if (!(key in comps)) order[++n] = key
      comps[key] = comps[key] " " sc[2]
    }
    pend = 0 }
  END { for (i = 1; i <= n; i++) print "deb " order[i] comps[order[i]] }')
[ -n "$sources" ] || { echo "pristine: the host has no o=Debian apt source" >&2; exit 2; }
. /etc/os-release
suite=${VERSION_CODENAME:?pristine: no VERSION_CODENAME in /etc/os-release}

root=$(mktemp -d "${PRISTINE_DIR:-/var/tmp}/purist-pristine.XXXXXX")
mounts=()
cleanup() {
  local rc=$? i p
  set +e
  # What the run left behind in the root (a daemon, a browser) would keep
  # its mounts busy: only processes whose root is this one are ended.
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -9 "${p#/proc/}" 2>/dev/null
  done
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
  done
  if [ "${PRISTINE_KEEP:-0}" = 1 ]; then
    echo "pristine: root kept in $root" >&2
  elif ! grep -q " $root[/ ]" /proc/mounts; then
    rm -rf --one-file-system "$root"
  else
    echo "pristine: $root still has mounts; not removed" >&2
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

say "mmdebstrap --variant=minbase $suite into $root from: $(echo "$sources" | tr '\n' ';')"
mapfile -t mirrors <<<"$sources"
# force-unsafe-io (kept in the root's dpkg.cfg.d): dpkg skips its fsync per
# file. deps.sh installs ~670 packages here (335 of them node-* modules that
# Debian's npm depends on), which took 6 minutes on a loaded disk; the
# option changes no package, and this root is thrown away.
mmdebstrap --quiet --variant=minbase --dpkgopt=force-unsafe-io "$suite" "$root" "${mirrors[@]}"

# The host's CA certificates (the bundle, and its local CAs so that
# update-ca-certificates in the root keeps them) and npm settings.
mkdir -p "$root/etc/ssl/certs" "$root/usr/local/share/ca-certificates"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/" 2>/dev/null || true
cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
for f in /etc/npmrc /usr/etc/npmrc /root/.npmrc; do
  [ -f "$f" ] || continue
  mkdir -p "$root$(dirname "$f")"
  cp "$f" "$root$f"
done

# The commit, as a clone would give it: only what is committed.
say "cloning $commit"
git clone -q --no-checkout "$src" "$root/root/purist"
git -C "$root/root/purist" cat-file -e "$commit" 2>/dev/null ||
  git -C "$root/root/purist" fetch -q "$src" "$commit"   # a commit no branch holds
git -C "$root/root/purist" checkout -q --detach "$commit"

# tests/deps/minbase.txt is the package set the deps tests trust to be
# there: say where this root differs from it (a Debian point release may).
chroot "$root" dpkg-query -W -f='${Package}\n' | sort >"$root/tmp/minbase.txt"
differ=$({ grep -v '^#' "$root/root/purist/tests/deps/minbase.txt" 2>/dev/null || true; } | sort |
         comm -3 - "$root/tmp/minbase.txt" | tr -d '\t' | tr '\n' ' ')
[ -z "$differ" ] || echo "pristine: this minbase root and tests/deps/minbase.txt differ in: $differ" >&2

mnt() { mkdir -p "$root$2"; mount "${@:3}" "$1" "$root$2"; mounts+=("$root$2"); }
mnt proc /proc -t proc
mnt devpts /dev/pts -t devpts -o newinstance,ptmxmode=0666,mode=0620
mnt shm /dev/shm -t tmpfs -o mode=1777
[ -e "$root/dev/ptmx" ] || ln -s pts/ptmx "$root/dev/ptmx"

run() {
  local t0=$SECONDS
  say "running $1"
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    TERM=dumb LANG=C.UTF-8 sh -c "cd /root/purist && $1"
  say "$1 passed in $((SECONDS - t0)) s"
}
run scripts/demo.sh
run scripts/test.sh
say "both README commands passed on a pristine $PRETTY_NAME root, in $SECONDS s in all"
