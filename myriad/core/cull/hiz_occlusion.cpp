#include "myriad/core/cull/hiz_occlusion.hpp"

#include <algorithm>
#include <cmath>

namespace myriad {

namespace {
glm::ivec2 clamp_pixel(glm::vec2 f, glm::ivec2 src) {
  const glm::ivec2 p(static_cast<int>(std::floor(f.x)), static_cast<int>(std::floor(f.y)));
  return glm::clamp(p, glm::ivec2(0), src - 1);
}
}  // namespace

bool hiz_box_occluded(const HizReference& hiz, glm::vec3 lo, glm::vec3 hi) {
  if (hiz.levels.empty() || hiz.source_width == 0 || hiz.source_height == 0) return false;
  glm::vec2 rect_lo(1e30f), rect_hi(-1e30f);
  float nearest = 0.0f;
  const glm::mat4& m = hiz.view_proj;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c((i & 1) != 0 ? hi.x : lo.x, (i & 2) != 0 ? hi.y : lo.y, (i & 4) != 0 ? hi.z : lo.z);
    // Written out, left to right, as the shader does: no other association, nothing fused.
    const glm::vec4 p = m[0] * c.x + m[1] * c.y + m[2] * c.z + m[3];
    if (p.w <= 1e-6f) return false;
    const glm::vec3 ndc = glm::vec3(p) / p.w;
    rect_lo = glm::min(rect_lo, glm::vec2(ndc));
    rect_hi = glm::max(rect_hi, glm::vec2(ndc));
    nearest = std::max(nearest, ndc.z);
  }
  if (rect_hi.x < -1.0f || rect_hi.y < -1.0f || rect_lo.x > 1.0f || rect_lo.y > 1.0f) return false;
  const glm::ivec2 src(static_cast<int>(hiz.source_width), static_cast<int>(hiz.source_height));
  const glm::ivec2 pmin = clamp_pixel((rect_lo * 0.5f + 0.5f) * glm::vec2(src), src);
  const glm::ivec2 pmax = clamp_pixel((rect_hi * 0.5f + 0.5f) * glm::vec2(src), src);
  auto dims = [&](std::size_t level) {
    return glm::ivec2(static_cast<int>(hiz.levels[level].width), static_cast<int>(hiz.levels[level].height));
  };
  glm::ivec2 dim = dims(0);
  glm::ivec2 tmin = glm::min(pmin >> 1, dim - 1), tmax = glm::min(pmax >> 1, dim - 1);
  std::size_t level = 0;
  while ((tmax.x - tmin.x > 1 || tmax.y - tmin.y > 1) && level + 1 < hiz.levels.size()) {
    ++level;
    dim = dims(level);
    tmin = glm::min(tmin >> 1, dim - 1);
    tmax = glm::min(tmax >> 1, dim - 1);
  }
  const MinPyramidLevel& l = hiz.levels[level];
  auto at = [&](int x, int y) { return l.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)); };
  const float farthest = std::min(std::min(at(tmin.x, tmin.y), at(tmax.x, tmin.y)),
                                  std::min(at(tmin.x, tmax.y), at(tmax.x, tmax.y)));
  return nearest < farthest;
}

}  // namespace myriad
