#!/bin/sh
# make_corrupt_inputs.sh DIR GOOD_FILE
# Writes broken copies of a good binary file (a .crowd or .mveg) into DIR for the CLI error tests:
# garbage.EXT (text), empty.EXT, truncated.EXT (the first 60 bytes), flipped.EXT (the last payload
# byte changed: the header stays valid, the checksum does not) and folder.EXT (a directory).
set -e
dir=$1
good=$2
ext=${good##*.}
mkdir -p "$dir" "$dir/folder.$ext"
printf 'this is not a binary file\n' > "$dir/garbage.$ext"
: > "$dir/empty.$ext"
head -c 60 "$good" > "$dir/truncated.$ext"
size=$(wc -c < "$good")
head -c $((size - 1)) "$good" > "$dir/flipped.$ext"
last=$(tail -c 1 "$good" | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(((last + 1) % 256)))" >> "$dir/flipped.$ext"
cmp -s "$good" "$dir/flipped.$ext" && { echo "flipped copy equals the original" >&2; exit 1; }
exit 0
