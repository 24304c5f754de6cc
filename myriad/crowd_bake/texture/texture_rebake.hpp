// Texture baking for the crowd atlases (SPEC C3, C6): the texel density of a textured mesh, sampling
// a material's base colour (factor × texture, mixed in linear space, stored sRGB like glTF), and
// filling an atlas texel by texel from a per-triangle colour function, with a gutter grown around
// every chart so filtering and mip levels never reach an unbaked texel.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <functional>
#include <span>

namespace myriad::crowd {

// Texels per model unit of length over the textured triangles of `mesh` (uvs required); 0 when no
// triangle has a texture.
float texel_density(const BakeMesh& mesh, std::span<const BakeMaterial> materials,
                    std::span<const anim::Texture> textures);

// Texels per model unit of length of `mesh` (uvs required) mapped onto one width × height texture
// (an atlas); 0 when the mesh has no UV area.
float atlas_texel_density(const BakeMesh& mesh, std::uint32_t width, std::uint32_t height);

// Bilinear, repeating sample of an RGBA8 texture; components 0..1 as stored (sRGB colour, linear alpha).
glm::vec4 sample_texture(const anim::Texture& texture, glm::vec2 uv);

// The material's base colour at `uv`: factor × texture in linear light, returned sRGB-encoded 0..1.
glm::vec4 sample_base_color(const BakeMaterial& material, std::span<const anim::Texture> textures,
                            glm::vec2 uv);

// Colour (sRGB-encoded 0..1) of triangle `triangle` of the mesh being baked at barycentric `bary`.
using TriangleColour = std::function<glm::vec4(std::uint32_t triangle, glm::vec3 bary)>;

// An atlas of width × height texels: every texel centre inside a triangle (by `mesh.uvs`) takes
// colour(triangle, bary); texels outside every triangle take the mean of already filled neighbours,
// `gutter_px` rings deep, and the rest the colour of the nearest filled texel (so mips do not bleed).
anim::Texture bake_atlas(const BakeMesh& mesh, int width, int height, int gutter_px,
                         const TriangleColour& colour);

}  // namespace myriad::crowd
