#include "myriad/render/terrain/page_arena_buffers.hpp"

#include <cstring>

#include "myriad/gpu/staging_ring.hpp"
#include "myriad/gpu/sync.hpp"

namespace myriad::render {

PageArenaBuffers::PageArenaBuffers(gpu::Context& ctx, std::uint32_t vertex_stride,
                                   std::uint64_t max_queued_bytes)
    : ctx_(ctx), vertex_stride_(vertex_stride), max_queued_bytes_(max_queued_bytes) {
  if (vertex_stride == 0) throw Error("vertex stride must be positive", "PageArenaBuffers");
}

void PageArenaBuffers::ensure_buffers(const PageArenas& arenas) {
  while (vertex_buffers_.size() < arenas.arenas().size()) {
    const PageArena& a = arenas.arenas()[vertex_buffers_.size()];
    if (!a.sealed)
      throw Error("arena " + std::to_string(vertex_buffers_.size()) + " is not sealed", "PageArenaBuffers",
                  "call PageArenas::seal() before recording uploads");
    vertex_buffers_.emplace_back(ctx_, VkDeviceSize(a.vertices.capacity()) * vertex_stride_,
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
    index_buffers_.emplace_back(ctx_, VkDeviceSize(a.indices.capacity()) * sizeof(std::uint32_t),
                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                gpu::MemoryKind::kDeviceLocal);
  }
}

VkDeviceSize PageArenaBuffers::queue(std::span<const std::byte> bytes) {
  // Copies need 4-byte aligned offsets: keep every queued block aligned.
  const std::size_t offset = (queued_.size() + 3) & ~std::size_t(3);
  queued_.resize(offset + bytes.size());
  std::memcpy(queued_.data() + offset, bytes.data(), bytes.size());
  return offset;
}

void PageArenaBuffers::write(const PageArenas& arenas, std::uint32_t page,
                             std::span<const std::byte> vertices, std::span<const std::uint32_t> indices) {
  const PagePlacement& p = arenas.placement(page);
  if (!p.placed())
    throw Error("page " + std::to_string(page) + " has no placement", "PageArenaBuffers::write");
  if (vertices.size() != std::size_t(p.vertex_count) * vertex_stride_ || indices.size() != p.index_count) {
    throw Error("page " + std::to_string(page) + " geometry does not match its placement's counts",
                "PageArenaBuffers::write");
  }
  const std::uint64_t need =
      ((queued_.size() + 3) & ~std::uint64_t(3)) + vertices.size() + 4 + indices.size_bytes();
  if (need > max_queued_bytes_) {  // checked for both parts before queueing either
    throw Error("page upload does not fit (" + std::to_string(max_queued_bytes_) + " bytes may wait)",
                "PageArenaBuffers::write", "record the queued uploads first, or raise max_queued_bytes");
  }
  const VkDeviceSize v = queue(vertices);
  copies_.push_back({p.arena, false, {v, VkDeviceSize(p.vertices.offset) * vertex_stride_, vertices.size()}});
  const VkDeviceSize i = queue(std::as_bytes(indices));
  copies_.push_back(
      {p.arena, true, {i, VkDeviceSize(p.indices.offset) * sizeof(std::uint32_t), indices.size_bytes()}});
}

std::uint64_t PageArenaBuffers::record_uploads(VkCommandBuffer cmd, const PageArenas& arenas) {
  ensure_buffers(arenas);
  if (copies_.empty()) return 0;
  gpu::StagingRing& ring = ctx_.staging_ring();
  if (queued_.size() > ring.capacity())
    throw Error(
        "queued page geometry (" + std::to_string(queued_.size()) + " bytes) exceeds the staging ring",
        "PageArenaBuffers::record_uploads", "raise ContextOptions::staging_ring_bytes");
  const std::optional<gpu::StagingRing::Span> staged = ring.allocate(queued_.size(), 16);
  if (!staged) return 0;  // the ring is busy with frames in flight: all of it next frame
  std::memcpy(staged->data, queued_.data(), queued_.size());
  ring.flush();
  // Earlier reads of the arenas (draws, culling) finish before their ranges are overwritten.
  gpu::memory_barrier(cmd,
                      VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT |
                          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE);
  std::uint64_t bytes = 0;
  for (Copy c : copies_) {
    c.region.srcOffset += staged->offset;
    const gpu::Buffer& dst = c.indices ? index_buffers_.at(c.arena) : vertex_buffers_.at(c.arena);
    vkCmdCopyBuffer(cmd, staged->buffer, dst.handle(), 1, &c.region);
    bytes += c.region.size;
  }
  gpu::memory_barrier(
      cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
      VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT |
          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  copies_.clear();
  // An edit's few pages keep their capacity for the next; a whole world's upload gives it back (no CPU
  // copy of the geometry is kept).
  if (queued_.capacity() > (1u << 20))
    std::vector<std::byte>().swap(queued_);
  else
    queued_.clear();
  return bytes;
}

std::uint64_t PageArenaBuffers::gpu_vertex_bytes() const {
  std::uint64_t total = 0;
  for (const auto& b : vertex_buffers_) total += b.size();
  return total;
}

std::uint64_t PageArenaBuffers::gpu_index_bytes() const {
  std::uint64_t total = 0;
  for (const auto& b : index_buffers_) total += b.size();
  return total;
}

}  // namespace myriad::render
