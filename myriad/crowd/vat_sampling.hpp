// Runtime VAT sampling (SPEC C1): which two frame rows an entity's clock falls between, and the decoded,
// interpolated position of one vertex column — the CPU reference of render/shaders/crowd_vat.glsl.
//
// Both sides use only additions, multiplications and floor on values uploaded as floats (the per-clip
// decode step (max-min)/65535 and 1/duration are computed here once), so the shader reproduces these
// positions bit for bit: division and transcendental functions, whose GPU precision Vulkan leaves
// loose, never enter the sampled position.
#pragma once

#include "myriad/crowd/vat.hpp"

#include <cstdint>
#include <span>

namespace myriad::crowd {

// One clip as the runtime reads it (the bytes of render/shaders/crowd_layout.h CrowdClipGpu).
struct VatClipRuntime {
  glm::vec3 origin{0.0f};  // position of texel value 0
  std::uint32_t first_row = 0;
  glm::vec3 step{0.0f};  // position change per texel unit: (max - min) / 65535
  std::uint32_t frames = 1;
  float duration = 0.0f;
  float inv_duration = 0.0f;  // 0 for a one-frame clip
  float fps = 30.0f;
  std::uint32_t pad = 0;
};
static_assert(sizeof(VatClipRuntime) == 48);

VatClipRuntime runtime_clip(const VatClip& clip, float fps);

struct VatFrame {
  std::uint32_t row0 = 0, row1 = 0;  // absolute VAT rows
  float blend = 0.0f;                // weight of row1
};

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
