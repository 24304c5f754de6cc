#include "myriad/anim/clip/clip.hpp"

#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <cmath>

namespace myriad::anim {

void Clip::validate(std::size_t joint_count) const {
  for (std::size_t c = 0; c < channels.size(); ++c) {
    const Channel& ch = channels[c];
    const std::string where = "clip '" + name + "' channel " + std::to_string(c);
    const std::size_t per_key = ch.interpolation == Interpolation::kCubicSpline ? 3 : 1;
    if (ch.key_count == 0) throw Error("channel has no keys", where);
    if (ch.joint >= joint_count) throw Error("channel targets a joint outside the skeleton", where);
    if (std::size_t{ch.first_key} + ch.key_count > times.size() ||
        std::size_t{ch.first_value} + per_key * ch.key_count > values.size()) {
      throw Error("channel keys lie outside the clip arrays", where);
    }
    for (std::uint32_t k = 1; k < ch.key_count; ++k) {
      if (!(times[ch.first_key + k] >= times[ch.first_key + k - 1])) {
        throw Error("key times decrease", where + " key " + std::to_string(k));
      }
    }
  }
}

namespace {

glm::vec4 slerp_shortest(glm::vec4 a, glm::vec4 b, float t) {
  glm::quat qa(a.w, a.x, a.y, a.z);
  glm::quat qb(b.w, b.x, b.y, b.z);
  if (glm::dot(qa, qb) < 0.0f) qb = -qb;  // shortest arc: q and -q are the same rotation
  const glm::quat q = glm::normalize(glm::slerp(qa, qb, t));
  return {q.x, q.y, q.z, q.w};
}

}  // namespace

glm::vec4 sample_channel(const Clip& clip, const Channel& ch, float time, std::uint32_t& cursor) {
  const float* t = clip.times.data() + ch.first_key;
  const glm::vec4* v = clip.values.data() + ch.first_value;
  const bool cubic = ch.interpolation == Interpolation::kCubicSpline;
  const std::uint32_t n = ch.key_count;
  auto value = [&](std::uint32_t k) { return cubic ? v[3 * k + 1] : v[k]; };
  if (n == 1 || time <= t[0]) {
    cursor = 0;
    return value(0);
  }
  if (time >= t[n - 1]) {
    cursor = n - 1;
    return value(n - 1);
  }
  // Forward playback moves the cursor by zero or one key; a jump back (loop) restarts the scan.
  std::uint32_t k = cursor < n - 1 ? cursor : 0;
  if (t[k] > time) k = 0;
  while (t[k + 1] <= time) ++k;
  cursor = k;
  const float dt = t[k + 1] - t[k];
  const float u = (time - t[k]) / dt;
  switch (ch.interpolation) {
    case Interpolation::kStep:
      return v[k];
    case Interpolation::kLinear:
      if (ch.path == ChannelPath::kRotation) return slerp_shortest(v[k], v[k + 1], u);
      return v[k] + (v[k + 1] - v[k]) * u;
    case Interpolation::kCubicSpline: {
      // glTF Hermite spline: tangents are scaled by the key interval.
      const float u2 = u * u;
      const float u3 = u2 * u;
      const glm::vec4 p0 = v[3 * k + 1];
      const glm::vec4 m0 = v[3 * k + 2] * dt;
      const glm::vec4 p1 = v[3 * (k + 1) + 1];
      const glm::vec4 m1 = v[3 * (k + 1)] * dt;
      glm::vec4 r = p0 * (2.0f * u3 - 3.0f * u2 + 1.0f) + m0 * (u3 - 2.0f * u2 + u) +
                    p1 * (-2.0f * u3 + 3.0f * u2) + m1 * (u3 - u2);
      if (ch.path == ChannelPath::kRotation) r = glm::normalize(r);
      return r;
    }
  }
  return value(k);
}

void sample(const Skeleton& skeleton, const Clip& clip, float time, SamplingCache& cache, LocalPose& pose) {
  const std::size_t n = skeleton.size();
  std::copy_n(skeleton.rest.translation.begin(), n, pose.translation.begin());
  std::copy_n(skeleton.rest.rotation.begin(), n, pose.rotation.begin());
  std::copy_n(skeleton.rest.scale.begin(), n, pose.scale.begin());
  for (std::size_t c = 0; c < clip.channels.size(); ++c) {
    const Channel& ch = clip.channels[c];
    const glm::vec4 r = sample_channel(clip, ch, time, cache.cursor[c]);
    switch (ch.path) {
      case ChannelPath::kTranslation:
        pose.translation[ch.joint] = glm::vec3(r);
        break;
      case ChannelPath::kRotation:
        pose.rotation[ch.joint] = glm::quat(r.w, r.x, r.y, r.z);
        break;
      case ChannelPath::kScale:
        pose.scale[ch.joint] = glm::vec3(r);
        break;
    }
  }
}

}  // namespace myriad::anim
