// The default scene end to end (lavapipe, validation on): every preset shows the systems it is framed
// for (coverage from the depth-based ID/mask pass, every drawn pixel owned by exactly one system), the
// frame's statistics agree with the systems' CPU references (read from copies the frame made, without a
// submission of their own), and a soak run with a moving camera,
// streaming and voxel edits keeps CPU and GPU memory flat. MYRIAD_SOAK_FRAMES sets the soak length
// (CI: a few hundred frames; on demand: thousands).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <map>
#include <numbers>
#include <vector>
#include <string>

#include <unistd.h>

#include "gpu_fixture.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/crowd_bake/enemy/enemy_roster.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/world/world_coverage.hpp"
#include "myriad/render/world/world_scene.hpp"
#include "error_where.hpp"

namespace myriad::render {
namespace {

namespace fs = std::filesystem;

class WorldSceneTest : public test::GpuTest {
 protected:
  // A smaller field and fewer avatars than the default keep the test quick; the crowd keeps its 3,000.
  WorldSceneOptions small_options() const {
    WorldSceneOptions o;
    o.vegetation_size = 1024.0f;
    o.avatars = 25;
    o.shadow_map_size = 1024;
    o.cache_dir = fs::temp_directory_path() / ("myriad_world_test_" + std::to_string(::getpid()));
    return o;
  }
  void TearDown() override {
    fs::remove_all(small_options().cache_dir);
    test::GpuTest::TearDown();
  }
};

// The built-in enemy types, baked once per test process (the scene takes baked types, as from files).
std::vector<crowd::CrowdFile> enemy_types() {
  static const std::vector<crowd::CrowdFile> types = crowd::bake_builtin_enemy_types();
  return types;
}

std::uint32_t system_index(WorldSystem bit) {
  std::uint32_t i = 0;
  while ((1u << i) != bit) ++i;
  return i;
}

TEST_F(WorldSceneTest, PresetsShowTheirSystemsAndStatsMatchTheReferences) {
  WorldScene scene(ctx(), small_options(), enemy_types());
  OffscreenTarget target(ctx(), 256, 144);
  const FrameOptions settings;
  // What each preset is framed to show (a few pixels of others may appear too).
  const std::map<std::string, std::uint32_t> expected{
      {"overview", kSystemTerrain | kSystemVegetation | kSystemCrowd | kSystemGround},
      {"ground", kSystemTerrain | kSystemVegetation | kSystemAvatars | kSystemGround},
      {"crowd_close_up", kSystemCrowd | kSystemGround | kSystemTerrain},
      {"sliced", kSystemTerrain | kSystemGround},
      {"avatars_close_up", kSystemAvatars | kSystemGround},
      {"meadow", kSystemVegetation | kSystemGround}};
  for (const auto& [name, camera] : world_camera_presets()) {
    SCOPED_TRACE(name);
    scene.settle(camera);
    scene.update(0.0, camera, target.width(), target.height(), settings);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    // The frame copied its statistics into host memory: reading them submits nothing.
    const std::uint64_t submits = ctx().submit_count();
    scene.finish_frame();
    EXPECT_EQ(ctx().submit_count(), submits);
    const WorldFrameStats stats = scene.frame_stats();
    const WorldCoverage c = measure_world_coverage(ctx(), scene, camera, settings, target);
    EXPECT_EQ(c.unassigned, 0u);
    EXPECT_GT(c.sky, 0u);
    for (std::uint32_t bit = 1; bit <= kSystemGround; bit <<= 1) {
      if (expected.at(name) & bit) {
        EXPECT_GT(c.pixels[system_index(WorldSystem(bit))], 20u)
            << world_system_name(system_index(WorldSystem(bit)));
      }
    }
    // Crowd: what passed the GPU's frustum and LOD tests is the CPU reference's visible set; occlusion
    // only removes from it, and what was drawn covers everything it did not hide.
    const crowd::CrowdCullResult ref = scene.crowd_reference(camera, target.width(), target.height());
    const SystemFrameStats& crowd = stats.systems[system_index(kSystemCrowd)];
    EXPECT_EQ(crowd.objects - crowd.frustum_culled, ref.visible);
    EXPECT_LE(crowd.visible, ref.visible);
    EXPECT_GE(crowd.visible + crowd.occlusion_culled, ref.visible);
    EXPECT_EQ(crowd.objects, 3000u);
    EXPECT_EQ(crowd.visible == 0, crowd.triangles == 0);
    // Every system's visible count stays within its candidates; drawn systems issued draws.
    for (std::uint32_t i = 0; i < kWorldSystemCount; ++i) {
      EXPECT_LE(stats.systems[i].visible, stats.systems[i].objects) << world_system_name(i);
      if (c.pixels[i] > 0) {
        EXPECT_GT(stats.systems[i].draws, 0u) << world_system_name(i);
      }
    }
  }
  EXPECT_GE(scene.frame_stats().vegetation_planted, 100000u);
}

// A world worth looking at: in the ground preset the lowest fifth of the image (the ground at the
// viewer's feet) is textured and shaded, not one flat colour (luminance standard deviation >= 0.03), and
// the sky is a gradient: its top row and its lowest row above the horizon differ. Flat shading (the look
// before the model) keeps a one-colour ground and sky.
TEST_F(WorldSceneTest, TheGroundIsTexturedAndTheSkyIsAGradient) {
  WorldScene scene(ctx(), small_options(), enemy_types());
  OffscreenTarget target(ctx(), 480, 270);
  std::map<std::string, SceneCamera> presets;
  for (const auto& [name, camera] : world_camera_presets()) presets[name] = camera;
  const SceneCamera& camera = presets.at("ground");
  scene.settle(camera);
  for (const Shading shading : {Shading::kFull, Shading::kFlat}) {
    SCOPED_TRACE(shading == Shading::kFull ? "full" : "flat");
    FrameOptions settings;
    settings.shading = shading;
    scene.update(0.0, camera, target.width(), target.height(), settings);
    // The ground alone first: its own texture and shading, without the plants standing on it.
    scene.set_system_mask(kSystemGround);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    const std::vector<std::uint8_t> ground = target.read_color();
    scene.set_system_mask(kAllSystems);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    const std::vector<std::uint8_t> rgba = target.read_color();
    const std::vector<float> depth = target.read_depth();
    const std::uint32_t w = target.width(), h = target.height();
    // Luminance standard deviation of the image's lowest fifth.
    const auto lowest_fifth_std = [&](const std::vector<std::uint8_t>& image) {
      double sum = 0.0, sum_sq = 0.0;
      std::size_t n = 0;
      for (std::size_t p = std::size_t(h - h / 5) * w; p < std::size_t(w) * h; ++p, ++n) {
        const double l =
            (0.2126 * image[4 * p] + 0.7152 * image[4 * p + 1] + 0.0722 * image[4 * p + 2]) / 255.0;
        sum += l;
        sum_sq += l * l;
      }
      const double mean = sum / double(n);
      return std::sqrt(std::max(sum_sq / double(n) - mean * mean, 0.0));
    };
    if (shading == Shading::kFull) {
      EXPECT_GE(lowest_fifth_std(ground), 0.03) << "the ground alone is a flat colour";
      EXPECT_GE(lowest_fifth_std(rgba), 0.03) << "the ground view's foot is a flat colour";
    } else {
      EXPECT_LT(lowest_fifth_std(ground), 0.03) << "flat shading's ground is its one colour, lit";
    }
    // The sky in the middle column: its top pixel and its lowest pixel (nothing drawn: depth 0).
    const std::uint32_t x = w / 2;
    ASSERT_EQ(depth[x], 0.0f) << "the top of the ground view is sky";
    std::uint32_t lowest = 0;
    while (lowest + 1 < h && depth[std::size_t(lowest + 1) * w + x] == 0.0f) ++lowest;
    ASSERT_GT(lowest, h / 4);
    int difference = 0;
    for (int k = 0; k < 3; ++k)
      difference += std::abs(int(rgba[4 * x + std::size_t(k)]) -
                             int(rgba[4 * (std::size_t(lowest) * w + x) + std::size_t(k)]));
    if (shading == Shading::kFull) {
      EXPECT_GT(difference, 30) << "the sky is one colour from the zenith to the horizon";
    } else {
      EXPECT_EQ(difference, 0) << "flat shading's sky is one colour";
    }
  }
}

// Two-phase Hi-Z occlusion loses nothing visible: every preset's depth image (two frames, so phase 1
// starts from the last frame's visibility) equals the one drawn without occlusion, texel for texel.
// In the ground preset the cliff hides a measurable share of what passed the frustum tests.
// Item 7 of the vegetation issue: one ground under everything. The voxel world's footprint is levelled
// into it (just outside each edge the ground is at that edge's column top, never above it), the walking
// crowd keeps its feet on it frame after frame, the plants stand on it and every preset's eye is above it.
TEST_F(WorldSceneTest, TheGroundMeetsTheVoxelWorldAndCarriesTheCrowd) {
  WorldScene scene(ctx(), small_options(), enemy_types());
  const vegetation::Heightfield& ground = scene.ground();
  ASSERT_FALSE(ground.pads.empty());
  const vegetation::GroundPad& block = ground.pads[0];
  ASSERT_EQ(block.columns, glm::uvec2(256, 256));
  for (std::uint32_t i = 0; i < 256; i += 5) {
    const double c = double(i) + 0.5;
    const float south = block.tops[i], north = block.tops[255u * 256u + i];
    const float west = block.tops[std::size_t(i) * 256u], east = block.tops[std::size_t(i) * 256u + 255u];
    EXPECT_NEAR(ground.height(c, -0.01), south, 0.05f);
    EXPECT_NEAR(ground.height(c, 256.01), north, 0.05f);
    EXPECT_NEAR(ground.height(-0.01, c), west, 0.05f);
    EXPECT_NEAR(ground.height(256.01, c), east, 0.05f);
  }
  const SceneCamera camera = world_camera_presets().front().second;
  FrameOptions settings;
  OffscreenTarget target(ctx(), 128, 72);
  scene.settle(camera);
  for (int f = 0; f < 3; ++f) {
    scene.update(0.5, camera, target.width(), target.height(), settings);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    for (const crowd::CrowdEntity& e : scene.crowd_entities())
      ASSERT_EQ(e.position.y, ground.height(double(e.position.x), double(e.position.z)));
  }
  ASSERT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
  EXPECT_GT(scene.frame_stats().systems[system_index(kSystemGround)].draws, 1u);  // tiles, not one plane
  for (const auto& [name, c] : world_camera_presets())
    EXPECT_GT(c.eye.y, ground.height(double(c.eye.x), double(c.eye.z)) + 1.0f) << name;
}

// Time moves what moves and nothing else: each system drawn alone before and after 0.8 simulated
// seconds — the walking, animating crowd, the avatars, the swaying voxel grass and trees and the
// swaying plant field change pixels; the voxel terrain and the ground give the same bytes.
TEST_F(WorldSceneTest, TimeMovesTheMovingSystemsOnly) {
  WorldScene scene(ctx(), small_options(), enemy_types());
  OffscreenTarget target(ctx(), 192, 108);
  std::map<std::string, SceneCamera> presets;
  for (const auto& [name, camera] : world_camera_presets()) presets[name] = camera;
  struct Shot {
    std::uint32_t system;
    std::string preset;
    bool moves;
  };
  const std::vector<Shot> shots{{kSystemCrowd, "crowd_close_up", true},   {kSystemAvatars, "ground", true},
                                {kSystemVoxelVegetation, "sliced", true}, {kSystemTerrain, "overview", false},
                                {kSystemVegetation, "ground", true},      {kSystemGround, "overview", false}};
  const FrameOptions settings;
  const auto image = [&](const Shot& shot) {
    const SceneCamera& camera = presets.at(shot.preset);
    scene.set_system_mask(shot.system);
    scene.settle(camera);
    scene.update(0.0, camera, target.width(), target.height(), settings);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    return target.read_color();
  };
  std::vector<std::vector<std::uint8_t>> before;
  for (const Shot& shot : shots) before.push_back(image(shot));
  for (int i = 0; i < 24; ++i)
    scene.update(1.0 / 30.0, presets.at("overview"), target.width(), target.height(), settings);
  for (std::size_t i = 0; i < shots.size(); ++i) {
    SCOPED_TRACE(world_system_name(system_index(WorldSystem(shots[i].system))));
    const std::vector<std::uint8_t> after = image(shots[i]);
    std::size_t changed = 0, drawn = 0;
    for (std::size_t p = 0; p + 3 < after.size(); p += 4) {
      changed += std::memcmp(&before[i][p], &after[p], 4) != 0;
      drawn += std::memcmp(&after[p], &after[0], 4) != 0;  // not the corner's sky
    }
    EXPECT_GT(drawn, 50u) << "the system is not in view";
    if (shots[i].moves) {
      EXPECT_GT(changed, 5u);  // static systems change none at all
    } else {
      EXPECT_EQ(changed, 0u);
    }
  }
  ASSERT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
}

TEST_F(WorldSceneTest, OcclusionKeepsEveryVisibleDepthAndHidesBehindTheCliff) {
  WorldScene scene(ctx(), small_options(), enemy_types());
  OffscreenTarget target(ctx(), 256, 144);
  for (const auto& [name, camera] : world_camera_presets()) {
    SCOPED_TRACE(name);
    scene.settle(camera);
    auto frame = [&](bool occlusion) {
      FrameOptions settings;
      settings.paused = true;  // the same instant for both
      settings.occlusion = occlusion;
      scene.update(0.0, camera, target.width(), target.height(), settings);
      ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
      scene.finish_frame();
      return target.read_depth();
    };
    const std::vector<float> reference = frame(false);
    (void)frame(true);
    const std::vector<float> culled = frame(true);
    ASSERT_EQ(culled.size(), reference.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < culled.size(); ++i) differing += culled[i] != reference[i];
    EXPECT_EQ(differing, 0u);
    std::uint64_t occluded = 0;
    for (const SystemFrameStats& s : scene.frame_stats().systems) occluded += s.occlusion_culled;
    RecordProperty(name + "_occluded", int(occluded));
    if (name == "ground") {
      const SystemFrameStats& terrain = scene.frame_stats().systems[system_index(kSystemTerrain)];
      const SystemFrameStats& veg = scene.frame_stats().systems[system_index(kSystemVegetation)];
      EXPECT_GT(terrain.occlusion_culled + veg.occlusion_culled, 0u);
      EXPECT_GT(occluded, 0u);
    }
  }
}

// Resident set size of this process in bytes.
std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * std::uint64_t(::sysconf(_SC_PAGESIZE));
}

TEST_F(WorldSceneTest, SoakWithMovingCameraStreamingAndEditsKeepsMemoryFlat) {
  const char* env = std::getenv("MYRIAD_SOAK_FRAMES");
  const int frames = std::max(env ? std::atoi(env) : 120, 60);
  WorldSceneOptions options = small_options();
  options.crowd_entities = 400;
  options.vegetation_load_radius = 300.0f;  // the 420 m circle then streams tiles in and out
  WorldScene scene(ctx(), options, enemy_types());
  scene.set_edit_interval(7);
  OffscreenTarget target(ctx(), 96, 64);
  FrameOptions settings;
  // Three laps of a 420 m circle around the voxel world: tiles stream in and out every lap. Each lap
  // ends at the same place with the same tiles resident, where the scene's own GPU and CPU memory must
  // equal the first lap's, and the process's resident set must stop growing after the first lap.
  constexpr int kLaps = 3;
  const int lap = frames / kLaps;
  const SceneCamera lap_end = SceneCamera::look_at({548.0f, 30.0f, 128.0f}, {128.0f, 10.0f, 128.0f});
  std::vector<std::uint64_t> rss, gpu, cpu;
  std::uint64_t max_staged = 0;
  for (int f = 0; f < kLaps * lap; ++f) {
    const float a = 2.0f * std::numbers::pi_v<float> * float(f % lap) / float(lap);
    SceneCamera camera = SceneCamera::look_at(
        {128.0f + 420.0f * std::cos(a), 30.0f, 128.0f + 420.0f * std::sin(a)}, {128.0f, 10.0f, 128.0f});
    settings.lod_colors = (f / 50) % 2 == 1;
    // Streaming, staged pool pages, voxel edits and the statistics: the frame's own submission is
    // the only one (nothing in the frame loop submits and waits).
    const std::uint64_t submits = ctx().submit_count();
    scene.update(1.0 / 30.0, camera, target.width(), target.height(), settings);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    EXPECT_EQ(ctx().submit_count(), submits + 1) << "frame " << f;
    max_staged = std::max(max_staged, scene.frame_stats().uploaded_bytes);
    ASSERT_EQ(ctx().validation_message_count(), 0u) << "frame " << f << "\n" << joined_messages();
    if (f % lap == lap - 1) {
      scene.settle(lap_end);
      rss.push_back(resident_bytes());
      gpu.push_back(scene.gpu_bytes());
      cpu.push_back(scene.cpu_bytes());
      std::printf("soak lap %zu: resident set %.1f MB, scene GPU %.1f MB, scene CPU %.1f MB\n", rss.size(),
                  double(rss.back()) / 1048576.0, double(gpu.back()) / 1048576.0,
                  double(cpu.back()) / 1048576.0);
    }
  }
  const WorldFrameStats& stats = scene.frame_stats();
  std::printf("soak: %llu vegetation pages staged, at most %.2f MB staged in a frame\n",
              static_cast<unsigned long long>(stats.vegetation_pages_staged), double(max_staged) / 1048576.0);
  EXPECT_GE(stats.voxel_edits, std::uint64_t(kLaps * lap / 7 - 1));
  EXPECT_GT(stats.vegetation_pages_staged, 100u);  // streaming really happened
  // The same tiles are resident at every lap's end. The plant pools keep freed pages for reuse and grow
  // their GPU buffers by an eighth when a lap's streaming order needs more pages at once; settling at a
  // lap's end gives back slack above a sixteenth. So memory may differ by a little between laps, either
  // way: 2 % on the device, 1 % on the CPU, far below what one leaked tile would add per lap. (Which lap
  // grows a pool depends on when the worker threads finish their tiles, so no lap must equal another.)
  for (int l = 1; l < kLaps; ++l) {
    EXPECT_LE(gpu[std::size_t(l)], gpu[0] + gpu[0] / 50) << "lap " << l + 1;
    EXPECT_GE(gpu[std::size_t(l)] + gpu[0] / 50, gpu[0]) << "lap " << l + 1;
    EXPECT_LE(cpu[std::size_t(l)], cpu[0] + cpu[0] / 100) << "lap " << l + 1;
    EXPECT_GE(cpu[std::size_t(l)] + cpu[0] / 100, cpu[0]) << "lap " << l + 1;
  }
  // The process as a whole: after the first lap (caches, pools and the driver's pipelines warm) a lap
  // adds at most 24 MB. Before the receivers' fragment shaders lost their branches on uniform values,
  // Mesa 22.3's lavapipe grew by ~10 MB per frame here (tests/driver_repro, docs/RELIABILITY.md).
  EXPECT_LT(rss[kLaps - 1], rss[1] + (24u << 20));
}

// The scene's options check themselves (the constructor, before any build step, and the command line
// call it), naming the field outside its limits.
TEST(WorldSceneOptionsTest, ValidateNamesTheFieldOutsideItsLimits) {
  EXPECT_NO_THROW(WorldSceneOptions{}.validate());
  WorldSceneOptions o;
  o.vegetation_size = 100.0f;
  EXPECT_EQ(myriad::test::where_of([&] { o.validate(); }), "WorldSceneOptions::vegetation_size");
  o = {};
  o.avatar_height = std::nanf("");
  EXPECT_THROW(o.validate(), Error);
  o = {};
  o.crowd_entities = 0;
  EXPECT_THROW(o.validate(), Error);
}

}  // namespace
}  // namespace myriad::render
