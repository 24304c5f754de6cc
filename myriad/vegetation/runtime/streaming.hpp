// Tile streaming (G3) on the streamer core (core/stream/): tiles whose XZ rectangle is within
// `load_radius` of the camera (found through a ring of tiles around the camera's tile) are read and
// validated by jobs on the shared worker pool, nearest first; tiles beyond load_radius + hysteresis are
// unloaded (at once, or paced over a few updates) and their slots reused. Arrivals are
// copied into the RuntimeWorld's pools (CPU copies; the GPU upload is VegetationPools' share of the
// upload queue) at most `copy_budget_bytes` per update (pooled record bytes), or a
// share of the backlog (spread_frames), so a burst of arrivals never spikes a frame. A bad tile file is
// reported, skipped and never retried. The render origin follows the camera: when the camera is farther than
// `rebase_distance` from it, the world is rebased to the tile corner under the camera (tile origins are
// doubles, so positions stay exact however far the camera travels): only the pools' page tables change, and
// the frame reports it.
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "myriad/core/stream/pacer.hpp"
#include "myriad/core/stream/slot_pool.hpp"
#include "myriad/core/stream/stream_jobs.hpp"
#include "myriad/core/stream/stream_ring.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"

namespace myriad::vegetation {

struct StreamingOptions {
  std::filesystem::path directory;  // holds tile_<x>_<z>.mveg files
  float tile_size = 200.0f;         // must match the tiles' size (a mismatch is a tile error)
  float load_radius = 800.0f;
  float hysteresis = 100.0f;
  std::size_t copy_budget_bytes = 4u << 20;  // per update; at least kRuntimeBytesPerInstance
  // Spreading: with spread_frames > 0 an update copies only backlog / spread_frames (at least
  // spread_min_bytes, at most the budget), so a tile's arrival is copied over several frames instead of
  // one — smooth frame times while the camera moves, and the full budget still when the backlog grows.
  std::uint32_t spread_frames = 0;
  std::size_t spread_min_bytes = 32u << 10;
  // Pacing to the camera (with spread_frames > 0 and deadline_radius > 0): each tile still to copy must
  // be whole before the camera comes within deadline_radius of it (set it to the farthest draw distance
  // plus a margin). From the camera's speed (smoothed over updates) each tile gets a number of frames
  // left; an update copies the least constant share that meets every deadline in queue order — the
  // arrival rate itself, instead of a burst per arrival — and the spread share when the camera stands.
  float deadline_radius = 0.0f;
  // With unload_spread_frames > 0, tiles past load_radius + hysteresis leave over about that many
  // updates, farthest first, at least one per update: an unload costs the frame its pages and segments,
  // and nothing waits on a far tile. 0: all in the update they pass it.
  std::uint32_t unload_spread_frames = 0;
  unsigned worker_threads = 2;  // of its own pool, without `workers`
  // Tile reads in flight at most (the rest wait for a later update, nearest first); at least 1.
  int max_reads_in_flight = 16;
  // A worker pool shared with the scene's other streamers (core/thread/worker_pool.hpp); null: its own.
  std::shared_ptr<WorkerPool> workers;
  glm::dvec3 render_origin{0.0};
  double rebase_distance = 2000.0;  // metres; 0 = the render origin never moves

  // Throws myriad::Error naming the first invalid field (the constructor calls it).
  void validate() const;
};

struct StreamingFrame {
  std::size_t copied_bytes = 0;  // pooled record bytes copied into the RuntimeWorld this update (CPU)
  std::size_t copied_instances = 0;
  std::size_t requested = 0;  // loads started this update
  std::size_t deferred = 0;   // tiles wanted but not started (every read in flight): next update
  std::size_t unloaded = 0;
  std::size_t unloads_waiting = 0;  // past the unload radius, left for later updates (unload_spread_frames)
  bool rebased = false;             // the render origin moved: every page table entry was rewritten
};

struct TileFailure {
  TileKey key;
  std::string message;
};

class TileStreamer {
 public:
  explicit TileStreamer(StreamingOptions options);
  ~TileStreamer();
  TileStreamer(const TileStreamer&) = delete;
  TileStreamer& operator=(const TileStreamer&) = delete;

  // One frame: collects finished loads, unloads far tiles, requests near ones, uploads within budget.
  StreamingFrame update(glm::dvec3 camera);
  // True when nothing is loading, waiting to upload or waiting to unload.
  bool idle() const;
  // Tiles requested whose files are not read yet (read ones wait for the next update to be taken).
  std::size_t loading() const;

  // Distance in XZ from the camera to the tile's rectangle (0 inside it).
  double tile_distance(TileKey key, glm::dvec3 camera) const;
  const std::vector<TileKey>& available() const { return available_; }  // sorted
  std::vector<TileKey> resident_tiles() const;                          // fully in the runtime pools, sorted
  void resident_tiles(std::vector<TileKey>& out) const;                 // the same into `out` (cleared first)
  bool resident(TileKey key) const;
  // Requested, copying or resident: the streamer has the tile or is getting it.
  bool held(TileKey key) const;
  std::size_t resident_count() const;
  // Changes whenever a tile becomes resident or stops being resident.
  std::uint64_t resident_version() const { return resident_version_; }
  const std::vector<TileFailure>& failures() const { return failures_; }
  // The worker pool its reads run on (options.workers, or its own).
  const std::shared_ptr<WorkerPool>& workers() const { return workers_; }
  RuntimeWorld& world() { return world_; }
  const RuntimeWorld& world() const { return world_; }

 private:
  enum class State { kFree, kRequested, kUploading, kResident };  // kFree: a released slot
  struct Entry {
    TileKey key;
    State state = State::kRequested;
    std::shared_ptr<const Tile> tile;
    std::uint32_t group = 0, next = 0;  // copy cursor
  };
  // One tile file read on a worker: it writes only its own fields; update() takes them once done.
  struct Read : WorkerPool::Job {
    TileKey key;
    std::atomic<bool> cancelled{false};  // its tile was unloaded before the read began
    std::shared_ptr<const Tile> tile;
    std::string message;  // why the read failed (no tile)
  };
  void read(Read& r) const;
  void arrive(Read& r);
  void unload(TileKey key);
  // The ring's candidates (ring tiles available, not held, not failed) follow the camera's tile: the
  // whole ring on a jump, only the new edge on a step to a neighbouring tile.
  void follow_ring(TileKey centre);
  void consider(TileKey key);
  bool in_ring(TileKey key) const;
  void release(std::int32_t slot);
  Entry* entry(TileKey key);
  const Entry* entry(TileKey key) const;

  // A jump looks up each tile of the ring in these (a few hundred lookups), a step its new edge: a sorted
  // array and a hash map, not trees whose lookups chase a dozen nodes each through memory the frame's
  // rendering evicted.
  struct KeyHash {
    std::size_t operator()(TileKey k) const {
      return std::hash<std::uint64_t>{}(std::uint64_t(std::uint32_t(k.x)) << 32 | std::uint32_t(k.z));
    }
  };
  StreamingOptions options_;
  std::vector<TileKey> available_;  // sorted
  StreamRing ring_;                 // tiles around the camera's tile that can hold wanted ones
  TileKey ring_centre_;             // the camera's tile at the last update (has_ring_)
  bool has_ring_ = false;
  // The ring's tiles that may be wanted: available, not held, not failed. A frame measures only these
  // (a few hundred lookups a frame otherwise), and launching, unloading and stepping keep them current.
  std::vector<TileKey> candidates_;
  // Tiles requested, copying or resident (slots reused); the per-frame walks over what is held go
  // through this array (skipping free slots), the lookups by tile through slot_.
  SlotPool<Entry> entries_;
  std::unordered_map<TileKey, std::int32_t, KeyHash> slot_;  // tile to its entry (coordinates unbounded)
  std::deque<TileKey> upload_queue_;
  std::vector<TileFailure> failures_;
  std::set<TileKey> failed_;
  struct Wanted {  // a candidate within the load radius; nearest first, then by key
    double distance = 0.0;
    TileKey key;
    std::size_t candidate = 0;  // its index in candidates_
    bool operator<(const Wanted& o) const {
      return distance != o.distance ? distance < o.distance : key < o.key;
    }
  };
  std::vector<Wanted> wanted_;                   // update()'s scratch
  std::vector<std::size_t> launched_;            // update()'s scratch: the candidates it launched
  std::vector<std::pair<double, TileKey>> far_;  // update()'s scratch: distance, tile
  std::size_t deferred_ = 0;                     // wanted tiles the last update could not start
  std::size_t unloads_waiting_ = 0;              // far tiles the last update left held
  Pacer unload_pacer_;                           // ceil(far tiles / unload_spread_frames), at least one
  std::uint64_t resident_version_ = 0;
  // Deadline pacing: the last camera position and the smoothed distance it moves per update.
  std::optional<glm::dvec3> last_camera_;
  double step_ = 0.0;
  // The bytes one update copies: the spread share, or the deadline pace.
  std::size_t copy_budget(glm::dvec3 camera);
  std::shared_ptr<WorkerPool> workers_;  // before world_: its spare block's job runs here
  RuntimeWorld world_;
  StreamJobs<Read> reads_;  // last: goes first, waiting for the reads that use the members above
};

}  // namespace myriad::vegetation
