// Pacing of bursty arrivals (Pacer): the floor alone is ceil(waiting / frames); with a rate, bursts are
// spread over the frames between them, a backlog still drains, a short queue saves nothing up, and the
// options name what is wrong with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/core/stream/pacer.hpp"

namespace myriad {
namespace {

struct Flow {
  std::size_t largest = 0, most_waiting = 0, taken = 0;
  int frames = 0, busy = 0;  // after the warm-up; of which something was taken
};

// `burst` items every `period` frames for `bursts` bursts, each frame taking its whole share; the
// figures are of the frames after the first `warmup` bursts.
Flow run(Pacer& pacer, std::size_t burst, int period, int bursts, int warmup) {
  Flow f;
  std::size_t waiting = 0;
  for (int frame = 0; frame < period * bursts; ++frame) {
    const std::size_t arrived = frame % period == 0 ? burst : 0;
    waiting += arrived;
    const std::size_t n = pacer.share(waiting, arrived);
    EXPECT_LE(n, waiting);
    if (waiting > 0) {
      EXPECT_GE(n, 1u);
    }
    if (frame >= period * warmup) {
      f.largest = std::max(f.largest, n);
      f.most_waiting = std::max(f.most_waiting, waiting);
      ++f.frames;
      f.busy += n > 0 ? 1 : 0;
    }
    waiting -= n;
    f.taken += n;
  }
  for (int frame = 0; waiting > 0 && frame < 100000; ++frame) {
    const std::size_t n = pacer.share(waiting, 0);
    waiting -= n;
    f.taken += n;
  }
  return f;
}

TEST(Pacer, TheFloorAloneTakesCeilOfWaitingOverFrames) {
  Pacer p({.frames = 24, .smoothing_frames = 0, .headroom = 1.25});
  EXPECT_EQ(p.share(0, 0), 0u);
  EXPECT_EQ(p.share(1, 1), 1u);
  EXPECT_EQ(p.share(24, 0), 1u);
  EXPECT_EQ(p.share(25, 0), 2u);
  EXPECT_EQ(p.share(240, 240), 10u);  // arrivals do not count without a rate
  Pacer all({.frames = 1, .smoothing_frames = 0, .headroom = 1.0});
  EXPECT_EQ(all.share(500, 500), 500u);
}

TEST(Pacer, BurstsAreSpreadOverTheFramesBetweenThem) {
  // 240 items every 48 frames: 5 per frame on average.
  Pacer floor_only({.frames = 24, .smoothing_frames = 0, .headroom = 1.25});
  const Flow before = run(floor_only, 240, 48, 20, 5);
  Pacer paced({.frames = 120, .smoothing_frames = 120, .headroom = 1.25});
  const Flow after = run(paced, 240, 48, 20, 5);
  EXPECT_GE(before.largest, 10u);  // ceil(240 / 24) and more in the frame of each burst
  // The rate's share: 5 x 1.25 with the average's ripple between bursts, in most frames.
  EXPECT_LE(after.largest, 8u);
  EXPECT_GT(after.busy * 10, after.frames * 7);
  // The queue empties between bursts (headroom > 1): it never holds two bursts, and all arrive.
  EXPECT_LT(after.most_waiting, 2u * 240u);
  EXPECT_EQ(after.taken, 20u * 240u);
}

TEST(Pacer, ABacklogDrainsBeforeTheRateCatchesUp) {
  Pacer p({.frames = 10, .smoothing_frames = 1000, .headroom = 1.25});
  std::size_t waiting = 1000;
  std::size_t n = p.share(waiting, waiting);
  EXPECT_EQ(n, 100u);  // the floor: the rate is 1 per frame so far
  int frames = 1;
  for (waiting -= n; waiting > 0; ++frames) waiting -= p.share(waiting, 0);
  EXPECT_LT(frames, 80);  // 1000 items at 1/10 of the rest per frame (and at least 1)
}

TEST(Pacer, AShortQueueSavesNothingUp) {
  Pacer p({.frames = 1000, .smoothing_frames = 10, .headroom = 1.0});
  for (int i = 0; i < 200; ++i) p.share(4, 4);  // a rate of 4 per frame, settled
  EXPECT_NEAR(p.rate(), 4.0, 1e-3);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(p.share(1, 4), 1u);  // only one waits: one is taken
  // A burst after the short queue gets the rate's share, not the 150 the short frames did not take.
  EXPECT_LE(p.share(400, 4), 5u);
}

TEST(Pacer, FractionalRatesAlternate) {
  // The rate is the last arrival: 2 a frame, times 1.25.
  Pacer p({.frames = 1000, .smoothing_frames = 1, .headroom = 1.25});
  std::size_t taken = 0;
  for (int i = 0; i < 10; ++i) {
    const std::size_t n = p.share(100, 2);
    EXPECT_TRUE(n == 2 || n == 3) << n;
    taken += n;
  }
  EXPECT_EQ(taken, 25u);
}

TEST(Pacer, OptionsNameWhatIsWrong) {
  try {
    Pacer({.frames = 0});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("PacerOptions::frames"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Pacer({.frames = 1, .smoothing_frames = -1}), Error);
  EXPECT_THROW(Pacer({.frames = 1, .smoothing_frames = 0, .headroom = 0.5}), Error);
  EXPECT_NO_THROW(PacerOptions{}.validate());
}

}  // namespace
}  // namespace myriad
