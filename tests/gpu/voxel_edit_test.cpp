// Edits of the fixed world on the GPU: a FixedVoxelScene edited in place (relight, re-mesh of the dirty
// sections, their upload) draws exactly the image and depth of the same world built with the edits from
// scratch, re-meshes exactly edit_voxel's dirty sections, and refuses an edit outside the world unchanged.
#include <algorithm>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/placeable.hpp"

namespace myriad::test {
namespace {

class VoxelEditTest : public GpuTest {};

// A trench along x at the surface of the middle of the world, a slope, a wedge and a lamp beside it, and a
// cell on the corner of four sections.
std::vector<voxel::VoxelEdit> edits_on(const voxel::World& w) {
  const auto top = [&](int x, int z) {
    int y = w.size().y - 1;
    while (y > 0 && w.material({x, y, z}) == voxel::kAir) --y;
    return y;
  };
  std::vector<voxel::VoxelEdit> out;
  for (int x = 28; x < 36; ++x) out.push_back({{x, top(x, 30), 30}, voxel::kAir, 0});
  out.push_back({{30, top(30, 34) + 1, 34}, voxel::kStone, voxel::placeable_form(1, 2)});
  out.push_back({{33, top(33, 34) + 1, 34}, voxel::kLampRed, voxel::kFormFull});
  out.push_back({{31, top(31, 31) + 1, 31}, voxel::kSand, voxel::placeable_form(4, 1)});
  out.push_back({{32, top(32, 32), 32}, voxel::kAir, 0});
  return out;
}

render::VoxelSceneOptions small_world() {
  render::VoxelSceneOptions o;
  o.size = {64, 64, 64};
  o.seed = 3;
  o.width = 192;
  o.height = 108;
  return o;
}

TEST_F(VoxelEditTest, InPlaceEditsDrawWhatAWorldBuiltWithThemDraws) {
  const render::SceneCamera camera =
      render::SceneCamera::look_at({14.0f, 58.0f, 8.0f}, {32.0f, 30.0f, 31.0f}, glm::radians(60.0f));
  render::FixedVoxelScene edited(ctx(), small_world());
  const std::vector<voxel::VoxelEdit> edits = edits_on(edited.world());
  const render::VoxelFrame before = edited.render("before", camera, 192, 108);
  voxel::World reference = edited.world();  // a copy to count the dirty sections on
  std::size_t expected = 0, remeshed = 0;
  for (const voxel::VoxelEdit& e : edits) {
    expected += voxel::edit_voxel(reference, e.cell, e.material, e.form).dirty_sections.size();
    const render::FixedWorldEditor::Outcome r = edited.edit(e);
    remeshed += r.sections.size();
    EXPECT_LE(r.uploaded, r.sections.size());
  }
  EXPECT_EQ(remeshed, expected);
  // The edits' uploads fit one frame's budget here: the next frame draws them.
  const render::VoxelFrame after = edited.render("after", camera, 192, 108);
  EXPECT_FALSE(edited.uploads_pending());
  EXPECT_NE(after.rgba, before.rgba);

  render::VoxelSceneOptions o = small_world();
  o.edit_world = [&edits](voxel::World& w) {
    for (const voxel::VoxelEdit& e : edits) voxel::edit_voxel(w, e.cell, e.material, e.form);
  };
  render::FixedVoxelScene scratch(ctx(), o);
  const render::VoxelFrame want = scratch.render("after", camera, 192, 108);
  EXPECT_EQ(after.rgba, want.rgba);
  EXPECT_EQ(after.depth, want.depth);
  EXPECT_TRUE(std::equal(edited.world().materials().begin(), edited.world().materials().end(),
                         scratch.world().materials().begin()));
  EXPECT_TRUE(std::equal(edited.world().lights().begin(), edited.world().lights().end(),
                         scratch.world().lights().begin()));

  // Outside the world, or an unknown material: refused, the world and the image unchanged.
  EXPECT_THROW(edited.edit({{64, 10, 10}, voxel::kStone, voxel::kFormFull}), Error);
  EXPECT_THROW(edited.edit({{10, 10, 10}, 250, voxel::kFormFull}), Error);
  EXPECT_EQ(edited.render("again", camera, 192, 108).rgba, want.rgba);
}

}  // namespace
}  // namespace myriad::test
