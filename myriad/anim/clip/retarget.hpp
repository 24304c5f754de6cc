// Playing a clip made for one skeleton on another: channels follow joints by name, each rotation
// carries its change from the source rest pose over to the target rest pose, root motion is scaled by
// the skeletons' heights, and bone lengths stay the target's. Done once at load time, not per frame.
#pragma once

#include "myriad/anim/clip/clip.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace myriad::anim {

struct RetargetResult {
  Clip clip;  // channels on target joints; passes clip.validate(target.size())
  // Source joints the clip animates that have no target joint of that name: their channels are gone.
  std::vector<std::string> unmatched;
  // Target joints that no channel of the result drives: they hold their rest pose.
  std::vector<std::string> unanimated;
  // Matched joints whose scale channel was dropped because the two rest scales differ.
  std::vector<std::string> scale_dropped;
};

// Joints match by exact name first, then by normalized_joint_name() (each joint claimed once).
// Per matched channel, with sr/tr the source/target rest transform of the joint:
//  - rotation: tr * inverse(sr) * q, for values and cubic tangents alike (left-multiplying by a
//    constant is linear, so the tangents stay the derivative of the new curve); keys are copied
//    unchanged when sr == tr, so retargeting onto the same skeleton is exact.
//  - translation of a "root" (a joint none of whose ancestors a matched channel drives: a real root,
//    or the hips under an unanimated armature node): tr + (t - sr) * target_height / source_height,
//    heights being the joint's rest model-space height (+Y, glTF's up) above its skeleton's lowest
//    joint (ratio 1 when either is zero). Tangents scale by the ratio.
//  - translation of any other joint: copied when the rest translations agree, otherwise dropped
//    (the target keeps its own bone lengths).
//  - scale: copied when the rest scales agree, otherwise dropped (listed in scale_dropped).
// Throws myriad::Error when the skeletons or the clip are invalid, or when no joint matches.
RetargetResult retarget_clip(const Clip& clip, const Skeleton& source, const Skeleton& target);

// The name used for the second matching pass: lowercase, without anything up to the last ':' or '|'
// (exporter namespaces such as "mixamorig:Hips" or "Armature|Hips").
std::string normalized_joint_name(std::string_view name);

// A one-line warning for callers to print when part of the clip was lost (unmatched joints or
// dropped scale channels), naming the joints; empty when nothing was. Target joints that merely stay
// at rest are only counted in it: most clips leave some joints (fingers, toes) unanimated.
std::string describe_partial(const RetargetResult& result);

}  // namespace myriad::anim
