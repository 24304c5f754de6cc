// Procedural humanoid avatars (SPEC B5): a 21-joint skeleton in T-pose, 17 skinned body parts and
// optional clothing renderers, each part with its own bone list and inverse binds (as authoring tools
// export them), and a looping walk clip. Free multi-part avatars do not exist, so tests and benchmarks
// generate these; real models split with split_into_parts() take the same path.
#pragma once

#include "myriad/anim/clip.hpp"
#include "myriad/anim/dedup.hpp"
#include "myriad/anim/gltf_import.hpp"

#include <cstdint>
#include <vector>

namespace myriad::anim {

inline constexpr std::size_t kAvatarBodyParts = 17;

struct AvatarPart {
  SkinnedMesh mesh;  // joints are indices into skin (part-local)
  PartSkin skin;
  bool clothing = false;
};

struct Avatar {
  Skeleton skeleton;
  std::vector<AvatarPart> parts;  // kAvatarBodyParts body parts first, then clothing
};

struct AvatarOptions {
  bool clothed = false;
  int ring_segments = 8;  // vertices around each limb tube
  int rings = 4;          // rings along each bone segment
};

// The humanoid skeleton (21 joints, depth-first, T-pose rest).
Skeleton humanoid_skeleton();

// Body parts (and with options.clothed: shirt, jacket, trousers, two shoes, two gloves, hat).
Avatar make_avatar(const AvatarOptions& options = {});

// A looping walk cycle for the humanoid skeleton (LINEAR rotations on limbs, hips bob), `period` s.
Clip make_walk_clip(const Skeleton& humanoid, float period = 1.0f);

}  // namespace myriad::anim
