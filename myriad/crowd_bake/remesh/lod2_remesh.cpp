#include "myriad/crowd_bake/remesh/lod2_remesh.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/mesh/vertex_normals.hpp"
#include "myriad/crowd_bake/lod/lod1_simplify.hpp"
#include "myriad/crowd_bake/remesh/remesh_shells.hpp"
#include "myriad/crowd_bake/remesh/remesh_steps.hpp"
#include "myriad/crowd_bake/texture/texture_rebake.hpp"
#include "myriad/crowd_bake/uv/uv_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace myriad::crowd {

namespace {

// Automatic resolution: voxels across the bounding box diagonal. Fine enough that a thin limb keeps
// its own tube after thickening, coarse enough that the dense surface stays in the tens of thousands
// of triangles before simplification.
constexpr float kVoxelsAcrossDiagonal = 128.0f;
// Automatic thickness in voxels: a sheet becomes a slab at least three voxels thick, so it never
// breaks into pieces at the voxel scale.
constexpr float kThicknessVoxels = 1.5f;
constexpr float kSeamAngleDeg = 70.0f;
constexpr int kAtlasPaddingPx = 2;
constexpr int kMaxAtlasSize = 4096;
constexpr float kUntexturedAtlasTexels = 256.0f;
// A region's smallest budget: a closed shell of fewer triangles is a lump, not a limb.
constexpr std::size_t kMinRegionTriangles = 24;

void validate_inputs(const BakeMesh& lod0, const anim::Texture& texture,
                     std::span<const BakeMaterial> materials, const Lod2Options& options) {
  options.validate();
  validate(lod0, materials.size(), "LOD2 remesh (LOD0)");
  if (lod0.uvs.size() != lod0.positions.size()) {
    throw Error("LOD2 remesh: LOD0 has no UVs", "remesh_lod2", "unwrap LOD0 before building LOD2");
  }
  if (texture.width == 0 || texture.height == 0 ||
      texture.rgba8.size() != static_cast<std::size_t>(texture.width) * texture.height * 4) {
    throw Error("LOD2 remesh: LOD0's texture is empty or its size does not match its pixels", "remesh_lod2");
  }
}

float bounds_diagonal(const BakeMesh& mesh) {
  glm::vec3 lo = mesh.positions.front(), hi = lo;
  for (const glm::vec3& p : mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  return glm::length(hi - lo);
}

}  // namespace

namespace {

// A remeshed surface before unwrapping: vertices, triangles, per-vertex attachment and skin, and per
// triangle the material of the original triangle nearest to its centre (so back-face culling matches).
struct RemeshedPart {
  BakeMesh mesh;
  std::vector<Attachment> attachments;
};

// `triangles`: the LOD0 triangles to remesh (all, or one region); the result is attached to them only.
RemeshedPart remesh_triangles(const BakeMesh& lod0, std::span<const std::uint32_t> triangles, float voxel,
                              float thickness, std::size_t target) {
  BakeMesh part;
  part.positions = lod0.positions;
  part.joints = lod0.joints;
  part.weights = lod0.weights;
  for (const std::uint32_t t : triangles) {
    for (std::size_t k = 0; k < 3; ++k)
      part.indices.push_back(lod0.indices[3 * static_cast<std::size_t>(t) + k]);
    part.triangle_material.push_back(lod0.triangle_material[t]);
  }
  VoxelSurface surface = thickened_voxel_surface(part.positions, part.indices, voxel, thickness);
  keep_outer_shells(surface);
  simplify_surface(surface, target);
  RemeshedPart out;
  if (surface.indices.empty()) return out;
  const ClosestPointQuery query(part.positions, part.indices);
  shrink_wrap(surface, query);
  BakeMesh& mesh = out.mesh;
  mesh.positions = surface.positions;
  mesh.indices = surface.indices;
  mesh.normals = myriad::mesh::area_weighted_normals(mesh.positions, mesh.indices);
  out.attachments.resize(mesh.positions.size());
  mesh.joints.resize(mesh.positions.size());
  mesh.weights.resize(mesh.positions.size());
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    out.attachments[v] = attach_to_nearest(mesh.positions[v], part, query);
    blend_skin(part, out.attachments[v], mesh.joints[v], mesh.weights[v]);
  }
  mesh.triangle_material.resize(mesh.triangle_count());
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const glm::vec3 centre = (mesh.positions[mesh.indices[3 * t]] + mesh.positions[mesh.indices[3 * t + 1]] +
                              mesh.positions[mesh.indices[3 * t + 2]]) /
                             3.0f;
    mesh.triangle_material[t] = part.triangle_material[query.closest(centre).triangle];
  }
  return out;
}

void append(RemeshedPart& to, const RemeshedPart& from) {
  const auto base = static_cast<std::uint32_t>(to.mesh.positions.size());
  auto add = [](auto& a, const auto& b) { a.insert(a.end(), b.begin(), b.end()); };
  add(to.mesh.positions, from.mesh.positions);
  add(to.mesh.normals, from.mesh.normals);
  add(to.mesh.joints, from.mesh.joints);
  add(to.mesh.weights, from.mesh.weights);
  add(to.mesh.triangle_material, from.mesh.triangle_material);
  add(to.attachments, from.attachments);
  for (const std::uint32_t i : from.mesh.indices) to.mesh.indices.push_back(base + i);
}

// Unwraps the remeshed surface and bakes its texture: each texel takes the colour at the LOD0 surface
// point nearest to it, from the source (the original textures) when given, else from LOD0's atlas.
Lod2Result unwrap_and_texture(const BakeMesh& lod0, const anim::Texture& lod0_texture, RemeshedPart remeshed,
                              float diagonal, const TriangleColour* source_colour) {
  if (remeshed.mesh.indices.empty())
    throw Error("LOD2 remesh: simplification left no triangles", "remesh_lod2");
  float density = atlas_texel_density(lod0, lod0_texture.width, lod0_texture.height);
  if (!(density > 0.0f)) density = kUntexturedAtlasTexels / diagonal;
  // Charts merged across seams while the union still flattens: fewer seam vertices on a mesh this small.
  UvLayout layout =
      layout_uvs(remeshed.mesh, kSeamAngleDeg, kAtlasPaddingPx, density, kMaxAtlasSize, true, true);
  const ClosestPointQuery query(lod0.positions, lod0.indices);
  Lod2Result result;
  result.attachments.reserve(layout.source_vertex.size());
  for (const std::uint32_t source : layout.source_vertex)
    result.attachments.push_back(remeshed.attachments[source]);
  auto colour = [&](std::uint32_t t, glm::vec3 bary) {
    const std::uint32_t* f = &layout.mesh.indices[3 * static_cast<std::size_t>(t)];
    const glm::vec3 p = bary.x * layout.mesh.positions[f[0]] + bary.y * layout.mesh.positions[f[1]] +
                        bary.z * layout.mesh.positions[f[2]];
    const ClosestHit hit = query.closest(p);
    if (source_colour) return (*source_colour)(hit.triangle, hit.bary);
    const std::uint32_t* g = &lod0.indices[3 * static_cast<std::size_t>(hit.triangle)];
    const glm::vec2 uv =
        hit.bary.x * lod0.uvs[g[0]] + hit.bary.y * lod0.uvs[g[1]] + hit.bary.z * lod0.uvs[g[2]];
    return sample_texture(lod0_texture, uv);
  };
  result.texture = bake_atlas(layout.mesh, layout.width, layout.height, kAtlasPaddingPx, colour);
  result.mesh = std::move(layout.mesh);
  return result;
}

double triangle_area(const BakeMesh& mesh, std::size_t t) {
  const glm::vec3 a = mesh.positions[mesh.indices[3 * t]];
  return 0.5 * static_cast<double>(glm::length(glm::cross(mesh.positions[mesh.indices[3 * t + 1]] - a,
                                                          mesh.positions[mesh.indices[3 * t + 2]] - a)));
}

struct Resolution {
  float diagonal = 0.0f, voxel = 0.0f, thickness = 0.0f;
};

Resolution resolution_of(const BakeMesh& lod0, const Lod2Options& options) {
  Resolution r;
  r.diagonal = bounds_diagonal(lod0);
  if (!(r.diagonal > 0.0f)) throw Error("LOD2 remesh: LOD0 has no extent", "remesh_lod2");
  r.voxel = options.voxel_size > 0.0f ? options.voxel_size : r.diagonal / kVoxelsAcrossDiagonal;
  r.thickness = options.thickness > 0.0f ? options.thickness : kThicknessVoxels * r.voxel;
  if (r.diagonal / r.voxel > 2048.0f) {
    throw Error("LOD2 remesh: voxel size " + std::to_string(r.voxel) + " gives more than 2048 voxels across",
                "Lod2Options::voxel_size", "use a larger voxel size");
  }
  return r;
}

}  // namespace

void Lod2Options::validate() const {
  if (target_triangles < kMinLod2Triangles || target_triangles > kMaxLod2Triangles) {
    throw Error("LOD2 remesh: target of " + std::to_string(target_triangles) + " triangles",
                "Lod2Options::target_triangles",
                "use " + std::to_string(kMinLod2Triangles) + ".." + std::to_string(kMaxLod2Triangles) +
                    " (the article uses 200-460)");
  }
  if (!(thickness >= 0.0f) || !std::isfinite(thickness))
    throw Error("LOD2 remesh: thickness must be finite and not negative", "Lod2Options::thickness",
                "0 = automatic from the bounds");
  if (!(voxel_size >= 0.0f) || !std::isfinite(voxel_size))
    throw Error("LOD2 remesh: voxel size must be finite and not negative", "Lod2Options::voxel_size",
                "0 = automatic from the bounds");
}

Lod2Result remesh_lod2(const BakeMesh& lod0, const anim::Texture& lod0_texture,
                       std::span<const BakeMaterial> materials, const Lod2Options& options,
                       const TriangleColour* source_colour) {
  validate_inputs(lod0, lod0_texture, materials, options);
  const Resolution res = resolution_of(lod0, options);
  std::vector<std::uint32_t> all(lod0.triangle_count());
  std::iota(all.begin(), all.end(), 0u);
  RemeshedPart whole = remesh_triangles(lod0, all, res.voxel, res.thickness,
                                        static_cast<std::size_t>(options.target_triangles));
  return unwrap_and_texture(lod0, lod0_texture, std::move(whole), res.diagonal, source_colour);
}

std::vector<int> renderer_joint_parents(const anim::ImportedModel& model) {
  std::vector<int> renderer_of(model.skeleton.size(), -1);
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    if (model.joints[i] < renderer_of.size() && renderer_of[model.joints[i]] < 0)
      renderer_of[model.joints[i]] = static_cast<int>(i);
  }
  std::vector<int> parents(model.joints.size(), -1);
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    if (model.joints[i] >= model.skeleton.size()) continue;
    std::size_t j = model.joints[i];
    for (int guard = 0; guard < static_cast<int>(model.skeleton.size()); ++guard) {
      if (model.skeleton.parents[j] == anim::kNoParent) break;
      j = static_cast<std::size_t>(model.skeleton.parents[j]);
      if (renderer_of[j] >= 0 && renderer_of[j] != static_cast<int>(i)) {
        parents[i] = renderer_of[j];
        break;
      }
    }
  }
  return parents;
}

std::vector<std::uint32_t> skin_regions(const BakeMesh& lod0, std::span<const int> joint_parents,
                                        float min_area_fraction, std::size_t& region_count) {
  const std::vector<std::uint16_t> bone = dominant_bones(lod0);
  std::size_t joints = joint_parents.size();
  for (const std::uint16_t b : bone) joints = std::max<std::size_t>(joints, std::size_t{b} + 1);
  auto parent_of = [&](std::size_t j) {
    return j < joint_parents.size() && joint_parents[j] >= 0 &&
                   static_cast<std::size_t>(joint_parents[j]) < joints
               ? joint_parents[j]
               : -1;
  };
  std::vector<double> area(joints, 0.0);
  double total = 0.0;
  for (std::size_t t = 0; t < lod0.triangle_count(); ++t) {
    const double s = triangle_area(lod0, t);
    area[bone[t]] += s;
    total += s;
  }
  // Leaves first (a child always before its parent): the area of each joint's subtree.
  std::vector<int> depth(joints, 0);
  for (std::size_t j = 0; j < joints; ++j) {
    int d = 0;
    for (int p = parent_of(j); p >= 0 && d <= static_cast<int>(joints);
         p = parent_of(static_cast<std::size_t>(p)))
      ++d;
    depth[j] = d;
  }
  std::vector<std::size_t> order(joints);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return depth[a] > depth[b]; });
  std::vector<double> subtree = area;
  std::vector<int> branches(joints, 0);  // children whose subtree has surface
  for (const std::size_t j : order) {
    const int p = parent_of(j);
    if (p < 0) continue;
    subtree[static_cast<std::size_t>(p)] += subtree[j];
    if (subtree[j] > 0.0) ++branches[static_cast<std::size_t>(p)];
  }
  // A region starts at a root and at each limb leaving a branch point (a joint with two or more
  // children carrying surface: arms and neck off the chest, legs off the hips, fingers off a hand),
  // unless the limb holds less than `min_area_fraction` of the surface (it stays with its parent).
  const double threshold = static_cast<double>(min_area_fraction) * total;
  std::vector<std::uint8_t> is_head(joints, 0);
  for (std::size_t j = 0; j < joints; ++j) {
    const int p = parent_of(j);
    is_head[j] = p < 0 || (branches[static_cast<std::size_t>(p)] >= 2 && subtree[j] >= threshold) ? 1 : 0;
  }
  std::vector<std::uint32_t> region_of_head(joints, UINT32_MAX);
  std::vector<std::size_t> head(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    std::size_t h = j;
    for (int guard = 0; !is_head[h] && guard <= static_cast<int>(joints); ++guard)
      h = static_cast<std::size_t>(parent_of(h));
    head[j] = h;
  }
  region_count = 0;
  std::vector<std::uint32_t> region(lod0.triangle_count());
  for (std::size_t t = 0; t < region.size(); ++t) {
    const std::size_t h = head[bone[t]];
    if (region_of_head[h] == UINT32_MAX) region_of_head[h] = static_cast<std::uint32_t>(region_count++);
    region[t] = region_of_head[h];
  }
  return region;
}

Lod2Result remesh_lod2_by_region(const BakeMesh& lod0, const anim::Texture& lod0_texture,
                                 std::span<const BakeMaterial> materials, const Lod2Options& options,
                                 std::span<const std::uint32_t> region_of_triangle, std::size_t region_count,
                                 const TriangleColour* source_colour) {
  validate_inputs(lod0, lod0_texture, materials, options);
  if (region_of_triangle.size() != lod0.triangle_count())
    throw Error("LOD2 region remesh: one region per LOD0 triangle expected", "remesh_lod2_by_region");
  const Resolution res = resolution_of(lod0, options);
  std::vector<std::vector<std::uint32_t>> triangles(region_count);
  std::vector<double> area(region_count, 0.0);
  double total = 0.0;
  for (std::uint32_t t = 0; t < lod0.triangle_count(); ++t) {
    if (region_of_triangle[t] >= region_count) throw Error("LOD2 region remesh: region out of range");
    triangles[region_of_triangle[t]].push_back(t);
    const double s = triangle_area(lod0, t);
    area[region_of_triangle[t]] += s;
    total += s;
  }
  RemeshedPart joined;
  for (std::size_t r = 0; r < region_count; ++r) {
    if (triangles[r].empty()) continue;
    const double share = total > 0.0 ? area[r] / total : 1.0 / static_cast<double>(region_count);
    const auto target = std::max<std::size_t>(
        kMinRegionTriangles, static_cast<std::size_t>(std::lround(share * options.target_triangles)));
    append(joined, remesh_triangles(lod0, triangles[r], res.voxel, res.thickness, target));
  }
  return unwrap_and_texture(lod0, lod0_texture, std::move(joined), res.diagonal, source_colour);
}

}  // namespace myriad::crowd
