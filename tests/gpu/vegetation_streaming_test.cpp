// Vegetation culling while tiles stream in and out under a moving camera, with render-origin rebases,
// the GPU pools following the CPU pools page by page within a small upload budget per frame (pages
// reused, pools grown keeping their fixed-size buffers, tiles held back whole while their pages wait).
// Every frame: no buffer guard
// written (the fixture's buffer guards report an overrun as a validation message), no overflow, the
// GPU lists equal the CPU reference over the live segments, and no tile that was drawn goes missing
// while it stays resident.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include <unistd.h>

#include "gpu_fixture.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/vegetation/vegetation_pools.hpp"
#include "myriad/render/vegetation/vegetation_renderer.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/runtime/streaming.hpp"
#include "vegetation_cull_reference.hpp"

namespace myriad::test {
namespace {

namespace fs = std::filesystem;
using namespace myriad::vegetation;

class VegetationStreamingGpuTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    dir_ = fs::temp_directory_path() / ("myriad_veg_stream_gpu_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    BakeOptions o;
    o.seed = 23;
    o.world_min = {0.0, 0.0};
    o.world_max = {kWorld, kWorld};
    o.tile_size = 100.0f;
    o.terrain.amplitude = 25.0f;
    for (PlantType& t : o.types) t.spacing *= 2.0f;
    (void)bake_to_directory(o, dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    GpuTest::TearDown();
  }

  static constexpr double kWorld = 1000.0;
  fs::path dir_;
};

// With a worker (GetParam()): pools about to grow have their next buffers made on the streamer's worker
// and the pools a growth replaced are freed there; the lists must be the same either way.
class VegetationStreamingWalk : public VegetationStreamingGpuTest,
                                public ::testing::WithParamInterface<bool> {};

TEST_P(VegetationStreamingWalk, WithBudgetedPagesAndRebasesStaysInBoundsAndMatchesTheCpu) {
  const bool workers = GetParam();
  StreamingOptions so;
  so.directory = dir_;
  so.tile_size = 100.0f;
  so.load_radius = 220.0f;
  so.hysteresis = 40.0f;
  so.copy_budget_bytes = 96u << 10;  // arrivals spread over several frames: partial groups
  so.worker_threads = 1;
  so.rebase_distance = 150.0;
  so.render_origin = {kWorld / 2, 0.0, kWorld / 2};
  TileStreamer streamer(so);

  render::VegetationCull cull(ctx());
  const PlantArt art = render::default_plant_art();
  const render::VegetationRenderer renderer(ctx(), art.meshes, render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat, art.textures);
  // A small page budget: arrivals' pages land over several frames, tiles wait whole meanwhile.
  constexpr std::uint64_t kBudget = 48u << 10;
  render::VegetationPools pools(ctx(), cull, renderer,
                                {0.2f, 0.1f, kBudget, workers ? streamer.workers() : nullptr});

  // Start with the tiles around the first position resident and on the GPU.
  for (int i = 0; i < 2000 && (i == 0 || !streamer.idle()); ++i) {
    (void)streamer.update({kWorld / 2, 20.0, kWorld / 2});
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  pools.settle(streamer);
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  glm::dvec3 eye{kWorld / 2, 20.0, kWorld / 2};
  std::size_t rebases = 0, waiting_frames = 0, grown = 0, visible = 0, staged_pages = 0, followed = 0,
              rebuilt = 0, regrown = 0, grown_ahead = 0;
  std::set<TileKey> live_before;
  constexpr int kFrames = 90;
  for (int frame = 0; frame < kFrames; ++frame) {
    // A walk with occasional jumps across the world; the camera looks somewhere nearby.
    if (unit(rng) < 0.1) {
      eye = {unit(rng) * kWorld, 5.0 + 40.0 * unit(rng), unit(rng) * kWorld};
    } else {
      const double a = unit(rng) * 6.2831853;
      eye += glm::dvec3(std::cos(a), 0.0, std::sin(a)) * (10.0 + 50.0 * unit(rng));
      eye = glm::clamp(eye, glm::dvec3(0.0, 2.0, 0.0), glm::dvec3(kWorld, 60.0, kWorld));
    }
    const glm::dvec3 target = eye + glm::dvec3(unit(rng) * 200.0 - 100.0, -eye.y, unit(rng) * 200.0 - 100.0);

    // Tile reads finish on the worker threads while a real frame would render.
    std::this_thread::sleep_for(std::chrono::milliseconds(4));
    const StreamingFrame f = streamer.update(eye);
    rebases += f.rebased;
    ASSERT_TRUE(streamer.failures().empty()) << streamer.failures().front().message;
    (void)ctx().staging_ring().begin_frame();
    // A pool that grows keeps its fixed-size buffers (params, args, Hi-Z, counters) and replaces the rest.
    std::vector<std::array<VkBuffer, 5>> handles_before;
    for (std::size_t t = 0; t < streamer.world().types().size(); ++t) {
      const render::VegetationGpuType* g = pools.pool(t);
      handles_before.push_back(g ? std::array{g->records.handle(), g->params.handle(), g->args.handle(),
                                              g->hiz.handle(), g->counters.handle()}
                                 : std::array<VkBuffer, 5>{});
    }
    const render::VegetationPoolsFrame pf = pools.update(streamer);
    for (std::size_t t = 0; t < handles_before.size(); ++t) {
      const render::VegetationGpuType* g = pools.pool(t);
      if (!g || handles_before[t][0] == VK_NULL_HANDLE || g->records.handle() == handles_before[t][0])
        continue;
      ++regrown;
      EXPECT_EQ(g->params.handle(), handles_before[t][1]) << "frame " << frame << " type " << t;
      EXPECT_EQ(g->args.handle(), handles_before[t][2]) << "frame " << frame << " type " << t;
      EXPECT_EQ(g->hiz.handle(), handles_before[t][3]) << "frame " << frame << " type " << t;
      EXPECT_EQ(g->counters.handle(), handles_before[t][4]) << "frame " << frame << " type " << t;
    }
    EXPECT_LE(pf.staged_bytes - pf.tables_staged * sizeof(PlantPage), kBudget) << "frame " << frame;
    waiting_frames += pf.tiles_waiting > 0;
    grown += pf.pools_grown;
    grown_ahead += pf.pools_grown_ahead;
    staged_pages += pf.pages_staged;
    followed += pf.live_followed;
    rebuilt += pf.live_rebuilt;
    // Only resident tiles are drawn (a tile that left is gone from the drawn set the frame it leaves).
    for (const TileKey k : streamer.available()) {
      if (pools.live(k)) {
        EXPECT_TRUE(streamer.resident(k)) << "frame " << frame << " tile " << k.x << "," << k.z;
      }
    }
    // A tile drawn last frame and still resident is drawn this frame (rebases included): nothing
    // that was on screen goes missing while pages of other tiles wait.
    for (const TileKey k : live_before) {
      if (streamer.resident(k)) {
        EXPECT_TRUE(pools.live(k)) << "frame " << frame << " tile " << k.x << "," << k.z;
      }
    }
    live_before.clear();
    for (const TileKey k : streamer.resident_tiles())
      if (pools.live(k)) live_before.insert(k);
    // Each pool culls the world's segments of the tiles it draws, in the world's order, as they are now:
    // the live segments are merged with last frame's, and nothing kept may be stale (a rebase moves
    // every segment's bounds).
    for (std::size_t t = 0; t < streamer.world().types().size(); ++t) {
      const render::VegetationGpuType* g = pools.pool(t);
      if (!g) continue;
      std::vector<const RuntimeWorld::Segment*> drawn;
      for (const RuntimeWorld::Segment& s : streamer.world().types()[t].segments)
        if (pools.live(s.tile)) drawn.push_back(&s);
      ASSERT_EQ(g->segments.size(), drawn.size()) << "frame " << frame << " type " << t;
      for (std::size_t i = 0; i < drawn.size(); ++i) {
        const RuntimeWorld::Segment &got = g->segments[i], &want = *drawn[i];
        ASSERT_TRUE(got.id == want.id && got.tile == want.tile && got.group == want.group &&
                    got.group_first == want.group_first && got.count == want.count &&
                    got.pages == want.pages && got.bounds.min == want.bounds.min &&
                    got.bounds.max == want.bounds.max && got.max_scale == want.max_scale)
            << "frame " << frame << " type " << t << " segment " << i;
      }
    }

    // The pass works relative to the render origin the page tables were written for (this frame's).
    const glm::vec3 cam(eye - streamer.world().render_origin());
    const glm::vec3 look(target - streamer.world().render_origin());
    const Frustum frustum =
        Frustum::from_view_proj(perspective(1.0f, 1.5f, 0.1f, 600.0f) * glm::lookAt(cam, look, kWorldUp));
    // Most frames cull in two phases as the scene does (early: last frame's visible; late: the rest,
    // writing the per-instance visibility words), some in one pass. Without a pyramid both phases
    // together list exactly the reference set, each instance once. The pages land in the same
    // submission as the first phase.
    const bool two_phase = frame % 3 != 0;
    for (std::size_t t = 0; t < streamer.world().types().size(); ++t) {
      const render::VegetationGpuType* g = pools.pool(t);
      if (!g) continue;
      VegetationLists got;
      for (const render::VegetationPass pass :
           {render::VegetationPass::kEarly, render::VegetationPass::kLate}) {
        const render::VegetationPass p = two_phase ? pass : render::VegetationPass::kSingle;
        ctx().submit_and_wait([&](VkCommandBuffer cmd) {
          if (t == 0 && pass == render::VegetationPass::kEarly) pools.upload(cmd);
          (void)cull.record(cmd, frustum, cam, *g, nullptr, p);
        });
        ASSERT_EQ(ctx().validation_message_count(), 0u) << "frame " << frame << ":\n" << joined_messages();
        std::uint32_t overflow = 0;
        const VegetationLists phase = read_vegetation_lists(ctx(), *g, &overflow);
        ASSERT_EQ(overflow, 0u) << "frame " << frame;
        for (std::uint32_t l = 0; l < kGpuMaxLods; ++l)
          got[l].insert(got[l].end(), phase[l].begin(), phase[l].end());
        if (!two_phase) break;
      }
      // The CPU pools as they are now, over the segments the GPU culls (the live ones).
      const VegetationLists expected =
          expected_vegetation_lists(streamer.world().types()[t], *g, frustum, cam);
      for (std::uint32_t l = 0; l < kGpuMaxLods; ++l) {
        std::sort(got[l].begin(), got[l].end());
        ASSERT_EQ(got[l], expected[l]) << "frame " << frame << " type " << t << " lod " << l;
        visible += got[l].size();
      }
    }
  }
  std::printf(
      "walk: %d frames, %zu pages staged, %zu frames with tiles waiting, %zu pools grown (%zu into buffers "
      "made ahead), %zu rebases, %zu plants listed, drawn segments rebuilt in %zu frames and followed from "
      "the last build in %zu\n",
      kFrames, staged_pages, waiting_frames, grown, grown_ahead, rebases, visible, rebuilt, followed);
  // The walk did what it is for: pages spread over frames with tiles held back, pools grown, rebases.
  EXPECT_GT(waiting_frames, 5u);
  EXPECT_GT(grown, 0u);
  EXPECT_EQ(regrown, grown);  // every growth replaced the pool's records (and kept its fixed buffers)
  if (workers)
    EXPECT_GT(grown_ahead, 0u);  // growths into buffers made ahead, checked above like the others
  else
    EXPECT_EQ(grown_ahead, 0u);
  EXPECT_GT(rebases, 0u);
  EXPECT_GT(visible, 1000u);
  EXPECT_GT(followed, 0u);  // segments followed from the last build, checked above
  EXPECT_GT(rebuilt, 0u);   // and rebuilt from the world (the rebases)
}

INSTANTIATE_TEST_SUITE_P(FrameThreadOrWorker, VegetationStreamingWalk, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? "GrowthOnAWorker" : "GrowthOnTheFrameThread";
                         });

// The harness itself: a buffer written past its end is reported (as a validation message naming
// where the buffer was made), and one written only inside its size is not.
TEST_F(VegetationStreamingGpuTest, BufferGuardsReportAWritePastTheEnd) {
  ASSERT_NE(ctx().buffer_guards(), nullptr) << "GPU tests run with buffer guards on";
  gpu::Buffer inside(ctx(), 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer past(ctx(), 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, inside.handle(), 0, 64, 7u); });
  EXPECT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
  // A copy that runs 8 bytes past the end: legal for Vulkan (the allocation is larger), a bug for us.
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, past.handle(), 32, 40, 9u); });
  ASSERT_EQ(ctx().validation_message_count(), 1u);
  const std::string message = ctx().validation_messages().front();
  EXPECT_NE(message.find("buffer guard"), std::string::npos) << message;
  EXPECT_NE(message.find("vegetation_streaming_test.cpp"), std::string::npos) << message;
  EXPECT_NE(message.find("(byte 64)"), std::string::npos) << message;
  // Reported once, not again on every later submission.
  ctx().submit_and_wait([](VkCommandBuffer) {});
  EXPECT_EQ(ctx().validation_message_count(), 1u);
  ctx().reset_validation_messages();
}

}  // namespace
}  // namespace myriad::test
