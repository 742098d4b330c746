#!/usr/bin/env bash
# The test command: installs everything the tests need on a fresh Debian / Raspberry Pi OS machine
# (Debian packages, a virtual environment with the project and its test tools), then runs the linters,
# the type checker and every test. Arguments go to pytest (e.g. `bash tests/run.sh -k toolkit`).
# `--quick` (first argument) leaves out the tests marked slow and runs the rest on three pytest-xdist workers
# (they mostly wait on brokers and subprocesses): minutes instead of the full run's 25 (tests/README.md,
# "The quick tier", has the rule and the figures). `--quick -n 0` runs them in one process.
# Debian packages are installed as root (or with sudo); one line per step, apt's, pip's and npm's output
# in ~/.local/state/companion/install.log (systemd/apt-steps.sh). pip and npm install again only when
# pyproject.toml or the npm lock files changed (a stamp in .venv), so a second run needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_who=tests/run.sh
# shellcheck source=systemd/apt-steps.sh
. systemd/apt-steps.sh  # apt's, pip's and npm's output to a log, one line per step; waits while dpkg is busy

quick=()
if [ "${1:-}" = --quick ]; then
  shift
  quick=(-m "not slow" -n 3)
fi

# Debian packages the tests need. A missing one is installed, never skipped.
# The kiosk's fonts (Latin, Simplified Chinese, Thai with whole tone marks) and Xvfb for its window test;
# Mosquitto for the phone tests' managed broker; Chromium for the phone page's browser tests;
# systemd (systemd-analyze verify) and shellcheck for the Pi's unit and installer scripts.
# icu-devtools brings Debian's ICU library (libicuuc), whose dictionary breaks Thai lines between words on the kiosk.
# libatomic1 for Playwright's own Node (a machine with gcc has it by accident); iproute2 for `ss` and `ip`
# (tests/setup/test_run_here.py).
debian_packages=(python3-venv fonts-noto-core fonts-noto-cjk fonts-thai-tlwg icu-devtools xvfb mosquitto chromium
                 systemd shellcheck libatomic1 iproute2)
# Node runs MicroPython (its WebAssembly port) for the board codec/firmware tests, and npm installs the
# phone page's MQTT client. Asked for by command, not package: a NodeSource nodejs already brings npm.
command -v node >/dev/null || debian_packages+=(nodejs)

need=()
# npm comes with NodeSource's nodejs; on Debian's own nodejs it is a package of its own.
command -v npm >/dev/null || need+=(npm)
for pkg in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "tests/run.sh: these Debian packages are needed: ${need[*]}" >&2
    exit 1
  fi
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "tests/run.sh: these Debian packages are needed: ${need[*]}" >&2
    echo "tests/run.sh: installing them needs root: run it as root, or install sudo, or install them yourself" >&2
    exit 1
  fi
  apt_step "updating Debian's package lists" update -qq || echo "tests/run.sh: trying the packages already known" >&2
  apt_step "installing Debian packages (as root): ${need[*]}" install -y -q --no-install-recommends "${need[@]}" \
    || exit 1
fi

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
npm_ci_in() {  # npm_ci_in FOLDER npm-options...
  (cd "$1" && shift && npm ci "$@")
}
# pip and npm again only when what they install changed (or what they installed is gone).
stamp=.venv/.tests-installed
inputs() {
  cat pyproject.toml firmware_protocol/micropython_check/package-lock.json companion/phones/web/package-lock.json
}
wanted=$(inputs | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ] || [ ! -x .venv/bin/pytest ] \
    || [ ! -d firmware_protocol/micropython_check/node_modules ] \
    || [ ! -f companion/phones/web/node_modules/mqtt/dist/mqtt.min.js ]; then
  logged_step "installing the companion and the test tools into ./.venv (pip)" \
    sh -c ".venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e '.[test]'" \
    || exit 1
  # MicroPython's WebAssembly port (pinned in package-lock.json), to run the board codec and firmware under it.
  logged_step "installing MicroPython's WebAssembly port (npm ci in firmware_protocol/micropython_check)" \
    npm_ci_in firmware_protocol/micropython_check --no-audit --no-fund --loglevel=error || exit 1
  # The phone page's MQTT client, pinned in companion/phones/web/package-lock.json.
  logged_step "installing the phone page's MQTT client (npm ci in companion/phones/web)" \
    npm_ci_in companion/phones/web --ignore-scripts --no-audit --no-fund --loglevel=error || exit 1
  echo "$wanted" >"$stamp"
fi

echo "== ruff"
.venv/bin/ruff check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
exec .venv/bin/python -m pytest ${quick[@]+"${quick[@]}"} "$@"
