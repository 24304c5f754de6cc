// How a texture is addressed outside [0, 1] (glTF sampler wrapS / wrapT): repeat, clamp to the edge or
// mirrored repeat, per axis. One CPU function turns a coordinate into the one a repeating bilinear
// sampler of a texture of a given size reads the same texel blend from; the shaders' uv_wrap.glsl
// does the same on the GPU, so every consumer addresses textures alike.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>

namespace myriad {

enum class UvWrap : std::uint8_t { kRepeat = 0, kClampToEdge = 1, kMirroredRepeat = 2 };

struct UvWrapModes {
  UvWrap s = UvWrap::kRepeat;
  UvWrap t = UvWrap::kRepeat;

  bool repeats() const { return s == UvWrap::kRepeat && t == UvWrap::kRepeat; }
  // Two bits per axis (s low), as the shaders read it.
  std::uint32_t packed() const { return static_cast<std::uint32_t>(s) | static_cast<std::uint32_t>(t) << 2; }
  friend bool operator==(const UvWrapModes&, const UvWrapModes&) = default;
};

// The glTF sampler enum (10497 REPEAT, 33071 CLAMP_TO_EDGE, 33648 MIRRORED_REPEAT); anything else
// repeats, glTF's default.
UvWrap uv_wrap_from_gltf(int mode);
int uv_wrap_to_gltf(UvWrap mode);

// Repeat: `uv` itself (the sampler repeats). Clamp: clamped to the outer texels' centres. Mirrored
// repeat: folded into [0, 1] (even tiles as they are, odd ones mirrored), then clamped the same way, so
// a bilinear tap at a mirror line reads the edge texel on both sides, as a mirrored sampler does.
// `size` is the texture's size in texels (the clamp's half-texel margin).
glm::vec2 wrap_uv(glm::vec2 uv, UvWrapModes modes, glm::vec2 size);

}  // namespace myriad
