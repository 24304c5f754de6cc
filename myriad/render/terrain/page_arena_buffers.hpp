// GPU storage behind PageArenas (V10, V13): per arena one device-local vertex buffer and one u32 index
// buffer, created with the arena's capacity when the arena is first recorded (it must be sealed by
// then) and never resized. Page geometry goes into the context's upload queue under one all-or-none
// share ("voxel terrain": page tables must never point at geometry that has not landed), held here only
// while its arena has no buffers yet; nothing of it is kept on the CPU once staged. Counts the bytes
// each recording uploads, so "nothing changed, nothing uploaded" is checkable.
//
// Allocating an arena's buffers costs the thread that does it a few tenths of a millisecond (about 8 MiB
// of device memory; a real driver's vkAllocateMemory is slower still). With fixed arena capacities every
// arena has the same size, so keep_spare() has the next arena's buffers made on a worker thread ahead of
// need: a frame whose placement opens an arena takes them ready. When the spare is not ready (or the
// sizes differ) the frame makes its own, as without a spare; spare_stats() says which happened.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

#include "myriad/core/thread/worker_pool.hpp"
#include "myriad/core/thread/worker_spare.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/terrain/page_arenas.hpp"

namespace myriad::render {

class PageArenaBuffers {
 public:
  // `vertex_stride`: bytes per vertex (28 for voxel terrain); `max_queued_bytes`: the most that may
  // wait for one recording (it must fit the staging ring).
  PageArenaBuffers(gpu::Context& ctx, std::uint32_t vertex_stride, std::uint64_t max_queued_bytes);
  ~PageArenaBuffers();
  PageArenaBuffers(const PageArenaBuffers&) = delete;
  PageArenaBuffers& operator=(const PageArenaBuffers&) = delete;

  // Queues `page`'s geometry for upload at its current placement in `arenas`. The counts must equal
  // the placement's. Throws myriad::Error when the queue would pass max_queued_bytes: record the
  // queued uploads first.
  void write(const PageArenas& arenas, std::uint32_t page, std::span<const std::byte> vertices,
             std::span<const std::uint32_t> indices) {
    write(arenas, page, {vertices}, indices);
  }
  // The same with the vertex range given in parts, back to back (e.g. vertices, then atlas records):
  // copied once, into the upload queue.
  void write(const PageArenas& arenas, std::uint32_t page,
             std::initializer_list<std::span<const std::byte>> vertex_parts,
             std::span<const std::uint32_t> indices);

  // Creates the buffers of arenas new since the last call (throws myriad::Error on an arena that is not
  // sealed), hands the geometry held for them to the upload queue and records the queue (all of the
  // share's geometry or, when the ring has no room this frame, none). Returns the geometry bytes
  // staged since the last call (0 when deferred: pending_bytes() stays non-zero).
  std::uint64_t record_uploads(VkCommandBuffer cmd, const PageArenas& arenas);

  std::uint64_t pending_bytes() const;
  // The share the geometry goes under: its own "voxel terrain" share, or one its owner gives (a system of
  // several renderers paces them under one budget). Only while nothing is pending.
  gpu::UploadShare upload_share() const { return share_; }
  void use_upload_share(gpu::UploadShare share);
  std::size_t arena_count() const { return vertex_buffers_.size(); }
  const gpu::Buffer& vertex_buffer(std::uint32_t arena) const { return vertex_buffers_.at(arena); }
  const gpu::Buffer& index_buffer(std::uint32_t arena) const { return index_buffers_.at(arena); }
  // Keeps one arena's buffers (`vertex_bytes`, `index_bytes`) ready, made on `workers`, and another
  // started whenever one is taken.
  void keep_spare(std::shared_ptr<WorkerPool> workers, VkDeviceSize vertex_bytes, VkDeviceSize index_bytes);
  // The buffers of one arena.
  struct ArenaBuffers {
    gpu::Buffer vertices, indices;
  };
  // taken: arenas that took ready buffers; missed: arenas of the spare's size whose frame made its own
  // (the spare not ready).
  using SpareStats = WorkerSpare<ArenaBuffers>::Stats;
  const SpareStats& spare_stats() const { return spare_.stats(); }
  // The spare's buffers are made and may be taken.
  bool spare_ready() const { return spare_.ready(); }
  // Device memory of the arenas' buffers, and of the spare while one is kept.
  std::uint64_t gpu_vertex_bytes() const;
  std::uint64_t gpu_index_bytes() const;
  std::uint32_t vertex_stride() const { return vertex_stride_; }

 private:
  // Geometry of an arena whose buffers do not exist yet (placed before the arena was sealed).
  struct Held {
    std::uint32_t arena;
    bool indices;  // to the arena's index buffer, else its vertex buffer
    VkDeviceSize dst_offset;
    std::vector<std::byte> bytes;
  };
  void create_buffers(const PageArena& arena);
  bool take_spare(VkDeviceSize vertex_bytes, VkDeviceSize index_bytes);
  void ensure_buffers(const PageArenas& arenas);
  void send(std::uint32_t arena, bool indices, VkDeviceSize dst_offset,
            std::initializer_list<std::span<const std::byte>> parts);

  gpu::Context& ctx_;
  gpu::UploadShare share_;
  bool own_share_ = true;
  std::uint32_t vertex_stride_;
  std::uint64_t max_queued_bytes_;
  std::vector<Held> held_;
  std::uint64_t held_bytes_ = 0;
  std::uint64_t sent_ = 0;  // bytes handed to the queue since the last record_uploads
  std::vector<gpu::Buffer> vertex_buffers_;
  std::vector<gpu::Buffer> index_buffers_;
  VkDeviceSize spare_vertex_bytes_ = 0, spare_index_bytes_ = 0;
  WorkerSpare<ArenaBuffers> spare_;  // last: goes first, waiting for a job that reads ctx_
};

}  // namespace myriad::render
