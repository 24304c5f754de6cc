// glTF 2.0 import (via tinygltf) of one skinned model: its skin as a depth-first Skeleton with inverse
// binds, every skinned mesh primitive, every animation (STEP/LINEAR/CUBICSPLINE on T/R/S) and base
// color textures as RGBA8. Errors name the file and the glTF field (e.g. "animations[0].samplers[2]").
#pragma once

#include "myriad/anim/clip/clip.hpp"
#include "myriad/anim/pose/skeleton.hpp"
#include "myriad/core/image/uv_wrap.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace myriad::anim {

struct SkinnedMesh {
  std::string name;
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;      // empty when the file has none
  std::vector<glm::vec2> uvs;          // empty when the file has none
  std::vector<glm::vec4> colors;       // COLOR_0 (linear RGBA), empty when the file has none
  std::vector<glm::u16vec4> joints;    // indices into the renderer skeleton (ImportedModel::joints)
  std::vector<glm::vec4> weights;      // normalised to sum 1
  std::vector<std::uint32_t> indices;  // triangle list; generated 0..n-1 for non-indexed primitives
  int material = -1;                   // into ImportedModel::materials, -1 = none
  // Morph targets, kept for bakers that play their animation (the crowd VAT): per target, every vertex's
  // position and normal offset (a list is empty when the target moves none). `positions` and `normals`
  // above already hold the targets blended at `morph_weights` (what is drawn when no clip drives them);
  // a clip drives them through its MorphChannels on `morph_node` (the glTF node drawing the mesh).
  int morph_node = -1;
  std::vector<float> morph_weights;                     // one per target
  std::vector<std::vector<glm::vec3>> morph_positions;  // [target][vertex]
  std::vector<std::vector<glm::vec3>> morph_normals;    // [target][vertex]
};

struct Texture {
  std::string name;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgba8;
};

enum class AlphaMode : std::uint8_t {
  kOpaque,  // alpha ignored
  kMask,    // fragments whose alpha is below alpha_cutoff are discarded
  kBlend,   // drawn as kMask with the cutoff at 0.5: avatars are drawn opaque, in any order
};

struct Material {
  std::string name;
  glm::vec4 base_color_factor{1.0f};  // linear, as glTF stores it
  int base_color_texture = -1;        // into ImportedModel::textures (sRGB-encoded texels)
  bool double_sided = false;          // glTF doubleSided: false means back faces are culled
  AlphaMode alpha_mode = AlphaMode::kOpaque;
  float alpha_cutoff = 0.5f;  // glTF alphaCutoff (used by kMask)
  // Non-empty when the base-colour texture could not be used (its file is missing): the material is
  // drawn in its base colour, and importers' callers warn with this text.
  std::string texture_problem;
  UvWrapModes texture_wrap;  // how the texture is addressed outside [0, 1] (its glTF sampler)
};

struct ImportedModel {
  Skeleton skeleton;                     // the skin's joints, depth-first
  std::vector<glm::mat4> inverse_binds;  // per skeleton joint
  std::vector<std::uint16_t> joints;     // renderer skeleton: identity 0..n-1 (palette entry i = joint i)
  glm::mat4 root_transform{1.0f};        // global transform of the root joints' parent node (static)
  std::vector<int> joint_nodes;          // glTF node index of each skeleton joint
  std::vector<SkinnedMesh> meshes;
  std::vector<Clip> clips;
  std::vector<Material> materials;
  std::vector<Texture> textures;
};

// Loads .gltf or .glb. Uses the file's first skin. Throws myriad::Error naming file and field.
ImportedModel import_gltf(const std::filesystem::path& path);

// The same from a file's bytes already in memory: `binary` selects GLB over JSON glTF, `name` prefixes
// every error and relative external URIs resolve against `base_dir`.
ImportedModel import_gltf_bytes(std::span<const std::byte> bytes, bool binary, const std::string& name,
                                const std::filesystem::path& base_dir);

}  // namespace myriad::anim
