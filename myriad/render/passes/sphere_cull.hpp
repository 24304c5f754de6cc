// GPU frustum culling of bounding spheres with subgroup compaction into indexed indirect draws and a
// draw count, the pattern every Myriad culling pass follows (cull -> compact -> DrawIndirectCount).
// myriad::Frustum::intersects(Sphere) is its exact CPU reference.
#pragma once

#include <cstdint>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/gpu/memory/append_overflow.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"

namespace myriad::render {

class SphereCull {
 public:
  explicit SphereCull(gpu::Context& ctx);

  // Records: zero `count`, cull `sphere_count` spheres (vec4: centre, radius) and write one
  // DrawIndexedCommand per survivor into `commands` (first_instance = sphere index) and their number
  // into `count` (a u32 at offset 0), at most as many as `commands` holds. On return both are visible
  // to indirect reads and shader reads.
  void record(VkCommandBuffer cmd, const Frustum& frustum, const gpu::Buffer& spheres,
              std::uint32_t sphere_count, const gpu::Buffer& commands, const gpu::Buffer& count,
              std::uint32_t index_count, std::uint32_t first_index = 0) const;
  // After the last recorded pass completed: survivors dropped because `commands` was full.
  std::uint32_t overflow() const { return overflow_.read(); }

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_;
  gpu::AppendOverflow overflow_;
};

}  // namespace myriad::render
