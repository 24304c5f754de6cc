// The streamed voxel world on the GPU: what the streamed scene uploads for a section equals, byte for
// byte, the mesh of the same section of the fixed world built at once (generate_world, compute_light,
// WorldMesher); a camera flying across the world evicts columns and their slots are taken by new ones
// while the arenas stop growing, and what the reused slots hold is again exactly the fixed world.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/streamed_voxel_scene.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/placeable.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#include "error_where.hpp"

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

// Editing through the scene (VoxelEditing, as the viewer does): a pick straight down from the camera's
// column digs the cell it hits, a slope goes on the face of a second pick; frames run until the scene says
// the edits are drawn. The GPU then holds exactly the fixed world's meshes with the same edits, the
// sections re-meshed are edit_voxel's dirty sections, and an edit on a column that is not loaded is
// refused with the world unchanged.
TEST_F(VoxelStreamingTest, EditsThroughTheSceneEqualTheEditedFixedWorldOnTheGpu) {
  FixedWorld fixed = build_fixed();
  const render::StreamedVoxelSceneOptions options = scene_options(4);
  render::StreamedVoxelScene scene(ctx(), options);
  render::OffscreenTarget target(ctx(), 160, 100);
  const render::SceneCamera camera = camera_at({200.0f, 260.0f});
  settle(ctx(), scene, camera, target, options.upload_budget);
  render::VoxelEditing& editing = *scene.voxel_editing();
  std::size_t expected_sections = 0;
  const auto apply = [&](const voxel::VoxelEdit& e) {
    editing.edit(e);
    expected_sections += voxel::edit_voxel(fixed.world, e.cell, e.material, e.form).dirty_sections.size();
    const render::FrameOptions settings;
    for (int frame = 0; frame < 2000 && editing.edit_stats().waiting; ++frame) {
      scene.update(1.0 / 60.0, camera, target.width(), target.height(), settings);
      ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
      scene.finish_frame();
    }
    EXPECT_FALSE(editing.edit_stats().waiting);
    EXPECT_GE(editing.edit_stats().last_frames_to_visible, 1u);
  };
  const glm::dvec3 down(0.0, -1.0, 0.0);
  for (int k = 0; k < 3; ++k) {
    const voxel::PickResult hit = editing.pick({212.5 + k, 120.0, 270.5}, down, 200.0, render::kNoSlice);
    ASSERT_EQ(hit.stop, voxel::PickStop::kHit);
    EXPECT_EQ(hit.face, voxel::kPosY);
    apply({hit.cell, voxel::kAir, 0});
  }
  const voxel::PickResult ground = editing.pick({216.5, 120.0, 266.5}, down, 200.0, render::kNoSlice);
  ASSERT_EQ(ground.stop, voxel::PickStop::kHit);
  apply({ground.place, voxel::kStone, voxel::placeable_form(1, 1)});
  apply({ground.place + glm::ivec3(0, 0, 1), voxel::kLampWarm, voxel::kFormFull});
  EXPECT_EQ(editing.edit_stats().edits, 5u);
  EXPECT_EQ(editing.edit_stats().sections_remeshed, expected_sections);
  EXPECT_GT(editing.edit_stats().sections_uploaded, 0u);
  voxel::WorldMesher mesher;
  mesher.mesh_all(fixed.world, voxel::MeshOptions{}, fixed.meshes);
  int compared = 0;
  expect_equal_to_fixed(ctx(), scene, fixed, compared);
  EXPECT_GT(compared, 81);
  // A column far outside the streamed radius: refused, nothing queued.
  EXPECT_THROW(editing.edit({{5, 30, 5}, voxel::kStone, voxel::kFormFull}), Error);
  EXPECT_THROW(editing.edit({{-1, 30, 5}, voxel::kStone, voxel::kFormFull}), Error);
  EXPECT_EQ(editing.edit_stats().edits, 5u);
  EXPECT_EQ(editing.pick({5.5, 100.0, 5.5}, down, 200.0, render::kNoSlice).stop, voxel::PickStop::kUnloaded);
}

// The outline of a picked cell changes the image only around that cell, and clearing it restores the
// image exactly.
TEST_F(VoxelStreamingTest, TheOutlineDrawsOnlyAroundThePickedCell) {
  const render::StreamedVoxelSceneOptions options = scene_options(4);
  render::StreamedVoxelScene scene(ctx(), options);
  render::OffscreenTarget target(ctx(), 160, 100);
  settle(ctx(), scene, camera_at({200.0f, 260.0f}), target, options.upload_budget);
  // Close over a ground cell, so it spans many pixels.
  const voxel::PickResult ground =
      scene.pick({212.5, 120.0, 270.5}, {0.0, -1.0, 0.0}, 200.0, render::kNoSlice);
  ASSERT_EQ(ground.stop, voxel::PickStop::kHit);
  const glm::vec3 centre = glm::vec3(ground.cell) + 0.5f;
  const render::SceneCamera camera =
      render::SceneCamera::look_at(centre + glm::vec3(-3.0f, 4.0f, -2.5f), centre);
  const auto frame = [&] {
    const render::FrameOptions settings;
    scene.update(0.0, camera, target.width(), target.height(), settings);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    return target.read_color();
  };
  const std::vector<std::uint8_t> plain = frame();
  // The cell the centre of the view looks at.
  const voxel::PickResult hit =
      scene.pick(glm::dvec3(camera.eye), glm::dvec3(centre - glm::vec3(camera.eye)), 300.0, render::kNoSlice);
  ASSERT_EQ(hit.stop, voxel::PickStop::kHit);
  scene.set_outline(render::CellOutlineTarget{hit.cell, hit.face});
  const std::vector<std::uint8_t> outlined = frame();
  // The cell's corners projected: every changed pixel lies within their box (a pixel of slack).
  const render::FrameView view =
      render::FrameView::of_camera(camera, target.width(), target.height(), {0, 1, 0});
  glm::vec2 lo(1e9f), hi(-1e9f);
  for (int c = 0; c < 8; ++c) {
    const glm::vec4 clip =
        view.view_proj * glm::vec4(glm::vec3(hit.cell) + glm::vec3(voxel::corner_offset(c)), 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const glm::vec2 px = (ndc * 0.5f + 0.5f) * glm::vec2(target.width(), target.height());
    lo = glm::min(lo, px);
    hi = glm::max(hi, px);
  }
  int changed = 0, outside = 0;
  for (std::uint32_t y = 0; y < target.height(); ++y)
    for (std::uint32_t x = 0; x < target.width(); ++x) {
      const std::size_t i = (std::size_t(y) * target.width() + x) * 4;
      if (std::equal(plain.begin() + std::ptrdiff_t(i), plain.begin() + std::ptrdiff_t(i + 3),
                     outlined.begin() + std::ptrdiff_t(i)))
        continue;
      ++changed;
      const glm::vec2 p(float(x) + 0.5f, float(y) + 0.5f);
      if (p.x < lo.x - 1.5f || p.y < lo.y - 1.5f || p.x > hi.x + 1.5f || p.y > hi.y + 1.5f) ++outside;
    }
  EXPECT_GT(changed, 40);
  EXPECT_EQ(outside, 0);
  scene.set_outline(std::nullopt);
  EXPECT_EQ(frame(), plain);
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

// The level choice is kept across frames and made again only where readiness changed or the camera
// brought units within reach: along a flight that streams columns and far blocks in and out, with edits
// that take columns' meshes away and back, every frame draws each unit within reach as a choice made
// from scratch would, and most frames choose under few blocks.
TEST_F(VoxelStreamingTest, TheKeptLevelChoiceEqualsAChoiceFromScratchEveryFrame) {
  render::StreamedVoxelSceneOptions o = scene_options(4);
  o.upload_budget = 96u << 10;  // units arrive over several frames
  render::StreamedVoxelScene scene(ctx(), o);
  render::OffscreenTarget target(ctx(), 160, 100);
  const render::FrameOptions settings;
  std::uint32_t errors = 0, edits = 0;
  std::uint64_t blocks = 0, quiet = 0;
  const int frames = 300;
  const auto camera = [](int f) {  // around a loop at 40 m/s
    const float a = 40.0f * float(f) / 60.0f / 120.0f;
    render::SceneCamera c;
    c.eye = glm::vec3(256.0f + 120.0f * std::cos(a), 60.0f, 256.0f + 120.0f * std::sin(a));
    c.forward = glm::normalize(glm::vec3(-std::sin(a), -0.3f, std::cos(a)));
    return c;
  };
  settle(ctx(), scene, camera(0), target, o.upload_budget);
  for (int f = 0; f < frames; ++f) {
    const render::SceneCamera c = camera(f);
    // Every 30 frames a dig under the camera (its column and its neighbours re-mesh), where the column has
    // arrived (the flight may outrun the stream on a busy machine).
    const glm::ivec3 cell(int(c.eye.x), 20 + f % 17, int(c.eye.z));
    if (f % 30 == 0 &&
        scene.world().column_state({cell.x >> 4, cell.z >> 4}) == voxel::ColumnState::kMeshed) {
      scene.edit({cell, 0, 0});
      ++edits;
    }
    scene.update(1.0 / 60.0, c, target.width(), target.height(), settings);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
    scene.finish_frame();
    const std::uint32_t e = scene.level_choice_errors();
    if (e > 0 && errors == 0) ADD_FAILURE() << "frame " << f << ": " << e << " units drawn otherwise";
    errors += e;
    blocks += scene.stats().level_blocks_chosen;
    quiet += scene.stats().levels_chosen ? 0 : 1;
  }
  EXPECT_EQ(errors, 0u);
  EXPECT_GE(edits, 1u);  // at least the one at the settled start
  EXPECT_GT(scene.stats().shown_columns, 0u);
  EXPECT_GT(scene.stats().shown_far_blocks, 0u);
  // A from-scratch choice would visit every top-level block over the reach each frame (hundreds).
  EXPECT_LT(double(blocks) / frames, 40.0);
  std::printf("level choice: %.1f top-level blocks a frame on average, %llu quiet frames of %d\n",
              double(blocks) / frames, static_cast<unsigned long long>(quiet), frames);
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

namespace myriad::test {
namespace {

// A window of 4 x 4 units of `sections_y` sections, with the streamed world's arenas.
render::StreamTerrainOptions small_window(int sections_y) {
  render::StreamTerrainOptions o;
  o.window = 4;
  o.sections_y = sections_y;
  o.arenas = render::stream_arena_options();
  return o;
}

// A unit waits while any of its sections waits, whichever its height, and a unit a window away (the same
// slots) does not wait for it.
TEST_F(VoxelStreamingTest, AUnitWaitsWhileAnyOfItsSectionsWaits) {
  const render::StreamTerrainOptions o = small_window(4);
  render::StreamTerrain terrain(ctx(), o, render::OffscreenTarget::kColorFormat,
                                render::OffscreenTarget::kDepthFormat);
  const auto nothing = [](glm::ivec3) -> const voxel::SectionMesh* { return nullptr; };
  for (int sy = 0; sy < o.sections_y; ++sy) {
    const voxel::SectionMesh empty;
    terrain.changed({1, sy, 2});
    EXPECT_FALSE(terrain.unit_current({1, 2})) << "section " << sy;
    EXPECT_TRUE(terrain.unit_current({1 + o.window, 2})) << "section " << sy;  // the same slots
    EXPECT_TRUE(terrain.unit_current({2, 2}));
    (void)terrain.apply([&](glm::ivec3 s) { return s == glm::ivec3(1, sy, 2) ? &empty : nothing(s); },
                        1u << 20);
    EXPECT_TRUE(terrain.unit_current({1, 2})) << "section " << sy;
  }
}

// An evicted unit's page is hidden at once and removed at the share each frame gives, oldest first; a
// section that takes a slot still holding such a page replaces it (nothing left to remove there).
TEST_F(VoxelStreamingTest, EvictedPagesAreHiddenAtOnceAndRemovedAtTheirShare) {
  const render::StreamTerrainOptions o = small_window(2);
  render::StreamTerrain terrain(ctx(), o, render::OffscreenTarget::kColorFormat,
                                render::OffscreenTarget::kDepthFormat);
  voxel::SectionMesh mesh;
  mesh.vertices.resize(3);
  mesh.vertices[1].px = 1;
  mesh.vertices[2].pz = 1;
  mesh.indices = {0, 1, 2};
  const auto source = [&mesh](glm::ivec3) { return &mesh; };
  const render::TerrainRenderer& renderer = terrain.renderer();
  auto placed = [&](glm::ivec3 s) {
    return renderer.arenas().placement(std::uint32_t(terrain.slot_of(s))).placed();
  };
  auto hidden = [&](glm::ivec3 s) { return renderer.section_hidden(terrain.slot_of(s)); };
  for (int x = 0; x < 3; ++x) terrain.changed({x, 0, 0});
  (void)terrain.apply(source, 1u << 20);
  for (int x = 0; x < 3; ++x) ASSERT_TRUE(terrain.shows({x, 0, 0}));

  for (int x = 0; x < 3; ++x) terrain.evicted({x, 0, 0});
  EXPECT_EQ(terrain.removals_pending(), 3u);
  for (int x = 0; x < 3; ++x) {
    EXPECT_FALSE(terrain.shows({x, 0, 0})) << x;
    EXPECT_TRUE(hidden({x, 0, 0})) << x;  // not drawn while its page waits
    EXPECT_TRUE(placed({x, 0, 0})) << x;
  }
  EXPECT_EQ(terrain.apply(source, 1u << 20, 0, ~0u, 2).removed_sections, 2u);
  EXPECT_EQ(terrain.removals_pending(), 1u);
  for (int x = 0; x < 2; ++x) {
    EXPECT_FALSE(placed({x, 0, 0})) << x;
    EXPECT_FALSE(hidden({x, 0, 0})) << x;  // an empty slot, ready for the next unit
  }
  EXPECT_TRUE(placed({2, 0, 0}));
  EXPECT_TRUE(hidden({2, 0, 0}));

  // The unit a window further on takes the third slot before its old page's turn.
  const glm::ivec3 next(2 + o.window, 0, 0);
  ASSERT_EQ(terrain.slot_of(next), terrain.slot_of({2, 0, 0}));
  terrain.changed(next);
  EXPECT_EQ(terrain.apply(source, 1u << 20, 0, ~0u, 0).uploaded_sections, 1u);
  EXPECT_EQ(terrain.removals_pending(), 0u);
  EXPECT_TRUE(terrain.shows(next));
  EXPECT_EQ(terrain.apply(source, 1u << 20).removed_sections, 0u);  // its entry is skipped
  EXPECT_TRUE(terrain.shows(next));
  EXPECT_TRUE(placed(next));
}

// The scene feeds each pacer its arrivals: with a floor of a thousandth of the queue (one item a frame)
// and the arrival rate on, frames upload, place plants and remove pages several at a time; fed nothing,
// the rate stays 0 and every frame takes one of each (one removal per window).
TEST_F(VoxelStreamingTest, ThePacersFollowTheArrivalRates) {
  render::StreamedVoxelSceneOptions options = scene_options(3);
  options.pacing = {.frames = 1000, .smoothing_frames = 30, .headroom = 2.0};
  render::StreamedVoxelScene scene(ctx(), options);
  render::OffscreenTarget target(ctx(), 160, 100);
  const render::FrameOptions settings;
  std::uint32_t most_uploaded = 0, most_placed = 0, most_removed = 0;
  for (const glm::vec2 at : {glm::vec2(100.0f), glm::vec2(400.0f)}) {  // the second evicts the first's
    int frame = 0;
    for (; frame < 5000; ++frame) {
      scene.update(1.0 / 60.0, camera_at(at), target.width(), target.height(), settings);
      most_uploaded = std::max(most_uploaded, scene.stats().uploads.uploaded_sections);
      most_placed = std::max(most_placed, scene.stats().vegetation_placed);
      most_removed = std::max(most_removed, scene.stats().uploads.removed_sections);
      ctx().submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
      scene.finish_frame();
      if (scene.settled()) break;
    }
    ASSERT_LT(frame, 5000) << "the stream did not settle";
  }
  EXPECT_GT(most_uploaded, 1u);
  EXPECT_GT(most_placed, 1u);
  // Removals are paced per window: one each would be 1 + far_levels at most.
  EXPECT_GT(most_removed, std::uint32_t(1 + options.far_levels));
}

// The plants the vegetation renderer holds: those of the meshed sections of the columns around `xz`, and
// no others (the columns of an earlier place were evicted).
std::uint64_t plants_of_meshed_sections(render::StreamedVoxelScene& scene, glm::vec2 xz) {
  const voxel::StreamWorld& world = scene.world();
  const glm::ivec2 centre(int(xz.x) / voxel::kSectionSize, int(xz.y) / voxel::kSectionSize);
  const int reach = scene.options().radius + 3;  // every column the stream may still hold
  std::uint64_t plants = 0;
  for (int z = centre.y - reach; z <= centre.y + reach; ++z)
    for (int x = centre.x - reach; x <= centre.x + reach; ++x)
      for (int sy = 0; sy < kWorld.y / voxel::kSectionSize; ++sy)
        if (const voxel::SectionVegetation* v = world.vegetation({x, sy, z}))
          plants += v->grass.size() + v->trees.size();
  return plants;
}

// The renderer holds exactly the plants of the meshed sections, after settling, after a flight away (the
// first place's columns evicted) and back: none outlive their section, and none are missing (a section
// without faces may hold plants rooted on the top face of the section below).
TEST_F(VoxelStreamingTest, ThePlantsDrawnAreExactlyThoseOfTheMeshedSections) {
  const render::StreamedVoxelSceneOptions options = scene_options(3);
  render::StreamedVoxelScene scene(ctx(), options);
  ASSERT_NE(scene.vegetation(), nullptr);
  render::OffscreenTarget target(ctx(), 160, 100);
  const glm::vec2 home(100.0f), away(420.0f);
  settle(ctx(), scene, camera_at(home), target, options.upload_budget);
  const std::uint64_t home_plants = plants_of_meshed_sections(scene, home);
  ASSERT_GT(home_plants, 100u) << "a place with plants";
  EXPECT_EQ(scene.vegetation()->live_instances(), home_plants);
  settle(ctx(), scene, camera_at(away), target, options.upload_budget);
  EXPECT_EQ(scene.vegetation()->live_instances(), plants_of_meshed_sections(scene, away));
  settle(ctx(), scene, camera_at(home), target, options.upload_budget);
  EXPECT_EQ(scene.vegetation()->live_instances(), home_plants);
}

// The options check themselves before anything is built, naming the field: the pacing's own fields under
// the scene's name.
TEST(StreamedVoxelSceneOptionsTest, ValidateNamesTheFieldOutsideItsLimits) {
  EXPECT_NO_THROW(render::StreamedVoxelSceneOptions{}.validate());
  render::StreamedVoxelSceneOptions o;
  o.pacing.frames = 0;
  EXPECT_EQ(where_of([&] { o.validate(); }), "StreamedVoxelSceneOptions::pacing.frames");
  o = {};
  o.pacing.smoothing_frames = -1;
  EXPECT_EQ(where_of([&] { o.validate(); }), "StreamedVoxelSceneOptions::pacing.smoothing_frames");
  o = {};
  o.pacing.headroom = 0.9;
  EXPECT_EQ(where_of([&] { o.validate(); }), "StreamedVoxelSceneOptions::pacing.headroom");
  o = {};
  o.vegetation_sections_per_frame = -1;
  EXPECT_EQ(where_of([&] { o.validate(); }), "StreamedVoxelSceneOptions::vegetation_sections_per_frame");
}

}  // namespace
}  // namespace myriad::test
