#include "noise_probe.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <string>

namespace myriad::bench {
namespace {

// Rungs as this machine measures them: the same added noise weighs more on shorter work.
constexpr std::array<NoiseRung, 4> kLadder{{{0.03, 2.4}, {0.1, 1.5}, {0.3, 1.2}, {1.0, 1.1}}};

TEST(NoiseProbe, AFrameIsReadAgainstTheRungOfItsOwnSize) {
  EXPECT_DOUBLE_EQ(matched_noise_ratio(kLadder, 0.1), 1.5);
  EXPECT_DOUBLE_EQ(matched_noise_ratio(kLadder, 0.3), 1.2);
}

TEST(NoiseProbe, BetweenRungsTheRatioIsInterpolatedInLogSize) {
  // Halfway between 0.1 and 0.3 ms in log size is their geometric mean.
  EXPECT_NEAR(matched_noise_ratio(kLadder, std::sqrt(0.1 * 0.3)), 1.35, 1e-12);
  EXPECT_NEAR(matched_noise_ratio(kLadder, 0.03 * std::pow(0.1 / 0.03, 0.25)), 2.4 - 0.9 * 0.25, 1e-12);
}

TEST(NoiseProbe, RungOrderDoesNotMatterAndTheEndsHold) {
  const std::array<NoiseRung, 4> shuffled{{kLadder[2], kLadder[0], kLadder[3], kLadder[1]}};
  EXPECT_NEAR(matched_noise_ratio(shuffled, 0.5), matched_noise_ratio(kLadder, 0.5), 1e-12);
  EXPECT_DOUBLE_EQ(matched_noise_ratio(kLadder, 0.001), 2.4);  // shorter than the ladder: its shortest rung
  EXPECT_DOUBLE_EQ(matched_noise_ratio(kLadder, 50.0), 1.1);   // longer: its longest
  EXPECT_DOUBLE_EQ(matched_noise_ratio({}, 0.2), 0.0);
}

TEST(NoiseProbe, RungsGrowWithTheirSizeAndTheReportReadsTheFrameAgainstItsOwn) {
  NoiseProbe probe;
  for (int i = 0; i < 40; ++i) probe.run();
  const auto rungs = probe.rungs();
  // Sized at start from one pass's cost: each rung's median is well above the one before (nominally 3.3x).
  for (std::size_t k = 1; k < rungs.size(); ++k) EXPECT_GT(rungs[k].p50_ms, 1.5 * rungs[k - 1].p50_ms) << k;
  Report report("s");
  const double frame_p50 = rungs[1].p50_ms, frame_p99 = 2.0 * frame_p50;
  probe.report(report, "speed1.", frame_p50, frame_p99, "");
  std::map<std::string, double> got;
  for (const Figure& f : report.figures()) got[f.key] = f.value;
  ASSERT_TRUE(got.count("s.speed1.noise_thread_p99_over_p50"));
  EXPECT_DOUBLE_EQ(got["s.speed1.noise_thread_p99_over_p50"], rungs[1].ratio);
  EXPECT_DOUBLE_EQ(got["s.speed1.cpu_thread_ratio_over_noise"], 2.0 / rungs[1].ratio);
  EXPECT_DOUBLE_EQ(got["s.speed1.noise_rung_100us_p99_over_p50"], rungs[1].ratio);
  EXPECT_DOUBLE_EQ(got["s.speed1.noise_rung_1000us_p50_ms"], rungs[3].p50_ms);
  // The copies: each larger one takes longer, and the frame is read against them the same way.
  const auto copies = probe.copy_rungs();
  for (std::size_t k = 1; k < copies.size(); ++k)
    EXPECT_GT(copies[k].p50_ms, 1.5 * copies[k - 1].p50_ms) << k;
  const double copy_noise = matched_noise_ratio(copies, frame_p50);
  EXPECT_GT(copy_noise, 0.0);
  EXPECT_DOUBLE_EQ(got["s.speed1.noise_copy_p99_over_p50"], copy_noise);
  EXPECT_DOUBLE_EQ(got["s.speed1.cpu_thread_ratio_over_copy_noise"], 2.0 / copy_noise);
  EXPECT_DOUBLE_EQ(got["s.speed1.noise_copy_4096k_p50_ms"], copies[3].p50_ms);
  EXPECT_DOUBLE_EQ(got["s.speed1.noise_copy_64k_p99_over_p50"], copies[0].ratio);
}

}  // namespace
}  // namespace myriad::bench
