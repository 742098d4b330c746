#!/usr/bin/env bash
# Installs the tabletop companion on Raspberry Pi OS or Debian, Bookworm (12) or Trixie (13), to start
# on the console at every boot (docs/pi.md). 64-bit Arm (a Pi 3/4/5, Zero 2 W) or any Debian machine.
# Idempotent: run it again to upgrade; the config in /etc/companion/ and the games in
# /var/lib/companion/ are kept. Inside an image build or a container (no running systemd, no udev) the
# steps that need them are skipped, each with a line saying so, and happen at first boot.
#
#   sudo systemd/install.sh              install or upgrade
#   systemd/install.sh --dry-run         print the plan, change nothing (no root needed)
#   systemd/install.sh --root DIR        write the files under DIR and run no system command (a test)
#   --os bookworm|trixie                 the release, instead of /etc/os-release's VERSION_CODENAME
#   --gpio auto|debian|pypi|none         gpiozero's pin driver lgpio: Debian's python3-lgpio (Raspberry
#                                        Pi OS has it), lgpio from PyPI (plain Debian), or none; auto:
#                                        Debian's where the archive has it, else PyPI's
#   --system-broker                      also set up the system Mosquitto for phones (see docs/mqtt.md)
#   --first-boot                         what an image build left for the Pi's first boot (run by
#                                        companion-firstboot.service)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
dry_run=0
root=""
release=""
gpio=auto
system_broker=0
first_boot=0
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --root) root=${2:?--root needs a directory}; shift ;;
    --root=*) root=${1#--root=} ;;
    --os) release=${2:?--os needs bookworm or trixie}; shift ;;
    --os=*) release=${1#--os=} ;;
    --gpio) gpio=${2:?--gpio needs auto, debian, pypi or none}; shift ;;
    --gpio=*) gpio=${1#--gpio=} ;;
    --system-broker) system_broker=1 ;;
    --first-boot) first_boot=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
case "$gpio" in
  auto|debian|pypi|none) ;;
  *) echo "install.sh: --gpio takes auto, debian, pypi or none, not '$gpio'" >&2; exit 2 ;;
esac
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
# Whether the package archives this system uses have a package (Raspberry Pi OS's have python3-lgpio).
archive_has() {
  if [ -z "$root" ] && command -v apt-cache >/dev/null; then
    apt-cache policy "$1" 2>/dev/null | grep -q '^ *Candidate: [^(]'
  else
    grep -qsx "Package: $1" "$root"/var/lib/apt/lists/*_Packages
  fi
}

# -- where we are ---------------------------------------------------------------------------------------
if [ -z "$release" ]; then
  release=$(sed -n 's/^VERSION_CODENAME=//p' "$root/etc/os-release" 2>/dev/null | tr -d '"' || true)
fi
case "$release" in
  bookworm|trixie) ;;
  *) echo "install.sh: Raspberry Pi OS or Debian, Bookworm (12) or Trixie (13), expected, found '${release:-unknown}' (use --os to insist)" >&2
     exit 1 ;;
esac
distro=Debian
if [ -e "$root/etc/rpi-issue" ] || [ -x "$root/usr/bin/raspi-config" ]; then
  distro="Raspberry Pi OS"
fi
pi=0  # running on a Raspberry Pi now
if grep -qa "Raspberry Pi" "$root/proc/device-tree/model" 2>/dev/null; then
  pi=1
fi
# A running systemd (PID 1) and udev: absent in an image build (a chroot) or a container.
systemd_up=0
if [ -d "$root/run/systemd/system" ] && { [ -n "$root" ] || ! systemd-detect-virt -q --chroot 2>/dev/null; }; then
  systemd_up=1
fi
udev_up=0
if [ -e "$root/run/udev/control" ] && { [ -n "$root" ] || command -v udevadm >/dev/null; }; then
  udev_up=1
fi
if [ "$dry_run" = 0 ] && [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo), or with --dry-run to see the plan" >&2
  exit 1
fi

# -- the Pi's own settings (now on a Pi; from an image build, at its first boot) ------------------------
pi_settings() {
  say "== serial port for a PN532 (UART on GPIO14/15 as /dev/serial0, no login console on it)"
  run raspi-config nonint do_serial_hw 0
  run raspi-config nonint do_serial_cons 1
  say "== screen blanking off, no desktop (the kiosk draws on the console)"
  run raspi-config nonint do_blanking 1
  run systemctl set-default multi-user.target
}
if [ "$first_boot" = 1 ]; then
  say "== tabletop companion: the first boot's steps${root:+ under $root}$([ "$dry_run" = 1 ] && printf ' (dry run)')"
  if [ "$pi" = 1 ] && [ -x "$root/usr/bin/raspi-config" ]; then
    pi_settings
    say "the serial port and blanking settings take effect at the next boot"
  else
    say "not on a Raspberry Pi with raspi-config: nothing to set"
  fi
  run rm -f /etc/companion/first-boot
  run systemctl disable companion-firstboot.service
  exit 0
fi

say "== tabletop companion: installing from $src for $distro $release ($(dpkg --print-architecture 2>/dev/null || uname -m))$([ "$pi" = 1 ] && printf ' on a Raspberry Pi')${root:+ under $root}$([ "$dry_run" = 1 ] && printf ' (dry run)')"
deferred=()
if [ "$systemd_up" = 0 ]; then
  say "no running systemd here (an image build or a container): the units are enabled now; starting and reloading wait for the first boot"
fi
if [ "$udev_up" = 0 ]; then
  say "no udev running here (an image build or a container): udevadm is skipped; udev applies the rules when it starts at boot"
fi

# -- Debian packages ------------------------------------------------------------------------------------
# python3-venv: the virtual environment; fonts for the kiosk (Latin, Simplified Chinese, Thai);
# libgbm1/libegl1/libgles2: SDL's kmsdrm driver; mosquitto: the phones' broker (run by the companion);
# nodejs/npm: the phone page's build tools; icu-devtools: ICU's library (libicuuc), for Thai line breaks
# between words on the kiosk. The same names in both releases (Bookworm has Python 3.11,
# Trixie 3.13: both have pygame-ce wheels for arm64 and amd64).
packages=(python3-venv python3-pip fonts-noto-core fonts-noto-cjk fonts-thai-tlwg icu-devtools
          libgbm1 libegl1 libgles2 libdrm2 mosquitto mosquitto-clients nodejs npm rsync)
say "== Debian packages ($release)"
run apt-get update -qq
# GPIO: gpiozero drives the pins through lgpio (every Pi, the Pi 5 included). Raspberry Pi OS's archive
# has it as python3-lgpio (shared into the venv); plain Debian's has not, so it comes from PyPI.
if [ "$gpio" = auto ]; then
  if archive_has python3-lgpio; then gpio=debian; else gpio=pypi; fi
fi
case "$gpio" in
  debian) packages+=(python3-lgpio)
          gpio_said="lgpio from the Debian package python3-lgpio ($distro's archive has it)" ;;
  pypi) gpio_said="lgpio from PyPI into the virtual environment (no python3-lgpio in this system's archives)" ;;
  none) gpio_said="none (--gpio none): buttons, LEDs and the buzzer stay off" ;;
esac
say "GPIO: $gpio_said"
say "packages: ${packages[*]}"
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"

# -- the user -------------------------------------------------------------------------------------------
# The unit's SupplementaryGroups must all exist or systemd cannot start it: plain Debian has no gpio
# group (Raspberry Pi OS has), and a minimal system may lack render or input.
groups=(gpio dialout video render input audio)
say "== user companion (groups ${groups[*]})"
for group in "${groups[@]}"; do
  if [ -z "$root" ] && getent group "$group" >/dev/null; then
    continue
  elif [ -n "$root" ] && grep -qs "^$group:" "$root/etc/group"; then
    continue
  fi
  say "no group $group here: creating it (the unit's SupplementaryGroups needs it)"
  run groupadd --system "$group"
done
if [ -z "$root" ] && id companion >/dev/null 2>&1; then
  say "unchanged: user companion exists"
else
  run useradd --system --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin --user-group companion
fi
for group in "${groups[@]}"; do
  if [ -z "$root" ] && id -nG companion 2>/dev/null | tr ' ' '\n' | grep -qxF "$group"; then
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
# pip builds the companion in the source tree (build/); a stale one would install files removed upstream
run rm -rf /opt/companion/src/build
run python3 -m venv --system-site-packages /opt/companion/venv
run /opt/companion/venv/bin/python -m pip install -q --upgrade pip
run /opt/companion/venv/bin/python -m pip install -q --upgrade /opt/companion/src
if [ "$gpio" = pypi ]; then
  say "== GPIO: lgpio from PyPI (a wheel where PyPI has one for this Python and machine, else built from its source)"
  if [ "$dry_run" = 1 ] || [ -n "$root" ]; then
    say "(where PyPI has no lgpio wheel for this Python: built from its source with swig, gcc, libc6-dev, python3-dev)"
  fi
  if ! run /opt/companion/venv/bin/python -m pip install -q --only-binary=lgpio 'lgpio>=0.2'; then
    say "no lgpio wheel for this Python on PyPI: building it from its source (swig, gcc, python3-dev from Debian)"
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends swig gcc libc6-dev python3-dev
    if ! run env PYPI=1 /opt/companion/venv/bin/python -m pip install -q --no-binary=lgpio 'lgpio>=0.2'; then
      gpio_said="none: lgpio could not be built (buttons, LEDs and the buzzer stay off; see above)"
      say "warning: GPIO: $gpio_said"
    fi
  fi
fi

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
put "$src/systemd/99-companion-gpio.rules" /etc/udev/rules.d/99-companion-gpio.rules 0644
if [ "$udev_up" = 1 ]; then
  run udevadm control --reload
  run udevadm trigger --subsystem-match=tty --subsystem-match=gpio
else
  say "skipped (no udev running): udevadm control --reload; udevadm trigger (the rules apply at boot)"
fi

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
  if [ "$systemd_up" = 1 ]; then
    run systemctl disable --now mosquitto.service
  else
    run systemctl disable mosquitto.service
  fi
fi

# -- the Pi ---------------------------------------------------------------------------------------------
if [ "$pi" = 1 ] && [ -x "$root/usr/bin/raspi-config" ]; then
  pi_settings
elif [ -x "$root/usr/bin/raspi-config" ]; then
  say "== Raspberry Pi OS, but not running on a Pi (an image build): the serial port and blanking are set at first boot"
  put "$src/systemd/companion-firstboot.service" /etc/systemd/system/companion-firstboot.service 0644
  put - /etc/companion/first-boot 0644 <<<"companion-firstboot.service runs systemd/install.sh --first-boot once, then removes this file"
  run systemctl enable companion-firstboot.service
  deferred+=("the Pi's serial port and blanking (companion-firstboot.service)")
else
  say "no raspi-config (plain Debian, or not a Pi): serial port and blanking left alone (docs/pi.md)"
fi
add_kernel_arg /boot/firmware/cmdline.txt consoleblank=0

# -- start ----------------------------------------------------------------------------------------------
say "== the service"
if [ "$systemd_up" = 1 ]; then
  run systemctl daemon-reload
else
  say "skipped (no running systemd): systemctl daemon-reload (systemd reads the units at boot)"
  deferred+=("starting companion.service (it is enabled)")
fi
run systemctl enable companion.service
if [ -z "$root" ] && [ "$dry_run" = 0 ] && [ "$systemd_up" = 1 ] && systemctl is-active --quiet companion.service; then
  run systemctl restart companion.service  # an upgrade: the new version now
elif [ "$systemd_up" = 1 ]; then
  say "start it now with: sudo systemctl start companion (or reboot: a desktop session holds the screen until then)"
fi
say "== done: the companion starts at every boot; logs: journalctl -u companion -f"
say "GPIO: $gpio_said"
if [ ${#deferred[@]} -gt 0 ]; then
  say "at first boot: $(IFS=';'; printf '%s' "${deferred[*]}" | sed 's/;/; /g')"
fi
