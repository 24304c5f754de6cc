// Editing a drawn voxel world (V13): the one way the viewer, the headless `myriad voxel edit` and the
// default scene's soak edits change it. A scene that can be edited hands out a VoxelEditing: pick a cell
// along a ray (through the cells the mesher reads), apply an edit, outline a cell, and the figures of its
// edits. The fixed world applies an edit at once (FixedWorldEditor: relight, re-mesh exactly the sections
// that read a changed cell, queue their uploads); the streamed world queues it for its stream, whose
// workers relight and re-mesh, and the frame uploads the result within its budget.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "myriad/render/terrain/terrain_renderer.hpp"
#include "myriad/render/voxel/cell_outline.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"
#include "myriad/voxel/edit/edit_script.hpp"
#include "myriad/voxel/edit/pick.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::render {

// What edits did, for the stats panel and `voxel_edit.json`.
struct VoxelEditStats {
  std::uint64_t edits = 0;              // applied or queued
  std::uint64_t sections_remeshed = 0;  // rebuilt because their padded block changed (all edits so far)
  std::uint64_t sections_uploaded = 0;  // of those, the ones whose old or new mesh has geometry
  double last_cpu_ms = 0.0;             // the last edit's work on the calling (frame) thread
  // Frames from the frame whose update took the last edit (1) to the first frame that drew all of its
  // meshes; 0 while they are still on their way (or before any edit).
  std::uint32_t last_frames_to_visible = 0;
  bool waiting = false;  // the last edit's meshes are not all drawn yet
};

// The panel's line for the edits ("voxel edits: N, sections re-meshed M (last X ms, visible K frames)").
std::string edit_stats_line(const VoxelEditStats& stats);

class VoxelEditing {
 public:
  virtual ~VoxelEditing() = default;
  // The first solid cell along the ray (world units), within max_distance; cells wholly above
  // `slice_height` (a sliced view's cut) are passed through.
  virtual voxel::PickResult pick(glm::dvec3 origin, glm::dvec3 direction, double max_distance,
                                 double slice_height) const = 0;
  // Applies or queues one edit. Throws myriad::Error (the world unchanged) for a cell outside the world,
  // an unknown material, or (streamed) a column that is not loaded.
  virtual void edit(const voxel::VoxelEdit& edit) = 0;
  virtual const VoxelEditStats& edit_stats() const = 0;
  // The cell outlined in the next frames (none: no outline).
  virtual void set_outline(std::optional<CellOutlineTarget> target) = 0;
};

// The latency of the last edit in frames: started by the frame that takes an edit, ended by the first
// finished frame after which nothing of it is pending.
class EditLatency {
 public:
  void edit_taken(VoxelEditStats& stats) {
    stats.waiting = true;
    stats.last_frames_to_visible = 0;
    frames_ = 0;
  }
  // After a frame finished; `pending()`: some of the last edit's work is not drawn yet (asked only while
  // an edit is waiting, so frames without one pay nothing).
  template <class Pending>
  void frame_finished(VoxelEditStats& stats, Pending pending) {
    if (!stats.waiting) return;
    ++frames_;
    if (pending()) return;
    stats.waiting = false;
    stats.last_frames_to_visible = frames_;
  }

 private:
  std::uint32_t frames_ = 0;
};

// A fixed world's edits: edit_voxel (relight, exact dirty sections), the dirty sections re-meshed with the
// world's mesh options and handed to the terrain (and their plants to the vegetation), queued for upload.
class FixedWorldEditor {
 public:
  FixedWorldEditor(voxel::World& world, voxel::WorldMesher& mesher, const voxel::MeshOptions& mesh,
                   TerrainRenderer& terrain, VoxelVegetationRenderer* vegetation,
                   std::uint64_t vegetation_seed);

  struct Outcome {
    std::vector<int> sections;   // re-meshed (sorted)
    std::uint32_t uploaded = 0;  // of which the old or new mesh has geometry
    double cpu_ms = 0.0;
  };
  // Throws myriad::Error (world unchanged) for a cell outside the world or an unknown material.
  Outcome apply(const voxel::VoxelEdit& edit);
  // Adds an outcome to the stats.
  static void count(const Outcome& outcome, VoxelEditStats& stats);
  // The scratch it keeps between edits (sections' meshes waiting for the hand-over: none after apply).
  std::uint64_t cpu_bytes() const;

 private:
  voxel::World& world_;
  voxel::WorldMesher& mesher_;
  voxel::MeshOptions mesh_;
  TerrainRenderer& terrain_;
  VoxelVegetationRenderer* vegetation_;
  std::uint64_t seed_;
  std::vector<voxel::SectionMesh> meshes_;  // only dirty sections hold a mesh, until handed over
  voxel::SectionVegetation plants_;
};

}  // namespace myriad::render
