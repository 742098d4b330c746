#!/usr/bin/env bash
# Removes the tabletop companion installed by systemd/install.sh (docs/pi.md). Keeps the config in
# /etc/companion/ and the games in /var/lib/companion/ unless --purge is given.
#
#   sudo systemd/uninstall.sh            remove the service, the program, the rules
#   systemd/uninstall.sh --dry-run       print the plan, change nothing (no root needed)
#   systemd/uninstall.sh --root DIR      remove the files under DIR and run no system command
#   --purge                              also the config, the games, the font cache and the user
# Debian packages, the serial port and the screen-blanking setting are left as they are.
set -euo pipefail

dry_run=0
root=""
purge=0
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --root) root=${2:?--root needs a directory}; shift ;;
    --root=*) root=${1#--root=} ;;
    --purge) purge=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "uninstall.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$root" ]; then
  root=$(cd "$root" && pwd)
fi
if [ "$dry_run" = 0 ] && [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
  echo "uninstall.sh: run as root (sudo), or with --dry-run to see the plan" >&2
  exit 1
fi

say() { printf '%s\n' "$*"; }
run() {
  if [ "$dry_run" = 1 ]; then say "would run: $*"
  elif [ -n "$root" ]; then say "skipped (--root): $*"
  else say "running: $*"; "$@"
  fi
}
remove() {
  local path
  for path in "$@"; do
    if [ ! -e "$root$path" ]; then say "not there: $path"
    elif [ "$dry_run" = 1 ]; then say "would remove: $path"
    else rm -rf -- "$root$path"; say "removed: $path"
    fi
  done
}

say "== tabletop companion: uninstalling${root:+ under $root}$([ "$dry_run" = 1 ] && printf ' (dry run)')"
run systemctl disable --now companion.service
if [ -e "$root/etc/systemd/system/companion-firstboot.service" ]; then
  run systemctl disable companion-firstboot.service
fi
remove /etc/systemd/system/companion.service /etc/systemd/system/companion-firstboot.service \
  /etc/udev/rules.d/99-companion-readers.rules /etc/udev/rules.d/99-companion-gpio.rules /opt/companion
if [ -e "$root/etc/mosquitto/conf.d/companion.conf" ]; then
  remove /etc/mosquitto/conf.d/companion.conf /etc/mosquitto/companion.acl
  run systemctl restart mosquitto.service
fi
run systemctl daemon-reload
run udevadm control --reload
if [ "$purge" = 1 ]; then
  say "== --purge: the config, the games and the user"
  remove /etc/companion /var/lib/companion /var/cache/companion
  run userdel companion
else
  say "kept: /etc/companion (config) and /var/lib/companion (games, tokens); --purge removes them"
fi
say "== done"
