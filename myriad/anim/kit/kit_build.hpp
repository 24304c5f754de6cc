// Avatar kits built from models, so real model data can be dressed and customized:
// kit_from_model() splits a model's skinned meshes into body parts by dominant joint (each part with
// its own bone list, as multi-part exports have), and add_sample_items() makes clothing and
// accessory items from any humanoid kit's own body surface — shirt and jacket (slot torso), trousers
// (legs), shoes (feet) cut by height and pushed out along the normals, and a hat and a cap (head) as
// rigid meshes on the topmost joint. Written with write_kit_gltf and read back with import_kit, they
// are the default scene's kit.
#pragma once

#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/import/kit_import.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace myriad::anim {

// Every skinned mesh of `model` (joined) split into at most `body_parts` parts; clips, materials and
// the root transform kept. Throws myriad::Error when the model has no triangles.
Avatar kit_from_model(const ImportedModel& model, std::size_t body_parts = kAvatarBodyParts);

// kit_from_model() of a whole glTF file as import_whole_model() reads it: every skin's meshes, meshes
// parented to joints, a skinless model's nodes. `ignored` (when given) gets what was left out.
Avatar kit_from_file(const std::filesystem::path& path, std::size_t body_parts = kAvatarBodyParts,
                     std::vector<std::string>* ignored = nullptr);

// Appends the sample items to `kit` (its body parts must exist). "Up" is the kit's world +Y taken
// back through root_transform, so Z-up exports dress correctly.
void add_sample_items(Avatar& kit);

// A dressed kit: `model` split into 17 body parts plus the sample items; the procedural humanoid
// (clothed, with its walk clips) when `model` is null.
Avatar make_sample_kit(const ImportedModel* model);

// Writes `kit` as `<dir>/<stem>.glb` (skeleton, body parts, clips) and `<dir>/<stem>_items.glb` (its
// items, bound by joint name) and imports them back: the path a user's kit and item files take.
KitImport write_and_import_kit(const Avatar& kit, const std::filesystem::path& dir, const std::string& stem);

}  // namespace myriad::anim
