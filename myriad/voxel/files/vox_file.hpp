// MagicaVoxel `.vox` files (the common voxel-art format), read into plain data: the models (SIZE + XYZI
// chunk pairs, several per file), the 256-colour palette (RGBA chunk, or MagicaVoxel's default palette
// when a file has none), emissive palette entries (MATL chunks with `_type _emit`) and where each model
// stands (the scene graph of nTRN / nGRP / nSHP nodes: translations and axis rotations accumulated from
// the root; without a scene graph, models stand side by side). Unknown chunks are skipped.
//
// Coordinates stay MagicaVoxel's: z up, right-handed. vox_place.hpp turns them into world voxels.
// The parser checks every size, count and index against the file and the format's limits; an error is
// one myriad::Error naming the file, the chunk and field, and the byte offset.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "myriad/core/math/math.hpp"

namespace myriad::voxel {

inline constexpr int kVoxMaxModelEdge = 256;  // MagicaVoxel's largest model: 256^3

struct VoxVoxel {
  std::uint8_t x, y, z;
  std::uint8_t color;  // palette index 1..255
};

struct VoxModel {
  glm::ivec3 size{0};  // x, y, z (z up), each 1..256
  std::vector<VoxVoxel> voxels;
};

// One placed model: voxel v of `model` lands at rotation * (v - size / 2) + translation (integer
// division, as MagicaVoxel centres models), in the file's coordinates.
struct VoxInstance {
  std::uint32_t model = 0;
  // Rows of a signed permutation matrix (MagicaVoxel's _r): world.i = dot(rotation[i], v).
  std::array<glm::ivec3, 3> rotation{glm::ivec3(1, 0, 0), glm::ivec3(0, 1, 0), glm::ivec3(0, 0, 1)};
  glm::ivec3 translation{0};
  std::string name;  // the transform node's _name, if any
};

// rows · v for a VoxInstance::rotation (integer arithmetic).
inline glm::ivec3 vox_rotate(const std::array<glm::ivec3, 3>& rows, glm::ivec3 v) {
  glm::ivec3 out;
  for (std::size_t i = 0; i < 3; ++i) out[int(i)] = rows[i].x * v.x + rows[i].y * v.y + rows[i].z * v.z;
  return out;
}

struct VoxScene {
  std::uint32_t version = 0;
  std::vector<VoxModel> models;
  std::vector<VoxInstance> instances;
  std::array<glm::u8vec4, 256> palette{};  // RGBA by palette index; index 0 is unused (air)
  std::array<bool, 256> emissive{};        // MATL `_type` `_emit`
  bool default_palette = false;            // the file had no RGBA chunk
};

// MagicaVoxel's built-in palette (used when a file has no RGBA chunk), indexed like VoxScene::palette.
const std::array<glm::u8vec4, 256>& vox_default_palette();

// `source` names the data in errors (a file name).
VoxScene parse_vox(std::span<const std::byte> bytes, const std::string& source);
VoxScene read_vox(const std::filesystem::path& path);

// The file bytes of a scene (tests and tools write their own models): VOX 200 with SIZE/XYZI per
// model, nTRN/nGRP/nSHP nodes for the instances and an RGBA chunk (always; emissive entries as MATL).
std::vector<std::byte> serialize_vox(const VoxScene& scene);

}  // namespace myriad::voxel
