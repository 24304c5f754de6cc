// Vegetation tile files (".mveg"): one file per square tile of the world. Per plant type a group with
// its AABB, an offline quadtree (node AABBs, child and instance ranges) and the instances in tree order,
// 14 bytes each (quantized tile-local position, yaw, half-float scale, RGB tint). The byte layout is
// documented in docs/FORMATS.md; parse_tile() validates all of it before anything is used.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "myriad/core/cull/bounds.hpp"

namespace myriad::vegetation {

inline constexpr std::uint32_t kTileMagic = 0x4745564du;  // "MVEG" in file order
inline constexpr std::uint32_t kTileVersion = 1;
inline constexpr std::uint32_t kMaxLods = 8;
inline constexpr std::uint32_t kMaxChildren = 4;

// One plant on disk. Position: unorm16 per axis inside the group's position box; yaw: value / 65536
// turns; scale: IEEE half; tint: sRGB bytes; `reserved` must be 0 (room for a future flag).
struct InstanceRecord {
  std::uint16_t pos[3];
  std::uint16_t yaw;
  std::uint16_t scale;
  std::uint8_t tint[3];
  std::uint8_t reserved;
};
static_assert(sizeof(InstanceRecord) == 14);

// A level of detail of a plant type: used while the camera distance is below `switch_distance`
// (the last level's distance is the draw distance). The last level is the billboard.
struct LodLevel {
  std::uint32_t mesh_id = 0;
  std::uint32_t material_id = 0;
  float switch_distance = 0.0f;
};
static_assert(sizeof(LodLevel) == 12);

// A plant type ("prefab"): its LOD list and the bounds of every LOD at scale 1, yaw 0.
struct Prefab {
  std::uint32_t type_id = 0;
  Aabb bounds;
  std::vector<LodLevel> lods;
};

// Offline quadtree node. Children are stored breadth-first: node i's children are the nodes
// [first_child, first_child + child_count). Every node's instances are the contiguous range
// [first_instance, first_instance + instance_count) (its subtree's instances, in tree order), so
// a node wholly inside the frustum accepts its whole range. child_count == 0 marks a leaf.
struct QuadNode {
  Aabb bounds;
  std::uint32_t first_child = 0;
  std::uint32_t child_count = 0;
  std::uint32_t first_instance = 0;
  std::uint32_t instance_count = 0;
};
static_assert(sizeof(QuadNode) == 40);

// All instances of one prefab in a tile. Positions are tile-local (relative to the tile origin
// (x * size, 0, z * size)); pos_min/pos_extent is the quantization box.
struct Group {
  std::uint32_t prefab = 0;  // index into Tile::prefabs
  Aabb bounds;               // of all instance bounds (== nodes[0].bounds)
  glm::vec3 pos_min{0.0f};
  glm::vec3 pos_extent{0.0f};
  std::vector<QuadNode> nodes;
  std::vector<InstanceRecord> instances;
};

struct Tile {
  std::int32_t x = 0;
  std::int32_t z = 0;
  float size = 200.0f;
  std::vector<Prefab> prefabs;
  std::vector<Group> groups;

  glm::dvec3 origin() const { return {double(x) * double(size), 0.0, double(z) * double(size)}; }
  std::size_t instance_count() const;
};

// A decoded instance (tile-local position, yaw in radians).
struct PlantInstance {
  glm::vec3 position{0.0f};
  float yaw = 0.0f;
  float scale = 1.0f;
  std::uint8_t tint[3] = {255, 255, 255};
};

// What culling needs of a prefab's bounds, independent of yaw: the radius of the bounds around the
// Y axis and their vertical extent. Instance AABB = position + scale * ([-r, y0, -r], [r, y1, r]).
struct CullShape {
  float radius_xz = 0.0f;
  float y_min = 0.0f;
  float y_max = 0.0f;
};
CullShape cull_shape(const Aabb& prefab_bounds);

// The one definition of an instance's position and bounds, shared by baker, reader and culling
// (quadtree node bounds are unions of exactly these boxes, so containment tests are exact).
glm::vec3 decode_position(const Group& group, const InstanceRecord& r);
PlantInstance decode_instance(const Group& group, const InstanceRecord& r);
Aabb instance_bounds(glm::vec3 position, float scale, const CullShape& shape);
Sphere instance_sphere(glm::vec3 position, float scale, const CullShape& shape);

// Quantization of a position into the box (round to nearest, clamped); error <= extent / 131070
// per axis plus float rounding.
InstanceRecord encode_instance(const PlantInstance& p, glm::vec3 pos_min, glm::vec3 pos_extent);

std::vector<std::byte> serialize_tile(const Tile& tile);
// Throws myriad::Error naming `source`, the byte offset and the field for any truncated, corrupted,
// wrong-version or inconsistent content.
Tile parse_tile(std::span<const std::byte> bytes, const std::string& source);

void write_tile(const std::filesystem::path& path, const Tile& tile);
Tile read_tile(const std::filesystem::path& path);

// "tile_<x>_<z>.mveg"; parse_tile_file_name returns false for other names.
std::string tile_file_name(std::int32_t x, std::int32_t z);
bool parse_tile_file_name(const std::string& name, std::int32_t& x, std::int32_t& z);

}  // namespace myriad::vegetation
