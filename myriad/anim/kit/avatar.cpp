#include "myriad/anim/kit/avatar.hpp"

#include "myriad/anim/pose/pose.hpp"
#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace myriad::anim {
namespace {

enum Joint : std::uint16_t {
  kHips,
  kSpine,
  kChest,
  kNeck,
  kHead,
  kLClavicle,
  kLUpperArm,
  kLForearm,
  kLHand,
  kRClavicle,
  kRUpperArm,
  kRForearm,
  kRHand,
  kLThigh,
  kLShin,
  kLFoot,
  kLToe,
  kRThigh,
  kRShin,
  kRFoot,
  kRToe,
  kJointCount
};

struct JointDef {
  const char* name;
  int parent;
  glm::vec3 offset;
};

constexpr JointDef kJoints[kJointCount] = {
    {"hips", -1, {0.0f, 1.0f, 0.0f}},
    {"spine", kHips, {0.0f, 0.1f, 0.0f}},
    {"chest", kSpine, {0.0f, 0.15f, 0.0f}},
    {"neck", kChest, {0.0f, 0.2f, 0.0f}},
    {"head", kNeck, {0.0f, 0.08f, 0.0f}},
    {"l_clavicle", kChest, {0.04f, 0.17f, 0.0f}},
    {"l_upper_arm", kLClavicle, {0.14f, 0.0f, 0.0f}},
    {"l_forearm", kLUpperArm, {0.26f, 0.0f, 0.0f}},
    {"l_hand", kLForearm, {0.24f, 0.0f, 0.0f}},
    {"r_clavicle", kChest, {-0.04f, 0.17f, 0.0f}},
    {"r_upper_arm", kRClavicle, {-0.14f, 0.0f, 0.0f}},
    {"r_forearm", kRUpperArm, {-0.26f, 0.0f, 0.0f}},
    {"r_hand", kRForearm, {-0.24f, 0.0f, 0.0f}},
    {"l_thigh", kHips, {0.09f, -0.05f, 0.0f}},
    {"l_shin", kLThigh, {0.0f, -0.42f, 0.0f}},
    {"l_foot", kLShin, {0.0f, -0.42f, 0.0f}},
    {"l_toe", kLFoot, {0.0f, -0.05f, 0.12f}},
    {"r_thigh", kHips, {-0.09f, -0.05f, 0.0f}},
    {"r_shin", kRThigh, {0.0f, -0.42f, 0.0f}},
    {"r_foot", kRShin, {0.0f, -0.42f, 0.0f}},
    {"r_toe", kRFoot, {0.0f, -0.05f, 0.12f}},
};

// One tube along a bone: from joint `bone` to `child` (or to bone + `tip` when there is no child).
struct Segment {
  int bone;
  int child;  // -1: use tip
  glm::vec3 tip;
  float radius;
};

struct PartDef {
  const char* name;
  std::vector<Segment> segments;
  const char* item = "";  // items: item and slot names
  const char* slot = "";
};

std::vector<PartDef> body_parts() {
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  return {
      {"head", {{kHead, -1, up * 0.22f, 0.1f}}},
      {"neck", {{kNeck, kHead, {}, 0.05f}}},
      {"chest", {{kChest, kNeck, {}, 0.16f}}},
      {"abdomen", {{kSpine, kChest, {}, 0.14f}}},
      {"pelvis", {{kHips, kSpine, {}, 0.15f}}},
      {"l_upper_arm", {{kLUpperArm, kLForearm, {}, 0.05f}}},
      {"l_forearm", {{kLForearm, kLHand, {}, 0.04f}}},
      {"l_hand", {{kLHand, -1, {0.16f, 0.0f, 0.0f}, 0.035f}}},
      {"r_upper_arm", {{kRUpperArm, kRForearm, {}, 0.05f}}},
      {"r_forearm", {{kRForearm, kRHand, {}, 0.04f}}},
      {"r_hand", {{kRHand, -1, {-0.16f, 0.0f, 0.0f}, 0.035f}}},
      {"l_thigh", {{kLThigh, kLShin, {}, 0.08f}}},
      {"l_shin", {{kLShin, kLFoot, {}, 0.06f}}},
      {"l_foot", {{kLFoot, kLToe, {}, 0.045f}}},
      {"r_thigh", {{kRThigh, kRShin, {}, 0.08f}}},
      {"r_shin", {{kRShin, kRFoot, {}, 0.06f}}},
      {"r_foot", {{kRFoot, kRToe, {}, 0.045f}}},
  };
}

std::vector<PartDef> clothing_parts() {
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  auto sleeve = [](float r) {
    return std::vector<Segment>{{kSpine, kChest, {}, 0.15f + r},        {kChest, kNeck, {}, 0.17f + r},
                                {kLUpperArm, kLForearm, {}, 0.06f + r}, {kLForearm, kLHand, {}, 0.05f + r},
                                {kRUpperArm, kRForearm, {}, 0.06f + r}, {kRForearm, kRHand, {}, 0.05f + r}};
  };
  return {
      {"shirt", sleeve(0.0f), "shirt", "torso"},
      {"jacket", sleeve(0.02f), "jacket", "torso"},
      {"trousers",
       {{kHips, kSpine, {}, 0.16f},
        {kLThigh, kLShin, {}, 0.09f},
        {kLShin, kLFoot, {}, 0.07f},
        {kRThigh, kRShin, {}, 0.09f},
        {kRShin, kRFoot, {}, 0.07f}},
       "trousers",
       "legs"},
      {"l_shoe", {{kLFoot, kLToe, {}, 0.055f}}, "shoes", "feet"},
      {"r_shoe", {{kRFoot, kRToe, {}, 0.055f}}, "shoes", "feet"},
      {"l_glove", {{kLHand, -1, {0.17f, 0.0f, 0.0f}, 0.045f}}, "gloves", "hands"},
      {"r_glove", {{kRHand, -1, {-0.17f, 0.0f, 0.0f}, 0.045f}}, "gloves", "hands"},
      {"hat", {{kHead, -1, up * 0.25f, 0.12f}}, "hat", "head"},
  };
}

AvatarPart build_part(const PartDef& def, std::span<const glm::mat4> bind_model, const AvatarOptions& o,
                      const std::vector<std::int16_t>& parents, bool clothing) {
  AvatarPart part;
  part.clothing = clothing;
  part.tintable = true;  // no authored colour: skin tones and cloth tints come from the outfit
  part.item = def.item;
  part.slot = def.slot;
  part.mesh.name = def.name;
  // Part-local bone list in order of first use (bone, then its parent, then child), like an exporter.
  auto local = [&](int joint) {
    const auto j = static_cast<std::uint16_t>(joint);
    const auto it = std::find(part.skin.joints.begin(), part.skin.joints.end(), j);
    if (it != part.skin.joints.end()) return static_cast<std::uint16_t>(it - part.skin.joints.begin());
    part.skin.joints.push_back(j);
    part.skin.inverse_binds.push_back(glm::inverse(bind_model[j]));
    return static_cast<std::uint16_t>(part.skin.joints.size() - 1);
  };
  const int segs = o.ring_segments;
  const int rings = o.rings;
  for (const Segment& s : def.segments) {
    const glm::vec3 a(bind_model[static_cast<std::size_t>(s.bone)][3]);
    const glm::vec3 b =
        s.child >= 0 ? glm::vec3(bind_model[static_cast<std::size_t>(s.child)][3]) : a + s.tip;
    const glm::vec3 axis = glm::normalize(b - a);
    const glm::vec3 helper =
        std::abs(axis.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
    const glm::vec3 u = glm::normalize(glm::cross(axis, helper));
    const glm::vec3 v = glm::cross(axis, u);
    const int parent = parents[static_cast<std::size_t>(s.bone)];
    const std::uint16_t lb = local(s.bone);
    const std::uint16_t lp = parent >= 0 ? local(parent) : lb;
    const std::uint16_t lc = s.child >= 0 ? local(s.child) : lb;
    const auto base = static_cast<std::uint32_t>(part.mesh.positions.size());
    for (int r = 0; r < rings; ++r) {
      const float t = static_cast<float>(r) / static_cast<float>(rings - 1);
      // Smooth blend at the joints: the parent bone fades out along the first half, the child in along the
      // second.
      const float wp = parent >= 0 ? 0.5f * (1.0f - t) * (1.0f - t) : 0.0f;
      const float wc = s.child >= 0 ? 0.5f * t * t : 0.0f;
      const glm::vec4 w(1.0f - wp - wc, wp, wc, 0.0f);
      // segs + 1 vertices per ring: the seam column is doubled (u = 0 and u = 1) so UVs do not run
      // back across the last strip.
      for (int k = 0; k <= segs; ++k) {
        const float ang = 2.0f * std::numbers::pi_v<float> * static_cast<float>(k) / static_cast<float>(segs);
        const glm::vec3 n = u * std::cos(ang) + v * std::sin(ang);
        part.mesh.positions.push_back(a + (b - a) * t + n * s.radius);
        part.mesh.normals.push_back(n);
        part.mesh.uvs.emplace_back(static_cast<float>(k) / static_cast<float>(segs), t);
        part.mesh.joints.emplace_back(lb, lp, lc, lb);
        part.mesh.weights.push_back(w);
      }
    }
    for (int r = 0; r + 1 < rings; ++r) {
      for (int k = 0; k < segs; ++k) {
        const auto i0 = base + static_cast<std::uint32_t>(r * (segs + 1) + k);
        const auto i1 = i0 + 1;
        const auto i2 = i0 + static_cast<std::uint32_t>(segs + 1);
        const auto i3 = i1 + static_cast<std::uint32_t>(segs + 1);
        part.mesh.indices.insert(part.mesh.indices.end(), {i0, i1, i3, i0, i3, i2});
      }
    }
  }
  return part;
}

}  // namespace

Skeleton humanoid_skeleton() {
  Skeleton s;
  s.names.resize(kJointCount);
  s.parents.resize(kJointCount);
  s.rest.resize(kJointCount);
  for (std::size_t i = 0; i < kJointCount; ++i) {
    s.names[i] = kJoints[i].name;
    s.parents[i] = static_cast<std::int16_t>(kJoints[i].parent);
    s.rest.translation[i] = kJoints[i].offset;
    s.rest.rotation[i] = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    s.rest.scale[i] = glm::vec3(1.0f);
  }
  s.validate();
  return s;
}

void AvatarOptions::validate() const {
  if (ring_segments < 3 || ring_segments > 256)
    throw Error("avatar ring segments " + std::to_string(ring_segments) + " is invalid",
                "AvatarOptions::ring_segments", "use 3..256 vertices around each tube");
  if (rings < 2 || rings > 256)
    throw Error("avatar rings " + std::to_string(rings) + " is invalid", "AvatarOptions::rings",
                "use 2..256 rings along each bone segment");
}

Avatar make_avatar(const AvatarOptions& options) {
  options.validate();
  Avatar av;
  av.skeleton = humanoid_skeleton();
  std::vector<glm::mat4> bind_model(av.skeleton.size());
  local_to_model(av.skeleton.parents, av.skeleton.rest, bind_model);
  for (const PartDef& d : body_parts())
    av.parts.push_back(build_part(d, bind_model, options, av.skeleton.parents, false));
  if (options.clothed) {
    for (const PartDef& d : clothing_parts())
      av.parts.push_back(build_part(d, bind_model, options, av.skeleton.parents, true));
  }
  av.name = options.clothed ? "procedural humanoid (clothed)" : "procedural humanoid";
  av.clips = {make_walk_clip(av.skeleton, 1.0f), make_walk_clip(av.skeleton, 0.8f)};
  av.clips[1].name = "walk_fast";
  return av;
}

Clip make_walk_clip(const Skeleton& humanoid, float period) {
  Clip c;
  c.name = "walk";
  c.duration = period;
  constexpr int kKeys = 9;
  // `base` is applied first (in the joint's rest frame): the arms' lowering from the T-pose.
  auto add_rotation = [&](int joint, glm::vec3 axis, float amplitude, float phase,
                          glm::quat base = glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) {
    Channel ch;
    ch.joint = static_cast<std::uint16_t>(joint);
    ch.path = ChannelPath::kRotation;
    ch.interpolation = Interpolation::kLinear;
    ch.first_key = static_cast<std::uint32_t>(c.times.size());
    ch.key_count = kKeys;
    ch.first_value = static_cast<std::uint32_t>(c.values.size());
    for (int k = 0; k < kKeys; ++k) {
      const float t = period * static_cast<float>(k) / static_cast<float>(kKeys - 1);
      const float a = amplitude * std::sin(2.0f * std::numbers::pi_v<float> * t / period + phase);
      const glm::quat q =
          glm::angleAxis(a, axis) * base * humanoid.rest.rotation[static_cast<std::size_t>(joint)];
      c.times.push_back(t);
      c.values.emplace_back(q.x, q.y, q.z, q.w);
    }
    c.channels.push_back(ch);
  };
  const glm::vec3 x(1.0f, 0.0f, 0.0f), z(0.0f, 0.0f, 1.0f), y(0.0f, 1.0f, 0.0f);
  const float pi = std::numbers::pi_v<float>;
  add_rotation(kLThigh, x, 0.5f, 0.0f);
  add_rotation(kRThigh, x, 0.5f, pi);
  add_rotation(kLShin, x, 0.4f, 0.5f * pi);
  add_rotation(kRShin, x, 0.4f, 1.5f * pi);
  // Upper arms hang 75 degrees below the T-pose and swing forward and back (about X) against the legs.
  const float down = 75.0f * pi / 180.0f;
  add_rotation(kLUpperArm, x, 0.4f, pi, glm::angleAxis(-down, z));
  add_rotation(kRUpperArm, x, 0.4f, 0.0f, glm::angleAxis(down, z));
  // Elbows bent forward (+Z, where the toes point) and flexing with the swing.
  add_rotation(kLForearm, y, 0.2f, pi, glm::angleAxis(-0.35f, y));
  add_rotation(kRForearm, y, 0.2f, 0.0f, glm::angleAxis(0.35f, y));
  add_rotation(kSpine, y, 0.1f, 0.0f);
  add_rotation(kHead, y, 0.15f, 0.5f * pi);
  c.validate(humanoid.size());
  return c;
}

}  // namespace myriad::anim
