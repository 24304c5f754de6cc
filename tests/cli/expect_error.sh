#!/bin/sh
# expect_error.sh PATTERN COMMAND [ARG...]
# Runs COMMAND and passes only when it exits with 1 or 2 (an error it reported) and its output matches
# the extended regular expression PATTERN. A crash (signal: exit status 128 and above), success or an
# unexpected message fails, so a killed process can never count as the expected error.
pattern=$1
shift
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
case $status in
  1|2) ;;
  *)
    echo "expect_error: exit status $status, expected 1 or 2 (>= 128 is a crash)" >&2
    exit 1
    ;;
esac
if ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
  echo "expect_error: no line matches '$pattern'" >&2
  exit 1
fi
exit 0
