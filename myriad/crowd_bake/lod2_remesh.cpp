#include "myriad/crowd_bake/lod2_remesh.hpp"

#include "myriad/core/error.hpp"
#include "myriad/crowd_bake/remesh_shells.hpp"
#include "myriad/crowd_bake/remesh_steps.hpp"
#include "myriad/crowd_bake/texture_rebake.hpp"
#include "myriad/crowd_bake/uv_layout.hpp"

#include <cmath>
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

void validate_inputs(const BakeMesh& lod0, const anim::Texture& texture,
                     std::span<const BakeMaterial> materials, const Lod2Options& options) {
  validate(lod0, materials.size(), "LOD2 remesh (LOD0)");
  if (lod0.uvs.size() != lod0.positions.size()) {
    throw Error("LOD2 remesh: LOD0 has no UVs", "remesh_lod2", "unwrap LOD0 before building LOD2");
  }
  if (texture.width == 0 || texture.height == 0 ||
      texture.rgba8.size() != static_cast<std::size_t>(texture.width) * texture.height * 4) {
    throw Error("LOD2 remesh: LOD0's texture is empty or its size does not match its pixels", "remesh_lod2");
  }
  if (options.target_triangles < 16 || options.target_triangles > 100000) {
    throw Error("LOD2 remesh: target of " + std::to_string(options.target_triangles) + " triangles",
                "Lod2Options::target_triangles", "use 16..100000 (the article uses 200-460)");
  }
  if (!(options.thickness >= 0.0f) || !(options.voxel_size >= 0.0f) || !std::isfinite(options.thickness) ||
      !std::isfinite(options.voxel_size)) {
    throw Error("LOD2 remesh: thickness and voxel size must be finite and not negative", "Lod2Options");
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

Lod2Result remesh_lod2(const BakeMesh& lod0, const anim::Texture& lod0_texture,
                       std::span<const BakeMaterial> materials, const Lod2Options& options,
                       const TriangleColour* source_colour) {
  validate_inputs(lod0, lod0_texture, materials, options);
  const float diagonal = bounds_diagonal(lod0);
  if (!(diagonal > 0.0f)) throw Error("LOD2 remesh: LOD0 has no extent", "remesh_lod2");
  const float voxel = options.voxel_size > 0.0f ? options.voxel_size : diagonal / kVoxelsAcrossDiagonal;
  const float thickness = options.thickness > 0.0f ? options.thickness : kThicknessVoxels * voxel;
  if (diagonal / voxel > 2048.0f) {
    throw Error("LOD2 remesh: voxel size " + std::to_string(voxel) + " gives more than 2048 voxels across",
                "Lod2Options::voxel_size", "use a larger voxel size");
  }

  VoxelSurface surface = thickened_voxel_surface(lod0.positions, lod0.indices, voxel, thickness);
  keep_outer_shells(surface);
  simplify_surface(surface, static_cast<std::size_t>(options.target_triangles));
  if (surface.indices.empty()) throw Error("LOD2 remesh: simplification left no triangles", "remesh_lod2");
  const ClosestPointQuery query(lod0.positions, lod0.indices);
  shrink_wrap(surface, query);

  // The remeshed LOD2 before unwrapping: skin blended from the attachments, each triangle taking the
  // material of the original triangle nearest to its centre (so back-face culling matches).
  BakeMesh mesh;
  mesh.positions = surface.positions;
  mesh.indices = surface.indices;
  mesh.normals = vertex_normals(mesh.positions, mesh.indices);
  std::vector<Attachment> attachments(mesh.positions.size());
  mesh.joints.resize(mesh.positions.size());
  mesh.weights.resize(mesh.positions.size());
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    attachments[v] = attach_to_nearest(mesh.positions[v], lod0, query);
    blend_skin(lod0, attachments[v], mesh.joints[v], mesh.weights[v]);
  }
  mesh.triangle_material.resize(mesh.triangle_count());
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const glm::vec3 centre = (mesh.positions[mesh.indices[3 * t]] + mesh.positions[mesh.indices[3 * t + 1]] +
                              mesh.positions[mesh.indices[3 * t + 2]]) /
                             3.0f;
    mesh.triangle_material[t] = lod0.triangle_material[query.closest(centre).triangle];
  }

  float density = atlas_texel_density(lod0, lod0_texture.width, lod0_texture.height);
  if (!(density > 0.0f)) density = kUntexturedAtlasTexels / diagonal;
  UvLayout layout = layout_uvs(mesh, kSeamAngleDeg, kAtlasPaddingPx, density, kMaxAtlasSize);

  Lod2Result result;
  result.attachments.reserve(layout.source_vertex.size());
  for (const std::uint32_t source : layout.source_vertex) result.attachments.push_back(attachments[source]);
  // Each texel takes the colour at the LOD0 surface point nearest to it: from the source (the original
  // textures) when given, else from LOD0's atlas.
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

}  // namespace myriad::crowd
