#include "myriad/anim/clip/clip.hpp"

#include "myriad/core/io/error.hpp"

#include <algorithm>
#include <cmath>

namespace myriad::anim {

namespace {

// A channel's keys: at least one, inside the clip's arrays (`per_key` values each), times not decreasing.
template <class ChannelT>
void check_keys(const ChannelT& ch, std::span<const float> times, std::size_t value_count,
                std::size_t per_key, const std::string& where) {
  if (ch.key_count == 0) throw Error("channel has no keys", where);
  if (std::size_t{ch.first_key} + ch.key_count > times.size() ||
      std::size_t{ch.first_value} + per_key * ch.key_count > value_count) {
    throw Error("channel keys lie outside the clip arrays", where);
  }
  for (std::uint32_t k = 1; k < ch.key_count; ++k) {
    if (!(times[ch.first_key + k] >= times[ch.first_key + k - 1]))
      throw Error("key times decrease", where + " key " + std::to_string(k));
  }
}

}  // namespace

void Clip::validate(std::size_t joint_count) const {
  for (std::size_t c = 0; c < channels.size(); ++c) {
    const Channel& ch = channels[c];
    const std::string where = "clip '" + name + "' channel " + std::to_string(c);
    check_keys(ch, times, values.size(), ch.interpolation == Interpolation::kCubicSpline ? 3 : 1, where);
    if (ch.joint >= joint_count) throw Error("channel targets a joint outside the skeleton", where);
  }
  for (std::size_t c = 0; c < morph_channels.size(); ++c) {
    const MorphChannel& ch = morph_channels[c];
    const std::string where = "clip '" + name + "' morph channel " + std::to_string(c);
    const std::size_t per_key =
        (ch.interpolation == Interpolation::kCubicSpline ? 3 : 1) * std::size_t{ch.targets};
    check_keys(ch, times, morph_values.size(), per_key, where);
    if (ch.node < 0) throw Error("morph channel names no node", where);
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

void sample_morph_weights(const Clip& clip, const MorphChannel& ch, float time, std::span<float> weights) {
  const float* t = clip.times.data() + ch.first_key;
  const float* v = clip.morph_values.data() + ch.first_value;
  const std::size_t m = ch.targets;
  const std::size_t count = std::min(weights.size(), m);
  const bool cubic = ch.interpolation == Interpolation::kCubicSpline;
  const std::uint32_t n = ch.key_count;
  // Key k's weights start at v + key_stride * k (+ m for cubic: past the in-tangents).
  const std::size_t key_stride = cubic ? 3 * m : m;
  const std::size_t value_offset = cubic ? m : 0;
  const auto key_weights = [&](std::uint32_t k) { return v + key_stride * k + value_offset; };
  if (n == 1 || !(time > t[0]) || time >= t[n - 1]) {
    const float* w = key_weights(n == 1 || !(time > t[0]) ? 0 : n - 1);
    std::copy_n(w, count, weights.begin());
    return;
  }
  const std::uint32_t k =
      static_cast<std::uint32_t>(std::upper_bound(t, t + n, time) - t) - 1;  // t[k] <= time < t[k + 1]
  const float dt = t[k + 1] - t[k];
  const float u = dt > 0.0f ? (time - t[k]) / dt : 0.0f;
  const float* w0 = key_weights(k);
  const float* w1 = key_weights(k + 1);
  for (std::size_t i = 0; i < count; ++i) {
    switch (ch.interpolation) {
      case Interpolation::kStep:
        weights[i] = w0[i];
        break;
      case Interpolation::kLinear:
        weights[i] = w0[i] + (w1[i] - w0[i]) * u;
        break;
      case Interpolation::kCubicSpline: {
        const float u2 = u * u, u3 = u2 * u;
        const float m0 = w0[m + i] * dt;                    // out-tangent of key k
        const float m1 = v[key_stride * (k + 1) + i] * dt;  // in-tangent of key k + 1
        weights[i] = w0[i] * (2.0f * u3 - 3.0f * u2 + 1.0f) + m0 * (u3 - 2.0f * u2 + u) +
                     w1[i] * (-2.0f * u3 + 3.0f * u2) + m1 * (u3 - u2);
        break;
      }
    }
  }
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
