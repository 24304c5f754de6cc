// CPU coarse culling of 4x4-section chunks (V11) and the cull change tracker (V13).
#include <gtest/gtest.h>

#include <random>

#include "myriad/render/terrain/coarse_chunks.hpp"

namespace myriad::render {
namespace {

Aabb section_box(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  const glm::vec3 lo(float(x * 16), float(y * 16), float(z * 16));
  return {lo, lo + glm::vec3(16.0f)};
}

TEST(CoarseChunks, ReferenceWorldHasSixteenChunks) {
  CoarseChunks chunks(16, 4, 16);
  EXPECT_EQ(chunks.chunk_count(), 16u);
  EXPECT_EQ(chunks.chunk_of_section(0), 0u);
  EXPECT_EQ(chunks.chunk_of_section(15), 3u);                     // x = 15
  EXPECT_EQ(chunks.chunk_of_section(15 + 16 * 15), 15u);          // x = 15, z = 15
  EXPECT_EQ(chunks.chunk_of_section(5 + 16 * (6 + 16 * 3)), 5u);  // x = 5, z = 6, y = 3
}

TEST(CoarseChunks, VisibleArenasAreExactlyThoseOfVisibleChunks) {
  constexpr std::uint32_t kArenas = 9;
  CoarseChunks chunks(16, 4, 16);
  std::mt19937 rng(3);
  std::vector<std::uint32_t> arena_of(16 * 4 * 16, 0xffffffffu);
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t z = 0; z < 16; ++z)
      for (std::uint32_t x = 0; x < 16; ++x) {
        const std::uint32_t s = x + 16 * (z + 16 * y);
        arena_of[s] = rng() % 4 == 0 ? 0xffffffffu : std::uint32_t(rng() % kArenas);
        chunks.set_page(s, section_box(x, y, z), arena_of[s]);
      }
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int trial = 0; trial < 50; ++trial) {
    const glm::mat4 vp =
        perspective(glm::radians(30.0f + 50.0f * u(rng)), 1.5f, 0.5f, 40.0f + 200.0f * u(rng), true) *
        glm::lookAt(glm::vec3(u(rng) * 256, 10 + u(rng) * 60, u(rng) * 256),
                    glm::vec3(u(rng) * 256, 0, u(rng) * 256), kWorldUp);
    const Frustum f = Frustum::from_view_proj(vp, DepthConvention::kReverseZ);
    const float slice = trial % 2 ? 1e30f : 20.0f;
    std::vector<std::uint8_t> visible;
    const std::uint32_t tests = chunks.visible_arenas(f, slice, kArenas, visible);
    EXPECT_LE(tests, 16u);
    // Reference: an arena is needed iff some chunk containing one of its pages is visible.
    std::vector<std::uint8_t> expected(kArenas, 0);
    for (std::uint32_t c = 0; c < 16; ++c) {
      const Aabb& b = chunks.chunk_bounds(c);
      if (!b.valid() || b.min.y > slice || !f.intersects(b)) continue;
      for (std::uint32_t s = 0; s < arena_of.size(); ++s) {
        if (arena_of[s] != 0xffffffffu && chunks.chunk_of_section(s) == c) expected[arena_of[s]] = 1;
      }
    }
    EXPECT_EQ(visible, expected) << "trial " << trial;
    // Conservative: every page the frustum touches has its arena marked.
    for (std::uint32_t s = 0; s < arena_of.size(); ++s) {
      const std::uint32_t x = s % 16, z = (s / 16) % 16, y = s / 256;
      if (arena_of[s] == 0xffffffffu || section_box(x, y, z).min.y > slice) continue;
      if (f.intersects(section_box(x, y, z))) {
        EXPECT_EQ(visible[arena_of[s]], 1) << "section " << s;
      }
    }
  }
}

TEST(CoarseChunks, MovingAPageUpdatesArenasAndBounds) {
  CoarseChunks chunks(8, 1, 8);
  chunks.set_page(0, section_box(0, 0, 0), 2);
  std::vector<std::uint8_t> visible;
  const Frustum everything =
      Frustum::from_view_proj(glm::ortho(-1000.f, 1000.f, -1000.f, 1000.f, -1000.f, 1000.f));
  chunks.visible_arenas(everything, 1e30f, 4, visible);
  EXPECT_EQ(visible, (std::vector<std::uint8_t>{0, 0, 1, 0}));
  chunks.set_page(0, section_box(0, 0, 0), 3);
  chunks.visible_arenas(everything, 1e30f, 4, visible);
  EXPECT_EQ(visible, (std::vector<std::uint8_t>{0, 0, 0, 1}));
  chunks.set_page(0, section_box(0, 0, 0), 0xffffffffu);
  EXPECT_FALSE(chunks.chunk_bounds(0).valid());
  EXPECT_EQ(chunks.visible_arenas(everything, 1e30f, 4, visible), 0u);
}

TEST(CullTracker, CullsOnlyWhenCameraSliceOrPagesChange) {
  CullTracker tracker;
  CullInputs in{glm::mat4(2.0f), 10.0f, 1};
  EXPECT_TRUE(tracker.needs_cull(in));
  tracker.culled(in);
  EXPECT_FALSE(tracker.needs_cull(in));
  CullInputs moved = in;
  moved.view_proj[3][0] += 0.001f;
  EXPECT_TRUE(tracker.needs_cull(moved));
  CullInputs sliced = in;
  sliced.slice_height = 9.0f;
  EXPECT_TRUE(tracker.needs_cull(sliced));
  CullInputs edited = in;
  edited.page_set_version = 2;
  EXPECT_TRUE(tracker.needs_cull(edited));
  tracker.invalidate();
  EXPECT_TRUE(tracker.needs_cull(in));
}

}  // namespace
}  // namespace myriad::render
