// Expansion and runtime merge. Translation = (tile origin - render origin) in double plus the
// tile-local float position, rounded to float once: the result depends only on the camera-relative
// placement, not on how far from the world origin the tile is.
#include "myriad/vegetation/runtime.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "myriad/core/packing.hpp"

namespace myriad::vegetation {

float lod_hash(TileKey tile, std::uint32_t group, std::uint32_t index) {
  std::uint32_t h =
      static_cast<std::uint32_t>(tile.x) * 0x9e3779b1u ^ static_cast<std::uint32_t>(tile.z) * 0x85ebca77u;
  h ^= group * 0xc2b2ae3du + index * 0x27d4eb2fu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  h *= 0x297a2d39u;
  h ^= h >> 15;
  return float(h >> 8) * (1.0f / 16777216.0f);
}

void expand_instances(const Tile& tile, std::uint32_t group, std::uint32_t first, std::uint32_t count,
                      glm::dvec3 render_origin, RuntimeInstance* out, SphereArrays& spheres) {
  const Group& g = tile.groups[group];
  const CullShape shape = cull_shape(tile.prefabs[g.prefab].bounds);
  const glm::dvec3 offset = tile.origin() - render_origin;
  const TileKey key{tile.x, tile.z};
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t k = first + i;
    const PlantInstance p = decode_instance(g, g.instances[k]);
    const glm::vec3 t(offset + glm::dvec3(p.position));
    const float c = std::cos(p.yaw) * p.scale, s = std::sin(p.yaw) * p.scale;
    const Sphere local = instance_sphere(p.position, p.scale, shape);
    RuntimeInstance& r = out[i];
    // Rotation about +Y by yaw (right-handed), uniform scale.
    r.row0 = {c, 0.0f, s, t.x};
    r.row1 = {0.0f, p.scale, 0.0f, t.y};
    r.row2 = {-s, 0.0f, c, t.z};
    r.spare = {std::bit_cast<float>(pack_rgba8_bytes(p.tint[0], p.tint[1], p.tint[2], 0)),
               lod_hash(key, group, k), local.radius, 1.0f};
    spheres.push_back({glm::vec3(offset + glm::dvec3(local.center)), local.radius});
  }
}

bool same_runtime_type(const Prefab& a, const Prefab& b) {
  if (a.lods.size() != b.lods.size()) return false;
  for (std::size_t i = 0; i < a.lods.size(); ++i)
    if (a.lods[i].mesh_id != b.lods[i].mesh_id || a.lods[i].material_id != b.lods[i].material_id ||
        a.lods[i].switch_distance != b.lods[i].switch_distance)
      return false;
  return true;
}

void RuntimeWorld::append(const std::shared_ptr<const Tile>& tile, std::uint32_t group, std::uint32_t first,
                          std::uint32_t count) {
  if (count == 0) return;
  const Group& g = tile->groups[group];
  const Prefab& prefab = tile->prefabs[g.prefab];
  auto it = std::find_if(types_.begin(), types_.end(),
                         [&](const Type& t) { return same_runtime_type(t.prefab, prefab); });
  if (it == types_.end()) {
    types_.push_back({prefab, {}, {}, {}});
    it = types_.end() - 1;
  }
  Type& type = *it;
  const TileKey key{tile->x, tile->z};
  const auto at = static_cast<std::uint32_t>(type.instances.size());
  type.instances.resize(at + count);
  expand_instances(*tile, group, first, count, origin_, type.instances.data() + at, type.spheres);
  Segment* last = type.segments.empty() ? nullptr : &type.segments.back();
  if (last && last->tile == key && last->group == group && last->group_first + last->count == first &&
      last->first + last->count == at) {
    last->count += count;
  } else {
    const glm::vec3 shift(tile->origin() - origin_);
    type.segments.push_back({key, group, first, at, count, {g.bounds.min + shift, g.bounds.max + shift}});
  }
  if (std::none_of(tiles_.begin(), tiles_.end(), [&](const auto& t) { return t.get() == tile.get(); }))
    tiles_.push_back(tile);
}

void RuntimeWorld::remove_tile(TileKey key) {
  for (Type& type : types_) {
    if (std::none_of(type.segments.begin(), type.segments.end(),
                     [&](const Segment& s) { return s.tile == key; }))
      continue;
    // Compact in place: later segments slide down over the removed ones.
    std::uint32_t write = 0;
    std::vector<Segment> kept;
    for (const Segment& s : type.segments) {
      if (s.tile == key) continue;
      Segment moved = s;
      if (s.first != write) {
        std::copy_n(type.instances.begin() + s.first, s.count, type.instances.begin() + write);
        for (auto* arr : {&type.spheres.x, &type.spheres.y, &type.spheres.z, &type.spheres.r})
          std::copy_n(arr->begin() + s.first, s.count, arr->begin() + write);
      }
      moved.first = write;
      write += s.count;
      kept.push_back(moved);
    }
    type.segments = std::move(kept);
    type.instances.resize(write);
    for (auto* arr : {&type.spheres.x, &type.spheres.y, &type.spheres.z, &type.spheres.r}) arr->resize(write);
  }
  std::erase_if(types_, [](const Type& t) { return t.instances.empty(); });
  std::erase_if(tiles_, [&](const auto& t) { return t->x == key.x && t->z == key.z; });
}

void RuntimeWorld::rebase(glm::dvec3 render_origin) {
  origin_ = render_origin;
  for (Type& type : types_) {
    type.spheres.clear();
    for (Segment& s : type.segments) {
      auto tile = std::find_if(tiles_.begin(), tiles_.end(), [&](const auto& t) {
        return TileKey{t->x, t->z} == s.tile;
      });
      expand_instances(**tile, s.group, s.group_first, s.count, origin_, type.instances.data() + s.first,
                       type.spheres);
      const glm::vec3 shift((*tile)->origin() - origin_);
      const Aabb& b = (*tile)->groups[s.group].bounds;
      s.bounds = {b.min + shift, b.max + shift};
    }
  }
}

std::size_t RuntimeWorld::instance_count() const {
  std::size_t n = 0;
  for (const Type& t : types_) n += t.instances.size();
  return n;
}

std::size_t RuntimeWorld::resident_bytes() const {
  std::size_t bytes = 0;
  for (const Type& t : types_)
    bytes += t.instances.size() * sizeof(RuntimeInstance) + t.spheres.size() * 4 * sizeof(float) +
             t.segments.size() * sizeof(Segment);
  for (const auto& tile : tiles_)
    for (const Group& g : tile->groups)
      bytes += g.instances.size() * sizeof(InstanceRecord) + g.nodes.size() * sizeof(QuadNode);
  return bytes;
}

}  // namespace myriad::vegetation
