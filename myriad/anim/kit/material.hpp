// The colour rules of an avatar part's surface, written once for the CPU: what skin.frag computes
// before lighting, and the reference its GPU tests compare with. Materials multiply in linear light
// (glTF base-colour factor x COLOR_0 x base-colour texel), the result is sRGB-encoded, then the
// instance's tint multiplies it on tintable parts and items (AvatarPart::tintable).
#pragma once

#include "myriad/anim/import/gltf_import.hpp"

#include <glm/glm.hpp>

namespace myriad::anim {

struct SurfaceColor {
  glm::vec3 rgb{1.0f};     // sRGB-encoded, before lighting
  float alpha = 1.0f;      // the material's alpha (linear)
  bool discarded = false;  // alpha-masked away (AlphaMode::kMask / kBlend below the cutoff)
};

// `texel` is the base-colour texture's value already decoded to linear (ignored without a texture);
// `vertex_color` is COLOR_0 (white without it).
SurfaceColor avatar_surface(const Material& material, glm::vec4 vertex_color, glm::vec4 texel, glm::vec3 tint,
                            bool tintable);

}  // namespace myriad::anim
