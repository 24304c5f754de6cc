#include "myriad/crowd_bake/uv/uv_unwrap.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/crowd_bake/texture/texture_rebake.hpp"
#include "myriad/crowd_bake/uv/uv_layout.hpp"

#include <cmath>
#include <string>

namespace myriad::crowd {

namespace {

// Atlas side for a mesh whose materials carry no texture (colour factors only): enough texels to
// hold per-triangle colour, little memory.
constexpr float kUntexturedAtlasTexels = 256.0f;

float total_area(const BakeMesh& mesh) {
  double area = 0.0;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const glm::vec3 a = mesh.positions[mesh.indices[3 * t]];
    area += 0.5 * static_cast<double>(glm::length(glm::cross(mesh.positions[mesh.indices[3 * t + 1]] - a,
                                                             mesh.positions[mesh.indices[3 * t + 2]] - a)));
  }
  return static_cast<float>(area);
}

}  // namespace

void UnwrapOptions::validate() const {
  if (!(seam_angle_deg > 0.0f && seam_angle_deg <= 180.0f))
    throw Error("unwrap: seam angle " + std::to_string(seam_angle_deg) + " is out of range",
                "UnwrapOptions::seam_angle_deg", "use (0, 180] degrees");
  if (padding_px < 0 || padding_px > 64)
    throw Error("unwrap: padding " + std::to_string(padding_px) + " is out of range",
                "UnwrapOptions::padding_px", "use 0..64 texels");
  if (!(texels_per_unit >= 0.0f) || !std::isfinite(texels_per_unit))
    throw Error("unwrap: texel density must be finite and not negative", "UnwrapOptions::texels_per_unit",
                "0 = the original's texel density");
  if (max_atlas_size < 16 || max_atlas_size > 16384)
    throw Error("unwrap: atlas size " + std::to_string(max_atlas_size) + " is out of range",
                "UnwrapOptions::max_atlas_size", "use 16..16384 texels a side");
}

UnwrapResult unwrap_and_rebake(const BakeMesh& welded, const BakeMesh& original,
                               std::span<const BakeMaterial> materials,
                               std::span<const anim::Texture> textures, const UnwrapOptions& options) {
  options.validate();
  validate(welded, materials.size(), "unwrap (welded mesh)");
  validate(original, materials.size(), "unwrap (original mesh)");
  if (welded.triangle_count() != original.triangle_count()) {
    throw Error("unwrap: the welded mesh has " + std::to_string(welded.triangle_count()) +
                    " triangles but the original " + std::to_string(original.triangle_count()),
                "unwrap_and_rebake", "welding merges vertices only; pass the mesh it was welded from");
  }
  float density = options.texels_per_unit;
  if (!(density > 0.0f)) density = texel_density(original, materials, textures);
  if (!(density > 0.0f)) {
    const float area = total_area(welded);
    if (!(area > 0.0f)) throw Error("unwrap: the mesh has no surface area", "unwrap_and_rebake");
    density = kUntexturedAtlasTexels * std::sqrt(0.6f / area);
  }
  const bool has_uvs = original.uvs.size() == original.positions.size();
  std::vector<glm::vec2> corner_uvs(original.indices.size(), glm::vec2(0.0f));
  if (has_uvs) {
    for (std::size_t i = 0; i < corner_uvs.size(); ++i) corner_uvs[i] = original.uvs[original.indices[i]];
  }
  UvLayout layout = layout_uvs(
      welded, options.seam_angle_deg, options.padding_px, density, options.max_atlas_size,
      options.merge_charts, options.join_sharp_edges,
      options.keep_original_uvs ? std::span<const glm::vec2>(corner_uvs) : std::span<const glm::vec2>());
  if (options.keep_original_uvs && layout.mesh.vertex_count() > layout.original_uv_bound)
    throw Error("unwrap: " + std::to_string(layout.mesh.vertex_count()) + " vertices exceed the bound of " +
                std::to_string(layout.original_uv_bound) + " (the original UV seams)");

  auto colour = [&](std::uint32_t t, glm::vec3 bary) {
    const std::uint32_t* f = &original.indices[3 * t];
    const glm::vec2 uv =
        has_uvs ? bary.x * original.uvs[f[0]] + bary.y * original.uvs[f[1]] + bary.z * original.uvs[f[2]]
                : glm::vec2(0.0f);
    return sample_base_color(materials[original.triangle_material[t]], textures, uv);
  };
  UnwrapResult result;
  result.texture = bake_atlas(layout.mesh, layout.width, layout.height, options.padding_px, colour);
  result.mesh = std::move(layout.mesh);
  result.source_vertex = std::move(layout.source_vertex);
  result.chart_count = layout.chart_count;
  result.vertex_bound = layout.original_uv_bound;
  result.charts_kept_original = layout.charts_kept_original;
  result.texels_per_unit = layout.texels_per_unit;
  return result;
}

}  // namespace myriad::crowd
