// CullPages on the GPU equals the CPU reference for random cameras and slice heights: the same set of
// pages per draw group ("arena" below: a group is an arena's pages of one bucket), the same instance
// counts, draws sized by each group's bucket; and with a depth pyramid, its two-phase occlusion equals
// the CPU reference on the same pyramid.
#include <algorithm>
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/terrain/page_cull.hpp"
#include "occlusion_depth.hpp"

namespace myriad::test {
namespace {

using render::shader::DrawCommand;
using render::shader::DrawGroupGpu;
using render::shader::PageGpu;

class PageCullTest : public GpuTest {};

// A 256 x 64 x 256 world of 16^3 sections = 1024 page slots, some empty, spread over 7 arenas, on the
// GPU with everything a cull writes.
struct PageWorld {
  static constexpr std::uint32_t kArenas = 7;
  std::vector<PageGpu> pages;
  std::vector<std::uint32_t> per_arena = std::vector<std::uint32_t>(kArenas, 0);
  std::vector<DrawGroupGpu> arenas = std::vector<DrawGroupGpu>(kArenas);
  std::uint32_t list_size = 0;
  gpu::Buffer page_buf, arena_buf, draws, visible;
  std::vector<DrawCommand> initial;
  render::PageCuller culler;
  gpu::AppendOverflow overflow;
  render::TwoPhaseCull two_phase;

  explicit PageWorld(gpu::Context& ctx) : culler(ctx), overflow(ctx), two_phase(ctx) {
    std::mt19937 rng(5);
    for (std::uint32_t z = 0; z < 16; ++z) {
      for (std::uint32_t y = 0; y < 4; ++y) {
        for (std::uint32_t x = 0; x < 16; ++x) {
          PageGpu p{};
          p.aabb_min = glm::vec3(float(x * 16), float(y * 16), float(z * 16));
          // Pages are tight bounds of their geometry: often smaller than the section.
          p.aabb_max = p.aabb_min + glm::vec3(16.0f, float(1 + rng() % 16), 16.0f);
          p.group = (rng() % 5 == 0) ? 0xffffffffu : std::uint32_t(rng() % kArenas);
          p.index_count = 30 + std::uint32_t(rng() % 900);
          if (p.group != 0xffffffffu) ++per_arena[p.group];
          pages.push_back(p);
        }
      }
    }
    for (std::uint32_t a = 0; a < kArenas; ++a) {
      arenas[a] = {list_size, 96u << a};
      list_size += per_arena[a];
    }
    list_size = std::max(list_size, 1u);
    page_buf = gpu::Buffer(ctx, pages.size() * sizeof(PageGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                           gpu::MemoryKind::kDeviceLocal);
    arena_buf = gpu::Buffer(ctx, arenas.size() * sizeof(DrawGroupGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            gpu::MemoryKind::kDeviceLocal);
    draws = gpu::Buffer(ctx, kArenas * sizeof(DrawCommand),
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                        gpu::MemoryKind::kDeviceLocal);
    visible =
        gpu::Buffer(ctx, list_size * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
    gpu::upload(ctx, page_buf, std::span<const PageGpu>(pages));
    gpu::upload(ctx, arena_buf, std::span<const DrawGroupGpu>(arenas));
    render::initial_page_draws(arenas, initial);
  }

  // Culls for `view` in `phase`; per arena, the sorted page ids drawn (checking the draws' fixed words).
  std::vector<std::vector<std::uint32_t>> cull(gpu::Context& ctx, const render::FrameView& view,
                                               render::FramePhase phase = render::FramePhase::kSingle,
                                               const render::DepthPyramid* pyramid = nullptr) {
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      culler.record(cmd, view, page_buf, std::uint32_t(pages.size()), arena_buf, initial,
                    {draws, visible, overflow, two_phase}, phase, pyramid);
    });
    EXPECT_EQ(overflow.read(), 0u);
    const auto got_draws = gpu::read_buffer_as<DrawCommand>(ctx, draws, kArenas);
    const auto got_visible = gpu::read_buffer_as<std::uint32_t>(ctx, visible, list_size);
    std::vector<std::vector<std::uint32_t>> out(kArenas);
    for (std::uint32_t a = 0; a < kArenas; ++a) {
      EXPECT_EQ(got_draws[a].vertex_count, arenas[a].bucket_size);
      EXPECT_EQ(got_draws[a].first_instance, arenas[a].visible_base);
      EXPECT_EQ(got_draws[a].first_vertex, 0u);
      out[a].assign(got_visible.begin() + arenas[a].visible_base,
                    got_visible.begin() + arenas[a].visible_base + got_draws[a].instance_count);
      std::sort(out[a].begin(), out[a].end());
    }
    return out;
  }
};

render::FrameView page_view(glm::vec3 eye, glm::vec3 target, const glm::mat4& proj, float slice) {
  render::FrameView view =
      render::FrameView::of_matrices(glm::lookAt(eye, target, kWorldUp), proj, 640, 400, {0.0f, 1.0f, 0.0f});
  view.slice_height = slice;
  return view;
}

TEST_F(PageCullTest, MatchesCpuReferenceForRandomCamerasAndSlices) {
  PageWorld world(ctx());
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::size_t total_visible = 0, total_placed = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const glm::vec3 eye(u(rng) * 256.0f, 20.0f + u(rng) * 80.0f, u(rng) * 256.0f);
    const glm::vec3 target(u(rng) * 256.0f, u(rng) * 30.0f, u(rng) * 256.0f);
    const glm::mat4 proj =
        perspective(glm::radians(40.0f + 40.0f * u(rng)), 1.6f, 0.5f, 60.0f + 300.0f * u(rng), true);
    const float slice = trial % 3 == 0 ? 1e30f : 8.0f + 50.0f * u(rng);
    const render::FrameView view = page_view(eye, target, proj, slice);
    const auto expected = render::cull_pages_reference(world.pages, PageWorld::kArenas, view.frustum, slice);
    const auto got = world.cull(ctx(), view);
    for (std::uint32_t a = 0; a < PageWorld::kArenas; ++a) {
      EXPECT_EQ(got[a], expected[a]) << "arena " << a << " trial " << trial;
      total_visible += expected[a].size();
      total_placed += world.per_arena[a];
    }
  }
  // The cameras and slices exercise both outcomes.
  EXPECT_GT(total_visible, 0u);
  EXPECT_LT(total_visible, total_placed);
}

// A draw distance on the camera's infinite projection: CullPages drops the pages wholly beyond it, as the
// CPU reference does with the same frustum, and keeps every page a nearer one would.
TEST_F(PageCullTest, ADrawDistanceDropsThePagesBeyondIt) {
  PageWorld world(ctx());
  const glm::mat4 proj = perspective_infinite_reverse_z(glm::radians(60.0f), 1.6f, 0.5f);
  render::FrameView view = page_view({-20.0f, 40.0f, -20.0f}, {200.0f, 0.0f, 200.0f}, proj, 1e30f);
  auto count = [](const std::vector<std::vector<std::uint32_t>>& lists) {
    std::size_t n = 0;
    for (const auto& l : lists) n += l.size();
    return n;
  };
  const std::size_t unlimited = count(world.cull(ctx(), view));
  std::size_t last = 0;
  for (const float distance : {80.0f, 160.0f, 240.0f}) {
    view.limit_distance(distance);
    const auto expected = render::cull_pages_reference(world.pages, PageWorld::kArenas, view.frustum, 1e30f);
    const auto got = world.cull(ctx(), view);
    for (std::uint32_t a = 0; a < PageWorld::kArenas; ++a) EXPECT_EQ(got[a], expected[a]) << distance;
    // Every page kept lies (at least partly) within the distance along the view direction.
    for (const auto& list : got)
      for (const std::uint32_t id : list) {
        const PageGpu& p = world.pages[id];
        const glm::vec3 f = glm::normalize(view.forward);
        const glm::vec3 nearest(f.x >= 0.0f ? p.aabb_min.x : p.aabb_max.x,
                                f.y >= 0.0f ? p.aabb_min.y : p.aabb_max.y,
                                f.z >= 0.0f ? p.aabb_min.z : p.aabb_max.z);
        EXPECT_LE(glm::dot(nearest - view.eye, f), distance + 1e-3f) << id;
      }
    const std::size_t kept = count(got);
    EXPECT_GT(kept, last) << distance;  // a farther limit keeps more
    EXPECT_LT(kept, unlimited) << distance;
    last = kept;
  }
}

// Two-phase Hi-Z occlusion of pages: a camera low over the world looks across it past walls. The late
// pass keeps exactly what the CPU reference keeps with the same pyramid, counts what it hid, and the
// next frame's early pass draws those pages while its late pass adds none.
TEST_F(PageCullTest, OcclusionMatchesCpuReferenceAndFollowsTheTwoPhaseRule) {
  PageWorld world(ctx());
  const glm::mat4 proj = perspective(glm::radians(60.0f), 1.6f, 0.5f, 600.0f, true);
  const render::FrameView view = page_view({-20.0f, 30.0f, -20.0f}, {200.0f, 0.0f, 200.0f}, proj, 1e30f);
  OcclusionDepth depth(view.width, view.height);
  depth.wall(proj, {0.0f, 0.4f}, {0.6f, 1.0f}, 90.0f);
  depth.wall(proj, {0.55f, 0.2f}, {1.0f, 1.0f}, 180.0f);
  depth.wall(proj, {0.62f, 0.0f}, {0.66f, 1.0f}, 40.0f);
  const HizReference reference = depth.reference(view.view_proj);
  const auto pyramid = depth.gpu_pyramid(ctx());
  const auto frustum_only =
      render::cull_pages_reference(world.pages, PageWorld::kArenas, view.frustum, 1e30f);
  const auto expected =
      render::cull_pages_reference(world.pages, PageWorld::kArenas, view.frustum, 1e30f, &reference);
  std::size_t passed = 0, kept = 0;
  for (std::uint32_t a = 0; a < PageWorld::kArenas; ++a) {
    passed += frustum_only[a].size();
    kept += expected[a].size();
  }
  ASSERT_GT(kept, 20u);
  ASSERT_GT(passed - kept, 20u);

  const std::vector<std::vector<std::uint32_t>> none(PageWorld::kArenas);
  EXPECT_EQ(world.cull(ctx(), view, render::FramePhase::kEarly), none);
  EXPECT_EQ(world.cull(ctx(), view, render::FramePhase::kLate, pyramid.get()), expected);
  const render::shader::CullCounters counters = world.two_phase.read();
  EXPECT_EQ(counters.frustum_passed, passed);
  EXPECT_EQ(counters.occluded, passed - kept);
  EXPECT_EQ(world.cull(ctx(), view, render::FramePhase::kEarly), expected);
  EXPECT_EQ(world.cull(ctx(), view, render::FramePhase::kLate, pyramid.get()), none);
  RecordProperty("pages_passed", int(passed));
  RecordProperty("pages_occluded", int(passed - kept));
}

}  // namespace
}  // namespace myriad::test
