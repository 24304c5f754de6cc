// CullPages (V11, V12, V14): GPU culling of voxel page slots into one non-indexed indirect draw per
// arena (instances = visible pages, first_instance = the arena's base in the visible list), plus the
// exact CPU reference and the CPU coarse chunk test that decides which arenas can be skipped.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "myriad/core/frustum.hpp"
#include "myriad/gpu/append_overflow.hpp"
#include "myriad/gpu/buffer.hpp"
#include "myriad/gpu/pipeline.hpp"
#include "myriad/render/shaders/page_layout.h"

namespace myriad::render {

// The CPU reference: per arena, the sorted ids of the pages CullPages keeps.
std::vector<std::vector<std::uint32_t>> cull_pages_reference(std::span<const shader::PageGpu> pages,
                                                             std::uint32_t arena_count,
                                                             const Frustum& frustum, float slice_height);

// Per-arena draw commands before culling: vertex_count = bucket size, no instances yet,
// first_instance = visible base. Also the visible bases themselves (prefix sums of page counts).
std::vector<shader::DrawCommand> initial_page_draws(std::span<const shader::ArenaCullGpu> arenas);

class PageCuller {
 public:
  explicit PageCuller(gpu::Context& ctx);

  // Records: reset `draws` (one DrawCommand per arena) from `initial` and cull `page_count` pages.
  // On return `draws` and `visible` are ready for indirect reads and vertex-shader reads, and
  // `overflow` counts the pages dropped because their arena's list was full.
  void record(VkCommandBuffer cmd, const Frustum& frustum, float slice_height, const gpu::Buffer& pages,
              std::uint32_t page_count, const gpu::Buffer& arenas,
              std::span<const shader::DrawCommand> initial, const gpu::Buffer& draws,
              const gpu::Buffer& visible, const gpu::AppendOverflow& overflow) const;

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_;
};

}  // namespace myriad::render
