#include "myriad/anim/playback/animator.hpp"

#include "myriad/anim/pose/blend.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace myriad::anim {

namespace {

// A clip time moved past either end wraps into [0, duration): looping forwards and backwards.
float wrap_time(float t, float duration) {
  if (!(duration > 0.0f)) return t;
  t = std::fmod(t, duration);
  if (t < 0.0f) t += duration;
  return t;
}

}  // namespace

Animator::Animator(const Skeleton& skeleton, std::span<const Clip> clips, const PartSkin& renderer_skeleton,
                   std::size_t characters)
    : skeleton_(skeleton), clips_(clips), renderer_skeleton_(renderer_skeleton), joints_(skeleton.size()) {
  skeleton.validate();
  if (clips.empty()) throw Error("animator needs at least one clip", "Animator");
  for (const Clip& c : clips) c.validate(joints_);
  for (std::uint16_t j : renderer_skeleton.joints) {
    if (j >= joints_) throw Error("renderer skeleton names a joint outside the skeleton", "Animator");
  }
  clip_.assign(characters, 0);
  time_.assign(characters, 0.0f);
  speed_.assign(characters, 1.0f);
  cache_.resize(characters);
  local_.resize(characters);
  from_clip_.assign(characters, 0);
  from_time_.assign(characters, 0.0f);
  from_cache_.resize(characters);
  from_local_.resize(characters);
  fade_elapsed_.assign(characters, 0.0f);
  fade_length_.assign(characters, 0.0f);
  std::size_t max_channels = 0;
  for (const Clip& c : clips) max_channels = std::max(max_channels, c.channels.size());
  for (std::size_t c = 0; c < characters; ++c) {
    cache_[c].cursor.assign(max_channels, 0);
    local_[c].resize(joints_);
    from_cache_[c].cursor.assign(max_channels, 0);
    from_local_[c].resize(joints_);
  }
  model_.resize(characters * joints_);
  for (const glm::mat4& m : renderer_skeleton.inverse_binds) inverse_bind_rows_.push_back(to_mat3x4(m));
}

void Animator::set_clip(std::size_t character, std::uint32_t clip, float time) {
  if (clip >= clips_.size()) throw Error("clip index out of range", "Animator::set_clip");
  if (clip != clip_[character])
    std::fill(cache_[character].cursor.begin(), cache_[character].cursor.end(), 0u);
  clip_[character] = clip;
  time_[character] = time;
  fade_length_[character] = 0.0f;
  fade_elapsed_[character] = 0.0f;
}

void Animator::advance(std::size_t character, float dt) {
  const float step = dt * speed_[character];
  time_[character] = wrap_time(time_[character] + step, clips_[clip_[character]].duration);
  if (!fading(character)) return;
  from_time_[character] = wrap_time(from_time_[character] + step, clips_[from_clip_[character]].duration);
  // Backwards playback fades in too: the fade measures playback time, not its direction.
  fade_elapsed_[character] += std::abs(step);
  if (fade_elapsed_[character] >= fade_length_[character]) {
    fade_length_[character] = 0.0f;  // done: the new clip plays alone, exactly as after set_clip
    fade_elapsed_[character] = 0.0f;
  }
}

void Animator::set_speed(std::size_t character, float speed) {
  if (!std::isfinite(speed)) throw Error("speed must be a finite number", "Animator::set_speed");
  speed_[character] = speed;
}

void Animator::cross_fade(std::size_t character, std::uint32_t clip, float fade_seconds, float start_time) {
  if (clip >= clips_.size()) throw Error("clip index out of range", "Animator::cross_fade");
  if (!std::isfinite(fade_seconds))
    throw Error("fade length must be a finite number of seconds", "Animator::cross_fade");
  if (fade_seconds <= 0.0f) {
    set_clip(character, clip, start_time);
    return;
  }
  // The playing clip becomes the one fading out and keeps its cursors: swapping the two cursor
  // arrays (both sized for the largest clip) moves no memory.
  from_clip_[character] = clip_[character];
  from_time_[character] = time_[character];
  std::swap(from_cache_[character].cursor, cache_[character].cursor);
  std::fill(cache_[character].cursor.begin(), cache_[character].cursor.end(), 0u);
  clip_[character] = clip;
  time_[character] = start_time;
  fade_elapsed_[character] = 0.0f;
  fade_length_[character] = fade_seconds;
}

float Animator::weight(std::size_t character) const {
  if (!fading(character)) return 1.0f;
  return std::min(fade_elapsed_[character] / fade_length_[character], 1.0f);
}

std::size_t Animator::update(std::span<Mat3x4> palettes, std::span<const std::uint8_t> update) {
  const std::size_t n = characters();
  const std::size_t ps = palette_size();
  parallel_for(0, n, 16, [&](std::size_t b, std::size_t e) {
    for (std::size_t c = b; c < e; ++c) {
      if (!update.empty() && update[c] == 0) continue;
      sample(skeleton_, clips_[clip_[c]], time_[c], cache_[c], local_[c]);
      if (fading(c)) {
        sample(skeleton_, clips_[from_clip_[c]], from_time_[c], from_cache_[c], from_local_[c]);
        blend_poses(from_local_[c], local_[c], weight(c), local_[c]);
      }
      const std::span<glm::mat4> model{model_.data() + c * joints_, joints_};
      local_to_model(skeleton_.parents, local_[c], model);
      build_palette(model, renderer_skeleton_.joints, inverse_bind_rows_, palettes.subspan(c * ps, ps));
    }
  });
  std::size_t updated = n;
  if (!update.empty()) {
    updated = 0;
    for (std::uint8_t u : update) updated += u != 0 ? 1 : 0;
  }
  return updated * ps;
}

}  // namespace myriad::anim
