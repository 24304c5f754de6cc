// A procedural enemy so the baker runs and is tested without external files: a skeleton-like humanoid
// (thin bone tubes, rib rings, a skull) on anim's 21-joint humanoid skeleton, skinned, with one
// back-face-culled textured material and two clips, "walk" and "attack". Like models from content
// generators, its UVs are cut into many small islands, so vertices are duplicated along every island
// border with equal position and normal: exactly what LOD0 welding removes. Tube caps meet the tubes at
// hard 90° edges, which welding must keep.
#pragma once

#include "myriad/anim/import/gltf_import.hpp"

namespace myriad::crowd {

struct EnemyOptions {
  int tube_sides = 6;      // around each bone tube
  int rings_per_bone = 3;  // along each bone tube
  int texture_size = 128;  // square RGBA8 texture

  // Throws myriad::Error naming the first invalid field (make_enemy calls it).
  void validate() const;
};

anim::ImportedModel make_enemy(const EnemyOptions& options = {});

}  // namespace myriad::crowd
