// The figures `myriad bench voxel-gpu` reports for the voxel article's two views: the pipeline binds
// counted in the recorded command stream equal the systems' own counts plus the sky pass, the zoomed-out
// view has the whole world inside the frame and the game view less of it, and per-pass GPU times come
// exactly when the device has timestamps.
#include <algorithm>
#include <string>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"

namespace myriad::test {
namespace {

class VoxelFrameFiguresTest : public GpuTest {};

const render::VoxelFrame& frame_named(const render::VoxelSceneResult& r, const std::string& name) {
  const auto it = std::find_if(r.frames.begin(), r.frames.end(),
                               [&](const render::VoxelFrame& f) { return f.name == name; });
  EXPECT_NE(it, r.frames.end()) << name;
  return *it;
}

TEST_F(VoxelFrameFiguresTest, ArticleViewsReportRecordedBindsDrawsAndPassTimes) {
  render::VoxelSceneOptions o;
  o.size = {128, 64, 128};
  o.width = 192;
  o.height = 108;
  o.views = {"zoomed_out", "game"};
  const render::VoxelSceneResult r = render::render_voxel_scene(ctx(), o);
  ASSERT_EQ(r.frames.size(), 2u);
  for (const render::VoxelFrame& f : r.frames) {
    SCOPED_TRACE(f.name);
    // Counted independently: each system's own bookkeeping of its binds, and the sky pass's one bind
    // (the frame has no shadow map, and uploads were done before the first frame).
    const std::uint64_t own = f.stats.pipeline_binds + f.vegetation.pipeline_binds + 1;
    EXPECT_GT(f.pipeline_binds, 0u);
    EXPECT_EQ(f.pipeline_binds, own);
    // Graphics: the terrain's arenas, grass and trees, the sky; the rest is culling and wind.
    EXPECT_GE(f.graphics_binds, 3u);
    EXPECT_LT(f.graphics_binds, f.pipeline_binds);
    EXPECT_GT(f.stats.arenas_drawn, 0u);
    EXPECT_EQ(f.vegetation.draws, 3u);
    if (ctx().has_timestamps()) {
      EXPECT_EQ(f.timing, gpu::TimingSource::kGpuTimestamps);
      ASSERT_EQ(f.gpu_passes.size(), 2u);
      EXPECT_EQ(f.gpu_passes[0].name, "cull");
      EXPECT_EQ(f.gpu_passes[1].name, "draw");
      for (const auto& pass : f.gpu_passes) EXPECT_GE(pass.ms, 0.0);
      EXPECT_GT(f.gpu_passes[1].ms, 0.0);
    } else {
      EXPECT_EQ(f.timing, gpu::TimingSource::kWallClock);
      EXPECT_TRUE(f.gpu_passes.empty());
    }
  }
  // Maximum zoom-out: every arena of the world is drawn and nothing touches the frame's edges (reverse-Z
  // depth 0 there: only sky), so the whole world is in view. The game scale draws part of it.
  const render::VoxelFrame& out = frame_named(r, "zoomed_out");
  const render::VoxelFrame& game = frame_named(r, "game");
  EXPECT_EQ(out.stats.arenas_drawn, out.stats.arenas);
  ASSERT_EQ(out.depth.size(), std::size_t(o.width) * o.height);
  for (std::uint32_t y = 0; y < o.height; ++y) {
    for (std::uint32_t x = 0; x < o.width; ++x) {
      if (x == 0 || y == 0 || x + 1 == o.width || y + 1 == o.height) {
        ASSERT_EQ(out.depth[std::size_t(y) * o.width + x], 0.0f) << x << ", " << y;
      }
    }
  }
  EXPECT_LT(game.vegetation_counts.trees, out.vegetation_counts.trees);
  std::size_t covered = 0;
  for (float d : game.depth) covered += d > 0.0f ? 1 : 0;
  EXPECT_GT(covered, game.depth.size() * 8 / 10);  // the game scale looks down: ground almost everywhere
}

}  // namespace
}  // namespace myriad::test
