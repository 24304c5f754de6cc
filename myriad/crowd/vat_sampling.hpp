// Runtime VAT sampling (SPEC C1): which two frame rows an entity's clock falls between, and the decoded,
// interpolated position of one vertex column — the CPU reference of render/shaders/crowd_vat.glsl.
//
// Both sides use only additions, multiplications and floor on values uploaded as floats (the per-clip
// decode step (max-min)/65535 and 1/duration are computed here once), so the shader reproduces these
// positions bit for bit: division and transcendental functions, whose GPU precision Vulkan leaves
// loose, never enter the sampled position.
#pragma once

#include "myriad/crowd/crowd_gpu_layout.h"
#include "myriad/crowd/vat.hpp"

#include <cstdint>
#include <span>

namespace myriad::crowd {

// VatClipRuntime (one clip as the runtime reads it) and VatFrame are in crowd_gpu_layout.h.
VatClipRuntime runtime_clip(const VatClip& clip, float fps);

// The clip loops: local_time is wrapped into [0, duration].
VatFrame vat_frame(const VatClipRuntime& clip, float local_time);

// Texels as the GPU stores them: two u32 per texel (x | y << 16, z | w << 16).
std::vector<std::uint32_t> pack_vat_texels(std::span<const glm::u16vec4> texels);

glm::vec3 vat_decode_position(glm::u16vec4 texel, const VatClipRuntime& clip);

// Decoded positions of `column` at both rows, blended: p0 + (p1 - p0)·blend.
glm::vec3 vat_sample_position(std::span<const glm::u16vec4> texels, std::uint32_t columns,
                              const VatClipRuntime& clip, const VatFrame& frame, std::uint32_t column);

// The entity's clock for its clip: global_time·speed + time_offset.
inline float entity_local_time(float global_time, float speed, float time_offset) {
  return global_time * speed + time_offset;
}

}  // namespace myriad::crowd
