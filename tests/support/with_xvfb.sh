#!/usr/bin/env bash
# with_xvfb.sh COMMAND [ARG...]: runs COMMAND with DISPLAY set to a private Xvfb server of its own.
#
# Why not `xvfb-run -a`: it guesses a free display number before starting the server (two tests
# starting together can guess the same one), it only sleeps and hopes the server is up, and its
# server resets whenever the last client disconnects. A test process that opens and closes GLFW once
# per case is that last client each time, and the next case's connection can land in the middle of
# the reset (slow on a loaded machine, when the keymap is compiled afresh): "Failed to open display".
#
# Here the server picks its own free display (-displayfd) and writes the number only once it accepts
# connections, so there is nothing to guess and nothing to sleep on; -noreset keeps it up for the
# whole process. The server is stopped when COMMAND ends, whatever its exit; the exit status is
# COMMAND's (or 125 when no server could be started).
set -u

if [ $# -eq 0 ]; then
  echo "usage: with_xvfb.sh COMMAND [ARG...]" >&2
  exit 125
fi
xvfb=$(command -v Xvfb) || { echo "with_xvfb.sh: Xvfb not found (apt-get install xvfb)" >&2; exit 125; }

work=$(mktemp -d "${TMPDIR:-/tmp}/myriad-xvfb.XXXXXX") || exit 125
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The display number arrives on a pipe: reading it blocks until the server is ready (or has died).
mkfifo "$work/display" || exit 125
"$xvfb" -displayfd 3 -noreset -nolisten tcp -screen 0 "${MYRIAD_XVFB_SCREEN:-1280x1024x24}" \
  3>"$work/display" >"$work/server.log" 2>&1 &
server=$!

display=""
if ! read -r -t "${MYRIAD_XVFB_START_TIMEOUT:-120}" display <"$work/display" || [ -z "$display" ]; then
  echo "with_xvfb.sh: Xvfb did not become ready; its log:" >&2
  cat "$work/server.log" >&2
  exit 125
fi

DISPLAY=":$display" "$@"
status=$?
exit $status
