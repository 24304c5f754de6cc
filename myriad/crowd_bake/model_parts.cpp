// The part table a bake writes into its .crowd file (pipeline.hpp: describe_parts).
#include <algorithm>

#include "myriad/crowd_bake/pipeline.hpp"

namespace myriad::crowd {

std::vector<CrowdPart> describe_parts(const anim::ImportedModel& model) {
  std::vector<CrowdPart> parts;
  parts.reserve(model.meshes.size());
  std::vector<std::uint16_t> used;  // palette entries with weight, sorted and unique per mesh
  for (const anim::SkinnedMesh& mesh : model.meshes) {
    CrowdPart part;
    part.name = mesh.name;
    part.triangles = static_cast<std::uint32_t>(mesh.indices.size() / 3);
    if (mesh.material >= 0 && std::size_t(mesh.material) < model.materials.size())
      part.material = model.materials[std::size_t(mesh.material)].name;
    used.clear();
    bool rigid = !mesh.weights.empty();
    for (std::size_t v = 0; v < mesh.weights.size(); ++v) {
      for (int k = 0; k < 4; ++k) {
        if (mesh.weights[v][k] > 0.0f) used.push_back(mesh.joints[v][k]);
      }
      rigid = rigid && mesh.weights[v][0] == 1.0f && mesh.joints[v][0] == mesh.joints[0][0];
    }
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    part.joints = static_cast<std::uint32_t>(used.size());
    if (rigid && used.size() == 1 && used[0] < model.joints.size()) {
      const std::uint16_t joint = model.joints[used[0]];
      if (joint < model.skeleton.names.size()) part.joint = model.skeleton.names[joint];
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace myriad::crowd
