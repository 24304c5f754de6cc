// A clip sampled into a fresh pose at one time: the reference the animation tests compare against.
#pragma once

#include "myriad/anim/clip/clip.hpp"

namespace myriad::anim::test {

inline LocalPose sampled(const Skeleton& s, const Clip& c, float t) {
  SamplingCache cache;
  cache.reset(c);
  LocalPose pose;
  pose.resize(s.size());
  sample(s, c, t, cache, pose);
  return pose;
}

}  // namespace myriad::anim::test
