#include "myriad/render/voxel/voxel_editing.hpp"

#include <cstdio>

#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/vegetation.hpp"

namespace myriad::render {

FixedWorldEditor::FixedWorldEditor(voxel::World& world, voxel::WorldMesher& mesher,
                                   const voxel::MeshOptions& mesh, TerrainRenderer& terrain,
                                   VoxelVegetationRenderer* vegetation, std::uint64_t vegetation_seed)
    : world_(world),
      mesher_(mesher),
      mesh_(mesh),
      terrain_(terrain),
      vegetation_(vegetation),
      seed_(vegetation_seed) {}

FixedWorldEditor::Outcome FixedWorldEditor::apply(const voxel::VoxelEdit& e) {
  const Stopwatch clock;
  const voxel::EditResult r = voxel::edit_voxel(world_, e.cell, e.material, e.form);
  Outcome out;
  out.sections = r.dirty_sections;
  meshes_.resize(std::size_t(world_.section_count()));
  mesher_.mesh_sections(world_, r.dirty_sections, mesh_, meshes_);
  for (const int s : r.dirty_sections) {
    voxel::SectionMesh& mesh = meshes_[std::size_t(s)];
    const bool had = terrain_.page_bounds(std::uint32_t(s)).valid();
    if (had || !mesh.indices.empty()) ++out.uploaded;
    terrain_.set_section(s, glm::vec3(world_.section_coord(s) * voxel::kSectionSize), mesh);
    mesh = {};  // no CPU copy of the geometry after the hand-over (V7)
    if (vegetation_) {
      voxel::place_vegetation(world_, world_.section_coord(s), seed_, plants_);
      vegetation_->set_section(s, plants_);
    }
  }
  out.cpu_ms = clock.elapsed_ms();
  return out;
}

std::string edit_stats_line(const VoxelEditStats& s) {
  char line[160];
  std::snprintf(line, sizeof line, "voxel edits: %llu, sections re-meshed %llu (last %.2f ms, visible %s)",
                static_cast<unsigned long long>(s.edits),
                static_cast<unsigned long long>(s.sections_remeshed), s.last_cpu_ms,
                s.waiting ? "pending" : (std::to_string(s.last_frames_to_visible) + " frames").c_str());
  return line;
}

void FixedWorldEditor::count(const Outcome& outcome, VoxelEditStats& stats) {
  ++stats.edits;
  stats.sections_remeshed += outcome.sections.size();
  stats.sections_uploaded += outcome.uploaded;
  stats.last_cpu_ms = outcome.cpu_ms;
}

std::uint64_t FixedWorldEditor::cpu_bytes() const {
  std::uint64_t bytes = meshes_.capacity() * sizeof(voxel::SectionMesh);
  for (const voxel::SectionMesh& m : meshes_)
    bytes += m.vertices.capacity() * sizeof(voxel::TerrainVertex) +
             m.indices.capacity() * sizeof(std::uint32_t) + m.atlas.capacity() * sizeof(voxel::AtlasRecord);
  return bytes;
}

}  // namespace myriad::render
