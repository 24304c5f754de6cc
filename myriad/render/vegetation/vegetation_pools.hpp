// The GPU pools of a streamed vegetation world (G3 on the GPU): one VegetationGpuType per runtime type,
// kept equal to the CPU pools page by page. Each frame the pages the world changed are staged through
// the upload queue under the "vegetation field" share: table entries alone (a rebase) all at once,
// records within the share's byte budget per frame, oldest first; nothing unchanged is uploaded again. A pool
// that needs more pages grows on the GPU by an eighth past the need (its contents copied over, the old
// buffers kept one frame): slack costs device bytes per instance, each growth a device copy. Culling and
// drawing read only live segments: tiles the streamer holds whole and none of whose pages still wait, so a
// tile appears whole in the frame its last page lands, and never half.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "myriad/core/thread/worker_spare.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/render/vegetation/vegetation_frame.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"
#include "myriad/vegetation/runtime/streaming.hpp"

namespace myriad::render {

struct VegetationPoolsOptions {
  float band = 0.2f;  // hashed LOD band, ±10 % of each switch distance (VegetationCull::make_pool)
  float fade = 0.1f;  // cross-fade band, 10 % below it
  // Record bytes staged per frame: the "vegetation field" share of the upload queue (table entries and
  // parameter blocks go anyway, counted in the share).
  std::uint64_t upload_budget = 8ull << 20;
  // When set, a pool that at its recent pace outgrows its capacity within about a second has the buffers
  // of its next growth made here (VegetationCull::make_pool_buffers), so the frame that grows it creates
  // none; null: that frame creates them (a few tenths of a millisecond on the frame thread).
  std::shared_ptr<WorkerPool> workers;

  // Throws myriad::Error naming the first invalid field (the pools' constructor calls it).
  void validate() const;
};

// What one update() staged and held back.
struct VegetationPoolsFrame {
  std::uint64_t staged_bytes = 0;   // records, table entries and parameter blocks
  std::uint32_t pages_staged = 0;   // with records
  std::uint32_t tables_staged = 0;  // table entry alone
  std::uint32_t pages_waiting = 0;  // record pages left for later frames
  std::uint32_t tiles_waiting = 0;  // tiles held whole in the CPU pools but not drawn (pages waiting)
  std::uint32_t pools_grown = 0;
  std::uint32_t pools_grown_ahead = 0;  // of those, grown into buffers made ahead on a worker
  // How the drawn segments changed, when they did: rebuilt from the world (the first build, a moved
  // origin), or followed from the last build (the segments of tiles that left or came erased or inserted).
  bool live_rebuilt = false, live_followed = false;
};

class VegetationPools {
 public:
  VegetationPools(gpu::Context& ctx, const VegetationCull& cull, const VegetationRenderer& renderer,
                  VegetationPoolsOptions options = {});
  ~VegetationPools();
  VegetationPools(const VegetationPools&) = delete;
  VegetationPools& operator=(const VegetationPools&) = delete;

  // CPU, in a frame after the upload queue's begin_frame and after the previous frame completed: takes
  // the streamer's page changes and stages what the budget allows. The live segments are rebuilt only
  // when a tile turns resident or leaves, the world is rebased, or pages of a waiting resident tile
  // land: a streamer appends only to tiles it does not hold whole yet.
  const VegetationPoolsFrame& update(vegetation::TileStreamer& streamer);
  // Setup path (waits): update() and upload() in submissions of their own until every change is on the
  // GPU, then pools more than a sixteenth past what they hold are fitted. Not inside a frame's recording.
  void settle(vegetation::TileStreamer& streamer);
  // Outside rendering, before anything reads the pools: records the upload queue (growth copies,
  // cleared visibility words, staged pages, one closing barrier).
  void upload(VkCommandBuffer cmd);

  std::span<const VegetationFrameType> frame_types() const { return frame_types_; }
  const VegetationGpuType* pool(std::size_t type) const;
  // A tile whose segments culling dispatches this frame.
  bool live(vegetation::TileKey tile) const;
  // No page waits (every change staged).
  bool settled() const;
  std::uint64_t gpu_bytes() const;
  // Device bytes of buffers made ahead for pools about to grow, not in gpu_bytes().
  std::uint64_t gpu_bytes_ahead() const;

 private:
  struct Pool {
    std::optional<VegetationGpuType> gpu;
    std::vector<std::uint8_t> pending;  // per page: 0, 1 (table entry), 2 (records and entry)
    std::vector<std::uint32_t> table_queue;
    WorkerSpare<VegetationPoolBuffers> next;  // the next growth's buffers, made ahead (options.workers)
    std::uint32_t last_need = 0;              // pages the CPU pool had at the last update
    double growth = 0.0;                      // pages it grew per update, smoothed
  };
  struct PendingPage {
    std::uint32_t type = 0, page = 0;
  };

  void clear_frame();
  void ensure_capacity(std::size_t type, const vegetation::RuntimeWorld::Type& cpu);
  void prepare_growth(Pool& pool, std::uint32_t need);
  // Replaces a type's pool by one of `page_capacity` pages holding the same contents (growth copies
  // and cleared visibility words recorded for upload(), params staged; the old one retired), in `made`
  // when given.
  void resize_pool(std::size_t type, const vegetation::RuntimeWorld::Type& cpu, std::uint32_t page_capacity,
                   VegetationPoolBuffers* made = nullptr);
  void stage_table(std::size_t type, const vegetation::RuntimeWorld::Type& cpu);
  void stage_records(const vegetation::RuntimeWorld& world);
  void stage_params(const VegetationGpuType& gpu);
  void rebuild_live(const vegetation::TileStreamer& streamer);
  void merge_live(const vegetation::RuntimeWorld& world);
  void follow_live(const vegetation::RuntimeWorld& world);

  gpu::Context& ctx_;
  const VegetationCull& cull_;
  const VegetationRenderer& renderer_;
  VegetationPoolsOptions options_;
  gpu::UploadShare share_;
  std::vector<Pool> pools_;
  std::vector<PendingPage> record_queue_;  // oldest first, from record_head_ on
  std::size_t record_head_ = 0;
  std::vector<VegetationFrameType> frame_types_;
  std::vector<VegetationGpuType> retired_;  // replaced by a grown copy this frame
  std::vector<vegetation::RuntimeWorld::PageChange> changes_;
  std::vector<vegetation::TileKey> waiting_;  // sorted
  // The tiles drawn, sorted, each with the first id of its segments when they were taken (a tile that
  // left and came back has new ones).
  struct LiveTile {
    vegetation::TileKey key;
    std::uint64_t first_id = 0;
  };
  std::vector<LiveTile> live_;
  std::vector<vegetation::TileKey> removed_, added_;  // follow_live()'s scratch
  std::vector<vegetation::TileKey> drawable_;         // rebuild_live()'s scratch: resident, none waiting
  glm::dvec3 live_origin_{0.0};                       // the render origin it built for
  std::vector<vegetation::TileKey> staged_tiles_;     // tiles of the record pages this update staged
  VegetationPoolsFrame frame_;
  // What the live segments were last built from (the world's structure, the streamer's resident set),
  // and the waiting counts found then.
  bool live_valid_ = false;
  std::uint64_t live_structure_ = 0, live_resident_ = 0;
  std::uint32_t waiting_pages_ = 0, waiting_tiles_ = 0;
};

}  // namespace myriad::render
