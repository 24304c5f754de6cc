// Tile serialization and the validating parser. Validation is complete (sizes, checksum, tree shape,
// ranges, bounds containment) so that culling code can trust a parsed tile without further checks.
#include "myriad/vegetation/bake/tile_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <string>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/layout/packing.hpp"

namespace myriad::vegetation {
namespace {

constexpr FileFormat kTileFormat{kTileMagic, kTileVersion, "vegetation tile", "re-bake the tiles"};
constexpr float kQuantMax = 65535.0f;

bool finite(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite_valid(const Aabb& b) { return finite(b.min) && finite(b.max) && b.valid(); }
bool inside(const Aabb& inner, const Aabb& outer) {
  return inner.min.x >= outer.min.x && inner.min.y >= outer.min.y && inner.min.z >= outer.min.z &&
         inner.max.x <= outer.max.x && inner.max.y <= outer.max.y && inner.max.z <= outer.max.z;
}

std::uint16_t quantize(float v, float lo, float extent) {
  if (!(extent > 0.0f)) return 0;
  float t = (v - lo) / extent;
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return static_cast<std::uint16_t>(std::lround(t * kQuantMax));
}

void parse_group_tree(BinaryReader& r, const Group& g, const CullShape& shape) {
  const auto n = static_cast<std::uint32_t>(g.nodes.size());
  const auto count = static_cast<std::uint32_t>(g.instances.size());
  const QuadNode& root = g.nodes[0];
  if (root.first_instance != 0 || root.instance_count != count)
    r.fail("root node must cover all " + std::to_string(count) + " instances", "node[0].instance range");
  if (!finite_valid(g.bounds) || std::memcmp(&g.bounds, &root.bounds, sizeof(Aabb)) != 0)
    r.fail("group bounds must equal the root node bounds", "group.bounds");
  // Breadth-first layout: the children of successive internal nodes follow each other, so every
  // node but the root has exactly one parent with a smaller index (no cycles, no sharing).
  std::uint32_t next_child = 1;
  for (std::uint32_t i = 0; i < n; ++i) {
    const QuadNode& node = g.nodes[i];
    const std::string field = "node[" + std::to_string(i) + "]";
    if (!finite_valid(node.bounds)) r.fail("node bounds are not a finite box", (field + ".bounds").c_str());
    if (node.instance_count == 0) r.fail("empty node", (field + ".instance_count").c_str());
    if (node.first_instance > count || node.instance_count > count - node.first_instance)
      r.fail("instance range past the group's instances", (field + ".instance range").c_str());
    if (node.child_count == 0) {
      for (std::uint32_t k = node.first_instance; k < node.first_instance + node.instance_count; ++k) {
        const InstanceRecord& rec = g.instances[k];
        const float scale = unpack_half(rec.scale);
        if (!(scale > 0.0f) || !std::isfinite(scale))
          r.fail("instance " + std::to_string(k) + " has a non-positive or non-finite scale",
                 "instance.scale");
        if (rec.reserved != 0)
          r.fail("instance " + std::to_string(k) + " reserved byte is not 0", "instance");
        if (!inside(instance_bounds(decode_position(g, rec), scale, shape), node.bounds))
          r.fail("instance " + std::to_string(k) + " lies outside its leaf's bounds",
                 (field + ".bounds").c_str());
      }
      continue;
    }
    if (node.child_count > kMaxChildren || node.first_child != next_child ||
        node.child_count > n - node.first_child)
      r.fail("child range breaks the breadth-first tree layout", (field + ".children").c_str());
    next_child += node.child_count;
    std::uint32_t expect = node.first_instance;
    for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c) {
      const QuadNode& child = g.nodes[c];
      if (child.first_instance != expect)
        r.fail("children's instance ranges must partition the parent's", (field + ".children").c_str());
      expect += child.instance_count;
      if (!inside(child.bounds, node.bounds))
        r.fail("child node " + std::to_string(c) + " bounds exceed its parent's",
               (field + ".bounds").c_str());
    }
    if (expect != node.first_instance + node.instance_count)
      r.fail("children's instance ranges must partition the parent's", (field + ".children").c_str());
  }
  if (next_child != n) r.fail("nodes not reachable from the root", "group.node_count");
}

}  // namespace

std::size_t Tile::instance_count() const {
  std::size_t n = 0;
  for (const Group& g : groups) n += g.instances.size();
  return n;
}

CullShape cull_shape(const Aabb& b) {
  float r2 = 0.0f;
  for (float x : {b.min.x, b.max.x})
    for (float z : {b.min.z, b.max.z}) r2 = std::max(r2, x * x + z * z);
  return {std::sqrt(r2), b.min.y, b.max.y};
}

glm::vec3 decode_position(const Group& g, const InstanceRecord& r) {
  return {g.pos_min.x + g.pos_extent.x * (float(r.pos[0]) / kQuantMax),
          g.pos_min.y + g.pos_extent.y * (float(r.pos[1]) / kQuantMax),
          g.pos_min.z + g.pos_extent.z * (float(r.pos[2]) / kQuantMax)};
}

PlantInstance decode_instance(const Group& g, const InstanceRecord& r) {
  PlantInstance p;
  p.position = decode_position(g, r);
  p.yaw = float(r.yaw) * (2.0f * std::numbers::pi_v<float> / 65536.0f);
  p.scale = unpack_half(r.scale);
  for (int c = 0; c < 3; ++c) p.tint[c] = r.tint[c];
  return p;
}

Aabb instance_bounds(glm::vec3 p, float scale, const CullShape& s) {
  const float r = scale * s.radius_xz;
  return {{p.x - r, p.y + scale * s.y_min, p.z - r}, {p.x + r, p.y + scale * s.y_max, p.z + r}};
}

Sphere instance_sphere(glm::vec3 p, float scale, const CullShape& s) {
  const float half_h = 0.5f * (s.y_max - s.y_min);
  const float mid = 0.5f * (s.y_max + s.y_min);
  return {{p.x, p.y + scale * mid, p.z}, scale * std::sqrt(s.radius_xz * s.radius_xz + half_h * half_h)};
}

InstanceRecord encode_instance(const PlantInstance& p, glm::vec3 lo, glm::vec3 extent) {
  InstanceRecord r{};
  r.pos[0] = quantize(p.position.x, lo.x, extent.x);
  r.pos[1] = quantize(p.position.y, lo.y, extent.y);
  r.pos[2] = quantize(p.position.z, lo.z, extent.z);
  const double turns = double(p.yaw) / (2.0 * std::numbers::pi);
  const double frac = turns - std::floor(turns);
  r.yaw = static_cast<std::uint16_t>(std::llround(frac * 65536.0) & 0xffff);
  r.scale = pack_half(p.scale);
  for (int c = 0; c < 3; ++c) r.tint[c] = p.tint[c];
  r.reserved = 0;
  return r;
}

std::vector<std::byte> serialize_tile(const Tile& tile) {
  BinaryWriter w;
  w.write_magic_version(kTileFormat);
  w.write(tile.x);
  w.write(tile.z);
  w.write(tile.size);
  w.write(static_cast<std::uint32_t>(tile.prefabs.size()));
  w.write(static_cast<std::uint32_t>(tile.groups.size()));
  w.write(static_cast<std::uint32_t>(tile.instance_count()));
  const std::size_t header = w.write_seal_fields();
  for (const Prefab& p : tile.prefabs) {
    w.write(p.type_id);
    w.write(static_cast<std::uint32_t>(p.lods.size()));
    w.write(p.bounds);
    w.write_array(std::span<const LodLevel>(p.lods));
  }
  for (const Group& g : tile.groups) {
    w.write(g.prefab);
    w.write(static_cast<std::uint32_t>(g.nodes.size()));
    w.write(static_cast<std::uint32_t>(g.instances.size()));
    w.write(std::uint32_t{0});
    w.write(g.bounds);
    w.write(g.pos_min);
    w.write(g.pos_extent);
    w.write_array(std::span<const QuadNode>(g.nodes));
    w.write_array(std::span<const InstanceRecord>(g.instances));
  }
  w.seal(header);
  return std::move(w.bytes());
}

Tile parse_tile(std::span<const std::byte> bytes, const std::string& source) {
  BinaryReader r(source, bytes);
  r.read_magic_version(kTileFormat);
  Tile t;
  t.x = r.read<std::int32_t>("tile_x");
  t.z = r.read<std::int32_t>("tile_z");
  t.size = r.read<float>("tile_size");
  if (!(t.size > 0.0f) || !std::isfinite(t.size))
    r.fail("tile size must be positive and finite", "tile_size");
  const auto prefab_count = r.read<std::uint32_t>("prefab_count");
  const auto group_count = r.read<std::uint32_t>("group_count");
  const auto instance_total = r.read<std::uint32_t>("instance_total");
  r.read_seal();

  // Each count is bounded by the bytes it needs before anything is allocated.
  if (prefab_count > r.remaining() / 32) r.fail("prefab count exceeds the file size", "prefab_count");
  t.prefabs.resize(prefab_count);
  std::vector<CullShape> shapes(prefab_count);
  for (std::uint32_t i = 0; i < prefab_count; ++i) {
    Prefab& p = t.prefabs[i];
    p.type_id = r.read<std::uint32_t>("prefab.type_id");
    const auto lods = r.read<std::uint32_t>("prefab.lod_count");
    if (lods == 0 || lods > kMaxLods)
      r.fail("prefab " + std::to_string(i) + " has " + std::to_string(lods) + " LODs (1.." +
                 std::to_string(kMaxLods) + " allowed)",
             "prefab.lod_count");
    p.bounds = r.read<Aabb>("prefab.bounds");
    if (!finite_valid(p.bounds)) r.fail("prefab bounds are not a finite box", "prefab.bounds");
    p.lods = r.read_array<LodLevel>(lods, "prefab.lods");
    float prev = 0.0f;
    for (const LodLevel& l : p.lods) {
      if (!(l.switch_distance > prev) || !std::isfinite(l.switch_distance))
        r.fail("LOD switch distances must be positive, finite and increasing", "prefab.lods.switch_distance");
      prev = l.switch_distance;
    }
    shapes[i] = cull_shape(p.bounds);
  }
  if (group_count > r.remaining() / 64) r.fail("group count exceeds the file size", "group_count");
  t.groups.resize(group_count);
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < group_count; ++i) {
    Group& g = t.groups[i];
    g.prefab = r.read<std::uint32_t>("group.prefab");
    if (g.prefab >= prefab_count) r.fail("prefab index out of range", "group.prefab");
    const auto node_count = r.read<std::uint32_t>("group.node_count");
    const auto count = r.read<std::uint32_t>("group.instance_count");
    if (r.read<std::uint32_t>("group.reserved") != 0) r.fail("reserved field is not 0", "group.reserved");
    if (node_count == 0 || count == 0) r.fail("empty group", "group.node_count");
    g.bounds = r.read<Aabb>("group.bounds");
    g.pos_min = r.read<glm::vec3>("group.pos_min");
    g.pos_extent = r.read<glm::vec3>("group.pos_extent");
    if (!finite(g.pos_min) || !finite(g.pos_extent) || g.pos_extent.x < 0.0f || g.pos_extent.y < 0.0f ||
        g.pos_extent.z < 0.0f)
      r.fail("position box is not finite and non-negative", "group.pos_extent");
    g.nodes = r.read_array<QuadNode>(node_count, "group.nodes");
    g.instances = r.read_array<InstanceRecord>(count, "group.instances");
    parse_group_tree(r, g, shapes[g.prefab]);
    total += count;
  }
  if (total != instance_total) r.fail("instance total does not match the groups", "instance_total");
  if (r.remaining() != 0) r.fail("unexpected bytes after the last group", "end of file");
  return t;
}

void write_tile(const std::filesystem::path& path, const Tile& tile) {
  const auto bytes = serialize_tile(tile);
  write_file_atomic(path, bytes);
}

Tile read_tile(const std::filesystem::path& path) { return parse_tile(read_file(path), path.string()); }

std::string tile_file_name(std::int32_t x, std::int32_t z) {
  return "tile_" + std::to_string(x) + "_" + std::to_string(z) + ".mveg";
}

bool parse_tile_file_name(const std::string& name, std::int32_t& x, std::int32_t& z) {
  int nx = 0, nz = 0, used = 0;
  if (std::sscanf(name.c_str(), "tile_%d_%d.mveg%n", &nx, &nz, &used) != 2) return false;
  if (static_cast<std::size_t>(used) != name.size()) return false;
  if (tile_file_name(nx, nz) != name) return false;  // rejects "+1", leading zeros, ...
  x = nx;
  z = nz;
  return true;
}

}  // namespace myriad::vegetation
