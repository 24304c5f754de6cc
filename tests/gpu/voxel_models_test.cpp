// Baked models on the GPU: what the terrain pass draws in a model's cell lies on the boxes the CPU
// expands for it (turned, rails where it connects), so the vertex path, the page transform and the
// culling carry them as the mesher wrote them; a slice below a model hides all of it (clip distance, like
// the terrain); and a model placed by an in-place edit draws what a world built with it draws.
#include <algorithm>
#include <cmath>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/model/model.hpp"

namespace myriad::test {
namespace {

class VoxelModelsTest : public GpuTest {};

constexpr std::uint32_t kWidth = 320, kHeight = 200;

// A flat stone floor at y < 8 with a fence row along x (over the section border at x = 16), stairs in
// every turn, a lamp, a torch and a slab.
render::VoxelSceneOptions model_world() {
  render::VoxelSceneOptions o;
  o.size = {32, 32, 32};
  o.width = kWidth;
  o.height = kHeight;
  o.vegetation = false;
  o.edit_world = [](voxel::World& w) {
    for (int y = 0; y < 32; ++y)
      for (int z = 0; z < 32; ++z)
        for (int x = 0; x < 32; ++x)
          w.set_voxel({x, y, z}, y < 8 ? voxel::kStone : voxel::kAir, voxel::kFormFull);
    for (int x = 12; x < 20; ++x) w.set_voxel({x, 8, 14}, voxel::kFence, 0);
    for (int t = 0; t < 4; ++t) w.set_voxel({12 + 2 * t, 8, 18}, voxel::kStairs, std::uint8_t(t));
    w.set_voxel({12, 8, 11}, voxel::kLamp, 0);
    w.set_voxel({15, 8, 11}, voxel::kTorch, 0);
    w.set_voxel({18, 8, 11}, voxel::kSlab, 0);
    voxel::compute_light(w);
  };
  return o;
}

const render::SceneCamera kCamera =
    render::SceneCamera::look_at({16.0f, 15.0f, 4.0f}, {16.0f, 8.5f, 15.0f}, glm::radians(60.0f));

// The world point a pixel shows, from its reverse-Z depth (< 0: background).
glm::vec3 pixel_point(const glm::mat4& inverse, std::uint32_t x, std::uint32_t y, float depth) {
  const glm::vec4 ndc((float(x) + 0.5f) / float(kWidth) * 2.0f - 1.0f,
                      (float(y) + 0.5f) / float(kHeight) * 2.0f - 1.0f, depth, 1.0f);
  const glm::vec4 p = inverse * ndc;
  return glm::vec3(p) / p.w;
}

// Distance from `local` (cell units) to the surface of the nearest box of the model in `cell`.
float box_distance(const voxel::World& w, glm::ivec3 cell, glm::vec3 local) {
  const std::uint8_t m = w.material(cell);
  unsigned connections = 0;
  for (const int side : voxel::kHorizontalFaces) {
    const glm::ivec3 n = cell + voxel::face_direction(side);
    if (w.contains(n) && voxel::model_connects(voxel::model_of(m), side, w.material(n), w.form(n)))
      connections |= 1u << voxel::connection_bit(side);
  }
  float best = 1e9f;
  for (const voxel::ModelBox& b : voxel::model_variant(voxel::model_of(m), w.form(cell), connections).boxes) {
    // Outside: distance to the box; inside: distance to its nearest face.
    const glm::vec3 outside = glm::max(glm::max(b.lo - local, local - b.hi), glm::vec3(0.0f));
    const float out = glm::length(outside);
    const glm::vec3 in = glm::min(local - b.lo, b.hi - local);
    const float inside = std::min({in.x, in.y, in.z});
    best = std::min(best, out > 0.0f ? out : inside);
  }
  return best;
}

TEST_F(VoxelModelsTest, WhatIsDrawnInAModelsCellLiesOnItsBoxes) {
  render::FixedVoxelScene scene(ctx(), model_world());
  const render::VoxelFrame frame = scene.render("models", kCamera, kWidth, kHeight);
  const voxel::World& w = scene.world();
  // The camera's projection (the sun direction only shapes the shadow view, not used here).
  const glm::mat4 inverse =
      glm::inverse(render::FrameView::of_camera(kCamera, kWidth, kHeight, glm::vec3(0, 1, 0)).view_proj);
  std::size_t in_models = 0, off_boxes = 0;
  std::vector<int> per_material(voxel::kMaterialCount, 0);
  for (std::uint32_t y = 0; y < kHeight; ++y)
    for (std::uint32_t x = 0; x < kWidth; ++x) {
      const float d = frame.depth[y * kWidth + x];
      if (d <= 0.0f) continue;
      const glm::vec3 p = pixel_point(inverse, x, y, d);
      const glm::ivec3 cell(glm::floor(p));
      // The stone's top under a model lies on its cell's floor (y = 8): ground, not model.
      if (!w.contains(cell) || !voxel::is_model_material(w.material(cell)) || p.y - float(cell.y) < 0.01f)
        continue;
      ++in_models;
      ++per_material[w.material(cell)];
      // Depth reconstruction is good to about 1e-3 cells at this distance.
      if (box_distance(w, cell, p - glm::vec3(cell)) > 0.01f) ++off_boxes;
    }
  EXPECT_GT(in_models, 1000u);
  for (const std::uint8_t m : {voxel::kFence, voxel::kStairs, voxel::kLamp, voxel::kTorch, voxel::kSlab})
    EXPECT_GT(per_material[m], 20) << voxel::materials()[m].name << " is drawn";
  EXPECT_EQ(off_boxes, 0u) << "of " << in_models << " pixels in model cells";

  // Sliced at y = 8.25: nothing of the models above the cut is drawn, the slab's and stairs' lower parts
  // are cut open; every drawn point is below the slice.
  render::SceneCamera sliced = kCamera;
  sliced.slice_height = 8.25f;
  const render::VoxelFrame cut = scene.render("sliced", sliced, kWidth, kHeight);
  float highest = -1e9f;
  for (std::uint32_t y = 0; y < kHeight; ++y)
    for (std::uint32_t x = 0; x < kWidth; ++x) {
      const float d = cut.depth[y * kWidth + x];
      if (d > 0.0f) highest = std::max(highest, pixel_point(inverse, x, y, d).y);
    }
  EXPECT_LE(highest, 8.25f + 0.01f);
  EXPECT_GT(highest, 8.0f) << "the models' feet are cut at the slice";
}

TEST_F(VoxelModelsTest, AModelPlacedByAnEditDrawsWhatAWorldBuiltWithItDraws) {
  render::VoxelSceneOptions bare = model_world();
  const auto base = bare.edit_world;
  // Without the fence at x = 16 the row is two pieces; the edit joins them across the section border.
  bare.edit_world = [base](voxel::World& w) {
    base(w);
    w.set_voxel({16, 8, 14}, voxel::kAir, 0);
    voxel::compute_light(w);
  };
  render::FixedVoxelScene edited(ctx(), bare);
  const render::VoxelFrame before = edited.render("before", kCamera, kWidth, kHeight);
  const render::FixedWorldEditor::Outcome r = edited.edit({{16, 8, 14}, voxel::kFence, 0});
  EXPECT_GE(r.sections.size(), 2u) << "the fence's section and the neighbour whose fence now connects";
  const render::VoxelFrame after = edited.render("after", kCamera, kWidth, kHeight);
  EXPECT_NE(after.rgba, before.rgba);
  render::FixedVoxelScene scratch(ctx(), model_world());
  const render::VoxelFrame want = scratch.render("want", kCamera, kWidth, kHeight);
  EXPECT_EQ(after.rgba, want.rgba);
  EXPECT_EQ(after.depth, want.depth);
}

}  // namespace
}  // namespace myriad::test
