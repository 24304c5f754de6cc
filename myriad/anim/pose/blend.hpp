// Blending two local poses of one skeleton: what a cross-fade between two clips does every frame
// before local-to-model. Translation and scale are lerped; rotations are nlerped (normalised linear
// blend) on the shorter arc, which is cheaper than slerp and, for the small angles between two clips'
// poses of the same joint, visually the same.
#pragma once

#include "myriad/anim/pose/skeleton.hpp"

namespace myriad::anim {

// out = a * (1 - w) + b * w per joint (rotations: shortest-path nlerp). w <= 0 copies a and w >= 1
// copies b exactly, so the ends of a fade are bit-identical to the plain poses. a, b and out have the
// same size (out sized already: no allocation here); out may be a or b.
void blend_poses(const LocalPose& a, const LocalPose& b, float w, LocalPose& out);

}  // namespace myriad::anim
