// The sRGB transfer functions (IEC 61966-2-1) on 0..1 values: colours are stored encoded and averaged,
// blended or multiplied in linear light.
#pragma once

#include <algorithm>
#include <cmath>

namespace myriad {

inline float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

// Clamps to 0..1 first.
inline float linear_to_srgb(float c) {
  c = std::clamp(c, 0.0f, 1.0f);
  return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

}  // namespace myriad
