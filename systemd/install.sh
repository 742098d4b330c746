#!/usr/bin/env bash
# Installs the tabletop companion on Raspberry Pi OS Bookworm (64-bit) or Trixie, to start on the
# console at every boot (docs/pi.md). Idempotent: run it again to upgrade; the config in
# /etc/companion/ and the games in /var/lib/companion/ are kept.
#
#   sudo systemd/install.sh              install or upgrade
#   systemd/install.sh --dry-run         print the plan, change nothing (no root needed)
#   systemd/install.sh --root DIR        write the files under DIR and run no system command
#                                        (an image being prepared, or a test)
#   --os bookworm|trixie                 the release, instead of /etc/os-release's VERSION_CODENAME
#   --system-broker                      also set up the system Mosquitto for phones (see docs/mqtt.md)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
dry_run=0
root=""
release=""
system_broker=0
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --root) root=${2:?--root needs a directory}; shift ;;
    --root=*) root=${1#--root=} ;;
    --os) release=${2:?--os needs bookworm or trixie}; shift ;;
    --os=*) release=${1#--os=} ;;
    --system-broker) system_broker=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$root" ]; then
  root=$(cd "$root" && pwd)
fi

say() { printf '%s\n' "$*"; }
# Run a command that changes the system: printed in a dry run or with --root, run otherwise.
run() {
  if [ "$dry_run" = 1 ]; then say "would run: $*"
  elif [ -n "$root" ]; then say "skipped (--root): $*"
  else say "running: $*"; "$@"
  fi
}
# Install a file from the source tree (or stdin with "-") to a path, only if its content differs.
put() {
  local from=$1 to=$2 mode=$3 tmp
  tmp=$(mktemp)
  if [ "$from" = "-" ]; then cat >"$tmp"; else cat "$from" >"$tmp"; fi
  if [ -f "$root$to" ] && cmp -s "$tmp" "$root$to"; then
    say "unchanged: $to"
  elif [ "$dry_run" = 1 ]; then
    say "would write: $to (mode $mode)"
  else
    install -D -m "$mode" "$tmp" "$root$to"
    say "wrote: $to"
  fi
  rm -f "$tmp"
}
# Write a file only if it does not exist yet (the host's config: upgrades keep it).
put_once() {
  local to=$2
  if [ -e "$root$to" ]; then
    say "kept: $to (already there)"
    cat >/dev/null
  else
    put "$@"
  fi
}
# Add a word to the kernel's one-line command line unless it is there.
add_kernel_arg() {
  local file=$1 arg=$2
  if [ ! -f "$root$file" ]; then say "no $file here: skipped ($arg)"; return; fi
  if tr ' ' '\n' <"$root$file" | grep -qxF "$arg"; then say "unchanged: $file has $arg"
  elif [ "$dry_run" = 1 ]; then say "would add to $file: $arg"
  else sed -i "1s/\$/ $arg/" "$root$file"; say "added to $file: $arg"
  fi
}

# -- where we are ---------------------------------------------------------------------------------------
if [ -z "$release" ]; then
  release=$(sed -n 's/^VERSION_CODENAME=//p' "$root/etc/os-release" 2>/dev/null | tr -d '"' || true)
fi
case "$release" in
  bookworm|trixie) ;;
  *) echo "install.sh: Raspberry Pi OS Bookworm or Trixie expected, found '${release:-unknown}' (use --os to insist)" >&2
     exit 1 ;;
esac
pi=0
if [ -x "$root/usr/bin/raspi-config" ] && grep -qa "Raspberry Pi" "$root/proc/device-tree/model" 2>/dev/null; then
  pi=1
fi
if [ "$dry_run" = 0 ] && [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo), or with --dry-run to see the plan" >&2
  exit 1
fi
say "== tabletop companion: installing from $src for $release$([ "$pi" = 1 ] && printf ' on a Raspberry Pi')${root:+ under $root}$([ "$dry_run" = 1 ] && printf ' (dry run)')"

# -- Debian packages ------------------------------------------------------------------------------------
# python3-venv: the virtual environment; python3-lgpio: gpiozero's pin driver on a Pi 5 and later
# kernels (shared into the venv); fonts for the kiosk (Latin, Simplified Chinese, Thai);
# libgbm1/libegl1/libgles2: SDL's kmsdrm driver; mosquitto: the phones' broker (run by the companion);
# nodejs/npm: the phone page's build tools.
# The same names in both releases (Bookworm has Python 3.11, Trixie 3.13: both have pygame-ce wheels).
packages=(python3-venv python3-pip python3-lgpio fonts-noto-core fonts-noto-cjk fonts-thai-tlwg
          libgbm1 libegl1 libgles2 libdrm2 mosquitto mosquitto-clients nodejs npm rsync)
say "== Debian packages ($release): ${packages[*]}"
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"

# -- the user -------------------------------------------------------------------------------------------
say "== user companion (groups gpio dialout video render input audio)"
if [ -z "$root" ] && id companion >/dev/null 2>&1; then
  say "unchanged: user companion exists"
else
  run useradd --system --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin --user-group companion
fi
for group in gpio dialout video render input audio; do
  if [ -z "$root" ] && ! getent group "$group" >/dev/null; then
    say "no group $group here: skipped"
  elif [ -z "$root" ] && id -nG companion 2>/dev/null | tr ' ' '\n' | grep -qxF "$group"; then
    say "unchanged: companion is in $group"
  else
    run usermod -a -G "$group" companion
  fi
done

# -- the program ----------------------------------------------------------------------------------------
say "== the program in /opt/companion (source in /opt/companion/src, virtual environment in /opt/companion/venv)"
run mkdir -p /opt/companion
run rsync -a --delete --exclude .git --exclude .venv --exclude node_modules --exclude '*.egg-info' \
  --exclude __pycache__ "$src/" /opt/companion/src/
if [ -f "$src/companion/phones/web/package-lock.json" ]; then  # the phone page's MQTT client (pinned)
  run env -C /opt/companion/src/companion/phones/web npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi
run python3 -m venv --system-site-packages /opt/companion/venv
run /opt/companion/venv/bin/python -m pip install -q --upgrade pip
run /opt/companion/venv/bin/python -m pip install -q --upgrade /opt/companion/src

# -- files ----------------------------------------------------------------------------------------------
say "== config, units and rules"
put_once - /etc/companion/config.toml 0644 <<'EOF'
# The tabletop companion on this Pi (written once by systemd/install.sh; edit freely, upgrades keep it).
# Every key: /opt/companion/src/companion/data/config.example.toml; check with: companion config check
[storage]
path = "/var/lib/companion/companion.sqlite3"

[display]
fullscreen = true
driver = "kmsdrm"

[mqtt]
broker = "mosquitto"

[readers]
simulate = "never"
devices = [{ name = "pn532", driver = "pn532", port = "/dev/serial0" }]

[gpio]
enabled = "auto"
EOF
put "$src/systemd/companion.service" /etc/systemd/system/companion.service 0644
put "$src/systemd/99-companion-readers.rules" /etc/udev/rules.d/99-companion-readers.rules 0644
run udevadm control --reload
run udevadm trigger --subsystem-match=tty

# -- the broker -----------------------------------------------------------------------------------------
if [ "$system_broker" = 1 ]; then
  say "== the system Mosquitto for phones (systemd/mosquitto-companion.conf; credentials: docs/mqtt.md)"
  put "$src/systemd/mosquitto-companion.conf" /etc/mosquitto/conf.d/companion.conf 0644
  put "$src/systemd/companion.acl" /etc/mosquitto/companion.acl 0644
  run systemctl enable mosquitto.service
  say "note: set [mqtt] broker = \"external\" with url and provision in /etc/companion/config.toml (docs/mqtt.md)"
else
  # The companion runs its own Mosquitto (mqtt.broker = "mosquitto") on ports 1883 and 9001: the
  # Debian package's system service would hold them.
  say "== the companion runs Mosquitto itself: the system mosquitto.service is disabled"
  run systemctl disable --now mosquitto.service
fi

# -- the Pi ---------------------------------------------------------------------------------------------
say "== serial port for a PN532 (UART on GPIO14/15 as /dev/serial0, no login console on it)"
if [ "$pi" = 1 ]; then
  run raspi-config nonint do_serial_hw 0
  run raspi-config nonint do_serial_cons 1
else
  say "not a Raspberry Pi (no raspi-config): serial port left alone"
fi
say "== screen blanking off, no desktop (the kiosk draws on the console)"
if [ "$pi" = 1 ]; then
  run raspi-config nonint do_blanking 1
  run systemctl set-default multi-user.target
fi
add_kernel_arg /boot/firmware/cmdline.txt consoleblank=0

# -- start ----------------------------------------------------------------------------------------------
say "== the service"
run systemctl daemon-reload
run systemctl enable companion.service
if [ -z "$root" ] && [ "$dry_run" = 0 ] && systemctl is-active --quiet companion.service; then
  run systemctl restart companion.service  # an upgrade: the new version now
else
  say "start it now with: sudo systemctl start companion (or reboot: a desktop session holds the screen until then)"
fi
say "== done: the companion starts at every boot; logs: journalctl -u companion -f"
