// The generator's hash and value noise, pinned to exact values: generated worlds (and the tests and
// caches built on them) depend on every bit, so any change to the noise must show up here.
#include <gtest/gtest.h>

#include "myriad/voxel/data/noise.hpp"

namespace myriad::voxel {
namespace {

TEST(Noise, HashesArePinned) {
  EXPECT_EQ(mix64(0), 0xE220A8397B1DCDAFull);  // splitmix64's first output from state 0
  EXPECT_EQ(mix64(12345), 0x22118258A9D111A0ull);
  EXPECT_EQ(hash3(7, -3, 5, 11), 0x35D59C8647A7C3E4ull);
  EXPECT_EQ(hash_unit(hash3(7, -3, 5, 11)), 0x1.aeacep-3f);
}

TEST(Noise, ValueNoiseAndFbmArePinned) {
  struct Pin {
    float x, y, z;
    float noise2, noise3, fbm2, fbm3;
  };
  const Pin pins[] = {
      {3.7f, -1.25f, 0.5f, 0x1.b2fbacp-2f, 0x1.e00dep-3f, 0x1.d67bfap-4f, -0x1.32d9cap-3f},
      {-17.03f, 4.5f, 123.456f, 0x1.51271cp-2f, 0x1.1f37b2p-1f, -0x1.992f48p-6f, -0x1.9d0354p-4f},
      {0.0f, 0.0f, 0.0f, -0x1.932608p-2f, -0x1.932608p-2f, 0x1.7661a6p-3f, 0x1.0b6fdap-2f},
      {1000.25f, -2.75f, -999.9f, 0x1.cadc18p-1f, -0x1.8bff14p-5f, 0x1.9ea556p-4f, -0x1.bafb54p-3f},
  };
  for (const Pin& p : pins) {
    SCOPED_TRACE(testing::Message() << p.x << ", " << p.y << ", " << p.z);
    EXPECT_EQ(value_noise2(42, p.x, p.z), p.noise2);
    EXPECT_EQ(value_noise3(42, p.x, p.y, p.z), p.noise3);
    EXPECT_EQ(fbm2(9, p.x, p.z, 4), p.fbm2);
    EXPECT_EQ(fbm3(9, p.x, p.y, p.z, 3), p.fbm3);
  }
}

}  // namespace
}  // namespace myriad::voxel
