#!/usr/bin/env bash
# The README's two commands on a fresh Debian 12 (issue 32): builds a Debian 12 "bookworm" minbase root
# with debootstrap (no gcc, no git, no Python but what Debian's packages bring), puts a clean `git clone`
# of this checkout's HEAD in it at /root/companion, and runs there, as root in a clean environment
# (chroot, `env -i`):
#   1. `bash systemd/run-here.sh --no-display` (the first start: installs, then starts the table; its
#      standard input is empty, so the table stops once it has started);
#   2. the same again with no network at all (`unshare -n`: a network namespace with only a loopback);
#   3. `bash tests/run.sh -q <a few tests>`: the first run installs what the tests need, then runs ruff,
#      mypy and a small set: a browser test, Mosquitto tests, run-here's tests, the kiosk's fonts and
#      window (not the whole suite: the build machine's 2 cores are shared);
#   4. `bash tests/run.sh -q tests/core/test_contract.py` again with no network.
# It prints each step's time and result and writes them to DIR/figures.txt; each step's whole output
# (every line with the seconds since the step began) is in DIR/logs/. docs/setup.md has the last figures.
#
#   sudo bash tests/setup/fresh_debian.sh [--dir DIR] [--rebuild] [-- PYTEST ARGS]
#
# DIR (default ./.fresh-debian, ignored by git) keeps the debootstrapped base (DIR/base, reused unless
# --rebuild) and the root of the last run (DIR/root, made anew from the base each run). Arguments after
# `--` replace step 3's tests. Needs root (debootstrap, chroot, mounts) and the network; installs Debian's
# debootstrap on this machine when it is missing. Mounts /proc, /sys, /dev, /dev/pts and a /dev/shm of its
# own in the root and unmounts them, and ends every process left in the root, at exit.
#
# This workplace only: the network here goes through a certificate authority of its own, so the host's
# CA bundle is copied into the root and named in the environment (pip, npm, Python); a real Debian
# machine needs none of that. Nothing else is added to the root by hand.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)

dir=$repo/.fresh-debian
rebuild=false
tests=(tests/setup/test_run_here.py tests/setup/test_apt_steps.py tests/phones/test_page_no_network.py
       tests/phones/test_phone_page_no_loss.py tests/phones/test_phones_restart.py
       tests/kiosk/test_kiosk_fonts.py tests/kiosk/test_kiosk_xvfb.py)
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --rebuild) rebuild=true; shift ;;
    --) shift; tests=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh_debian.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
if [ "$(id -u)" -ne 0 ]; then
  echo "fresh_debian.sh: needs root (debootstrap, chroot and mounts): sudo bash $0" >&2
  exit 1
fi

suite=bookworm
mirror=http://deb.debian.org/debian
base=$dir/base
root=$dir/root
logs=$dir/logs
figures=$dir/figures.txt
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
base=$dir/base root=$dir/root logs=$dir/logs figures=$dir/figures.txt

say() { echo "fresh_debian.sh: $*" | tee -a "$figures"; }

if ! command -v debootstrap >/dev/null; then
  echo "fresh_debian.sh: installing Debian's debootstrap on this machine"
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq debootstrap >/dev/null
fi

: >"$figures"
rm -rf "$logs"
mkdir -p "$logs"

# --- the root ----------------------------------------------------------------------------------------
if $rebuild || [ ! -f "$base/.fresh-debian-complete" ]; then
  rm -rf "$base"
  start=$SECONDS
  echo "fresh_debian.sh: debootstrap --variant=minbase $suite (a few minutes)"
  debootstrap --variant=minbase "$suite" "$base" "$mirror" >"$logs/debootstrap.log" 2>&1 \
    || { echo "fresh_debian.sh: debootstrap failed: $logs/debootstrap.log" >&2; exit 1; }
  touch "$base/.fresh-debian-complete"
  say "debootstrap --variant=minbase $suite: $((SECONDS - start)) s"
fi

mounted=()
ended_in_root() {  # the table's own Mosquitto or Debian's, a Chromium: nothing outlives a step
  local proc
  for proc in /proc/[0-9]*; do
    if [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ]; then kill -9 "${proc#/proc/}" 2>/dev/null || true; fi
  done
}
# shellcheck disable=SC2317  # called by the EXIT trap
ended() {  # every process left in the root, then the mounts
  ended_in_root
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
  done
  mounted=()
}
trap ended EXIT

rm -rf "$root"
cp -a "$base" "$root"
rm -f "$root/.fresh-debian-complete"
# The sources a Debian 12 installer writes: the release, its updates and security.
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/usr/local/share/fresh-debian"
cp /etc/ssl/certs/ca-certificates.crt "$root/usr/local/share/fresh-debian/ca.crt"  # this workplace only
# A clean clone: what is committed, nothing this checkout installed or left (.venv, node_modules).
git clone -q --no-hardlinks "$repo" "$root/root/companion"
echo "fresh_debian.sh: the root is $root; the clone is /root/companion at $(git -C "$repo" rev-parse --short HEAD)"

mount_in() {  # mount_in TARGET mount-args...
  mkdir -p "$root$1"
  mount "${@:2}" "$root$1"
  mounted+=("$root$1")
}
mount_in /proc -t proc proc
mount_in /sys -t sysfs sysfs
mount_in /dev --bind /dev
mount_in /dev/pts --bind /dev/pts
mount_in /dev/shm -t tmpfs -o mode=1777 shm

ca=/usr/local/share/fresh-debian/ca.crt
clean_env=(env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb
           PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
           "PIP_CERT=$ca" "SSL_CERT_FILE=$ca" "REQUESTS_CA_BUNDLE=$ca" "NODE_EXTRA_CA_CERTS=$ca")

failed=0
# step NAME network|offline COMMAND: runs COMMAND in /root/companion in the root; each line of its output
# goes to logs/NAME.log with the seconds since the step began.
step() {
  local name=$1 net=$2 command=$3 start rc
  local run=(chroot "$root" "${clean_env[@]}" bash -c "cd /root/companion && $command")
  if [ "$net" = offline ]; then
    run=(unshare -n sh -c 'ip link set lo up && exec "$@"' sh "${run[@]}")
  fi
  echo "fresh_debian.sh: [$name] $command ($net)"
  start=$SECONDS
  set +e
  "${run[@]}" </dev/null 2>&1 | while IFS= read -r line; do
    printf '%5d %s\n' $((SECONDS - start)) "$line"
  done >"$logs/$name.log"
  rc=${PIPESTATUS[0]}
  set -e
  last_s=$((SECONDS - start))
  ended_in_root
  if [ "$rc" -eq 0 ]; then
    say "[$name] $command ($net): ok, $last_s s"
  else
    failed=1
    say "[$name] $command ($net): FAILED (exit $rc) after $last_s s: $logs/$name.log"
    tail -n 25 "$logs/$name.log" | sed 's/^/    /'
  fi
}
first_seen() {  # first_seen LOG TEXT: the seconds of the first line holding TEXT
  grep -F -- "$2" "$1" | head -n 1 | awk '{print $1}'
}

say "Debian $(cat "$root/etc/debian_version") minbase: $(chroot "$root" dpkg-query -W -f='.' | wc -c) packages," \
    "python3 $(if [ -x "$root/usr/bin/python3" ]; then echo there; else echo absent; fi)," \
    "gcc $(if [ -x "$root/usr/bin/gcc" ]; then echo there; else echo absent; fi)"

step run-here-first network "bash systemd/run-here.sh --no-display"
started=$(first_seen "$logs/run-here-first.log" "new game #")
if [ -n "$started" ]; then say "  the table's start-up line after $started s"
else failed=1; say "  the table never said it started"; fi
say "  $(wc -l <"$logs/run-here-first.log") lines on the console; $(chroot "$root" python3 --version 2>&1) in the root"

step run-here-offline offline "bash systemd/run-here.sh --no-display"
grep -q "resumed where it stopped" "$logs/run-here-offline.log" \
  || { failed=1; say "  the second start did not resume the game"; }
grep -q "no network was found" "$logs/run-here-offline.log" \
  || { failed=1; say "  offline, the table did not say that phones cannot join yet"; }

step tests-first network "bash tests/run.sh -q ${tests[*]}"
ruff=$(first_seen "$logs/tests-first.log" "== ruff")
[ -n "$ruff" ] && say "  installing took $ruff s (until ruff began)"
grep -E "^ *[0-9]+ .*(passed|failed|error).* in " "$logs/tests-first.log" | tail -n 1 | sed 's/^ *[0-9]* /  pytest: /' \
  | tee -a "$figures"
if grep -q INTERNALERROR "$logs/tests-first.log"; then failed=1; say "  pytest INTERNALERROR"; fi

step tests-offline offline "bash tests/run.sh -q tests/core/test_contract.py"

if [ "$failed" -eq 0 ]; then
  say "all steps passed"
else
  say "a step failed (above)"
fi
exit "$failed"
