#include "myriad/anim/clip/stride.hpp"

#include "myriad/anim/kit/kit_info.hpp"
#include "myriad/anim/pose/pose.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace myriad::anim {
namespace {

constexpr int kSamples = 64;

glm::vec3 horizontal(glm::vec3 v) { return {v.x, 0.0f, v.z}; }

}  // namespace

ClipStride clip_stride(const Avatar& kit, const Clip& clip) {
  ClipStride out;
  const Skeleton& sk = kit.skeleton;
  if (sk.size() == 0 || !(clip.duration > 0.0f)) return out;
  LocalPose pose;
  pose.resize(sk.size());
  SamplingCache cache;
  cache.reset(clip);
  std::vector<glm::mat4> model(sk.size());
  std::vector<glm::vec3> body, next;
  const float dt = clip.duration / kSamples;
  const auto pose_at = [&](float t, std::vector<glm::vec3>& vertices) {
    sample(sk, clip, t, cache, pose);
    local_to_model(sk.parents, pose, model);
    skin_body(kit, model, vertices);
    return glm::vec3(kit.root_transform * model[0][3]);  // the (first) root joint
  };
  // Per sample, the lowest vertex (on the planted foot) followed to the next sample: its horizontal
  // velocity is the ground passing under the body.
  std::vector<glm::vec3> velocity;
  const glm::vec3 root_start = pose_at(0.0f, body);
  glm::vec3 root_end = root_start;
  for (int i = 1; i <= kSamples; ++i) {
    root_end = pose_at(dt * float(i), next);
    if (body.empty()) break;
    std::size_t low = 0;
    for (std::size_t v = 1; v < body.size(); ++v) low = body[v].y < body[low].y ? v : low;
    velocity.push_back(horizontal(next[low] - body[low]) / dt);
    std::swap(body, next);
  }
  glm::vec3 sum(0.0f);
  for (const glm::vec3& v : velocity) sum += v;
  const glm::vec3 root = horizontal(root_end - root_start);
  const float root_speed = glm::length(root) / clip.duration;
  float planted_speed = 0.0f;
  if (glm::length(sum) > 0.0f) {
    // The median speed along the mean direction: heel strikes and toe-offs do not skew it.
    const glm::vec3 back = sum / glm::length(sum);
    std::vector<float> along;
    for (const glm::vec3& v : velocity) along.push_back(glm::dot(v, back));
    std::nth_element(along.begin(), along.begin() + std::ptrdiff_t(along.size() / 2), along.end());
    planted_speed = std::max(along[along.size() / 2], 0.0f);
    out.forward = -back;
  }
  if (root_speed > planted_speed && root_speed > 0.0f) {
    out.root_motion = true;
    out.speed = root_speed;
    out.forward = root / glm::length(root);
  } else {
    out.speed = planted_speed;
  }
  return out;
}

void remove_root_drift(Clip& clip, const Skeleton& skeleton, glm::vec3 up) {
  if (!(clip.duration > 0.0f) || !(glm::length(up) > 0.0f)) return;
  up = glm::normalize(up);
  for (const Channel& ch : clip.channels) {
    if (ch.path != ChannelPath::kTranslation || ch.joint >= skeleton.size() ||
        skeleton.parents[ch.joint] != kNoParent || ch.key_count < 2)
      continue;
    const bool cubic = ch.interpolation == Interpolation::kCubicSpline;
    const std::size_t stride = cubic ? 3 : 1, value = cubic ? 1 : 0;
    const glm::vec3 first(clip.values[ch.first_value + value]);
    const glm::vec3 last(clip.values[ch.first_value + (ch.key_count - 1) * stride + value]);
    const glm::vec3 drift = (last - first) - glm::dot(last - first, up) * up;
    const float t0 = clip.times[ch.first_key], t1 = clip.times[ch.first_key + ch.key_count - 1];
    if (!(t1 > t0)) continue;
    for (std::uint32_t k = 0; k < ch.key_count; ++k) {
      const float f = (clip.times[ch.first_key + k] - t0) / (t1 - t0);
      glm::vec4& v = clip.values[ch.first_value + k * stride + value];
      v -= glm::vec4(drift * f, 0.0f);
      if (cubic) {  // the tangents lose the drift's slope (per second)
        clip.values[ch.first_value + k * stride] -= glm::vec4(drift / (t1 - t0), 0.0f);
        clip.values[ch.first_value + k * stride + 2] -= glm::vec4(drift / (t1 - t0), 0.0f);
      }
    }
  }
}

}  // namespace myriad::anim
