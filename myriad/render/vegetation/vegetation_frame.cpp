// The phases of vegetation in a frame, and a whole vegetation frame on its own. The second rendering
// pass loads what the first stored, so the target ends exactly as OffscreenTarget::end leaves it
// (readable colour and depth).
#include "myriad/render/vegetation/vegetation_frame.hpp"

#include <cstring>

#include "myriad/core/io/error.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/shaders/veg_cull_layout.h"

namespace myriad::render {
namespace {
constexpr VkDeviceSize kArgsBytes = VEG_ARGS_BYTES;
}  // namespace

std::uint64_t VegetationFrameCounts::total() const {
  std::uint64_t n = 0;
  for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) n += early[l] + late[l];
  return n;
}

VegetationPasses::VegetationPasses(gpu::Context& ctx, const VegetationCull& cull,
                                   const VegetationRenderer& renderer, std::uint32_t max_types)
    : cull_(cull),
      renderer_(renderer),
      counts_(ctx, 2 * VkDeviceSize(max_types) * kArgsBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
              gpu::MemoryKind::kReadback),
      counters_(ctx, VkDeviceSize(max_types) * sizeof(shader::CullCounters), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                gpu::MemoryKind::kReadback),
      max_types_(max_types) {}

void VegetationPasses::begin_frame(VkCommandBuffer cmd, std::span<const VegetationFrameType> types) {
  if (types.size() > max_types_) throw Error("VegetationPasses: more runtime types than max_types");
  recorded_types_ = static_cast<std::uint32_t>(types.size());
  recorded_draws_ = 0;
  recorded_binds_ = 0;
  // A frame without phase 2 reads zeros there. The last frame's host read finished (its fence waited).
  vkCmdFillBuffer(cmd, counts_.handle(), 0, counts_.size(), 0);
  vkCmdFillBuffer(cmd, counters_.handle(), 0, counters_.size(), 0);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

void VegetationPasses::copy_args(VkCommandBuffer cmd, std::span<const VegetationFrameType> types,
                                 std::uint32_t pass, bool counters_valid) {
  // VegetationCull::record leaves the args visible to copies; the next record waits for the copy.
  for (std::uint32_t t = 0; t < types.size(); ++t) {
    const VkBufferCopy region{0, (VkDeviceSize(pass) * max_types_ + t) * kArgsBytes, kArgsBytes};
    vkCmdCopyBuffer(cmd, types[t].gpu->args.handle(), counts_.handle(), 1, &region);
    // The counters of a camera cull are complete after its single or late pass.
    if (counters_valid) {
      const VkBufferCopy counters{0, VkDeviceSize(t) * sizeof(shader::CullCounters),
                                  sizeof(shader::CullCounters)};
      vkCmdCopyBuffer(cmd, types[t].gpu->counters.handle(), counters_.handle(), 1, &counters);
    }
  }
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

void VegetationPasses::cull(VkCommandBuffer cmd, const FrameView& view,
                            std::span<const VegetationFrameType> types, FramePhase phase,
                            const DepthPyramid* pyramid) {
  if (phase == FramePhase::kLate) {
    if (!pyramid) throw Error("VegetationPasses: phase 2 needs the depth pyramid of phase 1");
    const VegetationHiz hiz{pyramid->image().view(), pyramid->sampler().handle(), pyramid->levels(),
                            pyramid->source_width(), pyramid->source_height(),    view.view_proj};
    for (const VegetationFrameType& t : types)
      (void)cull_.record(cmd, view.frustum, view.eye, *t.gpu, &hiz, phase);
  } else {
    for (const VegetationFrameType& t : types)
      (void)cull_.record(cmd, view.frustum, view.eye, *t.gpu, nullptr, phase);
  }
  copy_args(cmd, types, phase == FramePhase::kLate ? 1 : 0, phase != FramePhase::kEarly);
}

void VegetationPasses::draw(VkCommandBuffer cmd, const FrameView& view, const VegetationDrawOptions& settings,
                            std::span<const VegetationFrameType> types, const ShadowMap* shadow) {
  for (const VegetationFrameType& t : types) {
    VegetationDrawOptions s = settings;
    s.id_base = t.id_base;
    recorded_draws_ += renderer_.draw(cmd, view, s, *t.gpu, 0xFu, shadow);
    ++recorded_binds_;
  }
}

VegetationFrameCounts VegetationPasses::read_counts() const {
  counts_.invalidate();
  VegetationFrameCounts c;
  c.draws = recorded_draws_;
  c.binds = recorded_binds_;
  counters_.invalidate();
  const auto* counters = static_cast<const shader::CullCounters*>(counters_.mapped());
  for (std::uint32_t t = 0; t < recorded_types_; ++t) {
    c.frustum_passed += counters[t].frustum_passed;
    c.occluded += counters[t].occluded;
  }
  const auto* bytes = static_cast<const std::byte*>(counts_.mapped());
  for (std::uint32_t pass = 0; pass < 2; ++pass)
    for (std::uint32_t t = 0; t < recorded_types_; ++t)
      for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l) {
        const std::byte* type_args = bytes + (VkDeviceSize(pass) * max_types_ + t) * kArgsBytes;
        shader::DrawIndexedCommand a;
        std::memcpy(&a, type_args + l * sizeof(a), sizeof(a));
        if (l == 0) {
          std::uint32_t overflow = 0;
          std::memcpy(&overflow, type_args + offsetof(shader::VegCullArgs, overflow), sizeof(overflow));
          c.overflow += overflow;
        }
        (pass == 0 ? c.early : c.late)[l] += a.instance_count;
        c.indices += std::uint64_t(a.instance_count) * a.index_count;
        c.triangles += std::uint64_t(a.instance_count) * (a.index_count / 3);
      }
  return c;
}

namespace {

// The caller's opaque geometry, drawn in phase 1 (it occludes the plants).
class OpaqueSystem final : public FrameSystem {
 public:
  explicit OpaqueSystem(const VegetationFrame::OpaqueFn& draw) : draw_(draw) {}
  void cull(VkCommandBuffer, const FrameView&, FramePhase, const DepthPyramid*) override {}
  void draw(VkCommandBuffer cmd, const FrameView&, FramePhase phase, const ShadowMap*) override {
    if (first_phase(phase) && draw_) draw_(cmd);
  }

 private:
  const VegetationFrame::OpaqueFn& draw_;
};

// The types' phases (VegetationPasses) as one system of the frame; `shadow` a map drawn elsewhere that
// the plants receive.
class TypesSystem final : public FrameSystem {
 public:
  TypesSystem(VegetationPasses& passes, std::span<const VegetationFrameType> types,
              const VegetationDrawOptions& settings, const ShadowMap* shadow)
      : passes_(passes), types_(types), settings_(settings), shadow_(shadow) {}
  bool occlusion_culled() const override { return true; }
  void upload(VkCommandBuffer cmd) override { passes_.begin_frame(cmd, types_); }
  void cull(VkCommandBuffer cmd, const FrameView& view, FramePhase phase,
            const DepthPyramid* pyramid) override {
    passes_.cull(cmd, view, types_, phase, pyramid);
  }
  void draw(VkCommandBuffer cmd, const FrameView& view, FramePhase, const ShadowMap*) override {
    passes_.draw(cmd, view, settings_, types_, shadow_);
  }

 private:
  VegetationPasses& passes_;
  std::span<const VegetationFrameType> types_;
  const VegetationDrawOptions& settings_;
  const ShadowMap* shadow_;
};

}  // namespace

VegetationFrame::VegetationFrame(gpu::Context& ctx, const VegetationCull& cull,
                                 const VegetationRenderer& renderer, OffscreenTarget& target,
                                 std::uint32_t max_types)
    : target_(target), frame_(ctx), passes_(ctx, cull, renderer, max_types) {}

void VegetationFrame::record(VkCommandBuffer cmd, const FrameView& view,
                             const VegetationDrawOptions& settings,
                             std::span<const VegetationFrameType> types, const OpaqueFn& opaque,
                             bool occlusion, glm::vec4 clear, const ShadowMap* shadow) {
  // The scene frame's passes over two systems: the occluders first, then the plants.
  OpaqueSystem occluders(opaque);
  TypesSystem plants(passes_, types, settings, shadow);
  FrameSystem* const systems[] = {&occluders, &plants};
  frame_.set_occlusion(occlusion);
  frame_.set_sky(!settings.instance_ids);  // id images keep the clear colour: id 0 where nothing is
  frame_.record(cmd, view, systems, target_, clear, nullptr, 0.0f);
}

}  // namespace myriad::render
