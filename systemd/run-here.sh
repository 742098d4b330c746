#!/usr/bin/env bash
# The run command: sets up the companion in ./.venv on a fresh Debian / Raspberry Pi OS machine and
# starts it with simulated hardware and embedded defaults. Arguments go to `companion run`.
# (The Pi's permanent install, with systemd units, is a separate installer.)
set -euo pipefail
cd "$(dirname "$0")/.."

# python3-venv, and the kiosk's fonts: Noto Sans, Noto Sans CJK (Simplified Chinese), Thai (TLWG).
debian_packages=(python3-venv fonts-noto-core fonts-noto-cjk fonts-thai-tlwg)
need=()
for pkg in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
command -v npm >/dev/null || need+=(nodejs npm)  # the phone page's MQTT client comes from npm
if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
log=$(mktemp)
if ! { .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e .; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "run-here.sh: installing the companion failed (output above)" >&2
  exit 1
fi
if ! (cd companion/phones/web && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
  cat "$log" >&2
  echo "run-here.sh: installing the phone page's MQTT client (npm ci in companion/phones/web) failed" >&2
  exit 1
fi
rm -f "$log"
exec .venv/bin/companion run "$@"
