#include "myriad/render/avatars/batch_occlusion.hpp"

#include <algorithm>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad_render_shaders.hpp"

namespace myriad::render {
namespace {

// The cull pass's own bindings (renderers, keep words), then the two-phase state's.
constexpr std::uint32_t kCullBindings = 2;
// The compaction's: entries, keep words, commands, slots, overflow.
constexpr std::uint32_t kCompactBindings = 5;

gpu::PipelineLayoutDesc compact_layout() {
  return {std::vector<VkDescriptorType>(kCompactBindings, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
          sizeof(shader::BatchCullPush)};
}

}  // namespace

BatchOcclusion::BatchOcclusion(gpu::Context& ctx, const batch::BatchScene& scene)
    : ctx_(ctx),
      upload_share_(ctx.uploads(), "avatars"),
      cull_(TwoPhaseCull::make_pipeline(ctx, spirv::batch_cull_comp(), kCullBindings,
                                        sizeof(shader::BatchCullPush), false)),
      cull_hiz_(TwoPhaseCull::make_pipeline(ctx, spirv::batch_cull_hiz_comp(), kCullBindings,
                                            sizeof(shader::BatchCullPush), true)),
      compact_(gpu::make_compute_pipeline(ctx, spirv::batch_compact_comp(), compact_layout())),
      two_phase_(ctx, 0),
      overflow_(ctx) {
  reserve(scene);
}

std::uint32_t BatchOcclusion::renderers_of(const batch::BatchScene& scene) {
  return static_cast<std::uint32_t>(std::max<std::size_t>(scene.culling().size(), 1));
}

std::uint32_t BatchOcclusion::draw_instances_of(const batch::BatchScene& scene) {
  return static_cast<std::uint32_t>(std::max<std::size_t>(scene.draws().size(), 1));
}

void BatchOcclusion::reserve(const batch::BatchScene& scene) {
  // A draw has at least one instance: never more draws than draw instances.
  reserve(renderers_of(scene), draw_instances_of(scene), draw_instances_of(scene));
}

void BatchOcclusion::reserve(std::uint32_t renderers, std::uint32_t entries, std::uint32_t draws) {
  // Grown by half again, so a scene that grows a little at a time does not reallocate every time.
  auto grow = [](std::uint32_t want, std::uint32_t have) { return std::max(want, have + have / 2); };
  if (renderers > renderer_capacity_) {
    renderer_capacity_ = grow(renderers, renderer_capacity_);
    keep_ = gpu::make_storage_buffer(ctx_, VkDeviceSize(renderer_capacity_) * sizeof(std::uint32_t));
    two_phase_.reserve(renderer_capacity_);
  }
  if (entries > entry_capacity_) {
    entry_capacity_ = grow(entries, entry_capacity_);
    for (gpu::Buffer& s : slots_)
      s = gpu::make_storage_buffer(ctx_, VkDeviceSize(entry_capacity_) * sizeof(std::uint32_t));
  }
  if (draws > draw_capacity_) {
    draw_capacity_ = grow(draws, draw_capacity_);
    const VkDeviceSize bytes = VkDeviceSize(draw_capacity_) * sizeof(shader::BatchDrawCommand);
    for (gpu::Buffer& c : commands_)
      c = gpu::make_storage_buffer(ctx_, bytes, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    drawn_ = gpu::HostReadback(ctx_, 2 * bytes);
    drawn_draws_ = 0;
  }
}

void BatchOcclusion::stage(const batch::BatchScene& scene, const batch::CullResult& cull,
                           const batch::DrawList& list, std::span<const MeshRange> meshes) {
  const batch::CullingLayer& layer = scene.culling();
  const auto renderers = static_cast<std::uint32_t>(layer.size());
  const auto entries = static_cast<std::uint32_t>(list.instances.size());
  const auto draws = static_cast<std::uint32_t>(list.draws.size());
  if (cull.visible.size() != layer.size() || list.renderers.size() != list.instances.size())
    throw Error("batch occlusion: the cull result or draw list is not of this scene");
  if (renderers > renderer_capacity_ || entries > entry_capacity_ || draws > draw_capacity_)
    throw Error("batch occlusion: the scene outgrew its lists (" + std::to_string(renderers) +
                " renderers, " + std::to_string(entries) + " entries, " + std::to_string(draws) +
                " draws for room of " + std::to_string(renderer_capacity_) + ", " +
                std::to_string(entry_capacity_) + ", " + std::to_string(draw_capacity_) +
                "): reserve() between frames");

  // Storage-buffer ranges of the ring: aligned for binding, never empty.
  gpu::UploadQueue& uploads = ctx_.uploads();
  const VkDeviceSize align = std::max<VkDeviceSize>(ctx_.limits().minStorageBufferOffsetAlignment, 16);
  renderers_ =
      uploads.reserve(upload_share_, std::max(renderers, 1u) * sizeof(shader::BatchCullRenderer), align);
  entries_ = uploads.reserve(upload_share_, std::max(entries, 1u) * sizeof(shader::BatchListEntry), align);
  template_ = uploads.reserve(upload_share_, std::max(draws, 1u) * sizeof(shader::BatchDrawCommand), align);

  auto* r = reinterpret_cast<shader::BatchCullRenderer*>(renderers_.data);
  for (std::uint32_t i = 0; i < renderers; ++i) {
    const Sphere& s = layer.bounds[i];
    r[i] = {s.center, s.radius, cull.visible[i] != 0 ? 1u : 0u};
  }
  auto* c = reinterpret_cast<shader::BatchDrawCommand*>(template_.data);
  auto* e = reinterpret_cast<shader::BatchListEntry*>(entries_.data);
  for (std::uint32_t d = 0; d < draws; ++d) {
    const batch::DrawCommand& draw = list.draws[d];
    if (draw.mesh >= meshes.size())
      throw Error("batch occlusion: draw " + std::to_string(d) + " names mesh " + std::to_string(draw.mesh) +
                  " of " + std::to_string(meshes.size()));
    c[d] = {indexed_command(meshes[draw.mesh], draw.first_instance), draw.instance_count};
    for (std::uint32_t i = draw.first_instance; i < draw.first_instance + draw.instance_count; ++i)
      e[i] = {list.instances[i], d, list.renderers[i]};
  }
  uploads.ring().flush();
  push_ = {renderers, entries, draws, 0u};
}

void BatchOcclusion::record(VkCommandBuffer cmd, FramePhase phase, const glm::mat4& view_proj,
                            const DepthPyramid* pyramid) {
  const std::uint32_t set = command_set(phase);
  two_phase_.record_begin(cmd, phase, view_proj, pyramid);
  gpu::before_output_reset(cmd);
  const VkBufferCopy copy{template_.offset, 0,
                          VkDeviceSize(push_.draw_count) * sizeof(shader::BatchDrawCommand)};
  if (copy.size > 0) vkCmdCopyBuffer(cmd, template_.buffer, commands_[set].handle(), 1, &copy);
  if (phase != FramePhase::kLate) overflow_.record_reset(cmd);
  gpu::after_output_reset(cmd);

  shader::BatchCullPush push = push_;
  push.phase = static_cast<std::uint32_t>(phase);
  two_phase_.bind(cmd, cull_, cull_hiz_,
                  {gpu::storage_buffer(renderers_.buffer, renderers_.offset, renderers_.size),
                   gpu::storage_buffer(keep_)},
                  phase, pyramid, &push, sizeof push);
  if (push.renderer_count > 0) vkCmdDispatch(cmd, (push.renderer_count + 63) / 64, 1, 1);
  // The keep words, written by the cull, are read by the compaction.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  const std::array bindings{gpu::storage_buffer(entries_.buffer, entries_.offset, entries_.size),
                            gpu::storage_buffer(keep_), gpu::storage_buffer(commands_[set]),
                            gpu::storage_buffer(slots_[set]), gpu::storage_buffer(overflow_.buffer())};
  gpu::bind(ctx_, cmd, compact_, bindings, &push, sizeof push);
  if (push.entry_count > 0) vkCmdDispatch(cmd, (push.entry_count + 63) / 64, 1, 1);

  gpu::after_cull_dispatch(cmd);
  overflow_.record_readback(cmd);
  two_phase_.record_end(cmd, phase);
  if (phase == FramePhase::kEarly) return;
  // Both phases' commands, for drawn(): set 0 of this frame's early pass is complete by now.
  const VkDeviceSize bytes = VkDeviceSize(push_.draw_count) * sizeof(shader::BatchDrawCommand);
  const VkDeviceSize set_bytes = VkDeviceSize(draw_capacity_) * sizeof(shader::BatchDrawCommand);
  two_phase_frame_ = phase == FramePhase::kLate;
  drawn_draws_ = push_.draw_count;
  drawn_.record_copy(cmd, commands_[0], 0, bytes, 0);
  if (two_phase_frame_) drawn_.record_copy(cmd, commands_[1], 0, bytes, set_bytes);
  drawn_.record_host_barrier(cmd);
}

BatchDrawnCounts BatchOcclusion::drawn() const {
  BatchDrawnCounts out;
  const auto early = drawn_.read<shader::BatchDrawCommand>(0, drawn_draws_);
  const auto late = drawn_.read<shader::BatchDrawCommand>(
      VkDeviceSize(draw_capacity_) * sizeof(shader::BatchDrawCommand), two_phase_frame_ ? drawn_draws_ : 0);
  out.instances.resize(drawn_draws_);
  for (std::uint32_t d = 0; d < drawn_draws_; ++d) {
    out.instances[d] =
        early[d].command.instance_count + (two_phase_frame_ ? late[d].command.instance_count : 0u);
    out.total += out.instances[d];
  }
  return out;
}

std::uint64_t BatchOcclusion::gpu_bytes() const {
  return keep_.size() + 2 * (commands_[0].size() + slots_[0].size()) + two_phase_.gpu_bytes();
}

}  // namespace myriad::render
