// The voxel terrain on the GPU (V6, V10-V14): the atlas path renders what the unmerged mesh renders,
// nothing above the slice is visible, a static frame uploads and culls nothing, and an edit uploads
// only the affected pages.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gpu_fixture.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "myriad/voxel/edit.hpp"
#include "myriad/voxel/generator.hpp"
#include "myriad/voxel/light.hpp"
#include "myriad/voxel/material.hpp"
#include "myriad/voxel/world_mesher.hpp"

namespace myriad::test {
namespace {

class TerrainTest : public GpuTest {};

constexpr glm::ivec3 kSmallWorld{64, 48, 64};

render::VoxelSceneOptions small_scene(bool merge, std::uint32_t debug_mode, const char* view) {
  render::VoxelSceneOptions o;
  o.width = 320;
  o.height = 200;
  o.size = kSmallWorld;
  o.seed = 7;
  o.merge = merge;
  o.debug_mode = debug_mode;
  o.views = {view};
  o.vegetation = false;  // terrain alone: the comparison is about the atlas
  return o;
}

// Tolerance for "the same image": interpolation of light across a cell differs from the vertex
// pipeline's by float rounding only, so each channel may differ by at most 2 of 255; pixels on cell
// edges may pick the neighbouring cell by rounding of the interpolated coordinate, allowed for at
// most 0.1% of the covered pixels.
TEST_F(TerrainTest, AtlasPathMatchesTheUnmergedMesh) {
  for (const std::uint32_t mode : {1u, 0u}) {  // light only, then fully textured
    for (const char* view : {"overview", "ground"}) {
      const auto merged = render::render_voxel_scene(ctx(), small_scene(true, mode, view));
      const auto unmerged = render::render_voxel_scene(ctx(), small_scene(false, mode, view));
      ASSERT_EQ(merged.frames.size(), 1u);
      ASSERT_LT(merged.memory.vertices, unmerged.memory.vertices);  // merging did something
      ASSERT_GT(merged.memory.atlas_records, 0u);
      const auto& a = merged.frames[0].rgba;
      const auto& b = unmerged.frames[0].rgba;
      std::size_t covered = 0, beyond = 0;
      for (std::size_t px = 0; px < a.size() / 4; ++px) {
        if (merged.frames[0].depth[px] > 0.0f) ++covered;
        int diff = 0;
        for (int c = 0; c < 3; ++c) diff = std::max(diff, std::abs(int(a[px * 4 + c]) - int(b[px * 4 + c])));
        if (diff > 2) ++beyond;
      }
      ASSERT_GT(covered, a.size() / 4 / 10) << view;  // the view shows a good part of the world
      EXPECT_LE(beyond, covered / 1000) << view << " mode " << mode << ": " << beyond << " of " << covered;
      std::printf("%s mode %u: %zu of %zu covered pixels differ by more than 2\n", view, mode, beyond,
                  covered);
    }
  }
}

TEST_F(TerrainTest, NothingAboveTheSliceIsVisible) {
  const auto r = render::render_voxel_scene(ctx(), small_scene(true, 0, "sliced"));
  ASSERT_EQ(r.frames.size(), 1u);
  const render::VoxelView preset = render::voxel_camera_presets(kSmallWorld)[2];
  ASSERT_EQ(preset.name, "sliced");
  const render::FrameView view = render::FrameView::of_camera(preset.camera, 320, 200, kWorldUp);
  const glm::mat4 inverse = glm::inverse(view.view_proj);
  std::size_t covered = 0;
  float highest = -1e30f;
  for (std::uint32_t y = 0; y < 200; ++y) {
    for (std::uint32_t x = 0; x < 320; ++x) {
      const float d = r.frames[0].depth[y * 320 + x];
      if (d <= 0.0f) continue;  // background
      ++covered;
      const glm::vec4 ndc((float(x) + 0.5f) / 320.0f * 2.0f - 1.0f, (float(y) + 0.5f) / 200.0f * 2.0f - 1.0f,
                          d, 1.0f);
      const glm::vec4 world = inverse * ndc;
      highest = std::max(highest, world.y / world.w);
    }
  }
  ASSERT_GT(covered, 1000u);
  // Depth reconstruction is exact to about 1e-3 world units here; the slice must hold to that.
  EXPECT_LE(highest, view.slice_height + 0.01f);
  EXPECT_GT(highest, view.slice_height - 2.0f);  // the slice does cut through terrain
}

TEST_F(TerrainTest, StaticFramesUploadNothingAndEditsUploadOnlyTheirPages) {
  voxel::World world = voxel::generate_world(kSmallWorld, voxel::GeneratorParams{3});
  voxel::compute_light(world);
  std::vector<voxel::SectionMesh> meshes;
  voxel::WorldMesher mesher;
  mesher.mesh_all(world, {}, meshes);
  render::TerrainRenderer terrain(ctx(), world.sections(), render::OffscreenTarget::kColorFormat,
                                  render::OffscreenTarget::kDepthFormat);
  for (int s = 0; s < int(meshes.size()); ++s) {
    terrain.set_section(s, glm::vec3(world.section_coord(s) * voxel::kSectionSize), meshes[std::size_t(s)]);
  }
  render::OffscreenTarget target(ctx(), 160, 100);
  const render::FrameView view =
      render::FrameView::of_camera(render::voxel_camera_presets(kSmallWorld)[0].camera, 160, 100, kWorldUp);
  auto frame = [&] {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      terrain.upload(cmd);
      terrain.cull(cmd, view);
      target.begin(cmd, glm::vec4(0.0f));
      terrain.draw(cmd, view);
      target.end(cmd);
    });
    return terrain.frame_stats();
  };
  const auto first = frame();
  EXPECT_TRUE(first.culled);
  EXPECT_GT(first.geometry_bytes, 0u);
  const auto still = frame();
  EXPECT_FALSE(still.culled);
  EXPECT_EQ(still.uploaded_bytes, 0u);
  EXPECT_EQ(still.pipeline_binds, 1u);  // the graphics pipeline only
  EXPECT_GT(still.arenas_drawn, 0u);

  // Dig one voxel at the surface in the middle of the world.
  glm::ivec3 p(kSmallWorld.x / 2, kSmallWorld.y - 1, kSmallWorld.z / 2);
  while (p.y > 0 && world.material(p) == voxel::kAir) --p.y;
  const voxel::EditResult edit = voxel::edit_voxel(world, p, voxel::kAir, 0);
  ASSERT_FALSE(edit.dirty_sections.empty());
  mesher.mesh_sections(world, edit.dirty_sections, {}, meshes);
  std::uint64_t expected = 0;
  for (const int s : edit.dirty_sections) {
    const auto& m = meshes[std::size_t(s)];
    expected += (m.vertices.size() + m.atlas.size()) * 28 + m.indices.size() * 4;
    terrain.set_section(s, glm::vec3(world.section_coord(s) * voxel::kSectionSize), m);
  }
  const auto edited = frame();
  EXPECT_EQ(edited.geometry_bytes, expected);
  EXPECT_TRUE(edited.culled);  // the page set changed
  EXPECT_LT(edited.uploaded_bytes, first.uploaded_bytes / 4);
  const auto after = frame();
  EXPECT_EQ(after.uploaded_bytes, 0u);
  EXPECT_EQ(ctx().validation_message_count(), 0u);
}

}  // namespace
}  // namespace myriad::test
