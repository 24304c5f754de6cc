// A whole glTF character as one ImportedModel, the way the crowd baker needs it: every skinned mesh
// (several skins with identical or overlapping joint lists resolve to one skeleton), every mesh
// parented to a joint (rigid, made single-joint skinned) and every material — never only the first
// skin's meshes. It is the kit import (kit_import.hpp) with every part kept, flattened: the palette
// (ImportedModel::joints / inverse_binds) is the dedup of all parts' (joint, inverse bind) pairs, and
// mesh joints index it.
#pragma once

#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/import/kit_import.hpp"

#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace myriad::anim {

struct WholeModel {
  ImportedModel model;
  std::vector<std::string> parts;    // one line per mesh: name, kind (skinned / rigid on a joint), triangles
  std::vector<std::string> ignored;  // meshes left out, with the reason (outside the armature)
  std::vector<std::string> animated_morphs;  // as KitImport::animated_morphs (the meshes keep the targets)
};

// Throws myriad::Error naming the file and glTF field (a model without a skin names the meshes found).
WholeModel import_whole_model(const std::filesystem::path& path);
WholeModel import_whole_model_bytes(std::span<const std::byte> bytes, bool binary, const std::string& name,
                                    const std::filesystem::path& base_dir);

// The flattening step on its own (every part of `kit`, body and items).
WholeModel flatten_kit(const KitImport& kit);

}  // namespace myriad::anim
