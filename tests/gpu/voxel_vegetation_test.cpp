// Voxel vegetation on the GPU (V15): near/far LOD switch at the configured distance (CPU reference),
// the whole pass skipped when no section group is visible, section updates replacing only their own
// instances, two-phase Hi-Z occlusion of grass and trees equal to a CPU reference; the compacted
// culling (one thread per live instance, arrays grown from a small start) equal to a CPU reference, an
// unchanged frame dispatching nothing and drawing the same (V13), edits updating the live ranges, and
// the wind swaying crowns while the roots stay put.
#include <algorithm>
#include <memory>
#include <tuple>

#include "gpu_fixture.hpp"
#include "myriad/render/passes/depth_pyramid.hpp"
#include "occlusion_depth.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"

namespace myriad::test {
namespace {

class VoxelVegetationTest : public GpuTest {};

voxel::GrassInstance grass_at(float x, float y, float z) { return {x, y, z, 1u | 0xF000u << 16}; }
constexpr float kGrassRadius = 1.05f;  // the grass culling's bounding sphere about the root

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
  EXPECT_EQ(veg.stats().dispatches, 1u);  // grass only: no trees, no tree culling, no wind

  const Frustum frustum = Frustum::from_view_proj(f.view_proj, DepthConvention::kReverseZ);
  std::size_t expected_near = 0, expected_far = 0;
  std::vector<glm::vec3> near_positions;
  for (const auto& s : sections) {
    for (const auto& g : s.grass) {
      const glm::vec3 p(g.px, g.py, g.pz);
      if (!frustum.intersects(Sphere{p, kGrassRadius})) continue;
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

// A renderer made and dropped before any frame leaves nothing in the upload queue that would write its
// freed buffers (its new arrays' clears, its sections' copies and emptied ranges).
TEST_F(VoxelVegetationTest, ADestroyedRendererLeavesNoPendingUploads) {
  ASSERT_FALSE(ctx().uploads().pending());
  {
    render::VoxelVegetationRenderer veg(ctx(), {2, 1, 2}, render::OffscreenTarget::kColorFormat,
                                        render::OffscreenTarget::kDepthFormat);
    voxel::SectionVegetation v;
    v.grass.push_back(grass_at(1.0f, 2.0f, 1.0f));
    veg.set_section(0, v);
    EXPECT_TRUE(ctx().uploads().pending());
  }
  EXPECT_FALSE(ctx().uploads().pending());
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { EXPECT_EQ(ctx().uploads().record(cmd), 0u); });
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
  const Range old_b = veg.grass_range(1);
  a.grass.resize(5);
  veg.set_section(0, a);
  EXPECT_EQ(count(), 17u);
  // The range tables: a 16-byte header and 8 bytes per section with instances (grass 2, trees 0).
  constexpr std::uint64_t kGrassTable = 16u + 2u * 8u, kTreeTable = 16u;
  // Only section 0's slots were written, in place: its 25 dropped instances emptied, 5 copied, and
  // the grass table; section 1 kept its range.
  EXPECT_EQ(veg.stats().uploaded_bytes, 25u * 16u + 5u * 16u + kGrassTable);
  EXPECT_EQ(before, 42u * 16u + kGrassTable + kTreeTable);
  EXPECT_EQ(veg.grass_range(1), old_b);
  EXPECT_EQ(veg.grass_range(0).size, 5u);
  EXPECT_EQ(count(), 17u);
  EXPECT_EQ(veg.stats().uploaded_bytes, 0u);  // nothing changed since
}

// A section placed again before its copy went uploads only its latest instances (the earlier copy is
// dropped from the queue), also after an upload emptied the queue and with another section's copy waiting.
TEST_F(VoxelVegetationTest, ASectionPlacedAgainBeforeItsCopyWentUploadsOnlyItsLatest) {
  render::VoxelVegetationOptions config;
  config.grass_capacity = 1024;
  config.tree_capacity = 64;
  auto renderer = [&] {
    return std::make_unique<render::VoxelVegetationRenderer>(ctx(), glm::ivec3{3, 1, 1},
                                                             render::OffscreenTarget::kColorFormat,
                                                             render::OffscreenTarget::kDepthFormat, config);
  };
  const Frame f = camera(glm::vec3(24.0f, 30.0f, -20.0f), glm::vec3(24.0f, 0.0f, 8.0f));
  auto frame = [&](render::VoxelVegetationRenderer& veg) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { prepare(veg, cmd, f, 1e30f, 0.0f); });
    const auto c = veg.read_counts();
    return c.grass_near + c.grass_far;
  };
  auto field = [](float x0, int n) {
    voxel::SectionVegetation v;
    for (int i = 0; i < n; ++i) v.grass.push_back(grass_at(x0 + float(i % 16), 2.0f, float(i / 16)));
    return v;
  };
  // What the GPU culls must be what a renderer given only the latest placements culls.
  auto reference = [&](std::initializer_list<std::pair<int, int>> sections) {
    auto ref = renderer();
    for (const auto& [section, n] : sections) ref->set_section(section, field(16.0f * float(section), n));
    return frame(*ref);
  };
  constexpr std::uint64_t kInstance = 16, kHeader = 16, kEntry = 8, kTreeTable = 16;
  auto veg = renderer();
  veg->set_section(0, field(0.0f, 30));
  veg->set_section(0, field(0.0f, 20));  // in place over the first, whose copy has not gone
  EXPECT_EQ(frame(*veg), reference({{0, 20}}));
  // 20 copied, the 10 slots past them emptied, the tables; the first copy's 30 never go.
  EXPECT_EQ(veg->stats().uploaded_bytes, (20u + 10u) * kInstance + kHeader + kEntry + kTreeTable);
  // After an upload emptied the queue: section 1 placed twice (moved the second time), section 0 once more
  // in between.
  veg->set_section(1, field(16.0f, 10));
  veg->set_section(0, field(0.0f, 12));
  veg->set_section(1, field(16.0f, 40));
  EXPECT_EQ(frame(*veg), reference({{0, 12}, {1, 40}}));
  // Section 0: 12 copied in place, its 8 dropped slots emptied; section 1: its 40 copied, its first range
  // (10) emptied; the grass table. Section 1's first 10 never go.
  EXPECT_EQ(veg->stats().uploaded_bytes, (12u + 8u + 40u + 10u) * kInstance + kHeader + 2u * kEntry);
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
      test(p, glm::vec4(p, kGrassRadius), veg.grass_range(s).offset + i, grass_ref);
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
  // Next frame, same view and instances (V13): nothing is culled, both lists stand as they were.
  run(render::FramePhase::kEarly);
  EXPECT_TRUE(veg.stats().reused);
  EXPECT_EQ(veg.stats().dispatches, 0u);
  EXPECT_TRUE(veg.read_visible_grass(false, 0).empty());
  run(render::FramePhase::kLate);
  EXPECT_EQ(veg.read_visible_trees(1).size(), trees_ref.size());
  // An edit that changes nothing (a section written again in place) makes the next frame cull: phase 1
  // draws exactly what phase 2 found, phase 2 adds nothing.
  veg.set_section(0, sections[0]);
  run(render::FramePhase::kEarly);
  EXPECT_FALSE(veg.stats().reused);
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

// The slots the camera's single-phase culling keeps on the CPU (slice, frustum sphere, distance), the
// i-th instance of section s being slot range(s).offset + i: grass (near and far together), trees.
struct VisibleSlots {
  std::vector<std::uint32_t> grass, trees;
};
VisibleSlots cpu_visible(const std::vector<voxel::SectionVegetation>& sections,
                         const render::VoxelVegetationRenderer& veg, const Frame& f) {
  VisibleSlots out;
  const float max_distance = veg.config().max_distance;
  auto keep = [&](glm::vec3 p, Sphere sphere) {
    return !(p.y > f.slice_height) && f.frustum.intersects(sphere) &&
           !(glm::distance(f.eye, p) > max_distance);
  };
  for (int s = 0; s < int(sections.size()); ++s) {
    const auto& sec = sections[std::size_t(s)];
    EXPECT_EQ(veg.grass_range(s).size, sec.grass.size());
    EXPECT_EQ(veg.tree_range(s).size, sec.trees.size());
    for (std::uint32_t i = 0; i < sec.grass.size(); ++i) {
      const glm::vec3 p(sec.grass[i].px, sec.grass[i].py, sec.grass[i].pz);
      if (keep(p, {p, kGrassRadius})) out.grass.push_back(veg.grass_range(s).offset + i);
    }
    for (std::uint32_t i = 0; i < sec.trees.size(); ++i) {
      const glm::vec3 p(sec.trees[i].px, sec.trees[i].py, sec.trees[i].pz);
      const float h = float(sec.trees[i].type_height >> 16) / 16.0f;
      if (keep(p, {p + glm::vec3(0.0f, 0.5f * h, 0.0f), 0.75f * h + 1.5f}))
        out.trees.push_back(veg.tree_range(s).offset + i);
    }
  }
  std::sort(out.grass.begin(), out.grass.end());
  std::sort(out.trees.begin(), out.trees.end());
  return out;
}

VisibleSlots gpu_visible(render::VoxelVegetationRenderer& veg) {
  VisibleSlots out{veg.read_visible_grass(false), veg.read_visible_trees()};
  const std::vector<std::uint32_t> far = veg.read_visible_grass(true);
  out.grass.insert(out.grass.end(), far.begin(), far.end());
  std::sort(out.grass.begin(), out.grass.end());
  std::sort(out.trees.begin(), out.trees.end());
  return out;
}

std::uint64_t threads_for(std::uint64_t live) { return (live + 63) / 64 * 64; }

// A sparse world: grass and trees over 8 x 2 x 8 sections (some empty), starting from arrays far too
// small, so that set_section grows and re-packs them.
std::vector<voxel::SectionVegetation> sparse_world(std::uint32_t seed) {
  std::vector<voxel::SectionVegetation> sections(8 * 2 * 8);
  std::uint32_t r = seed;
  auto next = [&] { return r = r * 1664525u + 1013904223u; };
  for (int sy = 0; sy < 2; ++sy)
    for (int sz = 0; sz < 8; ++sz)
      for (int sx = 0; sx < 8; ++sx) {
        auto& sec = sections[std::size_t(sx + 8 * (sz + 8 * sy))];
        if (next() % 5 == 0) continue;  // an empty section
        const int grass = int(next() % 40), trees = int(next() % 3);
        for (int i = 0; i < grass; ++i)
          sec.grass.push_back(grass_at(float(sx * 16) + float(next() % 160) / 10.0f, float(sy * 16 + 3),
                                       float(sz * 16) + float(next() % 160) / 10.0f));
        for (int i = 0; i < trees; ++i)
          sec.trees.push_back({float(sx * 16) + 2.5f + float(i * 5), float(sy * 16 + 3),
                               float(sz * 16) + 8.5f,
                               std::uint32_t(i % voxel::kTreeTemplates) | std::uint32_t((4 + i) * 16) << 16,
                               0xFF000000u, 0xFF000000u});
      }
  return sections;
}

// One thread per live instance: the compacted culling keeps exactly the CPU reference's slots, the
// arrays grow from their small start to the instance count plus slack, and the threads dispatched are
// the live instances rounded up to whole workgroups (grass, trees and the trees' wind).
TEST_F(VoxelVegetationTest, CompactCullingMatchesCpuReferenceAndCostsLiveInstances) {
  render::VoxelVegetationOptions config;
  config.grass_capacity = 16;
  config.tree_capacity = 16;
  config.lod_distance = 30.0f;
  config.max_distance = 110.0f;
  render::VoxelVegetationRenderer veg(ctx(), {8, 2, 8}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat, config);
  const std::vector<voxel::SectionVegetation> sections = sparse_world(7);
  std::uint64_t grass = 0, trees = 0, filled = 0;
  for (int s = 0; s < int(sections.size()); ++s) {
    veg.set_section(s, sections[std::size_t(s)]);
    grass += sections[std::size_t(s)].grass.size();
    trees += sections[std::size_t(s)].trees.size();
    filled += sections[std::size_t(s)].grass.empty() ? 0u : 1u;
  }
  ASSERT_GT(grass, 1000u);
  ASSERT_GT(trees, 40u);
  EXPECT_EQ(veg.live_instances(), grass + trees);
  // Grown to the content: at least every instance plus its section's slack, at most twice that.
  const std::uint64_t grass_needed = grass + filled * config.grass_section_slack;
  EXPECT_GE(veg.grass_slots(), grass_needed);
  EXPECT_LE(veg.grass_slots(), 2 * grass_needed);
  EXPECT_LE(veg.tree_slots(), 2 * (trees + sections.size() * config.tree_section_slack));

  for (const auto& [eye, target, slice] :
       {std::tuple{glm::vec3(-10.0f, 40.0f, -10.0f), glm::vec3(64.0f, 0.0f, 64.0f), 1e30f},
        std::tuple{glm::vec3(64.0f, 25.0f, 140.0f), glm::vec3(40.0f, 10.0f, 30.0f), 1e30f},
        std::tuple{glm::vec3(-10.0f, 40.0f, -10.0f), glm::vec3(64.0f, 0.0f, 64.0f), 10.0f}}) {
    Frame f = camera(eye, target);
    f.slice_height = slice;
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { prepare(veg, cmd, f, slice, 1.5f); });
    ASSERT_FALSE(veg.stats().skipped);
    const VisibleSlots want = cpu_visible(sections, veg, f), got = gpu_visible(veg);
    EXPECT_EQ(got.grass, want.grass);
    EXPECT_EQ(got.trees, want.trees);
    EXPECT_GT(want.grass.size(), 20u);
    EXPECT_EQ(veg.overflow(), 0u);
    // Grass and tree culling, and the wind on the first frame (its time does not change after).
    const std::uint64_t wind = slice > 1e20f && eye.z < 0.0f ? threads_for(trees) : 0u;
    EXPECT_EQ(veg.stats().threads, threads_for(grass) + threads_for(trees) + wind) << eye.z << " " << slice;
  }
  // Buffers by content: instances, lists, two-phase words and sway within a small multiple of the
  // instances, besides the baked templates (32 bytes a vertex) and the range tables.
  const std::uint64_t templates = std::uint64_t(veg.template_vertices()) * voxel::kTreeTemplates * 32u;
  EXPECT_LT(veg.gpu_bytes() - templates, 120u * (grass + trees) + 64u * 1024u);
}

// V13: a frame with the same view, slice, instances and time dispatches nothing and draws the same
// image from the last lists; a new time reruns the wind alone; a moved camera culls again.
TEST_F(VoxelVegetationTest, UnchangedFrameDispatchesNothingAndDrawsTheSame) {
  render::VoxelVegetationOptions config;
  config.grass_capacity = 64;
  config.tree_capacity = 16;
  render::VoxelVegetationRenderer veg(ctx(), {8, 2, 8}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat, config);
  const std::vector<voxel::SectionVegetation> sections = sparse_world(11);
  for (int s = 0; s < int(sections.size()); ++s) veg.set_section(s, sections[std::size_t(s)]);
  render::OffscreenTarget target(ctx(), 96, 96);
  auto frame = [&](const Frame& f, float time) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      prepare(veg, cmd, f, 1e30f, time);
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      veg.draw(cmd, f);
      target.end(cmd);
    });
    return target.read_color();
  };
  const Frame f = camera(glm::vec3(20.0f, 30.0f, -12.0f), glm::vec3(40.0f, 0.0f, 50.0f));
  const std::vector<std::uint8_t> first = frame(f, 1.0f);
  EXPECT_FALSE(veg.stats().reused);
  EXPECT_EQ(veg.stats().dispatches, 3u);  // grass, trees, wind
  const render::VoxelVegetationCounts counts = veg.read_counts();
  ASSERT_GT(counts.grass_near + counts.grass_far, 50u);
  ASSERT_GT(counts.trees, 2u);
  const std::vector<std::uint8_t> second = frame(f, 1.0f);
  EXPECT_TRUE(veg.stats().reused);
  EXPECT_EQ(veg.stats().dispatches, 0u);
  EXPECT_EQ(veg.stats().threads, 0u);
  EXPECT_EQ(veg.stats().draws, 3u);
  EXPECT_EQ(veg.stats().uploaded_bytes, 0u);
  EXPECT_EQ(second, first);
  const render::VoxelVegetationCounts again = veg.read_counts();
  EXPECT_EQ(again.grass_near, counts.grass_near);
  EXPECT_EQ(again.grass_far, counts.grass_far);
  EXPECT_EQ(again.trees, counts.trees);
  // The wind moves on: one dispatch over the live trees, the lists stand.
  std::uint64_t trees = 0;
  for (const auto& s : sections) trees += s.trees.size();
  (void)frame(f, 2.0f);
  EXPECT_TRUE(veg.stats().reused);
  EXPECT_EQ(veg.stats().dispatches, 1u);
  EXPECT_EQ(veg.stats().threads, threads_for(trees));
  // A moved camera culls again.
  Frame moved = camera(glm::vec3(20.5f, 30.0f, -12.0f), glm::vec3(40.0f, 0.0f, 50.0f));
  (void)frame(moved, 2.0f);
  EXPECT_FALSE(veg.stats().reused);
  EXPECT_EQ(veg.stats().dispatches, 2u);
}

// Edits: removing a grass tuft and a tree from one section reculls on the next frame (same view) and
// drops exactly their slots; the other sections keep their ranges; a section growing past its slack
// moves to a new range and is still culled right.
TEST_F(VoxelVegetationTest, EditsUpdateTheLiveRanges) {
  render::VoxelVegetationOptions config;
  config.grass_capacity = 64;
  config.tree_capacity = 16;
  render::VoxelVegetationRenderer veg(ctx(), {8, 2, 8}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat, config);
  std::vector<voxel::SectionVegetation> sections = sparse_world(5);
  for (int s = 0; s < int(sections.size()); ++s) veg.set_section(s, sections[std::size_t(s)]);
  const Frame f = camera(glm::vec3(-10.0f, 40.0f, -10.0f), glm::vec3(64.0f, 0.0f, 64.0f));
  auto run = [&] { ctx().submit_and_wait([&](VkCommandBuffer cmd) { prepare(veg, cmd, f, 1e30f, 0.5f); }); };
  run();
  const VisibleSlots before = gpu_visible(veg);
  EXPECT_EQ(before.grass, cpu_visible(sections, veg, f).grass);
  // The edited section: visible, with grass and a tree.
  int edited = -1;
  for (int s = 0; s < int(sections.size()) && edited < 0; ++s) {
    const auto& sec = sections[std::size_t(s)];
    if (sec.grass.size() > 3 && !sec.trees.empty() &&
        std::binary_search(before.trees.begin(), before.trees.end(), veg.tree_range(s).offset) &&
        std::binary_search(before.grass.begin(), before.grass.end(), veg.grass_range(s).offset + 1))
      edited = s;
  }
  ASSERT_GE(edited, 0);
  std::vector<Range> others;
  for (int s = 0; s < int(sections.size()); ++s) others.push_back(veg.grass_range(s));
  const std::uint32_t removed_grass = veg.grass_range(edited).offset + veg.grass_range(edited).size - 1;
  auto& sec = sections[std::size_t(edited)];
  sec.grass.erase(sec.grass.begin() + 1);  // the second tuft; the last slot of the range goes
  sec.trees.erase(sec.trees.begin());
  veg.set_section(edited, sec);
  run();
  EXPECT_FALSE(veg.stats().reused);
  const VisibleSlots after = gpu_visible(veg), want = cpu_visible(sections, veg, f);
  EXPECT_EQ(after.grass, want.grass);
  EXPECT_EQ(after.trees, want.trees);
  EXPECT_EQ(after.grass.size() + 1, before.grass.size());
  EXPECT_EQ(after.trees.size() + 1, before.trees.size());
  EXPECT_FALSE(std::binary_search(after.grass.begin(), after.grass.end(), removed_grass));
  for (int s = 0; s < int(sections.size()); ++s) {
    if (s != edited) {
      EXPECT_EQ(veg.grass_range(s), others[std::size_t(s)]) << s;
    }
  }
  // Grown past its slack: a new range, and the culling still agrees.
  for (int i = 0; i < 30; ++i) sec.grass.push_back(sec.grass[0]);
  veg.set_section(edited, sec);
  run();
  EXPECT_NE(veg.grass_range(edited).offset, others[std::size_t(edited)].offset);
  const VisibleSlots grown = gpu_visible(veg), grown_want = cpu_visible(sections, veg, f);
  EXPECT_EQ(grown.grass, grown_want.grass);
  EXPECT_EQ(grown.grass.size(), after.grass.size() + 30u);
}

// The wind: a tree drawn at two times from the side. Its rigid base (below kTreeRigidHeight of its
// height) stays on the same pixels, its crown moves.
TEST_F(VoxelVegetationTest, SwayMovesTheCrownAndKeepsTheRoot) {
  render::VoxelVegetationRenderer veg(ctx(), {1, 1, 1}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat);
  constexpr float kHeight = 8.0f;
  const glm::vec3 root(8.0f, 1.0f, 8.0f);
  for (std::uint32_t templ = 0; templ < voxel::kTreeTemplates; ++templ) {
    voxel::SectionVegetation v;
    v.trees.push_back(
        {root.x, root.y, root.z, templ | std::uint32_t(kHeight * 16.0f) << 16, 0xFF000000u, 0xFF000000u});
    veg.set_section(0, v);
    constexpr std::uint32_t kSize = 128;
    render::SceneCamera c =
        render::SceneCamera::look_at(root + glm::vec3(0.0f, 0.5f * kHeight, -14.0f),
                                     root + glm::vec3(0.0f, 0.5f * kHeight, 0.0f), glm::radians(50.0f));
    c.near_plane = 0.1f;
    const Frame f = render::FrameView::of_camera(c, kSize, kSize, kWorldUp);
    render::OffscreenTarget target(ctx(), kSize, kSize);
    auto image = [&](float time) {
      ctx().submit_and_wait([&](VkCommandBuffer cmd) {
        prepare(veg, cmd, f, 1e30f, time);
        target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
        veg.draw(cmd, f);
        target.end(cmd);
      });
      return target.read_color();
    };
    const std::vector<std::uint8_t> a = image(0.0f), b = image(1.2f);
    // Image rows of a height above the root (row 0 at the top).
    auto row = [&](float y) {
      const glm::vec4 clip = f.view_proj * glm::vec4(root + glm::vec3(0.0f, y, 0.0f), 1.0f);
      return int(std::floor((clip.y / clip.w * 0.5f + 0.5f) * float(kSize)));
    };
    ASSERT_LT(row(kHeight), row(0.0f));
    std::size_t base_pixels = 0, base_changed = 0, crown_changed = 0;
    for (std::uint32_t y = 0; y < kSize; ++y)
      for (std::uint32_t x = 0; x < kSize; ++x) {
        const std::size_t i = (std::size_t(y) * kSize + x) * 4;
        const bool differs = !std::equal(a.begin() + std::ptrdiff_t(i), a.begin() + std::ptrdiff_t(i + 4),
                                         b.begin() + std::ptrdiff_t(i));
        const int r = int(y);
        if (r >= row(0.95f * voxel::kTreeRigidHeight * kHeight) + 1 && r <= row(0.0f) - 1) {
          base_pixels += a[i] != 0 || a[i + 1] != 0 || a[i + 2] != 0;
          base_changed += differs;
        }
        if (r <= row(0.3f * kHeight)) crown_changed += differs;
      }
    EXPECT_GT(base_pixels, 10u) << "template " << templ;  // the trunk's base is in the image
    EXPECT_EQ(base_changed, 0u) << "template " << templ;
    EXPECT_GT(crown_changed, 30u) << "template " << templ;
  }
}

// A slice through a trunk shows a solid cut, not a hollow tube (V14): looking straight down at a tree cut
// below its crown, the pixels inside the trunk's outline are the cut's heartwood colour, where without the
// cap the open tube would show the black background through it. Unsliced, the eye (inside the trunk's
// height) sees nothing there: without a slice no back face is drawn.
TEST_F(VoxelVegetationTest, ASlicedTrunkShowsASolidCut) {
  render::VoxelVegetationRenderer veg(ctx(), {1, 1, 1}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat);
  constexpr float kHeight = 8.0f, kCut = 0.2f * kHeight;  // above the rigid base, below the crown
  const glm::vec3 root(8.0f, 1.0f, 8.0f);
  constexpr std::uint32_t kSize = 96;
  for (std::uint32_t templ = 0; templ < voxel::kTreeTemplates; ++templ) {
    voxel::SectionVegetation v;
    v.trees.push_back(
        {root.x, root.y, root.z, templ | std::uint32_t(kHeight * 16.0f) << 16, 0xFF000000u, 0xFF000000u});
    veg.set_section(0, v);
    // Straight down from 3 m above the cut (a hair off the vertical for look_at's up vector).
    render::SceneCamera c = render::SceneCamera::look_at(
        root + glm::vec3(0.0f, kCut + 3.0f, 0.001f), root + glm::vec3(0.0f, kCut, 0.0f), glm::radians(40.0f));
    c.near_plane = 0.05f;
    render::OffscreenTarget target(ctx(), kSize, kSize);
    auto image = [&](float slice) {
      Frame f = render::FrameView::of_camera(c, kSize, kSize, kWorldUp);
      f.slice_height = slice;
      ctx().submit_and_wait([&](VkCommandBuffer cmd) {
        prepare(veg, cmd, f, slice, 0.0f);
        target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
        veg.draw(cmd, f);
        target.end(cmd);
      });
      return target.read_color();
    };
    const std::vector<std::uint8_t> cut = image(root.y + kCut), whole = image(render::kNoSlice);
    // The 5 x 5 pixels at the image centre (0.11 m across here) lie inside the trunk (radius 0.25 m or more).
    std::size_t wood = 0, dark = 0;
    for (std::uint32_t y = kSize / 2 - 2; y <= kSize / 2 + 2; ++y)
      for (std::uint32_t x = kSize / 2 - 2; x <= kSize / 2 + 2; ++x) {
        const std::size_t i = (std::size_t(y) * kSize + x) * 4;
        // Heartwood: a warm, clearly lit colour (red over green over blue), not the black background.
        wood += cut[i] > 40 && cut[i] > cut[i + 1] && cut[i + 1] > cut[i + 2] ? 1 : 0;
        dark += whole[i] == 0 && whole[i + 1] == 0 && whole[i + 2] == 0 ? 1 : 0;
      }
    EXPECT_EQ(wood, 25u) << "template " << templ;
    EXPECT_EQ(dark, 25u) << "template " << templ;
  }
}

}  // namespace
}  // namespace myriad::test
