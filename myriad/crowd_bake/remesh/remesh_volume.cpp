#include "myriad/crowd_bake/remesh/remesh_volume.hpp"

#include "myriad/core/io/error.hpp"

#include <openvdb/openvdb.h>
#include <openvdb/tools/MeshToVolume.h>
#include <openvdb/tools/VolumeToMesh.h>

#include <cmath>
#include <string>

namespace myriad::crowd {

VoxelSurface thickened_voxel_surface(const std::vector<glm::vec3>& positions,
                                     const std::vector<std::uint32_t>& indices, float voxel_size,
                                     float thickness) {
  if (!(voxel_size > 0.0f) || !(thickness > 0.0f)) {
    throw Error("LOD2 remesh: voxel size and thickness must be positive", "Lod2Options");
  }
  openvdb::initialize();
  const openvdb::math::Transform::Ptr transform =
      openvdb::math::Transform::createLinearTransform(static_cast<double>(voxel_size));
  std::vector<openvdb::Vec3s> points(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i)
    points[i] = openvdb::Vec3s(positions[i].x, positions[i].y, positions[i].z);
  std::vector<openvdb::Vec3I> triangles(indices.size() / 3);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    triangles[t] = openvdb::Vec3I(indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]);
  }
  const std::vector<openvdb::Vec4I> no_quads;
  // The band must reach past the iso-surface by a few voxels so the mesher sees both sides of it.
  const float band = thickness / voxel_size + 3.0f;
  const openvdb::FloatGrid::Ptr distance = openvdb::tools::meshToUnsignedDistanceField<openvdb::FloatGrid>(
      *transform, points, triangles, no_quads, band);

  std::vector<openvdb::Vec3s> out_points;
  std::vector<openvdb::Vec3I> out_triangles;
  std::vector<openvdb::Vec4I> out_quads;
  openvdb::tools::volumeToMesh(*distance, out_points, out_triangles, out_quads,
                               static_cast<double>(thickness), 0.0);
  if (out_points.empty()) {
    throw Error("LOD2 remesh: the voxel surface is empty (voxel size " + std::to_string(voxel_size) + ")",
                "Lod2Options::voxel_size", "use a smaller voxel size");
  }
  VoxelSurface surface;
  surface.positions.reserve(out_points.size());
  for (const openvdb::Vec3s& p : out_points) surface.positions.emplace_back(p.x(), p.y(), p.z());
  surface.indices.reserve(out_triangles.size() * 3 + out_quads.size() * 6);
  for (const openvdb::Vec3I& t : out_triangles)
    surface.indices.insert(surface.indices.end(), {t[0], t[1], t[2]});
  for (const openvdb::Vec4I& q : out_quads) {
    surface.indices.insert(surface.indices.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
  }
  return surface;
}

}  // namespace myriad::crowd
