#!/bin/sh
# make_bad_models.sh DIR
# Writes a small valid skinned, animated glTF model (one triangle bound to one joint, one clip) and
# broken variants of it into DIR, for the `myriad crowd bake` error tests. Each variant differs from
# the valid model in one respect, named by its file:
#   model.gltf + model.bin      the valid model (external buffer); model.glb the same as binary glTF
#   nan_position.gltf           vertex 1's x is NaN
#   joint_out_of_range.gltf     vertex 0 is bound to joint 7 of a one-joint skin
#   huge_weights.gltf           all four weights of every vertex are 3e38 (their sum overflows)
#   accessor_past_buffer.gltf   POSITION claims 40 vertices, its bufferView holds 3
#   absurd_count.gltf           POSITION claims 2^62 vertices (count * stride wraps around 64 bits)
#   absurd_joints.gltf          the skin lists 70,000 joints
#   missing_buffers.gltf        two buffers whose files do not exist (tinygltf reports one line each)
#   short_buffer.gltf           the buffer file holds 100 of the 180 bytes it declares
#   folder_buffer.gltf          the buffer's URI names a folder
#   two_errors.gltf             a camera without its description: tinygltf reports two lines
#   not_gltf.gltf               valid JSON that is no glTF (no "asset")
#   empty.gltf, empty.glb       no bytes
#   garbage.glb                 a line of text
#   wrong_magic.glb             model.glb with "glTG" as its magic
#   truncated.glb               the first 100 bytes of model.glb
#   flipped.glb                 model.glb with the first byte of its JSON chunk changed
#   folder.glb                  a directory
set -e
dir=$1
mkdir -p "$dir"
rm -rf "$dir/folder.glb"
mkdir "$dir/folder.glb"

# bytes HEX...: writes each two-digit hex byte.
bytes() {
  for b in "$@"; do
    # shellcheck disable=SC2059
    printf "\\$(printf '%03o' "0x$b")"
  done
}
# le32 N: N as four little-endian bytes.
le32() {
  bytes "$(printf '%02x' $(($1 & 255)))" "$(printf '%02x' $(($1 >> 8 & 255)))" \
    "$(printf '%02x' $(($1 >> 16 & 255)))" "$(printf '%02x' $(($1 >> 24 & 255)))"
}

zero="00 00 00 00"
one="00 00 80 3f"
nan="00 00 c0 7f"
big="e6 b1 61 7f"  # 3e38

# buffer X1 J0 W W2: the 180-byte buffer. X1: x of vertex 1 (float), J0: first joint of vertex 0 (byte),
# W: first weight of every vertex, W2: its other three weights (floats). Layout: POSITION 0, NORMAL 36, JOINTS_0 72, WEIGHTS_0 84,
# indices 132 (+2 padding), key times 140, key rotations 148.
buffer() {
  # shellcheck disable=SC2086
  {
    bytes $zero $zero $zero  $1 $zero $zero  $zero $one $zero          # positions (0,0,0) (x1,0,0) (0,1,0)
    bytes $zero $zero $one  $zero $zero $one  $zero $zero $one         # normals +z
    bytes "$2" 00 00 00  00 00 00 00  00 00 00 00                      # joints
    bytes $3 $4 $4 $4  $3 $4 $4 $4  $3 $4 $4 $4                        # weights
    bytes 00 00 01 00 02 00 00 00                                      # indices 0 1 2, padding
    bytes $zero $one                                                   # key times 0 s, 1 s
    bytes $zero $zero $zero $one  $zero $zero $zero $one               # identity rotations
  }
}

# gltf BUFFERS POSITION_COUNT JOINTS: the model's JSON. BUFFERS: the "buffers" array's entries.
gltf() {
  cat <<EOF
{"asset":{"version":"2.0"},
 "buffers":[$1],
 "bufferViews":[
  {"buffer":0,"byteOffset":0,"byteLength":36},
  {"buffer":0,"byteOffset":36,"byteLength":36},
  {"buffer":0,"byteOffset":72,"byteLength":12},
  {"buffer":0,"byteOffset":84,"byteLength":48},
  {"buffer":0,"byteOffset":132,"byteLength":6},
  {"buffer":0,"byteOffset":140,"byteLength":8},
  {"buffer":0,"byteOffset":148,"byteLength":32}],
 "accessors":[
  {"bufferView":0,"componentType":5126,"count":$2,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
  {"bufferView":1,"componentType":5126,"count":3,"type":"VEC3"},
  {"bufferView":2,"componentType":5121,"count":3,"type":"VEC4"},
  {"bufferView":3,"componentType":5126,"count":3,"type":"VEC4"},
  {"bufferView":4,"componentType":5123,"count":3,"type":"SCALAR"},
  {"bufferView":5,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
  {"bufferView":6,"componentType":5126,"count":2,"type":"VEC4"}],
 "meshes":[{"name":"triangle","primitives":[{"attributes":{"POSITION":0,"NORMAL":1,"JOINTS_0":2,"WEIGHTS_0":3},"indices":4}]}],
 "nodes":[{"name":"body","mesh":0,"skin":0},{"name":"root"}],
 "skins":[{"joints":[$3]}],
 "animations":[{"name":"idle","channels":[{"sampler":0,"target":{"node":1,"path":"rotation"}}],"samplers":[{"input":5,"output":6}]}],
 "scenes":[{"nodes":[0,1]}],
 "scene":0}
EOF
}

# variant NAME X1 J0 W W2 [POSITION_COUNT] [JOINTS]: NAME.gltf with its own NAME.bin.
variant() {
  buffer "$2" "$3" "$4" "$5" > "$dir/$1.bin"
  gltf "{\"uri\":\"$1.bin\",\"byteLength\":180}" "${6:-3}" "${7:-1}" > "$dir/$1.gltf"
}

variant model "$one" 00 "$one" "$zero"
variant nan_position "$nan" 00 "$one" "$zero"
variant joint_out_of_range "$one" 07 "$one" "$zero"
variant huge_weights "$one" 00 "$big" "$big"
variant accessor_past_buffer "$one" 00 "$one" "$zero" 40
variant absurd_count "$one" 00 "$one" "$zero" 4611686018427387904
variant absurd_joints "$one" 00 "$one" "$zero" 3 "$(seq -s, 1 70000)"
gltf '{"uri":"no_such_1.bin","byteLength":180},{"uri":"no_such_2.bin","byteLength":180}' 3 1 \
  > "$dir/missing_buffers.gltf"
head -c 100 "$dir/model.bin" > "$dir/short.bin"
gltf '{"uri":"short.bin","byteLength":180}' 3 1 > "$dir/short_buffer.gltf"
gltf '{"uri":"folder.glb","byteLength":180}' 3 1 > "$dir/folder_buffer.gltf"
gltf '{"uri":"model.bin","byteLength":180}' 3 1 | sed 's/^ "scene":0}$/ "scene":0, "cameras":[{"type":"perspective"}]}/' \
  > "$dir/two_errors.gltf"
grep -q cameras "$dir/two_errors.gltf" || { echo "two_errors.gltf has no camera" >&2; exit 1; }
printf '{"meshes": []}\n' > "$dir/not_gltf.gltf"
: > "$dir/empty.gltf"
: > "$dir/empty.glb"
printf 'this is not a binary glTF file\n' > "$dir/garbage.glb"

# model.glb: 12-byte header, the JSON chunk (padded with spaces to 4 bytes), the BIN chunk.
gltf '{"byteLength":180}' 3 1 > "$dir/model.json"
json_size=$(wc -c < "$dir/model.json")
pad=$(((4 - json_size % 4) % 4))
json_chunk=$((json_size + pad))
{
  printf 'glTF'
  le32 2
  le32 $((12 + 8 + json_chunk + 8 + 180))
  le32 $json_chunk
  printf 'JSON'
  cat "$dir/model.json"
  printf '%*s' "$pad" ''
  le32 180
  printf 'BIN'
  bytes 00
  cat "$dir/model.bin"
} > "$dir/model.glb"
rm "$dir/model.json"
{
  printf 'glTG'
  tail -c +5 "$dir/model.glb"
} > "$dir/wrong_magic.glb"
head -c 100 "$dir/model.glb" > "$dir/truncated.glb"
{
  head -c 20 "$dir/model.glb"
  printf 'z'  # was '{'
  tail -c +22 "$dir/model.glb"
} > "$dir/flipped.glb"
cmp -s "$dir/model.glb" "$dir/flipped.glb" && { echo "flipped copy equals the original" >&2; exit 1; }
exit 0
