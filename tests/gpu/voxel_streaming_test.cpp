// The streamed voxel world on the GPU: what the streamed scene uploads for a section equals, byte for
// byte, the mesh of the same section of the fixed world built at once (generate_world, compute_light,
// WorldMesher); a camera flying across the world evicts columns and their slots are taken by new ones
// while the arenas stop growing, and what the reused slots hold is again exactly the fixed world.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/streamed_voxel_scene.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::test {
namespace {

class VoxelStreamingTest : public GpuTest {};

constexpr glm::ivec3 kWorld{512, 64, 512};
constexpr std::uint64_t kSeed = 5;

render::StreamedVoxelSceneOptions scene_options(int radius) {
  render::StreamedVoxelSceneOptions o;
  o.world_size = kWorld;
  o.seed = kSeed;
  o.radius = radius;
  o.worker_threads = 1;
  o.upload_budget = 256u << 10;  // small: streaming takes several frames and the budget binds
  return o;
}

render::SceneCamera camera_at(glm::vec2 xz) {
  return render::SceneCamera::look_at(glm::vec3(xz.x, 70.0f, xz.y),
                                      glm::vec3(xz.x + 30.0f, 30.0f, xz.y + 20.0f));
}

// Frames until nothing is left to stream or upload; every frame's uploads stay within the budget.
void settle(gpu::Context& ctx, render::StreamedVoxelScene& scene, const render::SceneCamera& camera,
            render::OffscreenTarget& target, std::uint64_t budget) {
  const render::FrameOptions settings;
  for (int frame = 0; frame < 100000; ++frame) {
    scene.update(1.0 / 60.0, camera, target.width(), target.height(), settings);
    const render::StreamTerrainStats& up = scene.stats().uploads;
    EXPECT_TRUE(up.uploaded_bytes <= budget || (up.over_budget && up.uploaded_sections == 1));
    ctx.submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    if (scene.settled() && scene.terrain().renderer().pending_upload_bytes() == 0) return;
  }
  FAIL() << "the stream did not settle";
}

struct FixedWorld {
  voxel::World world;
  std::vector<voxel::SectionMesh> meshes;
};

FixedWorld build_fixed() {
  FixedWorld f{voxel::generate_world(kWorld, voxel::GeneratorParams{kSeed}), {}};
  voxel::compute_light(f.world);
  voxel::WorldMesher mesher;
  mesher.mesh_all(f.world, voxel::MeshOptions{}, f.meshes);
  return f;
}

// Every section of every meshed column: its slot's arena ranges hold the fixed world's mesh bytes (vertices
// and atlas records, then indices) and its page bounds are the fixed mesh's bounds at the section's origin.
// Counts the sections compared into `compared`.
void expect_equal_to_fixed(gpu::Context& ctx, render::StreamedVoxelScene& scene, const FixedWorld& fixed,
                           int& compared) {
  const render::TerrainRenderer& terrain = scene.terrain().renderer();
  const glm::ivec2 columns = scene.world().columns();
  compared = 0;
  for (int cz = 0; cz < columns.y; ++cz) {
    for (int cx = 0; cx < columns.x; ++cx) {
      if (scene.world().column_state({cx, cz}) != voxel::ColumnState::kMeshed) continue;
      for (int sy = 0; sy < kWorld.y / voxel::kSectionSize; ++sy) {
        const glm::ivec3 s(cx, sy, cz);
        const voxel::SectionMesh& want = fixed.meshes[std::size_t(fixed.world.section_index(s))];
        const int slot = scene.terrain().slot_of(s);
        const render::PagePlacement& pl = terrain.arenas().placement(std::uint32_t(slot));
        if (want.indices.empty()) {
          // An empty section has no page, or its slot holds another column's section.
          continue;
        }
        ++compared;
        ASSERT_TRUE(pl.placed()) << "section " << s.x << "," << s.y << "," << s.z;
        ASSERT_EQ(pl.index_count, want.indices.size());
        ASSERT_EQ(pl.vertex_count, want.vertices.size() + want.atlas.size());
        std::vector<std::byte> bytes(want.vertices.size() * sizeof(voxel::TerrainVertex));
        std::memcpy(bytes.data(), want.vertices.data(), bytes.size());
        const auto* atlas = reinterpret_cast<const std::byte*>(want.atlas.data());
        bytes.insert(bytes.end(), atlas, atlas + want.atlas.size() * sizeof(voxel::AtlasRecord));
        const auto vertices =
            gpu::read_buffer(ctx, terrain.buffers().vertex_buffer(pl.arena),
                             VkDeviceSize(pl.vertices.offset) * sizeof(voxel::TerrainVertex), bytes.size());
        ASSERT_EQ(vertices, bytes) << "section " << s.x << "," << s.y << "," << s.z;
        const auto indices =
            gpu::read_buffer_as<std::uint32_t>(ctx, terrain.buffers().index_buffer(pl.arena),
                                               want.indices.size(), VkDeviceSize(pl.indices.offset) * 4);
        ASSERT_EQ(indices, want.indices);
        Aabb bounds;
        const glm::vec3 origin = glm::vec3(s * voxel::kSectionSize);
        for (const voxel::TerrainVertex& v : want.vertices)
          bounds.expand(origin + glm::vec3(v.px, v.py, v.pz));
        const Aabb page = terrain.page_bounds(std::uint32_t(slot));
        ASSERT_EQ(page.min, bounds.min);
        ASSERT_EQ(page.max, bounds.max);
      }
    }
  }
}

TEST_F(VoxelStreamingTest, StreamedSectionsEqualTheFixedWorldByteForByte) {
  const FixedWorld fixed = build_fixed();
  const render::StreamedVoxelSceneOptions options = scene_options(4);
  render::StreamedVoxelScene scene(ctx(), options);
  render::OffscreenTarget target(ctx(), 160, 100);
  settle(ctx(), scene, camera_at({200.0f, 260.0f}), target, options.upload_budget);
  EXPECT_EQ(scene.stats().hole_columns, 0u);
  int compared = 0;
  expect_equal_to_fixed(ctx(), scene, fixed, compared);
  EXPECT_GT(compared, 81);  // at least the 9 x 9 meshed columns' ground sections
}

// The level choice runs only on change: a settled world seen from the same column, turned or not, keeps
// its choice (and draws no hole); a step into the next column chooses again.
TEST_F(VoxelStreamingTest, TheLevelChoiceRunsOnlyWhenItsInputsChange) {
  const render::StreamedVoxelSceneOptions options = scene_options(4);
  render::StreamedVoxelScene scene(ctx(), options);
  render::OffscreenTarget target(ctx(), 160, 100);
  const render::FrameOptions settings;
  settle(ctx(), scene, camera_at({200.0f, 260.0f}), target, options.upload_budget);
  for (int turn = 0; turn < 3; ++turn) {
    render::SceneCamera c = camera_at({200.0f, 260.0f});
    c.forward = glm::normalize(glm::vec3(std::cos(float(turn)), -0.4f, std::sin(float(turn))));
    scene.update(1.0 / 60.0, c, target.width(), target.height(), settings);
    EXPECT_FALSE(scene.stats().levels_chosen) << "turn " << turn;
    EXPECT_EQ(scene.stats().hole_columns, 0u) << "turn " << turn;
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
  }
  scene.update(1.0 / 60.0, camera_at({200.0f + float(voxel::kSectionSize), 260.0f}), target.width(),
               target.height(), settings);
  EXPECT_TRUE(scene.stats().levels_chosen);
}

TEST_F(VoxelStreamingTest, EvictedSlotsAreReusedAndTheArenasStopGrowing) {
  const FixedWorld fixed = build_fixed();
  const render::StreamedVoxelSceneOptions options = scene_options(3);
  render::StreamedVoxelScene scene(ctx(), options);
  render::OffscreenTarget target(ctx(), 160, 100);
  // Out along a diagonal and back along another line: every column is left behind at least once, most
  // slots are taken by several columns in turn.
  std::vector<glm::vec2> path;
  for (float t = 0.0f; t <= 1.0f; t += 0.05f)
    path.push_back(glm::mix(glm::vec2(60.0f), glm::vec2(450.0f), t));
  for (float t = 0.0f; t <= 1.0f; t += 0.05f)
    path.push_back(glm::mix(glm::vec2(450.0f, 60.0f), glm::vec2(60.0f, 450.0f), t));
  std::uint64_t arenas_after_first_half = 0, vertex_bytes_after_first_half = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    settle(ctx(), scene, camera_at(path[i]), target, options.upload_budget);
    if (i + 1 == path.size() / 2) {
      arenas_after_first_half = scene.terrain().renderer().arenas().arenas().size();
      vertex_bytes_after_first_half = scene.terrain().renderer().memory().vertex_bytes;
    }
  }
  EXPECT_GT(scene.terrain().slot_reuses(), 500u);
  const render::TerrainRenderer& terrain = scene.terrain().renderer();
  EXPECT_EQ(terrain.arenas().arenas().size(), arenas_after_first_half);
  EXPECT_EQ(terrain.memory().vertex_bytes, vertex_bytes_after_first_half);
  int compared = 0;
  expect_equal_to_fixed(ctx(), scene, fixed, compared);
  EXPECT_GT(compared, 49);
}

}  // namespace
}  // namespace myriad::test
namespace myriad::test {
namespace {

// Which levels draw something over a column: the fine column's own sections, its level-1 block's, its
// level-2 block's.
bool any_shown(render::StreamTerrain& t, glm::ivec2 unit) {
  for (int sy = 0; sy < t.options().sections_y; ++sy)
    if (t.shows({unit.x, sy, unit.y})) return true;
  return false;
}

int levels_drawing(render::StreamedVoxelScene& scene, glm::ivec2 c) {
  int levels = 0;
  const auto any = any_shown;
  levels += any(scene.terrain(), c) ? 1 : 0;
  glm::ivec2 b = c;
  for (int level = 1; level <= scene.far_levels(); ++level) {
    b = glm::ivec2(b.x >> 1, b.y >> 1);
    levels += any(scene.far_terrain(level), b) ? 1 : 0;
  }
  return levels;
}

// While the fine columns stream in, each place is drawn by one level at most (no two surfaces of the same
// ground fighting); once settled, by exactly one, the fine level near the camera.
TEST_F(VoxelStreamingTest, EachPlaceIsDrawnByOneLevel) {
  render::StreamedVoxelSceneOptions o = scene_options(4);
  o.vegetation = false;
  o.upload_budget = 64u << 10;  // slow uploads: many frames with fine columns partly arrived
  render::StreamedVoxelScene scene(ctx(), o);
  render::OffscreenTarget target(ctx(), 160, 100);
  const render::SceneCamera camera = camera_at({256.0f, 256.0f});
  const render::FrameOptions settings;
  int overlaps = 0, frames = 0;
  for (; frames < 100000; ++frames) {
    scene.update(1.0 / 60.0, camera, target.width(), target.height(), settings);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    for (int z = 0; z < 32; ++z)
      for (int x = 0; x < 32; ++x) overlaps += levels_drawing(scene, {x, z}) > 1 ? 1 : 0;
    if (scene.settled()) break;
  }
  EXPECT_EQ(overlaps, 0);
  EXPECT_GT(frames, 10);
  for (int dz = -3; dz <= 3; ++dz)
    for (int dx = -3; dx <= 3; ++dx) {
      const glm::ivec2 c(16 + dx, 16 + dz);
      EXPECT_EQ(levels_drawing(scene, c), 1) << c.x << "," << c.y;
      EXPECT_TRUE(any_shown(scene.terrain(), c)) << "fine column " << c.x << "," << c.y;
    }
}

// A scene made after another in the same context gets device memory that held the first one's tables:
// window slots no unit has reached yet must read as empty, never as pages of old data (a draw of those
// read arenas through stale addresses).
TEST_F(VoxelStreamingTest, ASecondSceneInTheSameContextStartsFromEmptySlots) {
  for (int round = 0; round < 2; ++round) {
    render::StreamedVoxelSceneOptions o;
    o.world_size = kWorld;
    o.radius = 4;
    o.vegetation = round == 0;
    o.worker_threads = 1;
    render::StreamedVoxelScene scene(ctx(), o);
    render::OffscreenTarget target(ctx(), 160, 100);
    for (int f = 0; f < 120; ++f) {  // around a loop at 30 m/s
      const float a = 30.0f * float(f) / 60.0f / 100.0f;
      render::SceneCamera c;
      c.eye = glm::vec3(256.0f + 100.0f * std::cos(a), 80.0f, 256.0f + 100.0f * std::sin(a));
      c.forward = glm::normalize(glm::vec3(-std::sin(a), -0.25f, std::cos(a)));
      const render::FrameOptions settings;
      scene.update(1.0 / 60.0, c, target.width(), target.height(), settings);
      ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
      scene.finish_frame();
    }
    EXPECT_GT(scene.stats().terrain.pages, 0u);
  }
}

}  // namespace
}  // namespace myriad::test
