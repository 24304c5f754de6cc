// Generates, lights and meshes a small voxel world through the installed package (voxel component only).
#include <cstdio>
#include <vector>

#include "myriad/version.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

int main() {
  myriad::voxel::World world = myriad::voxel::generate_world({64, 64, 64}, myriad::voxel::GeneratorParams{});
  myriad::voxel::compute_light(world);
  std::vector<myriad::voxel::SectionMesh> meshes;
  myriad::voxel::WorldMesher mesher;
  mesher.mesh_all(world, myriad::voxel::MeshOptions{}, meshes);
  std::size_t triangles = 0;
  for (const auto& m : meshes) triangles += m.indices.size() / 3;
  std::printf("Myriad %s: %zu sections, %zu triangles\n", MYRIAD_VERSION_STRING, meshes.size(), triangles);
  return triangles > 0 ? 0 : 1;
}
