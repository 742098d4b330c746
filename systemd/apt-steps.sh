# shellcheck shell=bash
# Debian packages for the README's two commands (sourced by systemd/run-here.sh and tests/run.sh):
# apt's output (and pip's and npm's, `logged_step`) goes to a log in the companion's state directory (thousands of dpkg lines on a fresh
# machine), the console gets one line per step and, on a failure, apt's last lines and the log's path.
# While another package manager holds dpkg's lock (another apt, unattended-upgrades on a Pi's first
# boot), a step says so once and waits for it, up to COMPANION_APT_WAIT seconds (default 600).
#
# The sourcing script sets apt_who (its name, for messages) first.

apt_who=${apt_who:-companion}

apt_log=${XDG_STATE_HOME:-${HOME:-/root}/.local/state}/companion/install.log
apt_wait=${COMPANION_APT_WAIT:-600}

apt_wait_said() {  # the wait in words: "10 min", or seconds below 2 minutes
  if [ "$apt_wait" -ge 120 ]; then echo "$((apt_wait / 60)) min"; else echo "$apt_wait s"; fi
}

apt_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_get() {  # apt-get, as root, waiting for dpkg's lock as long as a step does (apt's own option)
  apt_as_root env DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$apt_wait" "$@"
}

apt_lock_holder() {  # when another package manager holds dpkg's lock: apt's words naming it
  local out
  # `apt-get install` with no package takes dpkg's lock and changes nothing: a probe that fails at once.
  out=$(apt_as_root apt-get -o DPkg::Lock::Timeout=0 install -qq 2>&1) && return 1
  grep -q "lock" <<<"$out" || return 1  # not the lock: the step itself says what is wrong
  grep -m 1 -o "held by process.*" <<<"$out" || echo "held by another process"
}

apt_wait_for_lock() {  # says once that dpkg is busy, then waits until it is free (or apt_wait passed)
  local holder waited=0
  holder=$(apt_lock_holder) || return 0
  echo "$apt_who: another package manager is installing (apt, or unattended-upgrades on a Pi's first" \
       "boot; dpkg's lock is $holder): waiting for it to finish, up to $(apt_wait_said)"
  while [ "$waited" -lt "$apt_wait" ] && apt_lock_holder >/dev/null; do
    sleep 2
    waited=$((waited + 2))
    if [ $((waited % 60)) -eq 0 ]; then echo "$apt_who: still waiting for dpkg's lock ($((waited / 60)) min)"; fi
  done
}

apt_log_folder() {  # the companion's state directory, private as the companion makes it (0700)
  (umask 077 && mkdir -p "$(dirname "$apt_log")")
}

logged_step() {  # logged_step "what the step does" command...: one line, the command's output to the log
  apt_log_folder
  echo "$apt_who: $1"
  printf '\n== %s %s: %s\n' "$(date -u '+%F %T')" "$apt_who" "${*:2}" >>"$apt_log"
  if "${@:2}" </dev/null >>"$apt_log" 2>&1; then
    return 0
  fi
  echo "$apt_who: $1 failed; the last lines (all of it is in $apt_log):" >&2
  tail -n 20 "$apt_log" | sed 's/^/    /' >&2
  return 1
}

apt_step() {  # apt_step "what the step does" apt-get arguments...: one line, the output to the log
  local what=$1
  shift
  apt_log_folder
  if [ -z "${apt_log_said:-}" ]; then
    echo "$apt_who: $what (apt's output goes to $apt_log)"
    apt_log_said=1
  else
    echo "$apt_who: $what"
  fi
  apt_wait_for_lock
  printf '\n== %s %s: apt-get %s\n' "$(date -u '+%F %T')" "$apt_who" "$*" >>"$apt_log"
  if apt_get "$@" </dev/null >>"$apt_log" 2>&1; then
    return 0
  fi
  echo "$apt_who: $what failed; apt's last lines (all of it is in $apt_log):" >&2
  tail -n 12 "$apt_log" | sed 's/^/    /' >&2
  if tail -n 12 "$apt_log" | grep -q "lock"; then
    echo "$apt_who: another package manager still held dpkg's lock after $(apt_wait_said): wait for" \
         "it to finish, then start again (COMPANION_APT_WAIT=seconds waits longer)" >&2
  fi
  return 1
}
