// Texture addressing (glTF wrapS / wrapT) as a repeating bilinear sampler reads it: repeat leaves the
// coordinate alone, clamp holds it at the outer texels' centres, mirrored repeat folds odd tiles back.
#include "myriad/core/image/uv_wrap.hpp"

#include <gtest/gtest.h>

namespace myriad {
namespace {

TEST(UvWrap, EachModeAddressesAsItsSamplerWould) {
  const glm::vec2 size(4.0f, 8.0f);  // half a texel: 0.125 across, 0.0625 down
  const UvWrapModes repeat{}, clamp{UvWrap::kClampToEdge, UvWrap::kClampToEdge},
      mirror{UvWrap::kMirroredRepeat, UvWrap::kMirroredRepeat};
  EXPECT_EQ(wrap_uv({1.3f, -2.6f}, repeat, size), glm::vec2(1.3f, -2.6f));
  EXPECT_EQ(wrap_uv({1.3f, -2.6f}, clamp, size), glm::vec2(0.875f, 0.0625f));
  EXPECT_EQ(wrap_uv({0.4f, 0.5f}, clamp, size), glm::vec2(0.4f, 0.5f));
  // Mirrored: tile 1 runs backwards (1.25 -> 0.75), tile 2 forwards again (2.25 -> 0.25), tile -1
  // backwards (-0.25 -> 0.25); the fold's edge stays on the edge texel's centre.
  EXPECT_NEAR(wrap_uv({1.25f, 0.0f}, mirror, size).x, 0.75f, 1e-6f);
  EXPECT_NEAR(wrap_uv({2.25f, 0.0f}, mirror, size).x, 0.25f, 1e-6f);
  EXPECT_NEAR(wrap_uv({-0.25f, 0.0f}, mirror, size).x, 0.25f, 1e-6f);
  EXPECT_NEAR(wrap_uv({0.99f, 1.99f}, mirror, size).x, 0.875f, 1e-6f);
  EXPECT_NEAR(wrap_uv({0.99f, 1.99f}, mirror, size).y, 0.0625f, 1e-6f);
  // The axes are independent; the shaders read the same two bits per axis.
  const UvWrapModes mixed{UvWrap::kClampToEdge, UvWrap::kMirroredRepeat};
  EXPECT_NEAR(wrap_uv({-3.0f, 1.25f}, mixed, size).x, 0.125f, 1e-6f);
  EXPECT_NEAR(wrap_uv({-3.0f, 1.25f}, mixed, size).y, 0.75f, 1e-6f);
  EXPECT_EQ(mixed.packed(), 1u | 2u << 2);
  EXPECT_EQ(uv_wrap_from_gltf(33071), UvWrap::kClampToEdge);
  EXPECT_EQ(uv_wrap_from_gltf(33648), UvWrap::kMirroredRepeat);
  EXPECT_EQ(uv_wrap_from_gltf(10497), UvWrap::kRepeat);
  EXPECT_EQ(uv_wrap_from_gltf(-1), UvWrap::kRepeat);
}

}  // namespace
}  // namespace myriad
