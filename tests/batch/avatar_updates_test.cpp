// What a frame of the avatar crowd tells the renderer to upload (SPEC B9): updated() names the avatars
// whose palettes changed — all of them without throttling and on the first frame, the throttle's
// choice after it — and every other palette keeps its bytes, so uploading only the named ones keeps
// the GPU copy equal to the CPU's; skeletons_updated and palette_bytes_uploaded count exactly those.
#include "myriad/batch/avatar_crowd.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace myriad::batch {
namespace {

CullCamera camera_at(glm::vec3 eye) {
  CullCamera c;
  const float fov = glm::radians(60.0f);
  c.frustum = Frustum::from_view_proj(perspective(fov, 1.5f, 0.1f, 500.0f) *
                                      glm::lookAt(eye, eye + glm::vec3(0, -0.2f, -1), glm::vec3(0, 1, 0)));
  c.position = eye;
  c.lod_scale = 1.0f / (2.0f * std::tan(fov / 2.0f));
  return c;
}

std::size_t count(std::span<const std::uint8_t> mask) {
  std::size_t n = 0;
  for (std::uint8_t m : mask) n += m != 0 ? 1 : 0;
  return n;
}

TEST(AvatarUpdates, WithoutThrottlingEveryAvatarIsUpdated) {
  const anim::Avatar av = anim::make_avatar({});
  AvatarCrowd crowd(av, {.avatars = 50});
  const std::size_t palette_bytes = crowd.animator().palette_size() * sizeof(anim::Mat3x4);
  for (int f = 0; f < 3; ++f) {
    const CrowdFrameStats s = crowd.frame(camera_at({0, 2, 5}), 0.02f);
    EXPECT_EQ(count(crowd.updated()), 50u);
    EXPECT_EQ(s.skeletons_updated, 50u);
    EXPECT_EQ(s.palette_bytes_uploaded, 50 * palette_bytes);
  }
}

TEST(AvatarUpdates, ThrottledFramesNameExactlyTheChangedPalettes) {
  const anim::Avatar av = anim::make_avatar({});
  AvatarCrowd crowd(av, {.avatars = 400, .spacing = 3.0f, .throttle = true});
  const std::size_t ps = crowd.animator().palette_size();
  const CullCamera cam = camera_at({0, 2, 5});
  std::vector<anim::Mat3x4> before(crowd.palettes().begin(), crowd.palettes().end());
  for (int f = 0; f < 9; ++f) {
    SCOPED_TRACE(f);
    const CrowdFrameStats s = crowd.frame(cam, 0.02f);
    const std::size_t n = count(crowd.updated());
    if (f == 0) {
      EXPECT_EQ(n, 400u);  // no avatar had a palette yet
    } else {
      EXPECT_LT(n * 2, 400u);
    }
    EXPECT_EQ(s.skeletons_updated, n);
    EXPECT_EQ(s.matrices, n * ps);
    EXPECT_EQ(s.palette_bytes_uploaded, n * ps * sizeof(anim::Mat3x4));
    // Avatars not named kept their palettes to the bit.
    for (std::size_t a = 0; a < 400; ++a) {
      if (crowd.updated()[a] != 0) continue;
      ASSERT_EQ(
          std::memcmp(before.data() + a * ps, crowd.palettes().data() + a * ps, ps * sizeof(anim::Mat3x4)), 0)
          << "avatar " << a;
    }
    before.assign(crowd.palettes().begin(), crowd.palettes().end());
  }
}

}  // namespace
}  // namespace myriad::batch
