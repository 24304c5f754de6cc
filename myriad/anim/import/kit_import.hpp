// Avatar kits from glTF (SPEC B5): the way common character exports are built, read into one Avatar.
//  - Every skin of the file contributes its joints; skins with identical or overlapping joint lists
//    resolve to one skeleton (the union, plus any node lying between two joints). Joints that do not
//    hang under one armature node are two unrelated skeletons: an error naming both roots.
//  - Every skinned mesh primitive is a part with the bone list and inverse binds of its own skin.
//  - A mesh without a skin parented (at any depth) to a joint is a rigid accessory: it becomes a
//    single-joint skinned part of its nearest joint ancestor. One under the armature node but under no
//    joint follows the first root joint. Meshes outside the armature are listed in `ignored`.
//  - A model without any skin (rigid parts moved by node animation, or a still prop) is a skeleton of
//    its own nodes: every node carrying a mesh or animated, and every node above one, is a joint, and
//    each mesh is a rigid part on its own node, so the parts move exactly as the file animates them.
//  - A part is an item (clothing or accessory) when its node's extras carry "item" (and optionally
//    "slot") or its node name starts with "item_" (the item is the rest of the name); otherwise it is a
//    body part. An item's slot defaults to its item name.
//  - Item files (add_kit_items) hold only items: skinned meshes bound to the kit's skeleton by joint
//    name, rigid meshes under a node named like a kit joint. An unknown joint is an error naming the
//    item and the joint.
// Unnamed joints are named "node_<index>". Clips come from the kit file's animations.
#pragma once

#include "myriad/anim/kit/avatar.hpp"

#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace myriad::anim {

struct KitImport {
  Avatar kit;
  std::vector<std::string> ignored;  // meshes left out, each with the reason
  // Meshes whose morph targets a clip animates ("<node>: the animation of its 2 morph targets"): the
  // parts keep the targets (SkinnedMesh::morph_*) and the clips their MorphChannels; the crowd VAT
  // plays them, avatars' GPU skinning draws the mesh at its default weights (avatar_ignored).
  std::vector<std::string> animated_morphs;
};

// What an avatar leaves out of `in`: its ignored meshes, then each animated morph (drawn at its
// default weights).
std::vector<std::string> avatar_ignored(const KitImport& in);

// Reads a kit from .gltf/.glb. Throws myriad::Error naming the file and glTF field.
KitImport import_kit(const std::filesystem::path& path);
KitImport import_kit_bytes(std::span<const std::byte> bytes, bool binary, const std::string& name,
                           const std::filesystem::path& base_dir);

// Adds every mesh of an item file to `kit` as items; returns the meshes left out with reasons.
std::vector<std::string> add_kit_items(Avatar& kit, const std::filesystem::path& path);

// Adds the animations of another file (a character or an animation-only export with the same joint
// names) retargeted onto the kit's skeleton by joint name (retarget.hpp). Returns one warning per clip
// that lost joints; throws when a clip shares no joint with the kit or the file has no animation.
std::vector<std::string> add_kit_clips(Avatar& kit, const std::filesystem::path& path);

// The kit file and then each item file.
KitImport import_kit(const std::filesystem::path& path, std::span<const std::filesystem::path> item_files);

}  // namespace myriad::anim
