#include "myriad/render/terrain/page_cull.hpp"

#include <algorithm>
#include <array>

#include "myriad/gpu/sync/sync.hpp"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

std::vector<std::vector<std::uint32_t>> cull_pages_reference(std::span<const shader::PageGpu> pages,
                                                             std::uint32_t group_count,
                                                             const Frustum& frustum, float slice_height,
                                                             const HizReference* occlusion) {
  std::vector<std::vector<std::uint32_t>> visible(group_count);
  for (std::uint32_t id = 0; id < pages.size(); ++id) {
    const shader::PageGpu& p = pages[id];
    if (p.group >= group_count || p.aabb_min.y > slice_height) continue;
    if (!frustum.intersects(Aabb{p.aabb_min, p.aabb_max})) continue;
    if (occlusion && hiz_box_occluded(*occlusion, p.aabb_min, p.aabb_max)) continue;
    visible[p.group].push_back(id);
  }
  return visible;
}

void initial_page_draws(std::span<const shader::DrawGroupGpu> groups, std::vector<shader::DrawCommand>& out) {
  out.clear();
  for (const shader::DrawGroupGpu& g : groups) out.push_back({g.bucket_size, 0, 0, g.visible_base});
}

namespace {
// Pages, draw groups, draws, visible list, overflow; then the two-phase state's.
constexpr std::uint32_t kOwnBindings = 5;
}  // namespace

PageCuller::PageCuller(gpu::Context& ctx)
    : ctx_(ctx),
      pipeline_(TwoPhaseCull::make_pipeline(ctx, spirv::cull_pages_comp(), kOwnBindings,
                                            sizeof(shader::CullPagesPush), false)),
      hiz_pipeline_(TwoPhaseCull::make_pipeline(ctx, spirv::cull_pages_hiz_comp(), kOwnBindings,
                                                sizeof(shader::CullPagesPush), true)) {}

void PageCuller::record(VkCommandBuffer cmd, const FrameView& view, const gpu::Buffer& pages,
                        std::uint32_t page_count, const gpu::Buffer& groups,
                        std::span<const shader::DrawCommand> initial, const Outputs& out, FramePhase phase,
                        const DepthPyramid* pyramid) const {
  if (initial.size_bytes() > 65536)
    throw Error("more draw groups than one vkCmdUpdateBuffer can reset", "PageCuller");
  out.two_phase.reserve(page_count);
  out.two_phase.record_begin(cmd, phase, view.view_proj, pyramid);
  // Earlier indirect and vertex reads finish before the draws and visible list are rewritten.
  gpu::before_output_reset(cmd);
  if (!initial.empty()) vkCmdUpdateBuffer(cmd, out.draws.handle(), 0, initial.size_bytes(), initial.data());
  if (phase != FramePhase::kLate) out.overflow.record_reset(cmd);
  gpu::after_output_reset(cmd);

  shader::CullPagesPush push{};
  for (int i = 0; i < kFrustumPlaneCount; ++i) push.planes[i] = view.frustum.planes[std::size_t(i)].as_vec4();
  push.slice_height = view.slice_height;
  push.page_count = page_count;
  push.group_count = std::uint32_t(initial.size());
  push.visible_capacity = std::uint32_t(out.visible.size() / sizeof(std::uint32_t));
  push.phase = static_cast<std::uint32_t>(phase);
  out.two_phase.bind(cmd, pipeline_, hiz_pipeline_,
                     {gpu::storage_buffer(pages), gpu::storage_buffer(groups), gpu::storage_buffer(out.draws),
                      gpu::storage_buffer(out.visible), gpu::storage_buffer(out.overflow.buffer())},
                     phase, pyramid, &push, sizeof(push));
  vkCmdDispatch(cmd, (page_count + 63) / 64, 1, 1);
  gpu::after_cull_dispatch(cmd);
  out.overflow.record_readback(cmd);
  out.two_phase.record_end(cmd, phase);
}

}  // namespace myriad::render
