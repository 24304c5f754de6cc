// GPU storage behind PageArenas (V10, V13): per arena one device-local vertex buffer and one u32 index
// buffer, created with the arena's capacity when the arena is first recorded (it must be sealed by
// then) and never resized. Page geometry waits in a CPU queue
// until the frame's recording stages it through the context's staging ring and copies it to the
// page's ranges; nothing of it is kept on the CPU afterwards. Counts the bytes each recording uploads,
// so "nothing changed, nothing uploaded" is checkable.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "myriad/gpu/buffer.hpp"
#include "myriad/render/terrain/page_arenas.hpp"

namespace myriad::render {

class PageArenaBuffers {
 public:
  // `vertex_stride`: bytes per vertex (28 for voxel terrain); `max_queued_bytes`: the most that may
  // wait for one recording (it must fit the staging ring).
  PageArenaBuffers(gpu::Context& ctx, std::uint32_t vertex_stride, std::uint64_t max_queued_bytes);

  // Queues `page`'s geometry for upload at its current placement in `arenas`. The counts must equal
  // the placement's. Throws myriad::Error when the queue would pass max_queued_bytes: record the
  // queued uploads first.
  void write(const PageArenas& arenas, std::uint32_t page, std::span<const std::byte> vertices,
             std::span<const std::uint32_t> indices);

  // Creates the buffers of arenas new since the last call (throws myriad::Error on an arena that is not
  // sealed), then stages everything queued in the context's staging ring (all of it or, when the ring
  // has no room this frame, none: page tables must never point at geometry that has not landed) and
  // records the copies and a barrier making them visible to vertex and compute shaders. Returns the
  // bytes copied (0 when deferred: pending_bytes() stays non-zero).
  std::uint64_t record_uploads(VkCommandBuffer cmd, const PageArenas& arenas);

  std::uint64_t pending_bytes() const { return queued_.size(); }
  std::size_t arena_count() const { return vertex_buffers_.size(); }
  const gpu::Buffer& vertex_buffer(std::uint32_t arena) const { return vertex_buffers_.at(arena); }
  const gpu::Buffer& index_buffer(std::uint32_t arena) const { return index_buffers_.at(arena); }
  std::uint64_t gpu_vertex_bytes() const;
  std::uint64_t gpu_index_bytes() const;
  std::uint32_t vertex_stride() const { return vertex_stride_; }

 private:
  struct Copy {
    std::uint32_t arena;
    bool indices;  // to the arena's index buffer, else its vertex buffer
    VkBufferCopy region;
  };
  void ensure_buffers(const PageArenas& arenas);
  VkDeviceSize queue(std::span<const std::byte> bytes);

  gpu::Context& ctx_;
  std::uint32_t vertex_stride_;
  std::uint64_t max_queued_bytes_;
  std::vector<std::byte> queued_;  // geometry waiting for a recording; copies' srcOffset index it
  std::vector<Copy> copies_;
  std::vector<gpu::Buffer> vertex_buffers_;
  std::vector<gpu::Buffer> index_buffers_;
};

}  // namespace myriad::render
