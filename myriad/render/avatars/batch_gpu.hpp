// GPU copies of the batch layer (SPEC B1 layer 3): per batch type, the instances (object-to-world
// rows, palette offset, property offset) and the property floats, kept in device-local buffers and
// updated only where BatchScene reports dirty ranges: a frame with no changes copies nothing. The
// changes are staged in the context's staging ring (the one upload path).
#pragma once

#include <cstdint>
#include <vector>

#include "myriad/batch/scene.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"
#include "myriad/render/shaders/skin_layout.h"

namespace myriad::render {

// Per-instance data of one batch (layer 3) in the shader's layout.
shader::SkinInstance pack_skin_instance(const batch::Batch& batch, std::size_t slot);
std::vector<shader::SkinInstance> pack_skin_instances(const batch::Batch& batch);

class BatchGpuData {
 public:
  // Sized for the scene as it is now (instances added later need a new BatchGpuData).
  BatchGpuData(gpu::Context& ctx, const batch::BatchScene& scene);

  // Moves the scene's dirty ranges into the upload queue ("avatars", every frame: outside any budget)
  // as copies to the instance and property buffers. Returns bytes staged. Throws when the ring is full.
  std::size_t stage_changes(batch::BatchScene& scene);
  // Records the upload queue (its closing barrier makes the copies visible to the vertex shaders).
  // Record it in the frame that staged them (the ring reuses a frame's bytes once it completed).
  void record_upload(VkCommandBuffer cmd);

  const gpu::Buffer& instances(batch::BatchType type) const { return types_[type].instances; }
  const gpu::Buffer& properties(batch::BatchType type) const { return types_[type].properties; }
  std::size_t pending_regions() const;

 private:
  struct PerType {
    std::size_t capacity = 0;
    std::uint32_t floats_per_instance = 0;
    gpu::Buffer instances, properties;
  };
  gpu::Context& ctx_;
  gpu::OwnedUploadShare upload_share_;
  std::size_t pending_regions_ = 0;  // copies staged since the last record_upload()
  std::vector<PerType> types_;
  std::vector<batch::DirtyRange> dirty_;
};

}  // namespace myriad::render
