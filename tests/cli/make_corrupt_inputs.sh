#!/bin/sh
# make_corrupt_inputs.sh DIR GOOD_FILE
# Writes broken copies of a good binary file (a .crowd or .mveg) into DIR for the CLI error tests:
# garbage.EXT (text), empty.EXT, truncated.EXT (the first 60 bytes), flipped.EXT (the last payload
# byte changed: the header stays valid, the checksum does not), folder.EXT (a directory), magic.EXT
# (the first byte of the magic changed) and count.EXT (an absurd size in the header: a .crowd's payload
# size, a .mveg's prefab count, all bits set).
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
{
  printf 'X'
  tail -c +2 "$good"
} > "$dir/magic.$ext"
case $ext in
  crowd) offset=8 count=8 ;;  # uint64 payload_bytes
  *) offset=20 count=4 ;;     # uint32 prefab_count
esac
cp "$good" "$dir/count.$ext"
head -c "$count" /dev/zero | tr '\000' '\377' | dd of="$dir/count.$ext" bs=1 seek="$offset" conv=notrunc 2>/dev/null
exit 0
