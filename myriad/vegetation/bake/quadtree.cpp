// Breadth-first quadtree construction: nodes are processed in index order and append their non-empty
// children at the end, which yields exactly the layout parse_tile() requires. Bounds are computed
// bottom-up as unions of the decoded instance boxes, so node/instance containment is exact in floats.
#include "myriad/vegetation/bake/quadtree.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/core/layout/packing.hpp"

namespace myriad::vegetation {

void QuadtreeOptions::validate() const {
  if (leaf_capacity == 0 || leaf_capacity > 65536)
    throw Error("leaf capacity must be in [1, 65536]", "QuadtreeOptions::leaf_capacity");
  // Coincident instances never separate: each level below adds a node, so the depth bounds the tree.
  if (max_depth > 32) throw Error("quadtree depth must be in [0, 32]", "QuadtreeOptions::max_depth");
}

Group make_group(std::uint32_t prefab, std::span<const PlantInstance> instances, const CullShape& shape,
                 const QuadtreeOptions& options) {
  options.validate();
  if (instances.empty()) throw Error("make_group: a group needs at least one instance");
  Group g;
  g.prefab = prefab;
  Aabb box;
  for (const PlantInstance& p : instances) box.expand(p.position);
  g.pos_min = box.min;
  g.pos_extent = box.max - box.min;
  g.instances.reserve(instances.size());
  for (const PlantInstance& p : instances) g.instances.push_back(encode_instance(p, g.pos_min, g.pos_extent));

  // Decoded positions, permuted together with the records.
  std::vector<glm::vec3> pos(g.instances.size());
  for (std::size_t i = 0; i < pos.size(); ++i) pos[i] = decode_position(g, g.instances[i]);

  struct Region {
    float x0, z0, x1, z1;
    std::uint32_t depth;
  };
  std::vector<Region> regions;
  g.nodes.push_back({{}, 0, 0, 0, static_cast<std::uint32_t>(g.instances.size())});
  regions.push_back({box.min.x, box.min.z, box.max.x, box.max.z, 0});
  std::vector<InstanceRecord> rec_tmp;
  std::vector<glm::vec3> pos_tmp;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const std::uint32_t first = g.nodes[i].first_instance;
    const std::uint32_t count = g.nodes[i].instance_count;
    const Region reg = regions[i];
    if (count <= options.leaf_capacity || reg.depth >= options.max_depth) continue;
    const float cx = 0.5f * (reg.x0 + reg.x1);
    const float cz = 0.5f * (reg.z0 + reg.z1);
    auto quadrant = [&](glm::vec3 p) { return (p.x >= cx ? 1u : 0u) + (p.z >= cz ? 2u : 0u); };
    // Stable counting sort of the node's range by quadrant.
    std::array<std::uint32_t, 5> start{};
    for (std::uint32_t k = first; k < first + count; ++k) ++start[quadrant(pos[k]) + 1];
    for (int q = 0; q < 4; ++q) start[q + 1] += start[q];
    const std::array<std::uint32_t, 5> bounds_of = start;
    rec_tmp.resize(count);
    pos_tmp.resize(count);
    for (std::uint32_t k = first; k < first + count; ++k) {
      const std::uint32_t dst = start[quadrant(pos[k])]++;
      rec_tmp[dst] = g.instances[k];
      pos_tmp[dst] = pos[k];
    }
    std::copy(rec_tmp.begin(), rec_tmp.end(), g.instances.begin() + first);
    std::copy(pos_tmp.begin(), pos_tmp.end(), pos.begin() + first);
    const auto first_child = static_cast<std::uint32_t>(g.nodes.size());
    std::uint32_t children = 0;
    for (std::uint32_t q = 0; q < 4; ++q) {
      const std::uint32_t n = bounds_of[q + 1] - bounds_of[q];
      if (n == 0) continue;
      const Region child{(q & 1u) ? cx : reg.x0, (q & 2u) ? cz : reg.z0, (q & 1u) ? reg.x1 : cx,
                         (q & 2u) ? reg.z1 : cz, reg.depth + 1};
      g.nodes.push_back({{}, 0, 0, first + bounds_of[q], n});
      regions.push_back(child);
      ++children;
    }
    g.nodes[i].first_child = first_child;
    g.nodes[i].child_count = children;
  }
  // Bottom-up bounds: children always have larger indices than their parent.
  for (std::size_t i = g.nodes.size(); i-- > 0;) {
    QuadNode& node = g.nodes[i];
    Aabb b;
    if (node.child_count == 0) {
      for (std::uint32_t k = node.first_instance; k < node.first_instance + node.instance_count; ++k)
        b.expand(instance_bounds(pos[k], unpack_half(g.instances[k].scale), shape));
    } else {
      for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c)
        b.expand(g.nodes[c].bounds);
    }
    node.bounds = b;
  }
  g.bounds = g.nodes[0].bounds;
  return g;
}

}  // namespace myriad::vegetation
