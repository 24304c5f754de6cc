#include "myriad/core/image/uv_wrap.hpp"

#include <algorithm>
#include <cmath>

namespace myriad {
namespace {

float wrap_axis(float x, UvWrap mode, float size) {
  if (mode == UvWrap::kRepeat || !std::isfinite(x)) return x;
  if (mode == UvWrap::kMirroredRepeat) {
    x -= 2.0f * std::floor(0.5f * x);  // [0, 2)
    if (x > 1.0f) x = 2.0f - x;
  }
  const float half = size > 1.0f ? 0.5f / size : 0.5f;
  return std::clamp(x, half, 1.0f - half);
}

}  // namespace

UvWrap uv_wrap_from_gltf(int mode) {
  switch (mode) {
    case 33071:
      return UvWrap::kClampToEdge;
    case 33648:
      return UvWrap::kMirroredRepeat;
    default:
      return UvWrap::kRepeat;
  }
}

int uv_wrap_to_gltf(UvWrap mode) {
  return mode == UvWrap::kClampToEdge ? 33071 : mode == UvWrap::kMirroredRepeat ? 33648 : 10497;
}

glm::vec2 wrap_uv(glm::vec2 uv, UvWrapModes modes, glm::vec2 size) {
  return {wrap_axis(uv.x, modes.s, size.x), wrap_axis(uv.y, modes.t, size.y)};
}

}  // namespace myriad
