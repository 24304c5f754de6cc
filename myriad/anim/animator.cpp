#include "myriad/anim/animator.hpp"

#include "myriad/core/error.hpp"
#include "myriad/core/parallel.hpp"

#include <cmath>

namespace myriad::anim {

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
  cache_.resize(characters);
  local_.resize(characters);
  std::size_t max_channels = 0;
  for (const Clip& c : clips) max_channels = std::max(max_channels, c.channels.size());
  for (std::size_t c = 0; c < characters; ++c) {
    cache_[c].cursor.assign(max_channels, 0);
    local_[c].resize(joints_);
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
}

void Animator::advance(std::size_t character, float dt) {
  const float d = clips_[clip_[character]].duration;
  float t = time_[character] + dt;
  if (d > 0.0f) t = std::fmod(t, d);
  time_[character] = t;
}

std::size_t Animator::update(std::span<Mat3x4> palettes, std::span<const std::uint8_t> update) {
  const std::size_t n = characters();
  const std::size_t ps = palette_size();
  parallel_for(0, n, 16, [&](std::size_t b, std::size_t e) {
    for (std::size_t c = b; c < e; ++c) {
      if (!update.empty() && update[c] == 0) continue;
      sample(skeleton_, clips_[clip_[c]], time_[c], cache_[c], local_[c]);
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
