// The streamed voxel world as a frame scene: a StreamWorld generates, lights and meshes section columns
// on worker threads around the camera; each frame takes what changed, uploads it into the page slots of a
// window of sections (StreamTerrain) within a byte budget and draws it with the same scene frame as the
// fixed voxel scene. What `myriad render|view --scene voxel --world-size N` shows.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "myriad/core/stream/pacer.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/voxel/stream_terrain.hpp"
#include "myriad/render/voxel/voxel_editing.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"
#include "myriad/voxel/stream/far_stream.hpp"
#include "myriad/voxel/stream/level_choice.hpp"
#include "myriad/voxel/stream/stream_world.hpp"

namespace myriad::render {

struct StreamedVoxelSceneOptions {
  glm::ivec3 world_size{4096, 128, 4096};
  std::uint64_t seed = 1;
  int radius = 12;     // StreamOptions::radius (columns)
  int far_levels = 2;  // far LOD levels (0: none): level L merges 2^L x 2^L x 2^L cells
  // Each level's ring in its own blocks (12: level 1 to 24 columns, level 2 to 48); raised to radius / 2 + 2
  // when that is more, so level 1 reaches past the fine ring.
  int far_radius = 12;
  int worker_threads = 0;
  voxel::MeshMode mesh_mode = voxel::MeshMode::kAtlas;
  // Geometry bytes per frame (the "voxel terrain" share of the upload queue, every level together): 1 MiB
  // is 60 MiB/s at 60 Hz, several times what a flight at 60 m/s streams, and keeps the frame's copies
  // (into the upload queue, then the staging ring) well under a millisecond.
  std::uint64_t upload_budget = 1ull << 20;
  std::filesystem::path save_directory;   // StreamOptions::save_directory
  bool vegetation = true;                 // grass and trees on the fine columns (V15)
  int vegetation_sections_per_frame = 8;  // sections' plants copied in per frame at most (the rest wait)
  // Arrivals come in bursts (a row of columns is meshed together, and a row evicted): the section
  // uploads (every level together), the removals (per window) and the vegetation placements are each
  // paced (core/stream/pacer.hpp), within the limits above. By default a frame takes ceil(waiting / 24)
  // of each, at least one: at 20 m/s a row arrives every ~48 frames, and 24 spreads it over about half
  // that (6 left a frame with a full megabyte to queue between runs of empty ones). smoothing_frames > 0
  // adds the recent arrival rate, spreading a row over all the frames until the next; measured at 120
  // frames with a floor of 120 it lowered the 20 m/s flight's p99 and raised the 60 m/s flight's, so it
  // is not the default (docs/BENCHMARKS.md). frames 1: all at once.
  PacerOptions pacing{.frames = 24, .smoothing_frames = 0, .headroom = 1.25};
  // Finished stream jobs (a column's generation, light or mesh; a far block) taken per frame at most, per
  // stream; the rest wait, done, for the next frames (StreamOptions::max_collects_per_update). 0: all.
  int collects_per_frame = 8;
  std::shared_ptr<const voxel::TileSet> tiles;  // block textures (voxel::load_tile_pack); null = built-in

  // Throws myriad::Error naming the first invalid field: this struct's own and those of the streams it
  // configures (the constructor calls it; the CLI before anything is built).
  void validate() const;
};

struct StreamedVoxelStats {
  std::uint64_t frame = 0;
  double cpu_stream_ms = 0.0;  // StreamWorld::update
  double cpu_upload_ms = 0.0;  // everything between the stream update and recording (the phases below)
  double cpu_record_ms = 0.0;
  // The parts of cpu_upload_ms: vegetation placement, FarStream::update, queueing meshes into the arenas
  // (StreamTerrain::apply, all levels), the level choice (hidden flags).
  double cpu_vegetation_ms = 0.0, cpu_far_ms = 0.0, cpu_apply_ms = 0.0, cpu_levels_ms = 0.0;
  bool levels_chosen = false;  // the level choice was made again somewhere this frame (its inputs changed)
  std::uint32_t level_blocks_chosen = 0;  // top-level blocks whose units were chosen again this frame
  StreamTerrainStats uploads;
  std::uint32_t sections_meshed = 0, sections_evicted = 0;  // this frame's stream update
  std::uint32_t columns_generated = 0, columns_lit = 0;     // (generated includes read back)
  std::uint32_t hole_columns = 0;  // columns within the view distance, in the frustum, drawn by no level
  std::uint32_t far_sections_meshed = 0;
  std::uint32_t vegetation_placed = 0, vegetation_pending = 0;  // sections this frame; waiting
  std::uint32_t shown_columns = 0, shown_far_blocks = 0;  // units drawn this frame per level (fine; far)
  voxel::StreamStats stream;
  TerrainFrameStats terrain;
};

// Camera presets for a streamed world of `size` (around its centre): "horizon" (above the hills, looking
// out to the edge of the streamed area), "overview" (high, looking down), "ground" (near the surface).
std::vector<std::pair<std::string, SceneCamera>> streamed_voxel_presets(glm::ivec3 size);

class StreamedVoxelScene : public FrameScene, public VoxelEditing, private voxel::LevelSource {
 public:
  StreamedVoxelScene(gpu::Context& ctx, const StreamedVoxelSceneOptions& options);
  ~StreamedVoxelScene() override;

  void update(double dt, const SceneCamera& camera, std::uint32_t width, std::uint32_t height,
              const FrameOptions& settings) override;
  void record(VkCommandBuffer cmd, const FrameOptions& settings, OffscreenTarget& target) override;
  void finish_frame() override;
  std::vector<std::string> stats_lines() const override;
  VoxelEditing* voxel_editing() override { return this; }

  // Edits go to the stream (StreamWorld::edit: applied once no job reads the column); the frames upload
  // the re-meshed sections within the budget. pick() reads the resident columns.
  voxel::PickResult pick(glm::dvec3 origin, glm::dvec3 direction, double max_distance,
                         double slice_height) const override;
  void edit(const voxel::VoxelEdit& edit) override;
  const VoxelEditStats& edit_stats() const override { return edits_; }
  void set_outline(std::optional<CellOutlineTarget> target) override { outline_.set(target); }

  // Nothing left to stream for the last camera and nothing waiting for upload.
  bool settled() const;
  // Units within reach whose windows draw them otherwise than a level choice made from scratch now would
  // (0 unless a change of readiness went unreported to the kept choice): a check for tests.
  std::uint32_t level_choice_errors() const;
  const StreamedVoxelStats& stats() const { return stats_; }
  const StreamedVoxelSceneOptions& options() const { return options_; }
  voxel::StreamWorld& world() { return *stream_; }
  StreamTerrain& terrain() { return *terrain_; }
  VoxelVegetationRenderer* vegetation() { return vegetation_.get(); }
  int far_levels() const { return int(far_terrain_.size()); }
  StreamTerrain& far_terrain(int level) { return *far_terrain_.at(std::size_t(level - 1)); }
  voxel::FarStream* far_stream() { return far_.get(); }
  // View distance in metres: the meshed radius less the column being crossed.
  float view_distance() const;
  // How far the world is drawn (metres): the outermost far level's ring less one block; the view's fog
  // (Lighting::fog_distance) is complete there.
  float reach() const;

 private:
  // The level choice's source (voxel::LevelSource): a fine column is ready when it is meshed and its
  // sections current in the window, a far block when FarStream holds its meshes and they are current in
  // its level's window; hiding sets the window's sections.
  bool ready(int level, glm::ivec2 unit) const override;
  void set_hidden(int level, glm::ivec2 unit, bool hidden) override;
  // Tells the level choice which units' readiness this frame's stream, far and window updates changed.
  void mark_level_changes(const voxel::StreamUpdate& fine, const voxel::FarUpdate* far);
  void count_holes(const FrameView& view);
  void place_vegetation(std::size_t arrived);  // `arrived` sections joined the queue this frame

  gpu::Context& ctx_;
  StreamedVoxelSceneOptions options_;
  gpu::UploadShare terrain_share_;  // every level's geometry, paced by options_.upload_budget
  std::unique_ptr<voxel::StreamWorld> stream_;
  std::unique_ptr<StreamTerrain> terrain_;
  std::unique_ptr<voxel::FarStream> far_;
  std::vector<std::unique_ptr<StreamTerrain>> far_terrain_;  // [level - 1]
  std::unique_ptr<VoxelVegetationRenderer> vegetation_;      // slots as the fine window's
  std::vector<glm::ivec3> vegetation_queue_;                 // sections to (re)place, FIFO
  std::vector<glm::ivec3> vegetation_owner_;                 // per slot: the section its instances are of
  SceneFrame frame_;
  CellOutline outline_;
  VoxelEditStats edits_;
  EditLatency edit_latency_;
  Pacer upload_pacer_, vegetation_pacer_;  // options_.pacing each
  std::vector<Pacer> removal_pacers_;      // per window: [0] the fine one, [L] far level L
  std::vector<std::size_t> far_evicted_;   // this frame's evicted far sections per level (index as above)
  std::vector<FrameSystem*> systems_;
  StreamedVoxelStats stats_;
  std::optional<voxel::LevelChoice> levels_;  // which level draws each place (kept across frames)
  double time_ = 0.0;
  FrameView view_;  // the frame update() prepared (valid once has_view_)
  bool has_view_ = false;
  bool recorded_ = false;
};

}  // namespace myriad::render
