#include "myriad/crowd_bake/lod/lod1_simplify.hpp"

#include "myriad/core/io/error.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>
#include <span>
#include <string>

namespace myriad::crowd {
namespace {

struct UnionFind {
  std::vector<std::uint32_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// One representative vertex per distinct position (meshoptimizer's own notion of a shared vertex).
std::vector<std::uint32_t> position_remap(const BakeMesh& mesh) {
  std::vector<unsigned int> remap(mesh.vertex_count());
  meshopt_generateVertexRemap(remap.data(), nullptr, mesh.vertex_count(), mesh.positions.data(),
                              mesh.vertex_count(), sizeof(glm::vec3));
  // remap gives compact ids in first-seen order; map each id back to its first vertex.
  std::vector<std::uint32_t> first(mesh.vertex_count(), UINT32_MAX), out(mesh.vertex_count());
  for (std::size_t v = 0; v < remap.size(); ++v) {
    if (first[remap[v]] == UINT32_MAX) first[remap[v]] = static_cast<std::uint32_t>(v);
    out[v] = first[remap[v]];
  }
  return out;
}

// Positions (LOD0 vertices) that triangles of two or more different groups use: the borders between
// pieces of one connected mesh, which must not move or the pieces tear apart. A rigid part's own open
// edges (a sleeve end, a helmet rim) belong to one group only and stay free to simplify.
std::vector<std::uint8_t> shared_between_groups(const BakeMesh& mesh,
                                                const std::vector<std::uint32_t>& same_position,
                                                std::span<const std::uint32_t> group_of_triangle) {
  std::vector<std::uint32_t> first_group(mesh.vertex_count(), UINT32_MAX);
  std::vector<std::uint8_t> shared(mesh.vertex_count(), 0);
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    for (std::size_t c = 0; c < 3; ++c) {
      const std::uint32_t p = same_position[mesh.indices[3 * t + c]];
      if (first_group[p] == UINT32_MAX)
        first_group[p] = group_of_triangle[t];
      else if (first_group[p] != group_of_triangle[t])
        shared[p] = 1;
    }
  }
  std::vector<std::uint8_t> locked(mesh.vertex_count(), 0);
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) locked[v] = shared[same_position[v]];
  return locked;
}

// meshoptimizer (0.18) takes no per-vertex lock, but it never moves a vertex whose position has more
// than two wedges (vertices at that position). So the positions given to it are LOD0's followed by two
// unused copies of every locked vertex: exactly those stay put, every other border may collapse
// along itself as meshoptimizer allows.
std::vector<glm::vec3> positions_with_locks(const BakeMesh& mesh, std::span<const std::uint8_t> locked) {
  std::vector<glm::vec3> out = mesh.positions;
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    if (!locked[v]) continue;
    out.push_back(mesh.positions[v]);
    out.push_back(mesh.positions[v]);
  }
  return out;
}

bool named_head(const std::string& name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return lower.find("head") != std::string::npos;
}

}  // namespace

std::vector<std::uint16_t> head_bones(const anim::ImportedModel& model) {
  const anim::Skeleton& s = model.skeleton;
  int head = -1;
  for (std::size_t j = 0; j < s.size() && head < 0; ++j) {
    if (named_head(s.names[j])) head = static_cast<int>(j);
  }
  if (head < 0) {
    float best = -INFINITY;
    for (std::size_t i = 0; i < model.joints.size() && i < model.inverse_binds.size(); ++i) {
      const glm::vec3 p(model.root_transform * glm::inverse(model.inverse_binds[i])[3]);
      if (p.y > best) best = p.y, head = model.joints[i];
    }
  }
  std::vector<bool> in_head(s.size(), false);
  if (head >= 0) in_head[static_cast<std::size_t>(head)] = true;
  for (std::size_t j = 0; j < s.size(); ++j) {  // depth-first order: parents come first
    if (s.parents[j] != anim::kNoParent && in_head[static_cast<std::size_t>(s.parents[j])]) in_head[j] = true;
  }
  std::vector<std::uint16_t> bones;  // renderer joints whose skeleton joint is in the head
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    if (model.joints[i] < s.size() && in_head[model.joints[i]])
      bones.push_back(static_cast<std::uint16_t>(i));
  }
  return bones;
}

std::vector<std::uint16_t> dominant_bones(const BakeMesh& mesh) {
  std::vector<std::uint16_t> out(mesh.triangle_count());
  for (std::size_t t = 0; t < out.size(); ++t) {
    std::uint16_t joints[12];
    float weights[12];
    int n = 0;
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t v = mesh.indices[3 * t + static_cast<std::size_t>(c)];
      for (int k = 0; k < 4; ++k) {
        int slot = 0;
        while (slot < n && joints[slot] != mesh.joints[v][k]) ++slot;
        if (slot == n) joints[n] = mesh.joints[v][k], weights[n++] = 0.0f;
        weights[slot] += mesh.weights[v][k];
      }
    }
    int best = 0;
    for (int s = 1; s < n; ++s) {
      if (weights[s] > weights[best] || (weights[s] == weights[best] && joints[s] < joints[best])) best = s;
    }
    out[t] = joints[best];
  }
  return out;
}

std::vector<std::uint32_t> piece_of_triangles(const BakeMesh& mesh, std::size_t& piece_count) {
  const std::vector<std::uint16_t> bone = dominant_bones(mesh);
  const std::vector<std::uint32_t> same_position = position_remap(mesh);
  const std::size_t tris = mesh.triangle_count();
  // Triangles meeting at a position join when bone and material agree.
  UnionFind uf(tris);
  std::map<std::uint64_t, std::uint32_t> first_triangle;  // (position vertex, bone, material) -> triangle
  for (std::size_t t = 0; t < tris; ++t) {
    const std::uint64_t group = std::uint64_t{bone[t]} << 16 | mesh.triangle_material[t];
    for (int c = 0; c < 3; ++c) {
      const std::uint64_t key =
          std::uint64_t{same_position[mesh.indices[3 * t + static_cast<std::size_t>(c)]]} << 32 | group;
      const auto [it, inserted] = first_triangle.try_emplace(key, static_cast<std::uint32_t>(t));
      if (!inserted) uf.join(it->second, static_cast<std::uint32_t>(t));
    }
  }
  std::vector<std::uint32_t> piece(tris), id_of_root(tris, UINT32_MAX);
  piece_count = 0;
  for (std::size_t t = 0; t < tris; ++t) {
    const std::uint32_t root = uf.find(static_cast<std::uint32_t>(t));
    if (id_of_root[root] == UINT32_MAX) id_of_root[root] = static_cast<std::uint32_t>(piece_count++);
    piece[t] = id_of_root[root];
  }
  return piece;
}

void Lod1Options::validate() const {
  if (!(target_ratio > 0.0f && target_ratio <= 1.0f))
    throw Error("LOD1 ratio must be in (0, 1]", "Lod1Options::target_ratio");
  if (!(head_ratio > 0.0f && head_ratio <= 1.0f))
    throw Error("LOD1 head ratio must be in (0, 1]", "Lod1Options::head_ratio");
  if (!(max_error >= 0.0f && max_error <= 1.0f))
    throw Error("LOD1 error bound must be in [0, 1]", "Lod1Options::max_error",
                "relative to the mesh extents; the default is 0.01");
}

Lod1Result simplify_lod1(const BakeMesh& lod0, const Lod1Options& options) {
  options.validate();
  validate(lod0, 65536, "LOD1 input (LOD0)");
  std::size_t piece_count = 0;
  const std::vector<std::uint32_t> piece = piece_of_triangles(lod0, piece_count);
  const std::vector<std::uint16_t> bone = dominant_bones(lod0);
  Lod1Result r;
  r.pieces.resize(piece_count);
  std::vector<std::vector<std::uint32_t>> piece_indices(piece_count);
  for (std::size_t t = 0; t < lod0.triangle_count(); ++t) {
    Lod1Piece& p = r.pieces[piece[t]];
    p.bone = bone[t];
    p.material = lod0.triangle_material[t];
    p.head =
        std::find(options.head_bones.begin(), options.head_bones.end(), bone[t]) != options.head_bones.end();
    ++p.triangles_before;
    for (int c = 0; c < 3; ++c)
      piece_indices[piece[t]].push_back(lod0.indices[3 * t + static_cast<std::size_t>(c)]);
  }
  // Budget: the head asks for head_ratio and the rest share what is left of the whole target, but the
  // rest never drop below 3/4 of the target ratio (a model whose head holds most triangles, like
  // CesiumMan's, would otherwise starve its limbs); the head then gets what remains, at least the target.
  std::size_t head_tris = 0;
  for (const Lod1Piece& p : r.pieces) head_tris += p.head ? p.triangles_before : 0;
  const double total = static_cast<double>(lod0.triangle_count());
  const double head = static_cast<double>(head_tris), body = total - head;
  const double target = static_cast<double>(options.target_ratio);
  double head_ratio = std::max(static_cast<double>(options.head_ratio), target);
  double body_ratio = target;
  if (body > 0.0 && head > 0.0) {
    body_ratio = std::clamp((target * total - head_ratio * head) / body, 0.75 * target, 1.0);
    head_ratio = std::clamp((target * total - body_ratio * body) / head, target, head_ratio);
  }
  r.body_ratio = static_cast<float>(body_ratio);
  r.head_ratio = static_cast<float>(head_ratio);
  // Pass 1: each piece alone, the borders it shares with other pieces locked. The kept triangles, in
  // LOD0 vertex numbers, grouped by (material, head): pass 2 works on those groups.
  const std::vector<std::uint32_t> same_position = position_remap(lod0);
  const std::vector<glm::vec3> pass1_positions =
      positions_with_locks(lod0, shared_between_groups(lod0, same_position, piece));
  std::map<std::pair<std::uint16_t, bool>, std::vector<std::uint32_t>> groups;
  std::vector<unsigned int> simplified;
  for (std::size_t pi = 0; pi < piece_count; ++pi) {
    Lod1Piece& p = r.pieces[pi];
    const std::vector<std::uint32_t>& in = piece_indices[pi];
    const double ratio = p.head ? head_ratio : body_ratio;
    p.target =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(double(p.triangles_before) * ratio)));
    simplified.resize(in.size());
    const std::size_t count = meshopt_simplify(simplified.data(), in.data(), in.size(), &pass1_positions[0].x,
                                               pass1_positions.size(), sizeof(glm::vec3), p.target * 3,
                                               options.max_error, 0, &p.error);
    p.triangles_after = count / 3;
    p.stopped_above_target = p.triangles_after > p.target;
    r.pieces_stopped_above_target += p.stopped_above_target ? 1 : 0;
    std::vector<std::uint32_t>& g = groups[{p.material, p.head}];
    g.insert(g.end(), simplified.begin(), simplified.begin() + static_cast<std::ptrdiff_t>(count));
  }
  // Pass 2: small pieces end at their locked borders (a forearm between elbow and wrist has little
  // inside to collapse). Where the body is still above its share of the target, simplify each
  // material's body triangles together, across the bone borders, under the same error bound; only
  // material borders and the head's border stay locked. The hole check then decides, as for pass 1.
  std::size_t after1 = 0, head_after1 = 0;
  for (const auto& [key, idx] : groups) {
    after1 += idx.size() / 3;
    head_after1 += key.second ? idx.size() / 3 : 0;
  }
  r.pass1_triangles = after1;
  const double want = target * total;
  const double body_now = static_cast<double>(after1 - head_after1);
  const double body_want = std::max(0.0, want - static_cast<double>(head_after1));
  if (options.cross_border_pass && static_cast<double>(after1) > want && body_now > 0.0) {
    const double ratio = body_want / body_now;
    // Locked: positions the kept triangles of two groups share (material borders, the head's border).
    std::vector<std::uint32_t> group_of;
    BakeMesh kept;
    kept.positions = lod0.positions;
    for (const auto& [key, idx] : groups) {
      kept.indices.insert(kept.indices.end(), idx.begin(), idx.end());
      group_of.insert(group_of.end(), idx.size() / 3,
                      static_cast<std::uint32_t>(group_of.empty() ? 0 : group_of.back() + 1));
    }
    const std::vector<glm::vec3> pass2_positions =
        positions_with_locks(lod0, shared_between_groups(kept, same_position, group_of));
    for (auto& [key, idx] : groups) {
      if (key.second || idx.empty()) continue;
      const std::size_t tris = idx.size() / 3;
      const auto goal = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(double(tris) * ratio)));
      simplified.resize(idx.size());
      float error = 0.0f;
      const std::size_t count =
          meshopt_simplify(simplified.data(), idx.data(), idx.size(), &pass2_positions[0].x,
                           pass2_positions.size(), sizeof(glm::vec3), goal * 3, options.max_error, 0, &error);
      r.pass2_error = std::max(r.pass2_error, error);
      idx.assign(simplified.begin(), simplified.begin() + static_cast<std::ptrdiff_t>(count));
    }
  }
  std::vector<std::uint32_t> lod1_of(lod0.vertex_count(), UINT32_MAX);
  for (const auto& [key, idx] : groups) {
    for (const std::uint32_t v : idx) {
      if (lod1_of[v] == UINT32_MAX) {
        lod1_of[v] = static_cast<std::uint32_t>(r.lod0_vertex.size());
        r.lod0_vertex.push_back(v);
      }
      r.mesh.indices.push_back(lod1_of[v]);
    }
    r.mesh.triangle_material.insert(r.mesh.triangle_material.end(), idx.size() / 3, key.first);
  }
  BakeMesh& m = r.mesh;
  for (std::uint32_t v : r.lod0_vertex) {
    m.positions.push_back(lod0.positions[v]);
    m.normals.push_back(lod0.normals[v]);
    if (!lod0.uvs.empty()) m.uvs.push_back(lod0.uvs[v]);
    m.joints.push_back(lod0.joints[v]);
    m.weights.push_back(lod0.weights[v]);
  }
  return r;
}

}  // namespace myriad::crowd
