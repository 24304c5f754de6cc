#include "myriad/anim/kit/dedup.hpp"

#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace myriad::anim {

Dedup dedup_skeletons(std::span<const PartSkin> parts) {
  struct Entry {
    std::uint16_t joint;
    glm::mat4 ibm;
  };
  auto less = [](const Entry& a, const Entry& b) {
    if (a.joint != b.joint) return a.joint < b.joint;
    return std::memcmp(&a.ibm, &b.ibm, sizeof(glm::mat4)) < 0;
  };
  std::vector<Entry> unique;
  for (const PartSkin& p : parts) {
    if (p.joints.size() != p.inverse_binds.size())
      throw Error("part skin joints and inverse binds differ in size", "PartSkin");
    for (std::size_t i = 0; i < p.joints.size(); ++i) unique.push_back({p.joints[i], p.inverse_binds[i]});
  }
  std::sort(unique.begin(), unique.end(), less);
  unique.erase(std::unique(unique.begin(), unique.end(),
                           [](const Entry& a, const Entry& b) {
                             return a.joint == b.joint && std::memcmp(&a.ibm, &b.ibm, sizeof(glm::mat4)) == 0;
                           }),
               unique.end());
  if (unique.size() > 65535) throw Error("renderer skeleton exceeds 65535 entries", "dedup_skeletons");
  Dedup d;
  d.renderer_skeleton.joints.reserve(unique.size());
  for (const Entry& e : unique) {
    d.renderer_skeleton.joints.push_back(e.joint);
    d.renderer_skeleton.inverse_binds.push_back(e.ibm);
  }
  d.remap.resize(parts.size());
  for (std::size_t pi = 0; pi < parts.size(); ++pi) {
    const PartSkin& p = parts[pi];
    d.remap[pi].resize(p.joints.size());
    for (std::size_t i = 0; i < p.joints.size(); ++i) {
      const Entry key{p.joints[i], p.inverse_binds[i]};
      const auto it = std::lower_bound(unique.begin(), unique.end(), key, less);
      d.remap[pi][i] = static_cast<std::uint16_t>(it - unique.begin());
    }
  }
  return d;
}

void remap_joints(std::span<glm::u16vec4> joints, std::span<const std::uint16_t> remap) {
  for (glm::u16vec4& j : joints) {
    for (int k = 0; k < 4; ++k) j[k] = remap[j[k]];
  }
}

std::vector<SplitPart> split_into_parts(const SkinnedMesh& mesh, std::span<const std::uint16_t> joints,
                                        std::span<const glm::mat4> inverse_binds, std::size_t max_parts) {
  if (max_parts == 0) throw Error("max_parts must be at least 1", "split_into_parts");
  auto dominant = [&](std::uint32_t v) {
    const glm::vec4 w = mesh.weights[v];
    int best = 0;
    for (int k = 1; k < 4; ++k) {
      if (w[k] > w[best]) best = k;
    }
    return mesh.joints[v][best];
  };
  std::map<std::uint16_t, std::size_t> group_of;  // dominant palette entry -> part
  std::vector<SplitPart> parts;
  std::vector<std::vector<std::int32_t>> vertex_map;  // per part: mesh vertex -> part vertex
  std::vector<std::vector<std::int32_t>> bone_map;    // per part: mesh palette entry -> part entry
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint16_t d = dominant(mesh.indices[t]);
    auto [it, inserted] = group_of.try_emplace(d, std::min(group_of.size(), max_parts - 1));
    const std::size_t pi = it->second;
    if (pi >= parts.size()) {
      parts.emplace_back();
      parts.back().mesh.name = mesh.name + ".part" + std::to_string(pi);
      parts.back().mesh.material = mesh.material;
      vertex_map.emplace_back(mesh.positions.size(), -1);
      bone_map.emplace_back(joints.size(), -1);
    }
    SplitPart& part = parts[pi];
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t v = mesh.indices[t + static_cast<std::size_t>(c)];
      std::int32_t& nv = vertex_map[pi][v];
      if (nv < 0) {
        nv = static_cast<std::int32_t>(part.mesh.positions.size());
        part.mesh.positions.push_back(mesh.positions[v]);
        if (!mesh.normals.empty()) part.mesh.normals.push_back(mesh.normals[v]);
        if (!mesh.uvs.empty()) part.mesh.uvs.push_back(mesh.uvs[v]);
        if (!mesh.colors.empty()) part.mesh.colors.push_back(mesh.colors[v]);
        part.mesh.weights.push_back(mesh.weights[v]);
        glm::u16vec4 local;
        for (int k = 0; k < 4; ++k) {
          const std::uint16_t e = mesh.joints[v][k];
          std::int32_t& le = bone_map[pi][e];
          if (le < 0) {
            le = static_cast<std::int32_t>(part.skin.joints.size());
            part.skin.joints.push_back(joints[e]);
            part.skin.inverse_binds.push_back(inverse_binds[e]);
          }
          local[k] = static_cast<std::uint16_t>(le);
        }
        part.mesh.joints.push_back(local);
      }
      part.mesh.indices.push_back(static_cast<std::uint32_t>(nv));
    }
  }
  return parts;
}

}  // namespace myriad::anim
