// A voxel world larger than memory, streamed around the camera in section columns (16 x height x 16 cells).
// Columns are generated (or read back from a save), lit and meshed on worker threads in rings around the
// camera's column (Chebyshev distance in columns): generated within radius + 2, lit within radius + 1 (light
// of a column needs its 3 x 3 neighbourhood's cells), meshed within radius (a section's padded block reads
// its neighbours' cells and light). Columns beyond radius + 3 are evicted and their memory is reused. Every
// stage gives the bytes of the same stage on the fixed world: generate_column = generate_world's column,
// light_column = compute_light's column, and meshing a 3 x 3 window = WorldMesher's section meshes.
// Edits (edit_voxel semantics: relight, re-mesh the sections that read changed cells) persist while the
// column is resident and, with a save directory, across eviction (docs/FORMATS.md, voxel columns).
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "myriad/core/stream/slot_pool.hpp"
#include "myriad/core/stream/stream_jobs.hpp"
#include "myriad/core/stream/stream_ring.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/data/vegetation.hpp"

namespace myriad::voxel {

struct StreamOptions {
  glm::ivec3 world_size{4096, 128, 4096};  // the size generate_world would get (at most 4096 high)
  GeneratorParams generator;
  MeshOptions mesh;
  int radius = 12;  // columns within this Chebyshev distance of the camera's column are meshed
  // Threads of its own pool (without `workers`), and what its jobs in flight are sized by; 0: the
  // hardware threads less one.
  int worker_threads = 0;
  // A pool shared with the scene's other streamers (StreamedVoxelScene gives its far levels the same);
  // null: the stream makes its own with worker_threads threads.
  std::shared_ptr<WorkerPool> workers;
  // 0: 8 per worker thread, so the workers stay busy between two updates (launches happen only there)
  // while the queue stays short enough that the nearest columns go first.
  int max_jobs_in_flight = 0;
  int max_launches_per_update = 32;  // new jobs per update at most
  int max_collects_per_update = 0;   // finished jobs taken per update at most; 0: all
  // Edited columns are written here on eviction and read back instead of regenerated; empty: edits are
  // kept only while the column is resident. Files of earlier runs of the same world are read too.
  std::filesystem::path save_directory;
  // Places each meshed section's grass and trees (place_vegetation with this seed) in the same worker job
  // as its mesh, from the same cells and light, so the caller's thread only copies the records (read them
  // with vegetation()). Off: vegetation() is null and no records are kept.
  bool vegetation = false;
  std::uint64_t vegetation_seed = 1;

  // Throws myriad::Error naming the first invalid field (the constructor calls it).
  void validate() const;
};

enum class ColumnState : std::uint8_t { kAbsent, kGenerating, kGenerated, kLit, kMeshed };

// What one update changed, for the renderer: upload `meshed` sections' meshes (StreamWorld::mesh) into
// their arena slots (an empty mesh frees the slot), then free the slots of `evicted` sections (a section
// meshed and evicted in the same update has mesh() null). Both list only sections whose old or new mesh
// has geometry.
struct StreamUpdate {
  std::vector<glm::ivec3> meshed;
  std::vector<glm::ivec3> evicted;
  // With vegetation on, sections without geometry before or now whose plants came (meshed) or went
  // (evicted): a plant rooted on the top face of the section below stands in the section above, which
  // may hold no faces. With the two lists above they name every section whose plants changed.
  std::vector<glm::ivec3> plants_only_meshed;
  std::vector<glm::ivec3> plants_only_evicted;
  // Columns whose meshed state changed either way (ColumnState::kMeshed came or went), each once per
  // change: what the level choice reads (LevelChoice::changed).
  std::vector<glm::ivec2> meshed_changed;
  int columns_generated = 0, columns_loaded = 0, columns_lit = 0, columns_meshed = 0;
  int sections_meshed = 0, columns_evicted = 0, columns_saved = 0, edits_applied = 0;
  // Of sections_meshed, those of columns already meshed (an edit or the relight it caused changed their
  // padded block), and of these the ones whose old or new mesh has geometry (listed in `meshed`).
  int sections_remeshed = 0, sections_remeshed_uploaded = 0;
  void clear();
};

struct StreamStats {
  std::size_t resident_columns = 0;  // columns holding cells (any state but absent)
  std::size_t pool_columns = 0;      // column slots ever made (reused after eviction; bounds memory)
  std::size_t resident_bytes = 0;    // cells, light and meshes of all slots (capacities)
  std::size_t jobs_in_flight = 0;
};

class StreamWorld {
 public:
  explicit StreamWorld(const StreamOptions& options);
  ~StreamWorld();  // waits for the jobs in flight; does not save (call save_all first)
  StreamWorld(const StreamWorld&) = delete;
  StreamWorld& operator=(const StreamWorld&) = delete;

  // Collects finished jobs, applies queued edits, scans a fixed share of the ring and pool (evicting far
  // columns, saving edited ones) and starts the jobs found, within the launch budget; a step into a
  // neighbouring column adds only the rings' new edges. Never waits for a job. Rethrows a job's error (e.g. a
  // corrupt save file: myriad::Error naming the file and offset). The result is reused by the next call.
  const StreamUpdate& update(glm::dvec3 camera);
  // Nothing in flight, no edit queued and nothing left to do for the last camera position.
  bool idle() const;

  // Queues an edit (applied by the next update that finds no job reading the column). Throws myriad::Error
  // for coordinates outside the world, unknown materials, or a column that is not generated.
  void edit(glm::ivec3 p, std::uint8_t material, std::uint8_t form);
  // Edits queued, or applied with a relight or re-mesh still to finish within the meshed radius: while
  // true, what the meshes show lags behind the cells.
  bool edits_pending() const;
  // Writes every edited resident column to the save directory (no-op without one). Returns files written.
  int save_all();

  const StreamOptions& options() const { return options_; }
  glm::ivec2 columns() const { return columns_; }
  ColumnState column_state(glm::ivec2 column) const;
  // No job in flight writes the column's cells or light (a relight after an edit may run while the column
  // stays meshed): its spans can be read between two updates.
  bool column_stable(glm::ivec2 column) const;
  // The section's mesh when its column is meshed, else null. Valid until the next update().
  const SectionMesh* mesh(glm::ivec3 section) const;
  // The section's vegetation (StreamOptions::vegetation), placed with its current mesh, when its column is
  // meshed; else null. Valid until the next update(). Equals place_vegetation(*this, section, seed, out).
  const SectionVegetation* vegetation(glm::ivec3 section) const;
  // A resident column's cells (section sy at sy * kSectionCells); empty when absent. Stable while idle().
  std::span<const std::uint8_t> column_materials(glm::ivec2 column) const;
  std::span<const std::uint8_t> column_forms(glm::ivec2 column) const;
  std::span<const Light16> column_light(glm::ivec2 column) const;
  // Kept as running totals (a column's buffers are counted again when a finished job swaps them in), so
  // asking every frame costs nothing; stats_walked() counts the same by walking every slot (for checks).
  StreamStats stats() const;
  StreamStats stats_walked() const;
  // The save file of a column (in save_directory).
  std::filesystem::path save_path(glm::ivec2 column) const;

 private:
  enum class JobKind : std::uint8_t { kNone, kGenerate, kLight, kMesh };
  static constexpr int kMaxSectionsY = 256;
  using SectionMask = std::bitset<kMaxSectionsY>;

  struct Column {
    glm::ivec2 coord{0};
    bool used = false, generated = false, lit = false, meshed = false;
    bool light_dirty = false;      // an edit changed cells within reach: relight before re-meshing
    bool edited = false;           // differs from what generation or its save file gives
    JobKind job = JobKind::kNone;  // the job in flight writing this column
    int readers = 0;               // jobs in flight reading this column's cells (its own and its neighbours')
    int light_readers = 0;         // mesh jobs in flight reading its light
    int pending_edits = 0;
    SectionMask mesh_dirty;  // sections to re-mesh
    std::vector<std::uint8_t> materials, forms;
    std::vector<Light16> light;
    std::vector<SectionMesh> meshes;            // per section, when meshed
    std::vector<SectionVegetation> vegetation;  // per section, when meshed (StreamOptions::vegetation)
    std::size_t bytes = 0;                      // its buffers' capacities, as in resident_bytes_
  };
  struct Job;
  struct WorkerScratch;
  struct PendingEdit {
    glm::ivec3 p;
    std::uint8_t material, form;
  };

  int slot_of(glm::ivec2 c) const { return slot_of_[c]; }
  Column* column(glm::ivec2 c);
  const Column* column(glm::ivec2 c) const;
  bool inside(glm::ivec2 c) const { return slot_of_.inside(c); }
  bool neighbourhood_generated(glm::ivec2 c) const;
  // The in-world 3 x 3 columns are generated without queued edits (and lit, not being relit, if need_lit).
  bool neighbours_ready(glm::ivec2 c, bool need_lit) const;
  void collect();
  void apply_edits();
  void release_column(std::int32_t slot);
  void apply_edit(const PendingEdit& e);
  // The job the column needs next for the camera's column, if it can start now (kNone otherwise).
  JobKind next_job(glm::ivec2 c) const;
  // Evicts a far slot (saving it when edited), drops stale meshes and light; true when it changed anything.
  bool evict_slot(std::int32_t s);
  void touch() { rescan_ = changed_ = true; }
  // Queues the column for launch when it has work now (the scan finds it otherwise, a pass later).
  void enqueue(glm::ivec2 c);
  void scan();
  void launch();
  void launch_job(JobKind kind, glm::ivec2 c);
  void run_job(Job& job, WorkerScratch& scratch) const;
  void finish_job(Job& job);
  void drop_meshes(Column& col);
  void unlight(Column& col);
  void mark_mesh_dirty(glm::ivec3 section);
  void save_column(const Column& col);
  void read_column(glm::ivec2 c, std::span<std::uint8_t> materials, std::span<std::uint8_t> forms) const;

  StreamOptions options_;
  glm::ivec2 columns_{0};
  int sections_y_ = 0;
  GridSlots slot_of_;                // per column of the world: its slot
  std::vector<std::uint8_t> saved_;  // per column of the world: a save file exists
  SlotPool<Column> slots_;
  StreamRing ring_;  // within radius + 2
  std::vector<PendingEdit> edits_;
  glm::ivec2 camera_column_{0};
  bool have_camera_ = false;
  bool rescan_ = true;  // something changed since the last scan found nothing to start
  // The scan visits a fixed number of ring offsets, then pool slots (evicting), per update rather than the
  // whole ring on the frames where something changed; it stops after a whole pass found nothing to do and
  // nothing changed during it.
  std::size_t scan_cursor_ = 0;
  bool changed_ = true;  // something changed since the pass began
  bool found_ = false;   // the pass found work (queued or not, evictions too)
  // Columns found to have work: next to a finished job, on the new edges of a step into a neighbouring
  // column, or by the scan (nearest first within a pass). A FIFO, re-checked at launch.
  std::vector<glm::ivec2> candidates_;
  std::size_t candidate_head_ = 0, candidate_count_ = 0;
  std::vector<std::uint8_t> queued_;  // per column of the world: in candidates_
  std::vector<glm::ivec2> finished_;  // columns of the jobs the last collect finished
  StreamUpdate update_;
  std::size_t resident_bytes_ = 0, resident_columns_ = 0;  // stats(): every slot's bytes, used slots
  void recount_bytes(Column& col);
  StreamJobs<Job> jobs_;  // last: goes first, waiting for the jobs that read the members above
};

// The save file of `column` in `directory` (column_<x>_<z>.mvxc): StreamWorld and the far levels read and
// write the same names.
std::filesystem::path column_save_path(const std::filesystem::path& directory, glm::ivec2 column);

// The save file of one column (docs/FORMATS.md): written atomically; read back with full validation
// (myriad::Error naming the file, byte offset and field for any corrupt or foreign file).
void write_column_file(const std::filesystem::path& path, glm::ivec3 world_size, glm::ivec2 column,
                       const GeneratorParams& params, std::span<const std::uint8_t> materials,
                       std::span<const std::uint8_t> forms);
void read_column_file(const std::filesystem::path& path, glm::ivec3 world_size, glm::ivec2 column,
                      const GeneratorParams& params, std::span<std::uint8_t> materials,
                      std::span<std::uint8_t> forms);

}  // namespace myriad::voxel
