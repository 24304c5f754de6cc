// What every importer reads the same way from a glTF material: the colour of its surface (factor,
// texture, the UV set and transform the texture is read through) and that texture's image as RGBA8.
#pragma once

#include "myriad/core/image/uv_wrap.hpp"
#include "myriad/gltf/document.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace myriad::gltf {

// Which UV set a texture reads (`set`), and its KHR_texture_transform (offset, rotation, scale;
// uv' = T * R * S * uv as the extension defines it) when it has one.
struct UvMapping {
  int set = 0;
  bool transformed = false;
  glm::mat3x2 uv{1.0f};
  glm::vec2 apply(glm::vec2 t) const { return transformed ? uv * glm::vec3(t, 1.0f) : t; }
};

// The colour of a material's surface: pbrMetallicRoughness's base colour or, for a material written
// with KHR_materials_pbrSpecularGlossiness, that extension's diffuse colour: the same albedo, and the
// one its exporter meant (a metal-rough base colour beside it is a fallback for readers without the
// extension, and often left white).
struct BaseColor {
  glm::vec4 factor{1.0f};  // linear RGBA
  int image = -1;          // the texture's images[] index; -1: untextured
  UvMapping uv;            // the UV set the texture reads, through its transform
  UvWrapModes wrap;        // the texture's sampler wrapS / wrapT (repeat without a sampler)
};
// A material index outside materials[] (or -1) gives the default: white, untextured. Throws naming the
// field for a texture index out of range or a texture without an image.
BaseColor base_color(const Document& doc, int material);

// Whether images[image] names an external file that was not found beside the model (the image is then
// empty: a .gltf copied without its textures).
bool image_file_missing(const Document& doc, int image);

// images[image] as RGBA8 pixels, rows top first: grey, grey + alpha, RGB or RGBA, 8- or 16-bit samples
// (a 16-bit sample keeps its high byte). Throws naming the image when it is empty or in another layout.
struct Rgba8Image {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba8;
};
Rgba8Image image_rgba8(const Document& doc, int image);

}  // namespace myriad::gltf
