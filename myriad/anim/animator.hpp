// Per-frame animation of many characters sharing one skeleton and one renderer skeleton (SPEC B7):
// sample -> local-to-model -> palette, written into one global palette array at each character's
// offset. Parallel over characters; every buffer is sized at setup, so a frame allocates nothing.
#pragma once

#include "myriad/anim/clip.hpp"
#include "myriad/anim/dedup.hpp"
#include "myriad/anim/pose.hpp"

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

  void set_clip(std::size_t character, std::uint32_t clip, float time);
  void advance(std::size_t character, float dt);  // loops over the clip's duration

  // Updates characters with update[c] != 0 (all when `update` is empty) into `palettes`
  // (characters() * palette_size() entries). Returns the number of palette matrices written.
  std::size_t update(std::span<Mat3x4> palettes, std::span<const std::uint8_t> update = {});

  std::span<const glm::mat4> model(std::size_t c) const { return {model_.data() + c * joints_, joints_}; }

 private:
  const Skeleton& skeleton_;
  std::span<const Clip> clips_;
  const PartSkin& renderer_skeleton_;
  std::size_t joints_;
  std::vector<std::uint32_t> clip_;
  std::vector<float> time_;
  std::vector<SamplingCache> cache_;
  std::vector<LocalPose> local_;
  std::vector<glm::mat4> model_;
  std::vector<Mat3x4> inverse_bind_rows_;  // renderer skeleton's inverse binds, converted once
};

}  // namespace myriad::anim
