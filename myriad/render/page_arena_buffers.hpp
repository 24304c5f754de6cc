// GPU storage behind PageArenas (V10, V13): per arena one device-local vertex buffer and one u32 index
// buffer, created with the arena's fixed capacity and never resized. Page geometry is staged through a
// fixed-size upload buffer and copied to the page's ranges; nothing of it is kept on the CPU. Counts
// the bytes each recording uploads, so "nothing changed, nothing uploaded" is checkable.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "myriad/gpu/buffer.hpp"
#include "myriad/render/page_arenas.hpp"

namespace myriad::render {

class PageArenaBuffers {
 public:
  // `vertex_stride`: bytes per vertex (28 for voxel terrain); `staging_bytes`: the upload buffer size,
  // the most one recording can upload.
  PageArenaBuffers(gpu::Context& ctx, std::uint32_t vertex_stride, std::uint64_t staging_bytes);

  // Queues `page`'s geometry for upload at its current placement in `arenas` (buffers for arenas
  // created since the last call are allocated here). The counts must equal the placement's. Throws
  // myriad::Error when the staging buffer cannot take it: record the queued uploads first.
  void write(const PageArenas& arenas, std::uint32_t page, std::span<const std::byte> vertices,
             std::span<const std::uint32_t> indices);

  // Records the queued copies and a barrier making them visible to vertex and compute shaders.
  // Returns the bytes copied. The staging buffer is reused: the recorded work must complete before
  // the next write().
  std::uint64_t record_uploads(VkCommandBuffer cmd);

  std::uint64_t pending_bytes() const { return staged_; }
  std::size_t arena_count() const { return vertex_buffers_.size(); }
  const gpu::Buffer& vertex_buffer(std::uint32_t arena) const { return vertex_buffers_.at(arena); }
  const gpu::Buffer& index_buffer(std::uint32_t arena) const { return index_buffers_.at(arena); }
  std::uint64_t gpu_vertex_bytes() const;
  std::uint64_t gpu_index_bytes() const;
  std::uint32_t vertex_stride() const { return vertex_stride_; }

 private:
  struct Copy {
    VkBuffer dst;
    VkBufferCopy region;
  };
  void ensure_buffers(const PageArenas& arenas);
  VkDeviceSize stage(std::span<const std::byte> bytes);
  [[noreturn]] void staging_full() const;

  gpu::Context& ctx_;
  std::uint32_t vertex_stride_;
  gpu::Buffer staging_;
  std::uint64_t staged_ = 0;
  std::vector<Copy> copies_;
  std::vector<gpu::Buffer> vertex_buffers_;
  std::vector<gpu::Buffer> index_buffers_;
};

}  // namespace myriad::render
