// Vegetation culling while tiles stream in and out under a moving camera, with render-origin rebases
// and GPU copies refreshed only every few frames (as the default scene does). Between two refreshes
// the CPU types keep changing (new segments past the uploaded arrays, removed tiles, re-expanded
// positions); the pass must keep culling exactly the arrays it was given. Every frame: no buffer guard
// written (the fixture's buffer guards report an overrun as a validation message), no overflow, and
// the GPU lists equal the CPU reference computed on the uploaded snapshot.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include <unistd.h>

#include "gpu_fixture.hpp"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/vegetation/baker.hpp"
#include "myriad/vegetation/streaming.hpp"
#include "vegetation_cull_reference.hpp"

namespace myriad::test {
namespace {

namespace fs = std::filesystem;
using namespace myriad::vegetation;

// One uploaded type with the CPU copy it was uploaded from.
struct Uploaded {
  RuntimeWorld::Type snapshot;
  render::VegetationGpuType gpu;
};

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

TEST_F(VegetationStreamingGpuTest, RandomWalkWithStaleCopiesAndRebasesStaysInBoundsAndMatchesTheCpu) {
  StreamingOptions so;
  so.directory = dir_;
  so.tile_size = 100.0f;
  so.load_radius = 220.0f;
  so.hysteresis = 40.0f;
  so.upload_budget_bytes = 96u << 10;  // arrivals spread over several frames: partial groups
  so.worker_threads = 1;
  so.rebase_distance = 150.0;
  so.render_origin = {kWorld / 2, 0.0, kWorld / 2};
  TileStreamer streamer(so);

  render::VegetationCull cull(ctx());
  const std::array<render::MeshRange, 4> meshes{{{36, 0, 0}, {24, 36, 100}, {12, 60, 200}, {6, 72, 300}}};
  std::vector<Uploaded> uploaded;
  auto refresh = [&] {
    uploaded.clear();
    for (const RuntimeWorld::Type& type : streamer.world().types()) {
      if (type.instances.empty()) continue;
      render::VegetationGpuType g = cull.upload(type, meshes, 0.2f, 0.1f);
      g.origin = streamer.world().render_origin();
      uploaded.push_back({type, std::move(g)});
    }
  };

  // Start with the tiles around the first position resident.
  for (int i = 0; i < 2000 && (i == 0 || !streamer.idle()); ++i) {
    (void)streamer.update({kWorld / 2, 20.0, kWorld / 2});
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  glm::dvec3 eye{kWorld / 2, 20.0, kWorld / 2};
  std::uint32_t stale_left = 0;
  std::size_t rebases = 0, refreshes = 0, stale_frames = 0, grown_past_copy = 0, visible = 0;
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
    // GPU copies are refreshed after a random number of frames (0-4), so most frames cull stale copies.
    if (stale_left == 0 || uploaded.empty()) {
      refresh();
      ++refreshes;
      stale_left = std::uint32_t(rng() % 5);
    } else {
      --stale_left;
      ++stale_frames;
      for (const Uploaded& u : uploaded)
        for (const RuntimeWorld::Type& live : streamer.world().types())
          if (live.prefab.type_id == u.snapshot.prefab.type_id && live.instances.size() > u.gpu.capacity)
            ++grown_past_copy;
    }

    for (const Uploaded& u : uploaded) {
      // The pass works in the frame of the copy's render origin, which a rebase may since have moved.
      const glm::vec3 cam(eye - u.gpu.origin);
      const glm::vec3 look(target - u.gpu.origin);
      const Frustum frustum =
          Frustum::from_view_proj(perspective(1.0f, 1.5f, 0.1f, 600.0f) * glm::lookAt(cam, look, kWorldUp));
      // Most frames cull in two phases as the scene does (early: last frame's visible; late: the rest,
      // writing the per-instance visibility words), some in one pass. Without a pyramid both phases
      // together list exactly the reference set, each instance once.
      const bool two_phase = frame % 3 != 0;
      VegetationLists got;
      for (const render::VegetationPass pass :
           {render::VegetationPass::kEarly, render::VegetationPass::kLate}) {
        const render::VegetationPass p = two_phase ? pass : render::VegetationPass::kSingle;
        ctx().submit_and_wait(
            [&](VkCommandBuffer cmd) { (void)cull.record(cmd, frustum, cam, u.gpu, nullptr, p); });
        ASSERT_EQ(ctx().validation_message_count(), 0u) << "frame " << frame << ":\n" << joined_messages();
        std::uint32_t overflow = 0;
        const VegetationLists phase = read_vegetation_lists(ctx(), u.gpu, &overflow);
        ASSERT_EQ(overflow, 0u) << "frame " << frame;
        for (std::uint32_t l = 0; l < kGpuMaxLods; ++l)
          got[l].insert(got[l].end(), phase[l].begin(), phase[l].end());
        if (!two_phase) break;
      }
      const VegetationLists expected = expected_vegetation_lists(u.snapshot, u.gpu.lod, frustum, cam);
      for (std::uint32_t l = 0; l < kGpuMaxLods; ++l) {
        std::sort(got[l].begin(), got[l].end());
        ASSERT_EQ(got[l], expected[l])
            << "frame " << frame << " type " << u.snapshot.prefab.type_id << " lod " << l;
        visible += got[l].size();
      }
    }
  }
  std::printf(
      "walk: %d frames, %zu refreshes, %zu stale frames (%zu with a type grown past its copy), %zu rebases, "
      "%zu plants listed\n",
      kFrames, refreshes, stale_frames, grown_past_copy, rebases, visible);
  // The walk did what it is for: stale copies while the CPU types outgrew them, rebases, plants seen.
  EXPECT_GT(stale_frames, std::size_t(kFrames / 3));
  EXPECT_GT(grown_past_copy, 0u);
  EXPECT_GT(rebases, 0u);
  EXPECT_GT(refreshes, 5u);
  EXPECT_GT(visible, 1000u);
}

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
