// Writes an avatar kit as glTF the way character exporters do: one armature of joint nodes, each
// skinned part a mesh node with a skin of its own (its bone list and inverse binds), rigid parts as
// plain meshes under their joint, items marked with extras {"item", "slot"}, clips as animations.
// import_kit() reads the result back to the same kit (tested), so kits built in code take the same
// path as a user's files.
#pragma once

#include "myriad/anim/kit/avatar.hpp"

#include <filesystem>

namespace myriad::anim {

struct KitWriteOptions {
  bool body = true;   // the body parts
  bool items = true;  // the items (an item file: body = false, clips = false)
  bool clips = true;
};

// .glb writes one file; .gltf writes <stem>.bin beside it. Atomic. Throws myriad::Error.
void write_kit_gltf(const std::filesystem::path& path, const Avatar& kit,
                    const KitWriteOptions& options = {});

}  // namespace myriad::anim
