// A voxel world lit, meshed and set on a TerrainRenderer, as tests that draw terrain need it.
#pragma once

#include <memory>
#include <vector>

#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/terrain/terrain_renderer.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::test {

inline std::unique_ptr<render::TerrainRenderer> lit_terrain(gpu::Context& ctx, voxel::World& world) {
  voxel::compute_light(world);
  std::vector<voxel::SectionMesh> meshes;
  voxel::WorldMesher mesher;
  mesher.mesh_all(world, {}, meshes);
  auto terrain = std::make_unique<render::TerrainRenderer>(
      ctx, world.sections(), render::OffscreenTarget::kColorFormat, render::OffscreenTarget::kDepthFormat);
  for (int s = 0; s < int(meshes.size()); ++s)
    terrain->set_section(s, glm::vec3(world.section_coord(s) * voxel::kSectionSize), meshes[std::size_t(s)]);
  return terrain;
}

}  // namespace myriad::test
