// Far LOD rings around the camera: level-L blocks (far_mesh.hpp) meshed on worker threads within a ring of
// Chebyshev distance in level-L blocks from the camera's block, nearest first, evicted beyond it with their
// slots reused. Level 1 also covers the inside (the fallback drawn while StreamWorld's fine columns arrive);
// level L > 1 starts one block inside where level L - 1's ring ends, so rings overlap instead of leaving
// gaps while both stream. update() never waits for a job.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <vector>

#include "myriad/core/stream/slot_pool.hpp"
#include "myriad/core/stream/stream_jobs.hpp"
#include "myriad/core/stream/stream_ring.hpp"
#include "myriad/voxel/stream/far_mesh.hpp"

namespace myriad::voxel {

struct FarStreamOptions {
  glm::ivec3 world_size{4096, 128, 4096};
  GeneratorParams generator;
  MeshOptions mesh;
  int levels = 2;         // levels 1..levels are streamed (at most kFarMaxLevel)
  int inner_radius = 12;  // StreamWorld's radius in columns: level 1's ring must reach beyond it
  // Outer reach of each level's ring in its own blocks (Chebyshev distance from the camera's block): 12
  // level-1 blocks = 24 columns, 12 level-2 blocks = 48 columns, 12 level-3 blocks = 96 columns.
  std::array<int, kFarMaxLevel> radius{12, 12, 12};
  int worker_threads = 1;               // of its own pool, without `workers`
  std::shared_ptr<WorkerPool> workers;  // a pool shared with the scene's other streamers, or null
  int max_jobs_in_flight = 0;           // 0: 4 per worker thread
  int max_launches_per_update = 8;      // new jobs per update at most
  int max_collects_per_update = 0;      // finished jobs taken per update at most; 0: all
  // Columns with a save file here (StreamWorld's save_directory) are read instead of generated.
  std::filesystem::path save_directory;

  // Throws myriad::Error naming the first invalid field (the constructor calls it).
  void validate() const;
};

struct FarSection {
  int level = 0;
  glm::ivec2 block{0};
  int sy = 0;
  bool operator==(const FarSection&) const = default;
};

struct FarBlockId {
  int level = 0;
  glm::ivec2 block{0};
  bool operator==(const FarBlockId&) const = default;
};

// What one update changed, for the renderer (the contract of StreamUpdate): upload `meshed` sections'
// meshes (FarStream::mesh) into their slots (an empty mesh frees the slot), then free the slots of
// `evicted` sections. Both list only sections whose old or new mesh has geometry.
struct FarUpdate {
  std::vector<FarSection> meshed;
  std::vector<FarSection> evicted;
  // Blocks whose readiness (block_ready) changed either way, each once per change: what the level
  // choice reads (LevelChoice::changed).
  std::vector<FarBlockId> ready_changed;
  int blocks_meshed = 0, blocks_evicted = 0, sections_meshed = 0;
  void clear();
};

struct FarStats {
  std::size_t resident_blocks = 0;  // blocks with a slot (meshed, or being meshed)
  std::size_t pool_blocks = 0;      // slots ever made (reused after eviction; bounds memory)
  std::size_t resident_bytes = 0;   // mesh capacities of all slots
  std::size_t jobs_in_flight = 0;
};

class FarStream {
 public:
  explicit FarStream(const FarStreamOptions& options);  // throws myriad::Error for invalid options
  ~FarStream();                                         // waits for the jobs in flight
  FarStream(const FarStream&) = delete;
  FarStream& operator=(const FarStream&) = delete;

  // Collects finished jobs, evicts blocks beyond their level's ring by more than one block (and level
  // L > 1 blocks more than one block inside their ring's inner edge), and launches the needed blocks
  // nearest first (distance in columns; ties: lower level first) within the launch budget. Rethrows a
  // job's error (myriad::Error, e.g. a corrupt save file); the block is tried again by a later update.
  // The result is reused by the next call.
  const FarUpdate& update(glm::dvec3 camera);
  // Nothing in flight and nothing left to launch for the last camera position.
  bool idle() const;

  // Re-queues the blocks of every level that cover `column` (e.g. after its save file changed). A meshed
  // block keeps its old meshes until the new ones arrive.
  void refresh_column(glm::ivec2 column);

  const FarStreamOptions& options() const { return options_; }
  // The block's section mesh when it is meshed, else null. Valid until the next update().
  const SectionMesh* mesh(int level, glm::ivec2 block, int sy) const;
  bool block_ready(int level, glm::ivec2 block) const;
  int sections_y(int level) const { return far_sections_y(options_.world_size.y, level); }
  FarStats stats() const;

  // Whether a level-L block is wanted around the camera's column `camera_column` (without the eviction
  // margin), by the rules above.
  bool needed(int level, glm::ivec2 block, glm::ivec2 camera_column) const;

 private:
  struct Slot {
    int level = 0;
    glm::ivec2 block{0};
    bool used = false, ready = false, building = false, dirty = false;
    std::vector<SectionMesh> meshes;
  };
  struct Job;
  struct Candidate {
    int distance, level;
    glm::ivec2 block;
  };

  int slot_of(int level, glm::ivec2 block) const;
  bool inside(int level, glm::ivec2 block) const;
  int distance(int level, glm::ivec2 block, glm::ivec2 camera_column) const;  // in blocks
  int inner_edge(int level) const;  // first needed distance in blocks
  void collect();
  void finish(Job& job);
  void evict(std::int32_t slot);
  void scan();
  void launch();
  // Gives `meshes` `n` entries, taking them from spare_ and leaving the surplus there: levels mesh into
  // different section counts, and a mesh destroyed on a shrink would free its buffers on the frame thread
  // (unmapping large ones), only for the next grow to allocate them again.
  void fit(std::vector<SectionMesh>& meshes, std::size_t n);

  FarStreamOptions options_;
  FarSource source_;
  std::array<GridSlots, kFarMaxLevel> slot_of_;  // per level: block to slot
  std::array<StreamRing, kFarMaxLevel> rings_;   // per level: its radius in blocks
  SlotPool<Slot> slots_;
  glm::ivec2 camera_column_{0};
  bool have_camera_ = false;
  bool rescan_ = true;
  std::vector<Candidate> candidates_;  // needed blocks without a slot or dirty, nearest first
  std::size_t candidate_head_ = 0;
  std::vector<SectionMesh> spare_;  // meshes (cleared, capacity kept) no slot or job holds now
  FarUpdate update_;
  StreamJobs<Job> jobs_;  // last: goes first, waiting for the jobs that read the members above
};

}  // namespace myriad::voxel
