// Spreads work that arrives in bursts over the frames. A streamer finishes its jobs in batches (a row of
// columns meshed together, a row evicted when the camera crosses a column). A Pacer hands each frame
// ceil(waiting / frames) of what waits, at least one, so a burst lands over several frames and a backlog
// drains in about `frames` frames. That still does most of a burst in the first frames after it; with
// `smoothing_frames` > 0 each frame also takes at least the recent arrival rate (an exponential average
// over that many frames, times `headroom` so a steady flow's queue empties between bursts), which spreads
// a burst over all the frames until the next one. Whether that helps depends on what else the frames do:
// docs/BENCHMARKS.md measures it on the streamed voxel world, where it is off by default.
#pragma once

#include <cstddef>

namespace myriad {

struct PacerOptions {
  int frames = 24;           // the backlog's floor: at least ceil(waiting / frames) per frame
  int smoothing_frames = 0;  // the arrival rate's window in frames; 0: no rate, the floor alone
  double headroom = 1.25;    // the share is the rate times this (> 1: the queue empties between bursts)

  // Throws myriad::Error naming the first invalid field after `prefix` (an owner passes its own name,
  // e.g. "StreamedVoxelSceneOptions::pacing.").
  void validate(const char* prefix = "PacerOptions::") const;
};

class Pacer {
 public:
  explicit Pacer(const PacerOptions& options = {});

  // This frame's share of the `waiting` items, `arrived` of which joined them since the last call: at
  // least 1 while anything waits, never more than `waiting`. A share the caller cannot take in full (its
  // byte budget ran out) is simply not taken: what is left waits and counts again next frame.
  std::size_t share(std::size_t waiting, std::size_t arrived);

  double rate() const { return rate_; }  // arrivals per frame, smoothed
  const PacerOptions& options() const { return options_; }

 private:
  PacerOptions options_;
  double rate_ = 0.0;
  double credit_ = 0.0;  // the rate's fraction of an item not taken yet (a rate of 2.5 takes 2, 3, 2, 3)
};

}  // namespace myriad
