#include "myriad/crowd/vat_sampling.hpp"

#include <algorithm>
#include <cmath>

namespace myriad::crowd {

VatClipRuntime runtime_clip(const VatClip& clip, float fps) {
  VatClipRuntime r;
  r.origin = clip.bounds_min;
  r.step = (clip.bounds_max - clip.bounds_min) / 65535.0f;
  r.first_row = clip.first_row;
  r.frames = std::max(clip.frames, 1u);
  r.duration = clip.duration;
  r.inv_duration = clip.duration > 0.0f ? 1.0f / clip.duration : 0.0f;
  r.fps = fps;
  return r;
}

VatFrame vat_frame(const VatClipRuntime& clip, float local_time) {
  // Same operations, same order as crowd_vat.glsl vat_frame().
  const float cycles = std::floor(local_time * clip.inv_duration);
  const float t = std::clamp(local_time - cycles * clip.duration, 0.0f, clip.duration);
  const float f = t * clip.fps;
  const float whole = std::floor(f);
  const std::uint32_t last = clip.frames - 1;
  const std::uint32_t f0 = std::min(std::uint32_t(whole), last);
  const std::uint32_t f1 = std::min(f0 + 1, last);
  return {clip.first_row + f0, clip.first_row + f1, f - whole};
}

std::vector<std::uint32_t> pack_vat_texels(std::span<const glm::u16vec4> texels) {
  std::vector<std::uint32_t> out;
  out.reserve(texels.size() * 2);
  for (const glm::u16vec4& t : texels) {
    out.push_back(std::uint32_t(t.x) | (std::uint32_t(t.y) << 16));
    out.push_back(std::uint32_t(t.z) | (std::uint32_t(t.w) << 16));
  }
  return out;
}

glm::vec3 vat_decode_position(glm::u16vec4 texel, const VatClipRuntime& clip) {
  return clip.origin + glm::vec3(texel.x, texel.y, texel.z) * clip.step;
}

glm::vec3 vat_sample_position(std::span<const glm::u16vec4> texels, std::uint32_t columns,
                              const VatClipRuntime& clip, const VatFrame& frame, std::uint32_t column) {
  const glm::vec3 p0 = vat_decode_position(texels[std::size_t(frame.row0) * columns + column], clip);
  const glm::vec3 p1 = vat_decode_position(texels[std::size_t(frame.row1) * columns + column], clip);
  return p0 + (p1 - p0) * frame.blend;
}

}  // namespace myriad::crowd
