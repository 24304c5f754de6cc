#include "myriad/render/passes/sphere_cull.hpp"

#include <array>

#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/shaders/cull_layout.h"
#include "myriad_render_shaders.hpp"

namespace myriad::render {

SphereCull::SphereCull(gpu::Context& ctx)
    : ctx_(ctx),
      pipeline_(
          gpu::make_compute_pipeline(ctx, spirv::cull_spheres_comp(),
                                     {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                      sizeof(shader::CullSpheresPush)})),
      overflow_(ctx) {}

void SphereCull::record(VkCommandBuffer cmd, const Frustum& frustum, const gpu::Buffer& spheres,
                        std::uint32_t sphere_count, const gpu::Buffer& commands, const gpu::Buffer& count,
                        std::uint32_t index_count, std::uint32_t first_index) const {
  // Previous indirect reads of the outputs finish before they are cleared and rewritten.
  gpu::before_output_reset(cmd);
  vkCmdFillBuffer(cmd, count.handle(), 0, sizeof(std::uint32_t), 0);
  overflow_.record_reset(cmd);
  gpu::after_output_reset(cmd);

  shader::CullSpheresPush push{};
  for (int i = 0; i < kFrustumPlaneCount; ++i) push.planes[i] = frustum.planes[std::size_t(i)].as_vec4();
  push.sphere_count = sphere_count;
  push.index_count = index_count;
  push.first_index = first_index;
  push.command_capacity = std::uint32_t(commands.size() / sizeof(shader::DrawIndexedCommand));
  const std::array bindings{gpu::storage_buffer(spheres), gpu::storage_buffer(commands),
                            gpu::storage_buffer(count), gpu::storage_buffer(overflow_.buffer())};
  gpu::bind(ctx_, cmd, pipeline_, bindings, &push, sizeof(push));
  vkCmdDispatch(cmd, (sphere_count + 63) / 64, 1, 1);

  gpu::after_cull_dispatch(cmd);
  overflow_.record_readback(cmd);
}

}  // namespace myriad::render
