#include "myriad/render/avatars/batch_gpu.hpp"

#include <algorithm>
#include <cstring>
#include <span>

#include "myriad/core/error.hpp"
#include "myriad/gpu/sync.hpp"

namespace myriad::render {

shader::SkinInstance pack_skin_instance(const batch::Batch& b, std::size_t slot) {
  const Mat3x4& m = b.object_to_world[slot];
  return {{m.rows[0], m.rows[1], m.rows[2]},
          b.palette_offset[slot],
          static_cast<std::uint32_t>(slot * b.floats_per_instance),
          b.fade[slot]};
}

std::vector<shader::SkinInstance> pack_skin_instances(const batch::Batch& b) {
  std::vector<shader::SkinInstance> out(b.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = pack_skin_instance(b, i);
  return out;
}

BatchGpuData::BatchGpuData(gpu::Context& ctx, const batch::BatchScene& scene) : ctx_(ctx) {
  types_.resize(scene.batch_count());
  for (std::size_t t = 0; t < types_.size(); ++t) {
    const batch::Batch& b = scene.batch(static_cast<batch::BatchType>(t));
    PerType& p = types_[t];
    p.capacity = b.size();
    p.floats_per_instance = b.floats_per_instance;
    // Empty types still get a small buffer so every binding is valid.
    const VkDeviceSize ibytes = std::max<std::size_t>(b.size(), 1) * sizeof(shader::SkinInstance);
    const VkDeviceSize pbytes = std::max<std::size_t>(b.properties.size(), 1) * sizeof(float);
    p.instances = gpu::Buffer(ctx, ibytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
    p.properties =
        gpu::Buffer(ctx, pbytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  }
}

std::size_t BatchGpuData::stage_changes(batch::BatchScene& scene) {
  dirty_.clear();
  scene.collect_dirty(dirty_);
  std::size_t bytes = 0;
  for (const batch::DirtyRange& d : dirty_) {
    if (d.type >= types_.size() || d.end > types_[d.type].capacity) {
      throw Error("batch grew after its GPU buffers were made", "BatchGpuData::stage_changes",
                  "create a new BatchGpuData after adding renderers");
    }
    PerType& p = types_[d.type];
    const batch::Batch& b = scene.batch(d.type);
    if (d.end <= d.begin) continue;
    const VkDeviceSize ioff = VkDeviceSize{d.begin} * sizeof(shader::SkinInstance);
    const VkDeviceSize isize = VkDeviceSize{d.end - d.begin} * sizeof(shader::SkinInstance);
    const gpu::StagingRing::Span staged = ctx_.staging_ring().reserve(isize);
    // Packed straight into the ring (memcpy: the mapped bytes carry no alignment promise for the type).
    for (std::uint32_t s = d.begin; s < d.end; ++s) {
      const shader::SkinInstance inst = pack_skin_instance(b, s);
      std::memcpy(staged.data + std::size_t{s - d.begin} * sizeof inst, &inst, sizeof inst);
    }
    p.instance_regions.push_back({staged.offset, ioff, isize});
    bytes += isize;
    if (p.floats_per_instance != 0) {
      const std::size_t f0 = std::size_t{d.begin} * p.floats_per_instance;
      const std::size_t fn = std::size_t{d.end - d.begin} * p.floats_per_instance;
      const gpu::StagingRing::Span props =
          ctx_.staging_ring().stage(std::as_bytes(std::span(b.properties).subspan(f0, fn)));
      p.property_regions.push_back({props.offset, f0 * sizeof(float), fn * sizeof(float)});
      bytes += fn * sizeof(float);
    }
  }
  return bytes;
}

std::size_t BatchGpuData::pending_regions() const {
  std::size_t n = 0;
  for (const PerType& p : types_) n += p.instance_regions.size() + p.property_regions.size();
  return n;
}

void BatchGpuData::record_upload(VkCommandBuffer cmd) {
  if (pending_regions() == 0) return;
  const gpu::StagingRing& ring = ctx_.staging_ring();
  ring.flush();
  for (PerType& p : types_) {
    if (!p.instance_regions.empty())
      vkCmdCopyBuffer(cmd, ring.buffer().handle(), p.instances.handle(),
                      static_cast<std::uint32_t>(p.instance_regions.size()), p.instance_regions.data());
    if (!p.property_regions.empty())
      vkCmdCopyBuffer(cmd, ring.buffer().handle(), p.properties.handle(),
                      static_cast<std::uint32_t>(p.property_regions.size()), p.property_regions.data());
    p.instance_regions.clear();
    p.property_regions.clear();
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

}  // namespace myriad::render
