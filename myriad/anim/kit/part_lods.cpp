#include "myriad/anim/kit/part_lods.hpp"

#include <meshoptimizer.h>

#include "myriad/core/io/error.hpp"

namespace myriad::anim {
namespace {

// The vertices `indices` uses, in first-use order, with every attribute; indices rewritten to them.
SkinnedMesh compact(const SkinnedMesh& from, std::vector<std::uint32_t> indices) {
  SkinnedMesh out;
  out.name = from.name;
  out.material = from.material;
  std::vector<std::uint32_t> remap(from.positions.size(), ~0u);
  for (std::uint32_t& i : indices) {
    if (remap[i] == ~0u) {
      remap[i] = static_cast<std::uint32_t>(out.positions.size());
      out.positions.push_back(from.positions[i]);
      if (!from.normals.empty()) out.normals.push_back(from.normals[i]);
      if (!from.uvs.empty()) out.uvs.push_back(from.uvs[i]);
      if (!from.colors.empty()) out.colors.push_back(from.colors[i]);
      out.joints.push_back(from.joints[i]);
      out.weights.push_back(from.weights[i]);
    }
    i = remap[i];
  }
  out.indices = std::move(indices);
  return out;
}

}  // namespace

std::vector<SkinnedMesh> make_part_lods(const SkinnedMesh& mesh, std::size_t levels) {
  if (levels < 1 || levels > kMaxPartLods)
    throw Error("a part has 1 to " + std::to_string(kMaxPartLods) + " levels", "make_part_lods");
  std::vector<SkinnedMesh> out{mesh};
  for (std::size_t level = 1; level < levels; ++level) {
    const SkinnedMesh& above = out.back();
    std::vector<std::uint32_t> indices(above.indices.size());
    // Half the triangles; no error bound (the LOD group only shows it small on screen), borders kept.
    const std::size_t target = (above.indices.size() / 3 / 2) * 3;
    float error = 0.0f;
    const std::size_t count =
        above.indices.empty()
            ? 0
            : meshopt_simplify(indices.data(), above.indices.data(), above.indices.size(),
                               &above.positions[0].x, above.positions.size(), sizeof(glm::vec3), target, 1.0f,
                               meshopt_SimplifyLockBorder, &error);
    indices.resize(count);
    if (count == 0 || count >= above.indices.size()) {
      out.push_back(above);  // nothing to collapse without opening a border
      continue;
    }
    out.push_back(compact(above, std::move(indices)));
  }
  return out;
}

}  // namespace myriad::anim
