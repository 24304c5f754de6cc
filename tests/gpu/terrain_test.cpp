// The voxel terrain on the GPU (V6, V10-V14): the atlas path renders what the unmerged mesh renders,
// nothing above the slice is visible, a static frame uploads and culls nothing, an edit uploads only
// the affected pages, arenas are filled to their content and hold only their region's pages, and a
// view that misses half the world skips those arenas with the same image.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "gpu_fixture.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

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

// One frame of the terrain alone: uploads, cull, draw into `target`.
void draw_frame(gpu::Context& ctx, render::TerrainRenderer& terrain, const render::FrameView& view,
                render::OffscreenTarget& target) {
  ctx.submit_and_wait([&](VkCommandBuffer cmd) {
    terrain.upload(cmd);
    terrain.cull(cmd, view);
    target.begin(cmd, glm::vec4(0.0f));
    terrain.draw(cmd, view);
    target.end(cmd);
  });
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

// The slice opens the world without holes (V14): wherever the view looks down through the slice plane into
// solid ground, something is drawn. Ground cut open shows its cut face (back faces, drawn only while a
// slice is set, and the world's floor under columns solid to the bottom), never what lies under the world.
TEST_F(TerrainTest, TheSliceShowsSolidGroundNotWhatLiesUnderIt) {
  const auto r = render::render_voxel_scene(ctx(), small_scene(true, 0, "sliced"));
  ASSERT_EQ(r.frames.size(), 1u);
  const render::VoxelView preset = render::voxel_camera_presets(kSmallWorld)[2];
  const render::FrameView view = render::FrameView::of_camera(preset.camera, 320, 200, kWorldUp);
  const glm::mat4 inverse = glm::inverse(view.view_proj);
  const voxel::World world = voxel::generate_world(kSmallWorld, voxel::GeneratorParams{7});  // small_scene's
  std::size_t into_solid = 0, holes = 0;
  for (std::uint32_t y = 0; y < 200; ++y)
    for (std::uint32_t x = 0; x < 320; ++x) {
      // The pixel's ray through the slice plane: into a solid cell?
      const glm::vec2 ndc((float(x) + 0.5f) / 320.0f * 2.0f - 1.0f, (float(y) + 0.5f) / 200.0f * 2.0f - 1.0f);
      const glm::vec4 a = inverse * glm::vec4(ndc, 1.0f, 1.0f), b = inverse * glm::vec4(ndc, 0.5f, 1.0f);
      const glm::vec3 from = glm::vec3(a) / a.w, to = glm::vec3(b) / b.w;
      if (!(to.y < from.y) || from.y < view.slice_height) continue;  // must look down onto the plane
      const glm::vec3 hit = from + (to - from) * ((view.slice_height - from.y) / (to.y - from.y));
      const glm::ivec3 cell(int(std::floor(hit.x)), int(std::floor(view.slice_height - 0.01f)),
                            int(std::floor(hit.z)));
      if (!world.contains(cell) || world.material(cell) == voxel::kAir) continue;
      ++into_solid;
      holes += r.frames[0].depth[y * 320 + x] <= 0.0f ? 1 : 0;
    }
  ASSERT_GT(into_solid, 3000u);
  EXPECT_EQ(holes, 0u) << "of " << into_solid << " pixels looking into cut ground";
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
    draw_frame(ctx(), terrain, view, target);
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

// 8 x 3 x 8 sections: 2 x 2 coarse chunks, one region each.
constexpr glm::ivec3 kRegionWorld{128, 48, 128};
constexpr auto kRegionSlots = std::uint32_t(kRegionWorld.x * kRegionWorld.y * kRegionWorld.z / 4096);

// Placed pages the CPU finds in the view (below its slice, meeting its frustum), less those hidden.
std::uint64_t pages_in_view(const render::TerrainRenderer& terrain, const render::FrameView& view,
                            const std::vector<bool>& hidden = {}) {
  std::uint64_t n = 0;
  for (std::uint32_t s = 0; s < kRegionSlots; ++s) {
    if (!terrain.arenas().placement(s).placed() || (s < hidden.size() && hidden[s])) continue;
    const Aabb bounds = terrain.page_bounds(s);
    if (!(bounds.min.y > view.slice_height) && view.frustum.intersects(bounds)) ++n;
  }
  return n;
}

struct BuiltTerrain {
  voxel::World world;
  voxel::WorldMesher mesher;
  std::vector<voxel::SectionMesh> meshes;
  std::unique_ptr<render::TerrainRenderer> terrain;
};

BuiltTerrain build_terrain(gpu::Context& ctx, glm::ivec3 size, std::uint64_t seed) {
  BuiltTerrain b{voxel::generate_world(size, voxel::GeneratorParams{seed}), {}, {}, nullptr};
  voxel::compute_light(b.world);
  std::vector<voxel::SectionMesh>& meshes = b.meshes;
  b.mesher.mesh_all(b.world, {}, meshes);
  b.terrain = std::make_unique<render::TerrainRenderer>(
      ctx, b.world.sections(), render::OffscreenTarget::kColorFormat, render::OffscreenTarget::kDepthFormat);
  for (int s = 0; s < int(meshes.size()); ++s) {
    b.terrain->set_section(s, glm::vec3(b.world.section_coord(s) * voxel::kSectionSize),
                           meshes[std::size_t(s)]);
  }
  return b;
}

// Every placed page's arena belongs to the page's region, and the page lies inside that region's box.
void expect_pages_inside_their_regions(const render::TerrainRenderer& terrain, std::uint32_t slots) {
  std::size_t placed = 0;
  for (std::uint32_t s = 0; s < slots; ++s) {
    const render::PagePlacement& pl = terrain.arenas().placement(s);
    if (!pl.placed()) continue;
    ++placed;
    const render::PageArena& arena = terrain.arenas().arenas().at(pl.arena);
    ASSERT_EQ(arena.region, terrain.region_of_section(s)) << "section " << s;
    const Aabb region = terrain.region_bounds(arena.region);
    const Aabb page = terrain.page_bounds(s);
    ASSERT_TRUE(page.valid()) << "section " << s;
    for (int c = 0; c < 3; ++c) {
      EXPECT_GE(page.min[c], region.min[c]) << "section " << s << " axis " << c;
      EXPECT_LE(page.max[c], region.max[c]) << "section " << s << " axis " << c;
    }
  }
  EXPECT_GT(placed, 0u);
}

// A page's box is its vertices' box whether the mesher measured it (on the worker that meshed) or the
// renderer measures the vertices itself (a mesh built by hand), at a fine and at a far level's cell
// scale, from an origin off the grid.
TEST_F(TerrainTest, PageBoxesFromTheMeshersBoundsEqualTheVerticesBoxes) {
  BuiltTerrain b = build_terrain(ctx(), kRegionWorld, 9);
  for (const float scale : {1.0f, 4.0f}) {
    render::TerrainRenderer measured(ctx(), b.world.sections(), render::OffscreenTarget::kColorFormat,
                                     render::OffscreenTarget::kDepthFormat);
    render::TerrainRenderer by_hand(ctx(), b.world.sections(), render::OffscreenTarget::kColorFormat,
                                    render::OffscreenTarget::kDepthFormat);
    measured.set_cell_scale(scale);
    by_hand.set_cell_scale(scale);
    int with_bounds = 0;
    for (int s = 0; s < int(b.meshes.size()); ++s) {
      const glm::vec3 origin =
          glm::vec3(b.world.section_coord(s) * voxel::kSectionSize) * scale + glm::vec3(0.37f, -1.25f, 2.5f);
      const voxel::SectionMesh& m = b.meshes[std::size_t(s)];
      with_bounds += m.has_bounds ? 1 : 0;
      measured.set_section(s, origin, m);
      voxel::SectionMesh copy = m;
      copy.has_bounds = false;
      copy.bounds_min = copy.bounds_max = {};
      by_hand.set_section(s, origin, copy);
    }
    EXPECT_GT(with_bounds, 20);
    for (std::uint32_t s = 0; s < kRegionSlots; ++s) {
      const Aabb a = measured.page_bounds(s), h = by_hand.page_bounds(s);
      ASSERT_EQ(a.valid(), h.valid()) << s;
      if (!a.valid()) continue;
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(a.min[c], h.min[c]) << "section " << s << " axis " << c << " scale " << scale;
        EXPECT_EQ(a.max[c], h.max[c]) << "section " << s << " axis " << c << " scale " << scale;
      }
    }
  }
}

TEST_F(TerrainTest, ArenasFitTheirContentAndHoldOnlyTheirRegionsPages) {
  BuiltTerrain b = build_terrain(ctx(), kRegionWorld, 5);
  render::TerrainRenderer& terrain = *b.terrain;
  ASSERT_EQ(terrain.region_count(), 4u);
  const std::uint32_t slots = kRegionSlots;
  ctx().submit_and_wait([&](VkCommandBuffer cmd) { terrain.upload(cmd); });
  ASSERT_EQ(terrain.pending_upload_bytes(), 0u);

  // One arena per region on a first build, each sized to its pages plus the reserve.
  std::vector<int> arenas_of_region(terrain.region_count(), 0);
  for (const render::PageArena& a : terrain.arenas().arenas()) {
    EXPECT_TRUE(a.sealed);
    EXPECT_GT(a.page_count, 0u);
    ++arenas_of_region.at(a.region);
  }
  for (const int n : arenas_of_region) EXPECT_EQ(n, 1);
  const render::TerrainMemory m = terrain.memory();
  const double vertex_fill = double(m.vertices + m.atlas_records) * 28.0 / double(m.vertex_bytes);
  const double index_fill = double(m.indices) * 4.0 / double(m.index_bytes);
  std::printf("arenas %zu, vertex fill %.3f (%llu B), index fill %.3f (%llu B)\n",
              terrain.arenas().arenas().size(), vertex_fill, static_cast<unsigned long long>(m.vertex_bytes),
              index_fill, static_cast<unsigned long long>(m.index_bytes));
  EXPECT_GE(vertex_fill, 0.75);
  EXPECT_GE(index_fill, 0.75);
  EXPECT_LE(vertex_fill, 1.0);
  expect_pages_inside_their_regions(terrain, slots);

  // Edits keep pages in their regions' arenas, in place when they fit, and never resize an arena.
  std::vector<std::uint32_t> sizes;
  for (std::uint32_t a = 0; a < terrain.arenas().arenas().size(); ++a)
    sizes.push_back(terrain.arenas().arenas()[a].vertices.capacity());
  int in_place = 0, moved = 0;
  for (int i = 0; i < 12; ++i) {
    // Spread over the world: dig a 3-voxel-deep hole at the surface, or raise a few thin stone
    // pillars (many new faces: pages outgrow their ranges and move).
    glm::ivec3 p(8 + (i * 37) % (kRegionWorld.x - 16), kRegionWorld.y - 1,
                 8 + (i * 53) % (kRegionWorld.z - 16));
    while (p.y > 3 && b.world.material(p) == voxel::kAir) --p.y;
    std::vector<int> dirty;
    auto edit = [&](glm::ivec3 at, std::uint8_t material) {
      const voxel::EditResult r = voxel::edit_voxel(b.world, at, material, 0);
      dirty.insert(dirty.end(), r.dirty_sections.begin(), r.dirty_sections.end());
    };
    if (i % 2 == 0 || p.y + 8 >= kRegionWorld.y) {
      for (int d = 0; d < 3; ++d) edit(p - glm::ivec3(0, d, 0), voxel::kAir);
    } else {
      for (int x = 0; x < 8; x += 2) {
        for (int z = 0; z < 8; z += 2) {
          for (int h = 1; h <= 6; ++h) edit(p + glm::ivec3(x - 4, h, z - 4), voxel::kStone);
        }
      }
    }
    std::sort(dirty.begin(), dirty.end());
    dirty.erase(std::unique(dirty.begin(), dirty.end()), dirty.end());
    b.mesher.mesh_sections(b.world, dirty, {}, b.meshes);
    for (const int s : dirty) {
      const render::PagePlacement before = terrain.arenas().placement(std::uint32_t(s));
      terrain.set_section(s, glm::vec3(b.world.section_coord(s) * voxel::kSectionSize),
                          b.meshes[std::size_t(s)]);
      const render::PagePlacement& after = terrain.arenas().placement(std::uint32_t(s));
      if (before.placed() && after.placed()) {
        const bool same = before.arena == after.arena && before.vertices == after.vertices;
        (same ? in_place : moved) += 1;
      }
    }
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { terrain.upload(cmd); });
  }
  std::printf("edited pages: %d rewritten in place, %d moved; %zu arenas\n", in_place, moved,
              terrain.arenas().arenas().size());
  EXPECT_GT(in_place, 0);
  EXPECT_GT(moved, 0);
  for (std::uint32_t a = 0; a < sizes.size(); ++a)
    EXPECT_EQ(terrain.arenas().arenas()[a].vertices.capacity(), sizes[a]);
  expect_pages_inside_their_regions(terrain, slots);
  EXPECT_EQ(ctx().validation_message_count(), 0u);
}

TEST_F(TerrainTest, AViewFacingAwayFromHalfTheWorldSkipsItsArenasWithTheSameImage) {
  BuiltTerrain b = build_terrain(ctx(), kRegionWorld, 5);
  render::TerrainRenderer& terrain = *b.terrain;
  constexpr std::uint32_t kW = 240, kH = 150;
  render::OffscreenTarget target(ctx(), kW, kH);
  // From just past the middle of the world towards +x: the half at x < 64 lies behind the camera.
  const render::SceneCamera camera =
      render::SceneCamera::look_at(glm::vec3(70.0f, 44.0f, 60.0f), glm::vec3(128.0f, 20.0f, 70.0f));
  const render::FrameView view = render::FrameView::of_camera(camera, kW, kH, kWorldUp);
  struct Result {
    render::TerrainFrameStats stats;
    render::TerrainRenderer::DrawCounts counts;
    std::vector<std::uint8_t> rgba;
    std::vector<float> depth;
  };
  auto frame = [&](bool coarse) {
    terrain.set_coarse_test(coarse);
    draw_frame(ctx(), terrain, view, target);
    return Result{terrain.frame_stats(), terrain.read_draw_counts(), target.read_color(),
                  target.read_depth()};
  };
  const Result all = frame(false);
  const Result skipped = frame(true);
  std::uint32_t arenas_with_pages = 0;
  for (const render::PageArena& a : terrain.arenas().arenas())
    arenas_with_pages += a.page_count > 0 ? 1u : 0u;
  EXPECT_EQ(all.stats.arenas_drawn, arenas_with_pages);
  EXPECT_LT(skipped.stats.arenas_drawn, all.stats.arenas_drawn);
  EXPECT_LE(skipped.stats.arenas_drawn * 2, all.stats.arenas_drawn);  // half the world, half the arenas
  std::printf("arenas drawn: %u of %u\n", skipped.stats.arenas_drawn, all.stats.arenas_drawn);

  // The pages drawn are exactly those the CPU finds in the frustum, with or without the skipped arenas.
  const std::uint64_t expected_pages = pages_in_view(terrain, view);
  EXPECT_GT(expected_pages, 0u);
  EXPECT_EQ(all.counts.pages, expected_pages);
  EXPECT_EQ(skipped.counts.pages, expected_pages);
  EXPECT_EQ(skipped.counts.triangles, all.counts.triangles);

  // Pixel-exact: the skipped arenas had nothing in view.
  std::size_t covered = 0;
  for (const float d : skipped.depth) covered += d > 0.0f ? 1u : 0u;
  EXPECT_GT(covered, std::size_t(kW) * kH / 4);
  EXPECT_TRUE(skipped.rgba == all.rgba);
  EXPECT_TRUE(skipped.depth == all.depth);
  EXPECT_EQ(ctx().validation_message_count(), 0u);
}

// Hidden pages are not drawn. The page table goes to the GPU in runs of consecutive slots: a frame that
// shows some pages and hides others within one run draws exactly the pages left shown.
TEST_F(TerrainTest, PagesHiddenAndShownInOneRunDrawExactlyTheShownOnes) {
  BuiltTerrain b = build_terrain(ctx(), kRegionWorld, 5);
  render::TerrainRenderer& terrain = *b.terrain;
  constexpr std::uint32_t kW = 160, kH = 100;
  render::OffscreenTarget target(ctx(), kW, kH);
  const render::SceneCamera camera =
      render::SceneCamera::look_at(glm::vec3(64.0f, 160.0f, -70.0f), glm::vec3(64.0f, 0.0f, 64.0f));
  const render::FrameView view = render::FrameView::of_camera(camera, kW, kH, kWorldUp);
  std::vector<bool> hidden(kRegionSlots, false);
  const auto drawn_pages = [&] {
    draw_frame(ctx(), terrain, view, target);
    return terrain.read_draw_counts().pages;
  };
  const auto expected_pages = [&] { return pages_in_view(terrain, view, hidden); };
  const auto hide = [&](std::uint32_t from, std::uint32_t to, bool h) {
    for (std::uint32_t s = from; s < to; ++s) {
      terrain.set_section_hidden(int(s), h);
      hidden[s] = h;
    }
  };
  const std::uint64_t all = expected_pages();
  EXPECT_EQ(drawn_pages(), all);
  hide(8, 28, true);
  const std::uint64_t some_hidden = expected_pages();
  EXPECT_LT(some_hidden, all);
  EXPECT_EQ(drawn_pages(), some_hidden);
  // One run of changed slots, 14 to 34: shown again, then newly hidden (8 to 14 stay hidden).
  hide(14, 28, false);
  hide(28, 34, true);
  const std::uint64_t mixed = expected_pages();
  EXPECT_NE(mixed, some_hidden);
  EXPECT_EQ(drawn_pages(), mixed);
  hide(0, kRegionSlots, false);
  EXPECT_EQ(drawn_pages(), all);
  EXPECT_EQ(ctx().validation_message_count(), 0u);
}

// The voxel scene's options check themselves before anything is generated, naming the field: the image
// size, the world size the generator takes, and extra views that would shadow a preset.
TEST(VoxelSceneOptionsTest, ValidateNamesTheInvalidField) {
  const auto where_of = [](const render::VoxelSceneOptions& o) {
    try {
      o.validate();
    } catch (const Error& e) {
      return e.where();
    }
    return std::string();
  };
  render::VoxelSceneOptions o = small_scene(true, 0, "overview");
  EXPECT_EQ(where_of(o), "");
  o.height = 0;
  EXPECT_EQ(where_of(o), "VoxelSceneOptions::height");
  o = small_scene(true, 0, "overview");
  o.size = {64, 40, 64};
  EXPECT_EQ(where_of(o), "VoxelSceneOptions::size");
  o = small_scene(true, 2, "overview");
  EXPECT_EQ(where_of(o), "VoxelSceneOptions::debug_mode");
  o = small_scene(true, 0, "overview");
  o.extra_views = {{"ground", render::voxel_camera_presets(kSmallWorld)[0].camera}};
  EXPECT_EQ(where_of(o), "VoxelSceneOptions::extra_views");
}

}  // namespace
}  // namespace myriad::test
