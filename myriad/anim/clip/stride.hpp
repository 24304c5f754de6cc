// How fast a walk clip walks (SPEC B2/B5 avatars walking without sliding feet): the body is skinned at
// 64 samples over one cycle; the lowest vertex of each sample is on the planted foot, and its horizontal
// velocity to the next sample (the avatar's frame, root_transform applied) is the ground passing under
// the body. The median of those speeds along their mean direction is the walking speed, and forward is
// the opposite direction. A clip
// that carries the body forward itself (root motion: the root's horizontal travel over the cycle beats
// the planted foot's) walks at the root's speed; remove_root_drift() makes it walk in place so the
// crowd can move the avatar instead (without it the avatar would snap back at every loop).
#pragma once

#include "myriad/anim/kit/avatar.hpp"

#include <glm/glm.hpp>

namespace myriad::anim {

struct ClipStride {
  float speed = 0.0f;                   // the kit's units per second at playback speed 1; 0: stands
  glm::vec3 forward{0.0f, 0.0f, 1.0f};  // the avatar's frame, horizontal, unit
  bool root_motion = false;
};

ClipStride clip_stride(const Avatar& kit, const Clip& clip);

// Subtracts from the root joints' translation keys their horizontal drift over the clip (linear in
// time), in the root's parent frame, `up` given there: the clip then walks in place.
void remove_root_drift(Clip& clip, const Skeleton& skeleton, glm::vec3 up);

}  // namespace myriad::anim
