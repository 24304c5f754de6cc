// Avatars on the batch renderer: equal parts of all avatars share one draw (all right upper arms
// together), body and clothing never share a draw, B8 matrix ratios, throttling saves updates.
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/core/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace myriad::batch {
namespace {

CullCamera overview(glm::vec3 eye, glm::vec3 target) {
  CullCamera c;
  const float fov = glm::radians(60.0f);
  c.frustum = Frustum::from_view_proj(perspective(fov, 1.5f, 0.1f, 500.0f) *
                                      glm::lookAt(eye, target, glm::vec3(0, 1, 0)));
  c.position = eye;
  c.lod_scale = 1.0f / (2.0f * std::tan(fov / 2.0f));
  return c;
}

TEST(AvatarCrowd, OneDrawPerPartAcrossAvatars) {
  const anim::Avatar av = anim::make_avatar({.clothed = true});
  AvatarCrowd crowd(av, {.avatars = 64});
  // Camera far back over the 8x8 grid sees everyone.
  const CrowdFrameStats s = crowd.frame(overview({7, 30, 30}, {7, 0, -7}), 1.0f / 60.0f);
  EXPECT_EQ(s.visible_renderers, 64 * av.parts.size());
  EXPECT_EQ(s.draws_unbatched, 64 * av.parts.size());
  EXPECT_EQ(s.draws, av.parts.size());  // one instanced draw per part (mesh)
  for (const DrawCommand& d : crowd.draw_list().draws) {
    EXPECT_EQ(d.instance_count, 64u);
    EXPECT_EQ(d.type, av.parts[d.mesh].clothing ? crowd.clothing_type() : crowd.body_type());
    // Each instance's palette offset points at a distinct avatar's palette.
    std::vector<int> seen(64, 0);
    for (std::uint32_t j = d.first_instance; j < d.first_instance + d.instance_count; ++j) {
      const std::uint32_t off = crowd.scene().batch(d.type).palette_offset[crowd.draw_list().instances[j]];
      ASSERT_EQ(off % crowd.animator().palette_size(), 0u);
      ++seen[off / crowd.animator().palette_size()];
    }
    for (int v : seen) EXPECT_EQ(v, 1);
  }
  EXPECT_EQ(s.matrices, 64 * crowd.dedup().renderer_skeleton.joints.size());
}

TEST(AvatarCrowd, DedupMeetsTheB8Ratios) {
  for (bool clothed : {false, true}) {
    const anim::Avatar av = anim::make_avatar({.clothed = clothed});
    AvatarCrowd crowd(av, {.avatars = 10});
    const CrowdFrameStats s = crowd.frame(overview({0, 5, 20}, {0, 0, 0}), 0.01f);
    const double ratio = static_cast<double>(s.matrices_without_dedup) / static_cast<double>(s.matrices);
    EXPECT_GE(ratio, clothed ? 4.0 : 2.0) << (clothed ? "clothed" : "bare");
  }
}

TEST(AvatarCrowd, ThrottlingSkipsFarAvatars) {
  const anim::Avatar av = anim::make_avatar({});
  AvatarCrowdOptions o{.avatars = 400, .spacing = 3.0f};
  AvatarCrowd full(av, o);
  o.throttle = true;
  AvatarCrowd throttled(av, o);
  const CullCamera cam = overview({0, 2, 5}, {0, 0, -20});
  std::size_t a = 0, b = 0;
  for (int f = 0; f < 8; ++f) {
    a += full.frame(cam, 0.016f).matrices;
    b += throttled.frame(cam, 0.016f).matrices;
  }
  EXPECT_LT(b * 2, a);
  // Near avatars (distance < 15) still update every frame: avatar 0 is 5 m away.
  EXPECT_EQ(std::memcmp(full.palettes().data(), throttled.palettes().data(),
                        full.animator().palette_size() * sizeof(anim::Mat3x4)),
            0);
}

TEST(AvatarCrowd, ImportantAvatarsUpdateEveryFrame) {
  const anim::Avatar av = anim::make_avatar({});
  AvatarCrowdOptions o{.avatars = 400, .spacing = 3.0f, .throttle = true};
  o.importance.assign(400, 0.0f);
  o.importance[399] = 1.0f;  // the far corner of the grid, > 80 m away: would update every 8 frames
  AvatarCrowd crowd(av, o);
  const CullCamera cam = overview({0, 2, 5}, {0, 0, -20});
  const std::size_t ps = crowd.animator().palette_size();
  std::vector<anim::Mat3x4> last(crowd.palettes().begin() + 398 * ps, crowd.palettes().begin() + 400 * ps);
  int changed_important = 0, changed_far = 0;
  for (int f = 0; f < 8; ++f) {
    crowd.frame(cam, 0.016f);
    changed_far +=
        std::memcmp(last.data(), crowd.palettes().data() + 398 * ps, ps * sizeof(anim::Mat3x4)) != 0;
    changed_important +=
        std::memcmp(last.data() + ps, crowd.palettes().data() + 399 * ps, ps * sizeof(anim::Mat3x4)) != 0;
    std::copy(crowd.palettes().begin() + 398 * ps, crowd.palettes().begin() + 400 * ps, last.begin());
  }
  EXPECT_EQ(changed_important, 8);
  EXPECT_EQ(changed_far, 1);
  AvatarCrowdOptions bad = o;
  bad.importance.resize(3);
  EXPECT_THROW(AvatarCrowd(av, bad), Error);
}

}  // namespace
}  // namespace myriad::batch
