#include "myriad/render/crowd/crowd_cull.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/shaders/crowd_layout.h"
#include "myriad_render_shaders.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace myriad::render {

namespace {
constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
// Entities, types, commands, visible list, overflow, fading count, LOD state; then the two-phase state's.
constexpr std::uint32_t kOwnBindings = 7;
}  // namespace

CrowdCull::CrowdCull(gpu::Context& ctx, std::span<const crowd::CrowdTypeBounds> types,
                     std::span<const MeshRange> lods, std::span<const std::uint32_t> type_counts)
    : ctx_(ctx),
      pipeline_(TwoPhaseCull::make_pipeline(ctx, spirv::crowd_cull_comp(), kOwnBindings,
                                            sizeof(shader::CrowdCullPush), false)),
      hiz_pipeline_(TwoPhaseCull::make_pipeline(ctx, spirv::crowd_cull_hiz_comp(), kOwnBindings,
                                                sizeof(shader::CrowdCullPush), true)),
      type_count_(std::uint32_t(types.size())),
      slot_count_(std::uint32_t(types.size()) * crowd::kCrowdLodCount),
      overflow_(ctx),
      fading_(ctx),
      two_phase_(ctx, 0) {
  if (types.size() > 0xffffu) throw Error("crowd culling: more than 65535 types");
  if (types.empty() || lods.size() != slot_count_ || type_counts.size() != types.size()) {
    throw Error("crowd culling: needs at least one type, " + std::to_string(crowd::kCrowdLodCount) +
                " LOD ranges per type and one entity count per type (got " + std::to_string(types.size()) +
                " types, " + std::to_string(lods.size()) + " ranges, " + std::to_string(type_counts.size()) +
                " counts)");
  }
  std::vector<shader::CrowdTypeGpu> gpu_types;
  std::vector<shader::DrawIndexedCommand> commands;
  for (std::uint32_t t = 0; t < type_count_; ++t) {
    gpu_types.push_back({types[t].bound_radius, types[t].diameter, type_counts[t], 0u});
    for (std::uint32_t level = 0; level < crowd::kCrowdLodCount; ++level) {
      const MeshRange& lod = lods[t * crowd::kCrowdLodCount + level];
      commands.push_back(indexed_command(lod, list_capacity_));
      list_capacity_ += type_counts[t];
    }
  }
  types_ = gpu::Buffer(ctx, sizeof(shader::CrowdTypeGpu) * gpu_types.size(), kStorage,
                       gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx, types_, std::span<const shader::CrowdTypeGpu>(gpu_types));
  const VkDeviceSize command_bytes = sizeof(shader::DrawIndexedCommand) * commands.size();
  command_template_ = gpu::Buffer(ctx, command_bytes, kStorage, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx, command_template_, std::span<const shader::DrawIndexedCommand>(commands));
  std::uint32_t entities = 0;
  for (std::uint32_t n : type_counts) entities += n;
  if (entities > CROWD_ENTRY_ID_MASK + 1u) {
    throw Error("crowd culling: more than " + std::to_string(CROWD_ENTRY_ID_MASK + 1u) +
                " entities (a draw list entry names " + std::to_string(CROWD_ENTRY_ID_BITS) + " bits of id)");
  }
  two_phase_.reserve(entities);
  reserve_lod_state(entities);
  for (std::uint32_t set = 0; set < 2; ++set) {
    commands_[set] = gpu::Buffer(ctx, command_bytes, kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                 gpu::MemoryKind::kDeviceLocal);
    visible_[set] = gpu::Buffer(ctx, sizeof(std::uint32_t) * std::max(list_capacity_, 1u), kStorage,
                                gpu::MemoryKind::kDeviceLocal);
  }
}

void CrowdCull::reserve_lod_state(std::uint32_t entities) {
  if (entities <= lod_state_capacity_ && lod_state_capacity_ > 0) return;
  // Grown by half again, as the two-phase visibility words; every entity starts without a level.
  lod_state_capacity_ = std::max({entities, lod_state_capacity_ + lod_state_capacity_ / 2, 1u});
  lod_state_ = gpu::make_storage_buffer(ctx_, VkDeviceSize(lod_state_capacity_) * sizeof(std::uint32_t));
  lod_state_clear_ = true;
}

std::uint64_t CrowdCull::gpu_bytes() const {
  return types_.size() + command_template_.size() + 2 * (commands_[0].size() + visible_[0].size()) +
         lod_state_.size() + two_phase_.gpu_bytes();
}

void CrowdCull::record(VkCommandBuffer cmd, const gpu::Buffer& entities, std::uint32_t entity_count,
                       const crowd::CrowdCullParams& params, FramePhase phase, const DepthPyramid* pyramid) {
  two_phase_.reserve(entity_count);  // one visibility word per entity (sized at construction)
  reserve_lod_state(entity_count);   // and one LOD state word
  const std::uint32_t set = command_set(phase);
  two_phase_.record_begin(cmd, phase, params.view_proj, pyramid);
  gpu::before_output_reset(cmd);
  const VkBufferCopy copy{0, 0, commands_[set].size()};
  vkCmdCopyBuffer(cmd, command_template_.handle(), commands_[set].handle(), 1, &copy);
  if (phase != FramePhase::kLate) {
    overflow_.record_reset(cmd);
    fading_.record_reset(cmd);
  }
  if (lod_state_clear_) {  // after record_begin's barrier: earlier culls' writes are done
    vkCmdFillBuffer(cmd, lod_state_.handle(), 0, lod_state_.size(), CROWD_LOD_NONE);
    lod_state_clear_ = false;
  }
  gpu::after_output_reset(cmd);
  // The LOD state the previous cull wrote is this one's previous level.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);

  shader::CrowdCullPush push{};
  for (int i = 0; i < kFrustumPlaneCount; ++i)
    push.planes[i] = params.frustum.planes[std::size_t(i)].as_vec4();
  push.camera = params.camera;
  push.switch_ratio = glm::vec2(params.curve.switch_ratio[0], params.curve.switch_ratio[1]);
  push.band_step = params.curve.band_step;
  push.entity_count = entity_count;
  const std::uint32_t forced =
      params.forced_level < 0 ? 0u
                              : std::uint32_t(std::min(params.forced_level, crowd::kCrowdLodCount - 1)) + 1u;
  push.types_phase = type_count_ | (static_cast<std::uint32_t>(phase) << 16) | (forced << 24);
  two_phase_.bind(
      cmd, pipeline_, hiz_pipeline_,
      {gpu::storage_buffer(entities), gpu::storage_buffer(types_), gpu::storage_buffer(commands_[set]),
       gpu::storage_buffer(visible_[set]), gpu::storage_buffer(overflow_.buffer()),
       gpu::storage_buffer(fading_.buffer()), gpu::storage_buffer(lod_state_)},
      phase, pyramid, &push, sizeof(push));
  if (entity_count > 0) vkCmdDispatch(cmd, (entity_count + 63) / 64, 1, 1);

  gpu::after_cull_dispatch(cmd);
  overflow_.record_readback(cmd);
  fading_.record_readback(cmd);
  two_phase_.record_end(cmd, phase);
}

}  // namespace myriad::render
