// Expansion of pooled plants. Every step is an exact table lookup, a single float multiply or add, or
// integer arithmetic, in the order veg_expand.glsl uses (the project builds with -ffp-contract=off).
#include "myriad/vegetation/runtime/plant_expand.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "myriad/core/layout/packing.hpp"
#include "myriad/vegetation/runtime/plant_hash.h"

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

namespace {

struct Decoded {
  glm::vec3 local;
  float scale;
  std::uint32_t yaw;
};

Decoded decode(const PlantRecord& r, const PlantPage& page) {
  const std::span<const float> table = decode_table();
  const std::uint32_t qx = r.pos_xy & 0xffffu, qy = r.pos_xy >> 16, qz = r.pos_z_yaw & 0xffffu;
  return {glm::vec3(page.pos_min.x + page.pos_extent.x * table[qx],
                    page.pos_min.y + page.pos_extent.y * table[qy],
                    page.pos_min.z + page.pos_extent.z * table[qz]),
          unpack_half(static_cast<std::uint16_t>(r.scale_tint & 0xffffu)), r.pos_z_yaw >> 16};
}

// veg_expand.glsl's plant_sphere: centre height local.y + scale * mid, then the page offset.
Sphere sphere_of(const Decoded& d, const PlantPage& page, const PlantSphereShape& shape) {
  const float radius = d.scale * shape.radius;
  const float cy = d.local.y + d.scale * shape.mid;
  return {{page.offset.x + d.local.x, page.offset.y + cy, page.offset.z + d.local.z}, radius};
}

PlantSphereShape enclosing(const PlantSphereShape& a, const PlantSphereShape& b) {
  const float lo = std::min(a.mid - a.radius, b.mid - b.radius);
  const float hi = std::max(a.mid + a.radius, b.mid + b.radius);
  return {0.5f * (lo + hi), std::max({0.5f * (hi - lo), a.radius, b.radius})};
}

}  // namespace

PlantLodShapes make_lod_shapes(std::span<const Aabb> lod_bounds, const PlantSphereShape& all) {
  PlantLodShapes s;
  for (std::uint32_t l = 0; l < kLodShapes; ++l)
    s.lod[l] = lod_bounds.empty()
                   ? all
                   : plant_sphere_shape(lod_bounds[std::min<std::size_t>(l, lod_bounds.size() - 1)]);
  for (std::uint32_t l = 0; l < kLodShapes; ++l)
    s.fade[l] = l + 1 < kLodShapes ? enclosing(s.lod[l], s.lod[l + 1]) : s.lod[l];
  return s;
}

Sphere plant_sphere(const PlantRecord& record, const PlantPage& page, const PlantSphereShape& shape) {
  return sphere_of(decode(record, page), page, shape);
}

ExpandedPlant expand_plant(const PlantRecord& r, const PlantPage& page, std::uint32_t slot,
                           const PlantSphereShape& shape) {
  const std::span<const float> table = decode_table();
  const Decoded d = decode(r, page);
  const float c = table[kDecodeSteps + d.yaw] * d.scale, s = table[2 * kDecodeSteps + d.yaw] * d.scale;
  const glm::vec3 t(page.offset.x + d.local.x, page.offset.y + d.local.y, page.offset.z + d.local.z);
  const std::uint32_t tint = (r.scale_tint >> 16) | (r.tint_b & 0xffu) << 16;
  ExpandedPlant e;
  e.sphere = sphere_of(d, page, shape);
  e.instance.row0 = {c, 0.0f, s, t.x};
  e.instance.row1 = {0.0f, d.scale, 0.0f, t.y};
  e.instance.row2 = {-s, 0.0f, c, t.z};
  e.instance.spare = {std::bit_cast<float>(tint),
                      lod_hash({page.tile_x, page.tile_z}, page.group, page.group_first + slot),
                      e.sphere.radius, 1.0f};
  return e;
}

}  // namespace myriad::vegetation
