// Per-frame animation of many characters sharing one skeleton and one renderer skeleton (SPEC B7):
// sample -> local-to-model -> palette, written into one global palette array at each character's
// offset. Parallel over characters; every buffer is sized at setup, so a frame allocates nothing.
// Each character has its own playback speed and may cross-fade from one clip to another: while a
// fade runs, both clips are sampled and blended (blend.hpp) before local-to-model.
#pragma once

#include "myriad/anim/clip/clip.hpp"
#include "myriad/anim/kit/dedup.hpp"
#include "myriad/anim/pose/pose.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::anim {

class Animator {
 public:
  // `clips` and `renderer_skeleton` must outlive the animator.
  Animator(const Skeleton& skeleton, std::span<const Clip> clips, const PartSkin& renderer_skeleton,
           std::size_t characters);

  std::size_t characters() const { return clip_.size(); }
  std::size_t palette_size() const { return renderer_skeleton_.joints.size(); }
  // Offset of character c's palette in the global palette array (c * palette_size()).
  std::uint32_t palette_offset(std::size_t c) const { return static_cast<std::uint32_t>(c * palette_size()); }

  // Plays `clip` from `time` at once (cancelling any cross-fade).
  void set_clip(std::size_t character, std::uint32_t clip, float time);
  // Moves the clip time(s) and the fade by dt * speed; loops over each clip's duration.
  void advance(std::size_t character, float dt);

  // Playback rate of one character (default 1; 0 freezes it; negative plays backwards).
  void set_speed(std::size_t character, float speed);
  float speed(std::size_t character) const { return speed_[character]; }

  // Starts `clip` at `start_time` and fades it in over `fade_seconds` of (speed-scaled) playback
  // time while the current clip keeps playing and fades out; then `clip` plays alone. A fade started
  // during a fade drops the older "from" clip and fades from the current "to" clip (a small jump when
  // the running fade was far from done; fades are short). fade_seconds <= 0 is set_clip.
  void cross_fade(std::size_t character, std::uint32_t clip, float fade_seconds, float start_time = 0.0f);
  bool fading(std::size_t character) const { return fade_length_[character] > 0.0f; }
  // Weight of the current (fading-in) clip: 0 at the start of a fade, 1 when not fading.
  float weight(std::size_t character) const;

  std::uint32_t clip(std::size_t character) const { return clip_[character]; }
  float time(std::size_t character) const { return time_[character]; }

  // Updates characters with update[c] != 0 (all when `update` is empty) into `palettes`
  // (characters() * palette_size() entries). Returns the number of palette matrices written.
  std::size_t update(std::span<Mat3x4> palettes, std::span<const std::uint8_t> update = {});

  std::span<const glm::mat4> model(std::size_t c) const { return {model_.data() + c * joints_, joints_}; }

 private:
  const Skeleton& skeleton_;
  std::span<const Clip> clips_;
  const PartSkin& renderer_skeleton_;
  std::size_t joints_;
  std::vector<std::uint32_t> clip_;  // the clip playing (during a fade: the one fading in)
  std::vector<float> time_;
  std::vector<float> speed_;
  std::vector<SamplingCache> cache_;
  std::vector<LocalPose> local_;
  // Cross-fade state: the clip fading out, its time, cursors and pose (sized at construction like
  // the main ones, so a fade allocates nothing), and the fade's progress; fade_length_ 0 = no fade.
  std::vector<std::uint32_t> from_clip_;
  std::vector<float> from_time_;
  std::vector<SamplingCache> from_cache_;
  std::vector<LocalPose> from_local_;
  std::vector<float> fade_elapsed_;
  std::vector<float> fade_length_;
  std::vector<glm::mat4> model_;
  std::vector<Mat3x4> inverse_bind_rows_;  // renderer skeleton's inverse binds, converted once
};

}  // namespace myriad::anim
