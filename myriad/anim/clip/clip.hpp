// Animation clips (glTF semantics: STEP, LINEAR, CUBICSPLINE keys on translation, rotation, scale)
// and their sampling into a LocalPose. Sampling keeps one key cursor per channel per character, so
// playing forward costs O(1) per channel instead of a search; the cursor array is owned by the caller.
#pragma once

#include "myriad/anim/pose/skeleton.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace myriad::anim {

enum class Interpolation : std::uint8_t { kStep, kLinear, kCubicSpline };
enum class ChannelPath : std::uint8_t { kTranslation, kRotation, kScale };

struct Channel {
  std::uint16_t joint = 0;
  ChannelPath path = ChannelPath::kTranslation;
  Interpolation interpolation = Interpolation::kLinear;
  std::uint32_t first_key = 0;    // into Clip::times
  std::uint32_t key_count = 0;    // >= 1
  std::uint32_t first_value = 0;  // into Clip::values; key_count values, or 3 per key for cubic
                                  // (in-tangent, value, out-tangent, as glTF stores them)
};

// The morph weights of one glTF node over time (a "weights" channel): `targets` weights per key, or 3 ×
// that per key for cubic (in-tangents, weights, out-tangents, as glTF stores them). The skeleton does
// not read them; a baker that animates vertices does (crowd VAT).
struct MorphChannel {
  int node = -1;  // the glTF node whose mesh's morph targets these weights drive
  Interpolation interpolation = Interpolation::kLinear;
  std::uint32_t first_key = 0;    // into Clip::times
  std::uint32_t key_count = 0;    // >= 1
  std::uint32_t first_value = 0;  // into Clip::morph_values
  std::uint32_t targets = 0;      // weights per key
};

// Values are vec4: xyz for translation/scale, xyzw (quaternion x, y, z, w) for rotation.
struct Clip {
  std::string name;
  float duration = 0.0f;
  std::vector<Channel> channels;
  std::vector<float> times;
  std::vector<glm::vec4> values;
  std::vector<MorphChannel> morph_channels;
  std::vector<float> morph_values;

  // Throws myriad::Error when a channel points outside the arrays or times decrease.
  void validate(std::size_t joint_count) const;
};

// One key cursor per channel: the index of the key at or before the last sampled time.
struct SamplingCache {
  std::vector<std::uint32_t> cursor;
  void reset(const Clip& clip) { cursor.assign(clip.channels.size(), 0); }
};

// Writes the skeleton's rest pose, then every channel of `clip` at `time` (clamped to the keys),
// into `pose`. `pose` and `cache` must be sized already (no allocation here).
void sample(const Skeleton& skeleton, const Clip& clip, float time, SamplingCache& cache, LocalPose& pose);

// Evaluates one channel at `time` with a cursor hint (updated). Exposed for tests.
glm::vec4 sample_channel(const Clip& clip, const Channel& channel, float time, std::uint32_t& cursor);

// The weights of one morph channel at `time` (clamped to its keys, interpolated as glTF says) into
// `weights`; entries past the channel's target count are left as they are.
void sample_morph_weights(const Clip& clip, const MorphChannel& channel, float time,
                          std::span<float> weights);

}  // namespace myriad::anim
