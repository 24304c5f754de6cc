#include "myriad/render/avatars/batch_gpu.hpp"

#include <algorithm>
#include <cstring>
#include <span>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"

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

BatchGpuData::BatchGpuData(gpu::Context& ctx, const batch::BatchScene& scene)
    : ctx_(ctx), upload_share_(ctx.uploads(), "avatars") {
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
  gpu::UploadQueue& uploads = ctx_.uploads();
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
    const gpu::StagingRing::Span staged = uploads.reserve(upload_share_, isize);
    // Packed straight into the ring (memcpy: the mapped bytes carry no alignment promise for the type).
    for (std::uint32_t s = d.begin; s < d.end; ++s) {
      const shader::SkinInstance inst = pack_skin_instance(b, s);
      std::memcpy(staged.data + std::size_t{s - d.begin} * sizeof inst, &inst, sizeof inst);
    }
    uploads.copy_from(staged, 0, p.instances.handle(), ioff, isize);
    ++pending_regions_;
    bytes += isize;
    if (p.floats_per_instance != 0) {
      const std::size_t f0 = std::size_t{d.begin} * p.floats_per_instance;
      const std::size_t fn = std::size_t{d.end - d.begin} * p.floats_per_instance;
      const gpu::StagingRing::Span props = uploads.reserve(upload_share_, fn * sizeof(float));
      std::memcpy(props.data, b.properties.data() + f0, fn * sizeof(float));
      uploads.copy_from(props, 0, p.properties.handle(), f0 * sizeof(float), fn * sizeof(float));
      ++pending_regions_;
      bytes += fn * sizeof(float);
    }
  }
  return bytes;
}

std::size_t BatchGpuData::pending_regions() const { return pending_regions_; }

void BatchGpuData::record_upload(VkCommandBuffer cmd) {
  ctx_.uploads().record(cmd);
  pending_regions_ = 0;
}

}  // namespace myriad::render
