// Pieces of glTF reading shared by the single-skin model import (gltf_import) and the avatar kit
// import (kit_import): the checked node hierarchy, one triangle primitive as a SkinnedMesh, one
// animation as a Clip and one material with its base-colour image. Errors name the file and field.
#pragma once

#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/gltf/document.hpp"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace myriad::anim::detail {

// Parent node of every node (-1 for scene roots); fails on a child index out of range or a cycle.
std::vector<int> node_parents(const gltf::Document& doc);

// One primitive as a triangle list (strips and fans unrolled; points and lines, which have no surface,
// give a mesh without triangles). With a skin (`skin_to_joint` maps the skin's joint slots to the caller's
// joint numbering) JOINTS_0/WEIGHTS_0 are required and weights are normalised; with an empty
// `skin_to_joint` the primitive is rigid: every vertex gets joint 0 with weight 1. `field` names the
// primitive in errors (e.g. "meshes[2].primitives[0]"). Morph targets are blended in at `morph_weights`
// (gltf::default_morph_weights of the node drawing the mesh), and kept per target with those weights
// (SkinnedMesh::morph_*; the caller sets morph_node).
SkinnedMesh read_primitive(const gltf::Document& doc, const tinygltf::Primitive& prim,
                           const std::string& field, std::span<const std::uint16_t> skin_to_joint,
                           std::span<const double> morph_weights);

// Animation `index` as a clip over `joint_count` joints; channels on nodes that are not joints
// (node_to_joint < 0) are skipped; morph weights of a node whose mesh has morph targets become the
// clip's MorphChannels (one weight per target per key, checked against the mesh's target count).
Clip read_clip(const gltf::Document& doc, std::size_t index, std::span<const int> node_to_joint,
               std::size_t joint_count);

// glTF material `index` (colour factor, double-sidedness, base-colour image as RGBA8). Images are
// shared through `image_to_texture` (glTF image -> index into `textures`).
Material read_material(const gltf::Document& doc, int index, std::map<int, int>& image_to_texture,
                       std::vector<Texture>& textures);

// A skin's inverse bind matrices (identity when the skin has none), one per joint.
std::vector<glm::mat4> read_inverse_binds(const gltf::Document& doc, std::size_t skin);

}  // namespace myriad::anim::detail
