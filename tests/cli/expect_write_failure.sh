#!/bin/sh
# expect_write_failure.sh MODE DIR PATTERN COMMAND [ARG...]
# Runs COMMAND where its output files cannot be written and checks that it fails cleanly:
#   disk-full  DIR is emptied first and COMMAND runs with a file-size limit of one 512-byte block
#              (`ulimit -f 1`), so every write past it fails as on a full disk (EFBIG);
#   read-only  DIR is a folder in which no file can be created (made read-only; as root, whom
#              permissions do not stop, /sys is used instead).
# Every "@DIR@" in the arguments is replaced by that folder. Passes only when COMMAND exits with 1 or
# 2 (an error it reported, not a crash), prints a line matching the extended regular expression
# PATTERN, and the folder holds afterwards exactly what it held before: no partial file and no
# temporary file is left behind.
mode=$1
dir=$2
pattern=$3
shift 3
case $mode in
  disk-full)
    rm -rf "$dir"
    mkdir -p "$dir"
    ;;
  read-only)
    mkdir -p "$dir"
    chmod 755 "$dir"
    rm -rf "$dir"
    mkdir -p "$dir"
    chmod 555 "$dir"
    if touch "$dir/probe" 2>/dev/null; then
      rm -f "$dir/probe"
      dir=/sys
    fi
    ;;
  *)
    echo "expect_write_failure: unknown mode '$mode'" >&2
    exit 1
    ;;
esac
for arg do
  shift
  case $arg in
    *@DIR@*) arg=$(printf '%s\n' "$arg" | sed "s|@DIR@|$dir|g") ;;
  esac
  set -- "$@" "$arg"
done
before=$(ls -A "$dir")
if [ "$mode" = disk-full ]; then
  output=$(ulimit -f 1 && "$@" 2>&1)
else
  output=$("$@" 2>&1)
fi
status=$?
after=$(ls -A "$dir")
[ "$dir" != /sys ] && chmod 755 "$dir"
printf '%s\n' "$output"
case $status in
  1|2) ;;
  *)
    echo "expect_write_failure: exit status $status, expected 1 or 2 (>= 128 is a crash)" >&2
    exit 1
    ;;
esac
if ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
  echo "expect_write_failure: no line matches '$pattern'" >&2
  exit 1
fi
if [ "$before" != "$after" ]; then
  echo "expect_write_failure: $dir changed; before: [$before] after: [$after]" >&2
  exit 1
fi
exit 0
