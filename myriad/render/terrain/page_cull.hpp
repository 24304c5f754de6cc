// CullPages (V11, V12, V14): GPU culling of voxel page slots into one non-indexed indirect command per
// draw group (an arena's pages of one draw bucket; instances = visible pages, first_instance = the
// group's base in the visible list), plus the exact CPU reference.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/cull/hiz_occlusion.hpp"
#include "myriad/gpu/memory/append_overflow.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/passes/two_phase_cull.hpp"
#include "myriad/render/shaders/page_layout.h"

namespace myriad::render {

// The CPU reference: per draw group, the sorted ids of the pages CullPages keeps; with `occlusion`,
// those of them the pyramid does not hide (what a late pass finds visible).
std::vector<std::vector<std::uint32_t>> cull_pages_reference(std::span<const shader::PageGpu> pages,
                                                             std::uint32_t group_count,
                                                             const Frustum& frustum, float slice_height,
                                                             const HizReference* occlusion = nullptr);

// Per-group draw commands before culling: vertex_count = bucket size, no instances yet,
// first_instance = visible base (the prefix sums of the groups' page counts). Written into `out`, whose
// capacity is kept: the tables are rebuilt in frames where arenas change, and must not allocate there.
void initial_page_draws(std::span<const shader::DrawGroupGpu> groups, std::vector<shader::DrawCommand>& out);

class PageCuller {
 public:
  explicit PageCuller(gpu::Context& ctx);

  // Where one cull writes: one DrawCommand per draw group, the visible list, the overflow word (reset by
  // single and early passes), and the two-phase state (visibility words, counters, pyramid inputs).
  struct Outputs {
    const gpu::Buffer& draws;
    const gpu::Buffer& visible;
    const gpu::AppendOverflow& overflow;
    TwoPhaseCull& two_phase;
  };

  // Records: reset `out.draws` from `initial` and cull `page_count` pages with the two-phase rule of
  // `phase` (kLate tests `pyramid`, projecting with `view.view_proj`). On return the draws and the
  // list are ready for indirect reads and vertex-shader reads, and the overflow word counts the pages
  // dropped because their group's list was full.
  void record(VkCommandBuffer cmd, const FrameView& view, const gpu::Buffer& pages, std::uint32_t page_count,
              const gpu::Buffer& groups, std::span<const shader::DrawCommand> initial, const Outputs& out,
              FramePhase phase = FramePhase::kSingle, const DepthPyramid* pyramid = nullptr) const;

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_, hiz_pipeline_;
};

}  // namespace myriad::render
