#!/usr/bin/env bash
# The run command (README): sets up the companion in ./.venv on a Debian / Raspberry Pi OS machine once,
# then starts a table with simulated hardware. Every argument but --reinstall goes to `companion run`.
# Installing again happens only when a file that decides what is installed changes (see `inputs`), so
# a later start needs no network and takes about as long as `companion run` itself.
# (The Pi's permanent install, with systemd units, is a separate installer: systemd/install.sh.)
set -euo pipefail
cd "$(dirname "$0")/.."

# python3-venv; the kiosk's fonts: Noto Sans, Noto Sans CJK (Simplified Chinese), Thai (TLWG); ICU's
# library (by icu-devtools, the same name in every release) for Thai line breaks between words.
debian_packages=(python3-venv fonts-noto-core fonts-noto-cjk fonts-thai-tlwg icu-devtools)
# Mosquitto, the phones' broker (mqtt.broker = "auto"); without it the table runs without phones and says
# how to install it.
broker_package=mosquitto
stamp=.venv/.run-here-installed  # what was installed: the hash of `inputs`

usage() {
  cat <<'EOF'
bash systemd/run-here.sh [--reinstall] [companion run options]

Sets up the companion in ./.venv, then starts `companion run` with simulated hardware. The first start
installs what is missing: Debian's python3-venv, the kiosk's fonts, ICU, Node's npm and Mosquitto
(from apt: as root, or with sudo), the companion and its Python packages (pip, into ./.venv) and the
phone page's MQTT client (npm ci). Later starts install nothing and need no network: they install
again only when pyproject.toml, the phone page's package.json or package-lock.json, or this script's
package list changed, or when ./.venv or the phone client is gone. Only the Debian packages need root
(or sudo); when they are all there, run-here needs neither. It prints one line per step; apt's, pip's
and npm's output goes to ~/.local/state/companion/install.log. While another apt or unattended-upgrades
holds dpkg's lock, it says so and waits up to 10 minutes (COMPANION_APT_WAIT=seconds).

  --reinstall   install again now, whatever changed
  -h, --help    this help, then `companion run --help`

Mosquitto: when run-here installs it, it also stops and disables Debian's own mosquitto.service,
which would hold port 1883, the port of the broker the companion runs itself (mqtt.port). A Mosquitto
installed before is left alone (see docs/config.md). Where Mosquitto cannot be installed, the table
runs without phones and says how to install it.

Every other argument goes to `companion run`:
  --config FILE       an extra config file
  --db FILE           the game log (SQLite file)
  --game TEXT         the game for a new session (`companion games` lists them)
  --players TEXT      comma-separated player ids for a new session, e.g. ana,ben,chai
  --new               start a new game even if one is unfinished
  --moderator         the host moderates the new game and does not play (sees the deal, votes, counters)
  --option KEY=VALUE  an option of the new game, e.g. --option items=physical (repeatable)
  --lang [en|zh|th]   the language of what the table is told
  --jsonl             machine mode: one JSON reply per input line
  --no-display        keep to the console even when a screen is available

EOF
}

help=false reinstall=false args=()
for arg in "$@"; do
  case "$arg" in
    -h|--help) help=true ;;
    --reinstall) reinstall=true ;;
    *) args+=("$arg") ;;
  esac
done

if $help; then
  usage
  if [ -x .venv/bin/companion ]; then
    exec .venv/bin/companion run --help
  fi
  echo "(companion run --help says more once run-here has installed the companion: start it once.)"
  exit 0
fi

inputs() {  # everything that decides what gets installed
  printf '%s\n' "${debian_packages[@]}" "$broker_package"
  cat pyproject.toml companion/phones/web/package.json companion/phones/web/package-lock.json
}

installed() {
  [ -x .venv/bin/companion ] && [ -f companion/phones/web/node_modules/mqtt/dist/mqtt.min.js ] \
    && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(inputs | sha256sum | cut -d' ' -f1)" ]
}

apt_who=run-here.sh
# shellcheck source=systemd/apt-steps.sh
. systemd/apt-steps.sh  # apt's output to a log, one line per step; waits while dpkg is busy

can_be_root() {  # root, or sudo to become it: Debian packages are installed as root
  [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null
}

booted_with_systemd() {  # sd_booted(): not in a container or WSL without systemd, where systemctl cannot act
  command -v systemd-notify >/dev/null && systemd-notify --booted 2>/dev/null
}

missing() {
  ! dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

install_debian_packages() {
  local need=() pkg
  for pkg in "${debian_packages[@]}"; do
    if missing "$pkg"; then need+=("$pkg"); fi
  done
  command -v npm >/dev/null || need+=(nodejs npm)  # the phone page's MQTT client comes from npm
  local broker=false asked=("${need[@]}")
  if missing "$broker_package"; then broker=true asked+=("$broker_package"); fi
  if [ ${#asked[@]} -gt 0 ]; then
    if ! can_be_root; then
      echo "run-here.sh: these Debian packages are missing: ${asked[*]}" >&2
      echo "run-here.sh: installing them needs root: run run-here.sh as root, or install sudo, or install" \
           "them yourself (apt-get install ${asked[*]}), then start run-here.sh again" >&2
      exit 1
    fi
    apt_step "updating Debian's package lists" update -qq \
      || echo "run-here.sh: trying the packages already known" >&2
  fi
  if [ ${#need[@]} -gt 0 ]; then
    apt_step "installing Debian packages (as root): ${need[*]}" install -y -q --no-install-recommends "${need[@]}" \
      || { echo "run-here.sh: the Debian packages could not be installed (above)" >&2; exit 1; }
  fi
  if $broker; then
    if apt_step "installing Mosquitto, the phones' broker" install -y -q --no-install-recommends "$broker_package"
    then
      # The package starts Debian's own broker on port 1883; nobody uses it yet, and the companion runs
      # its own Mosquitto on that port (mqtt.port): stop it, now and at boot.
      # Without systemd (a container, WSL) no service started and systemctl cannot stop one.
      if booted_with_systemd && command -v systemctl >/dev/null \
          && { systemctl is-active --quiet mosquitto.service 2>/dev/null \
               || systemctl is-enabled --quiet mosquitto.service 2>/dev/null; }; then
        apt_as_root systemctl disable --now mosquitto.service
        echo "run-here.sh: stopped and disabled Debian's mosquitto.service (port 1883 is for the companion's" \
             "own Mosquitto); \`sudo systemctl enable --now mosquitto\` brings it back"
      fi
    else
      echo "run-here.sh: Mosquitto could not be installed: the table runs without phones" \
           "(run-here.sh --reinstall tries again)"
    fi
  fi
}

pip_install() {
  .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e .
}

npm_install() {
  (cd companion/phones/web && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
}

install_here() {
  install_debian_packages
  [ -x .venv/bin/python ] || python3 -m venv .venv
  logged_step "installing the companion and its Python packages into ./.venv (pip)" pip_install || exit 1
  logged_step "installing the phone page's MQTT client (npm ci in companion/phones/web)" npm_install || exit 1
  inputs | sha256sum | cut -d' ' -f1 >"$stamp.tmp"
  mv "$stamp.tmp" "$stamp"
}

if $reinstall || ! installed; then
  install_here
fi

# A Mosquitto service that run-here did not install is the host's: left running, but it may hold the
# port the companion's own broker needs.
if booted_with_systemd && command -v systemctl >/dev/null && systemctl is-active --quiet mosquitto.service 2>/dev/null
then
  echo "run-here.sh: Debian's mosquitto.service is running and may hold port 1883, where the companion starts" \
       "its own Mosquitto (mqtt.port). If the phones say the broker did not start, stop it" \
       "(sudo systemctl disable --now mosquitto) or give the companion other ports (docs/config.md)." >&2
fi
exec .venv/bin/companion run ${args[@]+"${args[@]}"}
