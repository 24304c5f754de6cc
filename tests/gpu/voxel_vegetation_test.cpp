// Voxel vegetation on the GPU (V15): near/far LOD switch at the configured distance (CPU reference),
// the whole pass skipped when no section group is visible, and section updates replacing only their
// own instances, and two-phase Hi-Z occlusion of grass and trees equal to a CPU reference.
#include <algorithm>

#include "gpu_fixture.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"
#include "occlusion_depth.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"

namespace myriad::test {
namespace {

class VoxelVegetationTest : public GpuTest {};

voxel::GrassInstance grass_at(float x, float y, float z) { return {x, y, z, 1u | 0xF000u << 16}; }

using Frame = render::FrameView;

Frame camera(glm::vec3 eye, glm::vec3 target) {
  render::SceneCamera c = render::SceneCamera::look_at(eye, target, glm::radians(60.0f));
  c.near_plane = 0.1f;
  return render::FrameView::of_camera(c, 64, 64, kWorldUp);
}

// One frame's upload and culling for `f` cut at `slice_height`, with the wind at `time`.
void prepare(render::VoxelVegetationRenderer& veg, VkCommandBuffer cmd, Frame f, float slice_height,
             float time) {
  f.slice_height = slice_height;
  f.time = time;
  veg.upload(cmd);
  veg.cull(cmd, f);
}

TEST_F(VoxelVegetationTest, LodSwitchesAtTheConfiguredDistance) {
  render::VoxelVegetationOptions config;
  config.grass_capacity = 4096;
  config.tree_capacity = 64;
  config.lod_distance = 20.0f;
  render::VoxelVegetationRenderer veg(ctx(), {4, 1, 4}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat, config);
  // A field of grass over four sections, at distances 2..60 from the camera.
  std::vector<voxel::SectionVegetation> sections(16);
  for (int z = 0; z < 64; ++z) {
    for (int x = 0; x < 64; ++x) {
      if ((x + z) % 3) continue;
      const int s = (x / 16) + 4 * (z / 16);
      sections[std::size_t(s)].grass.push_back(grass_at(float(x), 4.0f, float(z)));
    }
  }
  for (int s = 0; s < 16; ++s) veg.set_section(s, sections[std::size_t(s)]);
  const Frame f = camera(glm::vec3(2.3f, 6.1f, 2.7f), glm::vec3(40.0f, 0.0f, 40.0f));
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { prepare(veg, cmd, f, 1e30f, 0.0f); });
  ASSERT_FALSE(veg.stats().skipped);
  EXPECT_EQ(veg.stats().dispatches, 2u);

  const Frustum frustum = Frustum::from_view_proj(f.view_proj, DepthConvention::kReverseZ);
  std::size_t expected_near = 0, expected_far = 0;
  std::vector<glm::vec3> near_positions;
  for (const auto& s : sections) {
    for (const auto& g : s.grass) {
      const glm::vec3 p(g.px, g.py, g.pz);
      if (!frustum.intersects(Sphere{p + glm::vec3(0.0f, 0.5f, 0.0f), 0.75f})) continue;
      const float d = glm::distance(f.eye, p);
      ASSERT_GT(std::abs(d - config.lod_distance), 1e-3f) << "test data must not sit on the switch";
      (d < config.lod_distance ? expected_near : expected_far) += 1;
    }
  }
  const render::VoxelVegetationCounts counts = veg.read_counts();
  EXPECT_EQ(counts.grass_near, expected_near);
  EXPECT_EQ(counts.grass_far, expected_far);
  EXPECT_GT(expected_near, 10u);
  EXPECT_GT(expected_far, 10u);
  EXPECT_EQ(veg.read_visible_grass(false).size(), expected_near);
  EXPECT_EQ(veg.read_visible_grass(true).size(), expected_far);
}

TEST_F(VoxelVegetationTest, NothingVisibleSkipsDispatchWindAndDraws) {
  render::VoxelVegetationOptions config;
  config.grass_capacity = 1024;
  config.tree_capacity = 64;
  render::VoxelVegetationRenderer veg(ctx(), {2, 1, 2}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat, config);
  voxel::SectionVegetation v;
  for (int i = 0; i < 20; ++i) v.grass.push_back(grass_at(float(i % 16), 2.0f, float(i / 2)));
  v.trees.push_back({4.0f, 2.0f, 4.0f, 0u | (6u * 16u) << 16, 0xFF000000u, 0xFF000000u});
  veg.set_section(0, v);
  // Looking away from the world.
  const Frame away = camera(glm::vec3(-10.0f, 5.0f, -10.0f), glm::vec3(-50.0f, 5.0f, -50.0f));
  render::OffscreenTarget target(ctx(), 64, 64);
  auto render_frame = [&](const Frame& f) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      prepare(veg, cmd, f, 1e30f, 1.0f);
      target.begin(cmd, glm::vec4(0.0f));
      veg.draw(cmd, f);
      target.end(cmd);
    });
  };
  render_frame(away);
  EXPECT_TRUE(veg.stats().skipped);
  EXPECT_EQ(veg.stats().dispatches, 0u);
  EXPECT_EQ(veg.stats().draws, 0u);
  EXPECT_GT(veg.stats().group_tests, 0u);
  // Looking at it: culled, drawn, the tree counted.
  const Frame at = camera(glm::vec3(-6.0f, 8.0f, -6.0f), glm::vec3(8.0f, 2.0f, 8.0f));
  render_frame(at);
  EXPECT_FALSE(veg.stats().skipped);
  EXPECT_EQ(veg.stats().draws, 3u);
  const auto counts = veg.read_counts();
  EXPECT_EQ(counts.grass_near + counts.grass_far, 20u);
  EXPECT_EQ(counts.trees, 1u);
  // A slice below the instances drops them all.
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { prepare(veg, cmd, at, 1.0f, 1.0f); });
  EXPECT_TRUE(veg.stats().skipped);  // the section group lies wholly above the slice
}

TEST_F(VoxelVegetationTest, SectionUpdateReplacesOnlyItsInstances) {
  render::VoxelVegetationOptions config;
  config.grass_capacity = 1024;
  config.tree_capacity = 64;
  render::VoxelVegetationRenderer veg(ctx(), {2, 1, 1}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat, config);
  voxel::SectionVegetation a, b;
  for (int i = 0; i < 30; ++i) a.grass.push_back(grass_at(float(i % 16), 2.0f, float(i / 16)));
  for (int i = 0; i < 12; ++i) b.grass.push_back(grass_at(16.0f + float(i), 2.0f, 3.0f));
  veg.set_section(0, a);
  veg.set_section(1, b);
  const Frame f = camera(glm::vec3(16.0f, 30.0f, -20.0f), glm::vec3(16.0f, 0.0f, 8.0f));
  auto count = [&] {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { prepare(veg, cmd, f, 1e30f, 0.0f); });
    const auto c = veg.read_counts();
    return c.grass_near + c.grass_far;
  };
  EXPECT_EQ(count(), 42u);
  const std::uint64_t before = veg.stats().uploaded_bytes;
  a.grass.resize(5);
  veg.set_section(0, a);
  EXPECT_EQ(count(), 17u);
  // Only section 0's slots were written: its old range (30 + 8 slack) cleared, 5 instances copied.
  EXPECT_EQ(veg.stats().uploaded_bytes, (30u + 8u) * 16u + 5u * 16u);
  EXPECT_EQ(before, 42u * 16u);
  EXPECT_EQ(count(), 17u);
  EXPECT_EQ(veg.stats().uploaded_bytes, 0u);  // nothing changed since
}

// Two-phase Hi-Z occlusion of grass and trees: walls across a low view over a field hide part of it.
// The late pass keeps exactly the instances a CPU reference keeps (slice, frustum sphere, distance,
// then hiz_sphere_occluded on the same pyramid); the next early pass draws those, its late pass none.
TEST_F(VoxelVegetationTest, OcclusionMatchesCpuReferenceAndFollowsTheTwoPhaseRule) {
  render::VoxelVegetationOptions config;
  config.grass_capacity = 8192;
  config.tree_capacity = 256;
  config.lod_distance = 20.0f;
  config.max_distance = 90.0f;
  render::VoxelVegetationRenderer veg(ctx(), {4, 1, 4}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat, config);
  std::vector<voxel::SectionVegetation> sections(16);
  for (int z = 0; z < 64; ++z)
    for (int x = 0; x < 64; ++x) {
      const int s = (x / 16) + 4 * (z / 16);
      if ((x * 7 + z * 3) % 5 == 0)
        sections[std::size_t(s)].grass.push_back(grass_at(float(x) + 0.3f, 2.0f, float(z) + 0.6f));
      if (x % 6 == 3 && z % 7 == 2)
        sections[std::size_t(s)].trees.push_back({float(x), 2.0f, float(z),
                                                  0u | (std::uint32_t(3 + (x + z) % 5) * 16u) << 16,
                                                  0xFF000000u, 0xFF000000u});
    }
  for (int s = 0; s < 16; ++s) veg.set_section(s, sections[std::size_t(s)]);

  Frame f = camera(glm::vec3(-4.0f, 4.0f, -4.0f), glm::vec3(40.0f, 0.0f, 40.0f));
  f.width = 320;
  f.height = 240;
  f.time = 2.0f;
  OcclusionDepth depth(f.width, f.height);
  depth.wall(f.proj, {0.0f, 0.45f}, {0.5f, 1.0f}, 22.0f);
  depth.wall(f.proj, {0.45f, 0.35f}, {1.0f, 1.0f}, 45.0f);
  const HizReference reference = depth.reference(f.view_proj);
  const auto pyramid = depth.gpu_pyramid(ctx());

  // The CPU reference, as instance slots (a section's i-th instance is slot range.offset + i).
  std::vector<std::uint32_t> grass_ref, trees_ref;
  std::uint64_t passed = 0, occluded = 0;
  auto test = [&](glm::vec3 p, glm::vec4 sphere, std::uint32_t slot, std::vector<std::uint32_t>& kept) {
    if (!f.frustum.intersects(Sphere{glm::vec3(sphere), sphere.w}) ||
        glm::distance(f.eye, p) > config.max_distance)
      return;
    ++passed;
    if (hiz_sphere_occluded(reference, sphere))
      ++occluded;
    else
      kept.push_back(slot);
  };
  for (int s = 0; s < 16; ++s) {
    const auto& sec = sections[std::size_t(s)];
    for (std::uint32_t i = 0; i < sec.grass.size(); ++i) {
      const glm::vec3 p(sec.grass[i].px, sec.grass[i].py, sec.grass[i].pz);
      test(p, glm::vec4(p + glm::vec3(0.0f, 0.5f, 0.0f), 0.75f), veg.grass_range(s).offset + i, grass_ref);
    }
    for (std::uint32_t i = 0; i < sec.trees.size(); ++i) {
      const glm::vec3 p(sec.trees[i].px, sec.trees[i].py, sec.trees[i].pz);
      const float height = float(sec.trees[i].type_height >> 16) / 16.0f;
      test(p, glm::vec4(p + glm::vec3(0.0f, 0.5f * height, 0.0f), 0.75f * height + 1.5f),
           veg.tree_range(s).offset + i, trees_ref);
    }
  }
  std::sort(grass_ref.begin(), grass_ref.end());
  std::sort(trees_ref.begin(), trees_ref.end());
  ASSERT_GT(grass_ref.size(), 50u);
  ASSERT_GT(occluded, 50u);
  ASSERT_GT(trees_ref.size(), 2u);

  auto run = [&](render::FramePhase phase) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      if (phase != render::FramePhase::kLate) veg.upload(cmd);
      veg.cull(cmd, f, phase, pyramid.get());
    });
  };
  run(render::FramePhase::kEarly);
  EXPECT_TRUE(veg.read_visible_grass(false, 0).empty());
  EXPECT_TRUE(veg.read_visible_grass(true, 0).empty());
  EXPECT_TRUE(veg.read_visible_trees(0).empty());
  run(render::FramePhase::kLate);
  const std::vector<std::uint32_t> near = veg.read_visible_grass(false, 1),
                                   far = veg.read_visible_grass(true, 1);
  std::vector<std::uint32_t> trees = veg.read_visible_trees(1);
  std::vector<std::uint32_t> first = near;
  first.insert(first.end(), far.begin(), far.end());
  std::sort(first.begin(), first.end());
  std::sort(trees.begin(), trees.end());
  EXPECT_EQ(first, grass_ref);
  EXPECT_EQ(trees, trees_ref);
  const render::CullCounts counts = veg.read_cull_counts();
  EXPECT_EQ(counts.frustum_passed, passed);
  EXPECT_EQ(counts.occluded, occluded);
  EXPECT_EQ(counts.drawn, grass_ref.size() + trees_ref.size());
  // Next frame, same view: phase 1 draws exactly what phase 2 found, phase 2 adds nothing.
  run(render::FramePhase::kEarly);
  std::vector<std::uint32_t> again = veg.read_visible_grass(false, 0),
                             again_far = veg.read_visible_grass(true, 0);
  again.insert(again.end(), again_far.begin(), again_far.end());
  std::sort(again.begin(), again.end());
  EXPECT_EQ(again, grass_ref);
  run(render::FramePhase::kLate);
  EXPECT_TRUE(veg.read_visible_grass(false, 1).empty());
  EXPECT_TRUE(veg.read_visible_grass(true, 1).empty());
  EXPECT_TRUE(veg.read_visible_trees(1).empty());
  RecordProperty("occluded", int(occluded));
}

}  // namespace
}  // namespace myriad::test
