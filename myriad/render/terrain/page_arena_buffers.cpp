#include "myriad/render/terrain/page_arena_buffers.hpp"

#include <cstring>
#include <optional>

namespace myriad::render {

PageArenaBuffers::PageArenaBuffers(gpu::Context& ctx, std::uint32_t vertex_stride,
                                   std::uint64_t max_queued_bytes)
    : ctx_(ctx),
      share_(ctx.uploads().share("voxel terrain", max_queued_bytes, gpu::UploadPolicy::kAllOrNone)),
      vertex_stride_(vertex_stride),
      max_queued_bytes_(max_queued_bytes) {
  if (vertex_stride == 0) throw Error("vertex stride must be positive", "PageArenaBuffers");
}

PageArenaBuffers::~PageArenaBuffers() {
  // Nothing pending may write the buffers once they are gone (a shared share outlives them).
  gpu::UploadQueue& uploads = ctx_.uploads();
  for (const auto* buffers : {&vertex_buffers_, &index_buffers_})
    for (const gpu::Buffer& b : *buffers) uploads.drop(b.handle());
  if (own_share_) uploads.release(share_);
}

void PageArenaBuffers::use_upload_share(gpu::UploadShare share) {
  if (pending_bytes() > 0)
    throw Error("geometry is pending under the current share", "PageArenaBuffers::use_upload_share");
  if (own_share_) ctx_.uploads().release(share_);
  share_ = share;
  own_share_ = false;
}

namespace {

constexpr VkBufferUsageFlags kVertexUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr VkBufferUsageFlags kIndexUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT;

}  // namespace

void PageArenaBuffers::keep_spare(std::shared_ptr<WorkerPool> workers, VkDeviceSize vertex_bytes,
                                  VkDeviceSize index_bytes) {
  if (!workers) throw Error("a spare needs a worker pool", "PageArenaBuffers::keep_spare");
  if (spare_.kept()) throw Error("a spare is kept already", "PageArenaBuffers::keep_spare");
  spare_vertex_bytes_ = vertex_bytes;
  spare_index_bytes_ = index_bytes;
  const gpu::Context& ctx = ctx_;
  spare_.keep(std::move(workers), [&ctx, vertex_bytes, index_bytes] {
    return ArenaBuffers{gpu::Buffer(ctx, vertex_bytes, kVertexUsage, gpu::MemoryKind::kDeviceLocal),
                        gpu::Buffer(ctx, index_bytes, kIndexUsage, gpu::MemoryKind::kDeviceLocal)};
  });
}

bool PageArenaBuffers::take_spare(VkDeviceSize vertex_bytes, VkDeviceSize index_bytes) {
  if (!spare_.kept() || vertex_bytes != spare_vertex_bytes_ || index_bytes != spare_index_bytes_)
    return false;
  // Not ready, or it failed (out of memory): this frame makes its own, which reports any failure.
  std::optional<ArenaBuffers> spare = spare_.take();
  if (!spare) return false;
  vertex_buffers_.push_back(std::move(spare->vertices));
  index_buffers_.push_back(std::move(spare->indices));
  return true;
}

void PageArenaBuffers::create_buffers(const PageArena& a) {
  const VkDeviceSize vertex_bytes = VkDeviceSize(a.vertices.capacity()) * vertex_stride_;
  const VkDeviceSize index_bytes = VkDeviceSize(a.indices.capacity()) * sizeof(std::uint32_t);
  if (take_spare(vertex_bytes, index_bytes)) return;
  vertex_buffers_.emplace_back(ctx_, vertex_bytes, kVertexUsage, gpu::MemoryKind::kDeviceLocal);
  index_buffers_.emplace_back(ctx_, index_bytes, kIndexUsage, gpu::MemoryKind::kDeviceLocal);
}

void PageArenaBuffers::ensure_buffers(const PageArenas& arenas) {
  while (vertex_buffers_.size() < arenas.arenas().size()) {
    const PageArena& a = arenas.arenas()[vertex_buffers_.size()];
    if (!a.sealed)
      throw Error("arena " + std::to_string(vertex_buffers_.size()) + " is not sealed", "PageArenaBuffers",
                  "call PageArenas::seal() before recording uploads");
    create_buffers(a);
  }
}

std::uint64_t PageArenaBuffers::pending_bytes() const {
  return held_bytes_ + ctx_.uploads().queued_bytes(share_);
}

namespace {

std::size_t total_size(std::initializer_list<std::span<const std::byte>> parts) {
  std::size_t size = 0;
  for (const auto& part : parts) size += part.size();
  return size;
}

}  // namespace

void PageArenaBuffers::send(std::uint32_t arena, bool indices, VkDeviceSize dst_offset,
                            std::initializer_list<std::span<const std::byte>> parts) {
  const gpu::Buffer& dst = indices ? index_buffers_.at(arena) : vertex_buffers_.at(arena);
  const std::span<std::byte> to =
      ctx_.uploads().enqueue_space(share_, dst.handle(), dst_offset, total_size(parts));
  std::size_t at = 0;
  for (const auto& part : parts) {
    if (!part.empty()) std::memcpy(to.data() + at, part.data(), part.size());
    at += part.size();
  }
  sent_ += to.size();
}

void PageArenaBuffers::write(const PageArenas& arenas, std::uint32_t page,
                             std::initializer_list<std::span<const std::byte>> vertex_parts,
                             std::span<const std::uint32_t> indices) {
  const PagePlacement& p = arenas.placement(page);
  if (!p.placed())
    throw Error("page " + std::to_string(page) + " has no placement", "PageArenaBuffers::write");
  const std::size_t vertex_bytes = total_size(vertex_parts);
  if (vertex_bytes != std::size_t(p.vertex_count) * vertex_stride_ || indices.size() != p.index_count) {
    throw Error("page " + std::to_string(page) + " geometry does not match its placement's counts",
                "PageArenaBuffers::write");
  }
  if (pending_bytes() + vertex_bytes + indices.size_bytes() > max_queued_bytes_) {
    throw Error("page upload does not fit (" + std::to_string(max_queued_bytes_) + " bytes may wait)",
                "PageArenaBuffers::write", "record the queued uploads first, or raise max_queued_bytes");
  }
  const VkDeviceSize v = VkDeviceSize(p.vertices.offset) * vertex_stride_;
  const VkDeviceSize i = VkDeviceSize(p.indices.offset) * sizeof(std::uint32_t);
  // Buffers exist for every sealed arena up to the first open one.
  while (vertex_buffers_.size() < arenas.arenas().size() && arenas.arenas()[vertex_buffers_.size()].sealed)
    create_buffers(arenas.arenas()[vertex_buffers_.size()]);
  if (p.arena < vertex_buffers_.size()) {
    send(p.arena, false, v, vertex_parts);
    send(p.arena, true, i, {std::as_bytes(indices)});
    return;
  }
  Held& held = held_.emplace_back(Held{p.arena, false, v, {}});
  held.bytes.reserve(vertex_bytes);
  for (const auto& part : vertex_parts) held.bytes.insert(held.bytes.end(), part.begin(), part.end());
  held_.push_back({p.arena, true, i, {std::as_bytes(indices).begin(), std::as_bytes(indices).end()}});
  held_bytes_ += vertex_bytes + indices.size_bytes();
}

std::uint64_t PageArenaBuffers::record_uploads(VkCommandBuffer cmd, const PageArenas& arenas) {
  ensure_buffers(arenas);
  for (const Held& h : held_) send(h.arena, h.indices, h.dst_offset, {h.bytes});
  held_.clear();
  held_bytes_ = 0;
  gpu::UploadQueue& uploads = ctx_.uploads();
  uploads.record(cmd);
  // All or none: once the share has nothing queued, everything sent went.
  if (uploads.queued_bytes(share_) > 0) return 0;
  const std::uint64_t bytes = sent_;
  sent_ = 0;
  return bytes;
}

std::uint64_t PageArenaBuffers::gpu_vertex_bytes() const {
  std::uint64_t total = 0;
  for (const auto& b : vertex_buffers_) total += b.size();
  return total + (spare_.kept() ? spare_vertex_bytes_ : 0);
}

std::uint64_t PageArenaBuffers::gpu_index_bytes() const {
  std::uint64_t total = 0;
  for (const auto& b : index_buffers_) total += b.size();
  return total + (spare_.kept() ? spare_index_bytes_ : 0);
}

}  // namespace myriad::render
