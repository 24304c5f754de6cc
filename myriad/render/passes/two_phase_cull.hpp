// The GPU state a system keeps for two-phase Hi-Z culling (shaders/hiz.glsl): one visibility word
// per candidate (drawn last frame), the pyramid parameters of the late pass, and the counters a camera
// cull writes (what passed frustum and LOD, what the pyramid hid), read back after the frame.
//
// Per culling dispatch of a phase: record_begin, bind (the pass's own bindings, then this state's),
// dispatch, gpu::after_cull_dispatch, record_end. The shader includes hiz.glsl with HIZ_FIRST_BINDING
// = the number of its own bindings; its late-pass pipeline is compiled with HIZ_TEST.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/host_readback.hpp"
#include "myriad/gpu/pipeline/pipeline.hpp"
#include "myriad/render/frame/frame_system.hpp"
#include "myriad/render/shaders/hiz_layout.h"

namespace myriad::render {

class DepthPyramid;

// A camera cull's outcome for one system and view: candidates (known on the CPU), those that passed
// frustum, slice and LOD tests, those of them the pyramid hid, and what was drawn (phase 1 + phase 2).
struct CullCounts {
  std::uint64_t candidates = 0;
  std::uint64_t frustum_passed = 0;
  std::uint64_t occluded = 0;
  std::uint64_t drawn = 0;
  std::uint64_t frustum_culled() const {
    return candidates > frustum_passed ? candidates - frustum_passed : 0;
  }
};

class TwoPhaseCull {
 public:
  explicit TwoPhaseCull(gpu::Context& ctx, std::uint32_t candidates = 0);

  // Room for `candidates` visibility words. Growing makes a new buffer, cleared by the next
  // record_begin (nothing counts as drawn last frame); the caller guarantees no submitted frame still
  // uses the old one.
  void reserve(std::uint32_t candidates);
  std::uint32_t capacity() const { return capacity_; }

  // Outside rendering, before the phase's dispatches. kSingle and kEarly zero the counters (a camera
  // cull; shadow culls run kSingle before the camera's and are overwritten); kLate writes the
  // pyramid's parameters for `view_proj`. Throws at kLate without a pyramid.
  void record_begin(VkCommandBuffer cmd, FramePhase phase, const glm::mat4& view_proj,
                    const DepthPyramid* pyramid);
  // After the phase's dispatches and their after_cull_dispatch barrier: kSingle and kLate copy the
  // counters to host memory.
  void record_end(VkCommandBuffer cmd, FramePhase phase);

  // The compute pipeline of a two-phase culling pass from `spirv`: its layout has `own_storage`
  // storage buffers of the pass, then the visibility words and counters, and for the late pass's
  // pipeline (`hiz`) the pyramid sampler and its parameters.
  static gpu::Pipeline make_pipeline(const gpu::Context& ctx, std::span<const std::uint32_t> spirv,
                                     std::uint32_t own_storage, std::uint32_t push_bytes, bool hiz);
  // Binds `plain`, or `hiz` in the late pass with a pyramid, with the pass's `own` bindings followed by
  // this state's (and the pyramid's), and the push constants.
  void bind(VkCommandBuffer cmd, const gpu::Pipeline& plain, const gpu::Pipeline& hiz,
            std::vector<gpu::Binding> own, FramePhase phase, const DepthPyramid* pyramid, const void* push,
            std::uint32_t push_bytes) const;

  // After the submission completed: the counters of the last single or late pass.
  shader::CullCounters read() const;
  std::uint64_t gpu_bytes() const { return visibility_.size() + counters_.size() + params_.size(); }

 private:
  gpu::Context& ctx_;
  std::uint32_t capacity_ = 0;
  bool clear_pending_ = false;
  gpu::Buffer visibility_;
  gpu::Buffer counters_;
  gpu::HostReadback counters_host_;
  gpu::Buffer params_;
};

// Whether the dispatch of `phase` tests the pyramid (kLate with one).
inline bool tests_pyramid(FramePhase phase, const DepthPyramid* pyramid) {
  return phase == FramePhase::kLate && pyramid != nullptr;
}

}  // namespace myriad::render
