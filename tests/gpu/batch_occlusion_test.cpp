// Two-phase Hi-Z occlusion of the batch renderer on the GPU (render::BatchOcclusion): after the CPU's
// layer, LOD and frustum culling, the late pass keeps exactly the draw instances whose renderers
// batch::cull keeps with the same pyramid as its occlusion reference, draw for draw; the early pass
// draws only what was drawn the frame before, and the counters agree with the CPU's.
#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "../batch/test_scene.hpp"
#include "gpu_fixture.hpp"
#include "myriad/batch/cull.hpp"
#include "myriad/batch/draw_commands.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"
#include "myriad/render/avatars/batch_occlusion.hpp"
#include "occlusion_depth.hpp"

namespace myriad::test {
namespace {

using render::FramePhase;
using Lists = std::map<std::uint64_t, std::vector<std::uint32_t>>;  // draw key -> sorted slots

// What the CPU list says: the slots of every draw, by draw key.
Lists cpu_lists(const batch::DrawList& list) {
  Lists out;
  for (const batch::DrawCommand& d : list.draws) {
    std::vector<std::uint32_t>& slots = out[batch::draw_key(d.type, d.mesh, d.material)];
    slots.assign(list.instances.begin() + d.first_instance,
                 list.instances.begin() + d.first_instance + d.instance_count);
    std::sort(slots.begin(), slots.end());
  }
  return out;
}

class BatchOcclusionTest : public GpuTest {
 protected:
  void TearDown() override {
    pyramid_.reset();  // before the context goes
    GpuTest::TearDown();
  }

  // One pass of `phase` over `list`, and what its command set holds (draws left empty omitted).
  Lists run(render::BatchOcclusion& occlusion, const batch::BatchScene& scene, const batch::CullResult& cull,
            const batch::DrawList& list, FramePhase phase, const glm::mat4& view_proj,
            const render::DepthPyramid* pyramid) {
    ctx().staging_ring().begin_frame();
    occlusion.stage(scene, cull, list, meshes_);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { occlusion.record(cmd, phase, view_proj, pyramid); });
    const std::uint32_t set = render::BatchOcclusion::command_set(phase);
    const auto commands = gpu::read_buffer_as<render::shader::BatchDrawCommand>(
        ctx(), occlusion.commands(set), list.draws.size());
    const auto slots = gpu::read_buffer_as<std::uint32_t>(ctx(), occlusion.slots(set), list.instances.size());
    Lists out;
    for (std::size_t d = 0; d < list.draws.size(); ++d) {
      const batch::DrawCommand& draw = list.draws[d];
      const render::shader::DrawIndexedCommand& c = commands[d].command;
      // The command draws the draw's mesh from the draw's part of the list.
      EXPECT_EQ(c.index_count, meshes_[draw.mesh].index_count);
      EXPECT_EQ(c.first_index, meshes_[draw.mesh].first_index);
      EXPECT_EQ(c.first_instance, draw.first_instance);
      EXPECT_EQ(commands[d].capacity, draw.instance_count);
      EXPECT_LE(c.instance_count, draw.instance_count);
      if (c.instance_count == 0) continue;
      std::vector<std::uint32_t>& got = out[batch::draw_key(draw.type, draw.mesh, draw.material)];
      got.assign(slots.begin() + c.first_instance, slots.begin() + c.first_instance + c.instance_count);
      std::sort(got.begin(), got.end());
    }
    return out;
  }

  // The view both occlusion tests use, from 75 m down +Z at the origin, and its depth: a low near wall
  // on the left, a taller farther one on the right and (with `post`) a thin post in front of all.
  void look_at_walls(bool post) {
    const glm::mat4 proj = perspective(fov_, 16.0f / 9.0f, 0.3f, 400.0f, true);
    view_proj_ = proj * glm::lookAt(eye_, glm::vec3(0.0f), kWorldUp);
    depth_.wall(proj, {0.0f, 0.4f}, {0.45f, 1.0f}, 30.0f);
    depth_.wall(proj, {0.55f, 0.2f}, {1.0f, 1.0f}, 80.0f);
    if (post) depth_.wall(proj, {0.47f, 0.0f}, {0.52f, 1.0f}, 6.0f);
    reference_ = depth_.reference(view_proj_);
    pyramid_ = depth_.gpu_pyramid(ctx());
  }
  batch::CullCamera camera() const {
    batch::CullCamera c;
    c.frustum = Frustum::from_view_proj(view_proj_, DepthConvention::kReverseZ);
    c.position = eye_;
    c.lod_scale = 1.0f / (2.0f * std::tan(fov_ / 2.0f));
    return c;
  }

  const glm::vec3 eye_{0.0f, 4.0f, 75.0f};
  const float fov_ = glm::radians(55.0f);
  glm::mat4 view_proj_{1.0f};
  OcclusionDepth depth_{640, 360};
  HizReference reference_;
  std::unique_ptr<render::DepthPyramid> pyramid_;
  std::vector<render::MeshRange> meshes_ = {{36, 0, 0},   {36, 36, 0},  {72, 72, 4},
                                            {12, 144, 8}, {24, 156, 8}, {36, 180, 16}};
};

TEST_F(BatchOcclusionTest, LatePassMatchesCpuReferenceAndFollowsTheTwoPhaseRule) {
  batch::test::RandomScene rs(6000, 11);
  const batch::BatchScene& scene = *rs.scene;
  look_at_walls(true);
  const glm::mat4& view_proj = view_proj_;
  const render::DepthPyramid* pyramid = pyramid_.get();
  batch::CullCamera camera = this->camera();
  camera.layer_mask = 0x3u;
  batch::CullResult cull;
  batch::DrawList list;
  batch::cull(scene, camera, cull);
  batch::generate_draws(scene, cull, list);
  std::size_t passed = 0;
  for (std::uint8_t v : cull.visible) passed += v;

  batch::CullCamera occluding = camera;
  occluding.occlusion = &reference_;
  batch::CullResult expected_cull;
  batch::DrawList expected_list;
  batch::cull(scene, occluding, expected_cull);
  batch::generate_draws(scene, expected_cull, expected_list);
  const Lists expected = cpu_lists(expected_list);
  ASSERT_GT(expected_list.instances.size(), 300u);
  ASSERT_GT(expected_cull.occluded, 300u);

  render::BatchOcclusion occlusion(ctx(), scene);
  const Lists none;
  // One phase without the pyramid draws everything the CPU passed.
  EXPECT_EQ(run(occlusion, scene, cull, list, FramePhase::kSingle, view_proj, nullptr), cpu_lists(list));
  // Nothing was drawn before in two phases: the early pass draws nothing, the late pass everything the
  // pyramid does not hide.
  EXPECT_EQ(run(occlusion, scene, cull, list, FramePhase::kEarly, view_proj, nullptr), none);
  EXPECT_EQ(run(occlusion, scene, cull, list, FramePhase::kLate, view_proj, pyramid), expected);
  const render::shader::CullCounters counters = occlusion.counters();
  EXPECT_EQ(counters.frustum_passed, passed);
  EXPECT_EQ(counters.occluded, expected_cull.occluded);
  EXPECT_EQ(occlusion.overflow(), 0u);
  // The next frame, same view: early draws exactly those, late adds nothing.
  EXPECT_EQ(run(occlusion, scene, cull, list, FramePhase::kEarly, view_proj, nullptr), expected);
  EXPECT_EQ(run(occlusion, scene, cull, list, FramePhase::kLate, view_proj, pyramid), none);
  // drawn() adds both phases of the last frame: what the late pass of the frame before found.
  EXPECT_EQ(occlusion.drawn().total, expected_list.instances.size());

  // A renderer the CPU no longer passes loses its visibility word: turned away, then back, the early
  // pass draws nothing again.
  batch::CullCamera away = camera;
  away.frustum = Frustum::from_view_proj(
      perspective(fov_, 1.0f, 0.3f, 400.0f, true) * glm::lookAt(eye_, eye_ + glm::vec3(0, 0, 1), kWorldUp),
      DepthConvention::kReverseZ);
  batch::CullResult away_cull;
  batch::DrawList away_list;
  batch::cull(scene, away, away_cull);
  batch::generate_draws(scene, away_cull, away_list);
  run(occlusion, scene, away_cull, away_list, FramePhase::kEarly, view_proj, nullptr);
  run(occlusion, scene, away_cull, away_list, FramePhase::kLate, view_proj, pyramid);
  EXPECT_EQ(run(occlusion, scene, cull, list, FramePhase::kEarly, view_proj, nullptr), none);
  RecordProperty("passed", int(passed));
  RecordProperty("occluded", int(expected_cull.occluded));
}

// Invocations side by side whose boxes need different pyramid levels (a large box behind the near
// wall needs level 5, its neighbours levels 2 and 3) at every position within a group of four: each
// one's verdict is the reference's. (llvmpipe's textureSize with a level that differs between
// invocations gave one invocation another's level sizes; hiz.glsl derives the sizes from level 0.)
TEST_F(BatchOcclusionTest, NeighboursNeedingOtherLevelsDoNotChangeTheVerdict) {
  const Sphere spheres[] = {{{-23.4655685f, -11.3404188f, 37.9637375f}, 1.77437413f},
                            {{-21.7441444f, 0.0f, -35.5188751f}, 0.903753281f},
                            {{-21.7441444f, 0.0f, -35.5188751f}, 2.09482884f},
                            {{17.1897812f, -0.243368536f, 17.6274338f}, 1.68119144f}};
  look_at_walls(false);
  const batch::CullCamera camera = this->camera();
  for (std::size_t shift = 0; shift < 4; ++shift) {
    batch::PropertySetRegistry sets;
    batch::BatchScene scene(sets);
    const std::vector<batch::DrawDesc> draws(1);
    // Rotated by `shift`, so the large box takes every position of a quad.
    for (std::size_t i = 0; i < 64; ++i) {
      batch::RendererDesc r;
      r.bounds = spheres[(i + shift) % 4];
      r.draws = draws;
      scene.add_renderer(r);
    }
    batch::CullResult cull, expected_cull;
    batch::DrawList list, expected_list;
    batch::cull(scene, camera, cull);
    batch::generate_draws(scene, cull, list);
    batch::CullCamera occluding = camera;
    occluding.occlusion = &reference_;
    batch::cull(scene, occluding, expected_cull);
    batch::generate_draws(scene, expected_cull, expected_list);
    ASSERT_EQ(expected_cull.occluded, 48u) << "three of the four boxes lie behind a wall";
    render::BatchOcclusion occlusion(ctx(), scene);
    run(occlusion, scene, cull, list, FramePhase::kEarly, view_proj_, nullptr);
    EXPECT_EQ(run(occlusion, scene, cull, list, FramePhase::kLate, view_proj_, pyramid_.get()),
              cpu_lists(expected_list))
        << "shift " << shift;
    EXPECT_EQ(occlusion.counters().occluded, expected_cull.occluded);
  }
}

// A scene that grew past the lists is refused at stage(), not written out of bounds; reserve() between
// frames makes room.
TEST_F(BatchOcclusionTest, AGrownSceneNeedsReserve) {
  batch::test::RandomScene small(50, 3);
  render::BatchOcclusion occlusion(ctx(), *small.scene);
  batch::test::RandomScene big(400, 3);
  batch::CullCamera camera;
  camera.frustum = Frustum::from_view_proj(perspective(1.0f, 1.0f, 0.1f, 500.0f) *
                                           glm::lookAt(glm::vec3(0, 10, 90), glm::vec3(0), kWorldUp));
  batch::CullResult cull;
  batch::DrawList list;
  batch::cull(*big.scene, camera, cull);
  batch::generate_draws(*big.scene, cull, list);
  ASSERT_GT(list.instances.size(), 100u);
  EXPECT_THROW(occlusion.stage(*big.scene, cull, list, meshes_), Error);
  occlusion.reserve(*big.scene);
  EXPECT_EQ(run(occlusion, *big.scene, cull, list, FramePhase::kSingle, glm::mat4(1.0f), nullptr),
            cpu_lists(list));
}

}  // namespace
}  // namespace myriad::test
