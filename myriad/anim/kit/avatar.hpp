// Avatar kits (SPEC B5): one skeleton, body parts and clothing/accessory items, each part a skinned
// mesh with its own bone list and inverse binds (as authoring tools export them), and clips. Kits come
// from glTF (kit_import.hpp) or, for tests and as a fallback, from make_avatar(): a procedural
// humanoid with a 21-joint skeleton in T-pose, 17 tube body parts, clothing items and a walk clip.
#pragma once

#include "myriad/anim/clip/clip.hpp"
#include "myriad/anim/kit/dedup.hpp"
#include "myriad/anim/import/gltf_import.hpp"

#include <cstdint>
#include <vector>

namespace myriad::anim {

inline constexpr std::size_t kAvatarBodyParts = 17;

struct AvatarPart {
  SkinnedMesh mesh;  // joints are indices into skin (part-local)
  PartSkin skin;
  bool clothing = false;  // an item (clothing or accessory) rather than a body part
  std::string item;       // items: the item this mesh belongs to (an item may have several meshes)
  std::string slot;       // items: an avatar wears at most one item per slot
  bool rigid = false;     // a mesh parented to a joint, made a single-joint skinned mesh
  // The avatar's per-instance tint multiplies this part's material. Items are always tinted; a body
  // part is when its glTF node's extras say "tintable": true (docs/FORMATS.md), else it keeps its
  // authored colour.
  bool tintable = false;
};

// An avatar kit: what one customizable character is built from.
struct Avatar {
  Skeleton skeleton;
  std::vector<AvatarPart> parts;    // body parts first, then items
  std::vector<Clip> clips;          // may be empty (callers bring their own)
  glm::mat4 root_transform{1.0f};   // the armature's placement in the model (static), e.g. Z-up to Y-up
  std::vector<Material> materials;  // referenced by parts' mesh.material
  std::vector<Texture> textures;
  std::string name;
};

struct AvatarOptions {
  bool clothed = false;
  int ring_segments = 8;  // vertices around each limb tube (3..256)
  int rings = 4;          // rings along each bone segment (2..256)

  // Throws myriad::Error naming the first invalid field (make_avatar calls it).
  void validate() const;
};

// The humanoid skeleton (21 joints, depth-first, T-pose rest).
Skeleton humanoid_skeleton();

// Body parts (and with options.clothed the items shirt and jacket (slot torso), trousers (legs), shoes
// (two meshes, feet), gloves (hands) and hat (head)); clips: walks of 1.0 s and 0.8 s.
Avatar make_avatar(const AvatarOptions& options = {});

// A looping walk cycle for the humanoid skeleton (LINEAR rotations: arms lowered from the T-pose and
// swinging, legs and shins stepping, spine and head turning), `period` s.
Clip make_walk_clip(const Skeleton& humanoid, float period = 1.0f);

}  // namespace myriad::anim
