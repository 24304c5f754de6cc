// Expansion of pooled plants. Every step is an exact table lookup, a single float multiply or add, or
// integer arithmetic, in the order veg_expand.glsl uses (the project builds with -ffp-contract=off).
#include "myriad/vegetation/plant_expand.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "myriad/core/packing.hpp"
#include "myriad/vegetation/plant_hash.h"

namespace myriad::vegetation {

float lod_hash(TileKey tile, std::uint32_t group, std::uint32_t index) {
  return shared::plant_lod_hash(tile.x, tile.z, group, index);
}

std::span<const float> decode_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(3 * std::size_t(kDecodeSteps));
    for (std::uint32_t q = 0; q < kDecodeSteps; ++q) {
      // The expressions of decode_position and decode_instance.
      t[q] = float(q) / 65535.0f;
      const float yaw = float(q) * (2.0f * std::numbers::pi_v<float> / 65536.0f);
      t[kDecodeSteps + q] = std::cos(yaw);
      t[2 * kDecodeSteps + q] = std::sin(yaw);
    }
    return t;
  }();
  return table;
}

PlantSphereShape plant_sphere_shape(const Aabb& prefab_bounds) {
  const CullShape s = cull_shape(prefab_bounds);
  // instance_sphere's terms at scale 1.
  const Sphere unit = instance_sphere(glm::vec3(0.0f), 1.0f, s);
  return {unit.center.y, unit.radius};
}

PlantRecord to_plant_record(const InstanceRecord& r) {
  PlantRecord p{};
  static_assert(sizeof(InstanceRecord) <= sizeof(PlantRecord));
  std::memcpy(&p, &r, sizeof(InstanceRecord));  // little-endian words, as the layout says
  return p;
}

PlantPage make_plant_page(const Tile& tile, std::uint32_t group, std::uint32_t group_first,
                          std::uint32_t count, glm::dvec3 render_origin) {
  const Group& g = tile.groups[group];
  PlantPage p{};
  p.offset = glm::vec3(tile.origin() - render_origin);
  p.tile_x = tile.x;
  p.tile_z = tile.z;
  p.pos_min = g.pos_min;
  p.pos_extent = g.pos_extent;
  p.group = group;
  p.group_first = group_first;
  p.count = count;
  return p;
}

ExpandedPlant expand_plant(const PlantRecord& r, const PlantPage& page, std::uint32_t slot,
                           const PlantSphereShape& shape) {
  const std::span<const float> table = decode_table();
  const std::uint32_t qx = r.pos_xy & 0xffffu, qy = r.pos_xy >> 16, qz = r.pos_z_yaw & 0xffffu;
  const std::uint32_t yaw = r.pos_z_yaw >> 16;
  const glm::vec3 local(page.pos_min.x + page.pos_extent.x * table[qx],
                        page.pos_min.y + page.pos_extent.y * table[qy],
                        page.pos_min.z + page.pos_extent.z * table[qz]);
  const float scale = unpack_half(static_cast<std::uint16_t>(r.scale_tint & 0xffffu));
  const float c = table[kDecodeSteps + yaw] * scale, s = table[2 * kDecodeSteps + yaw] * scale;
  const glm::vec3 t(page.offset.x + local.x, page.offset.y + local.y, page.offset.z + local.z);
  const float radius = scale * shape.radius;
  const std::uint32_t tint = (r.scale_tint >> 16) | (r.tint_b & 0xffu) << 16;
  ExpandedPlant e;
  e.instance.row0 = {c, 0.0f, s, t.x};
  e.instance.row1 = {0.0f, scale, 0.0f, t.y};
  e.instance.row2 = {-s, 0.0f, c, t.z};
  e.instance.spare = {std::bit_cast<float>(tint),
                      lod_hash({page.tile_x, page.tile_z}, page.group, page.group_first + slot), radius,
                      1.0f};
  const float cy = local.y + scale * shape.mid;
  e.sphere = {{page.offset.x + local.x, page.offset.y + cy, page.offset.z + local.z}, radius};
  return e;
}

}  // namespace myriad::vegetation
