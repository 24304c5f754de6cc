// The plant motion on the device (lavapipe, validation and synchronization validation on): the trampling
// field's splat equals its CPU reference bit for bit, frame after frame (cleared in between, following
// the camera); voxel grass and the vegetation field's plants lean away from a foot (trees do not), sway
// with the wind above a base that stays put, and stand still in a calm.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/motion/plant_motion.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/passes/interaction_field.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/vegetation/vegetation_renderer.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/plant/plant_mesh.hpp"

namespace myriad::test {
namespace {

class InteractionFieldTest : public GpuTest {
 protected:
  // One frame of the field alone: update for `view` (its gather), then its upload, submitted.
  void frame(render::InteractionField& field, const render::FrameView& view) {
    ctx().uploads().begin_frame();
    field.update(view, 0.0f);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { field.upload(cmd); });
  }
};

render::FrameView camera_at(glm::vec3 eye, glm::vec3 target, std::uint32_t w = 64, std::uint32_t h = 64,
                            float time = 0.0f) {
  render::SceneCamera c = render::SceneCamera::look_at(eye, target, glm::radians(50.0f));
  c.near_plane = 0.05f;
  return render::FrameView::of_camera(c, w, h, kWorldUp, time);
}

WindParams calm() {
  WindParams w;
  w.strength = 0.0f;
  w.gust_strength = 0.0f;
  w.flutter = 0.0f;
  return w;
}

// A field in calm air whose feet are `feet` (read each frame).
render::InteractionField calm_field_of(gpu::Context& ctx, const std::vector<Interactor>& feet) {
  render::InteractionFieldOptions o;
  o.wind = calm();
  render::InteractionField field(ctx, o);
  field.set_gather([&feet](const InteractionGrid&, std::vector<Interactor>& out) {
    out.insert(out.end(), feet.begin(), feet.end());
  });
  return field;
}

// Feet scattered over and beyond a 64 m field around `centre`: overlapping, on its edges, outside it.
std::vector<Interactor> scattered_feet(glm::vec2 centre, int count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-40.0f, 40.0f), rad(0.25f, 1.0f), strength(0.2f, 1.0f);
  std::vector<Interactor> feet;
  for (int i = 0; i < count; ++i) {
    glm::vec2 p = centre + glm::vec2(pos(rng), pos(rng));
    if (i % 10 == 0) p = centre + glm::vec2(0.3f * pos(rng), 0.3f * pos(rng));  // a crowd in the middle
    feet.push_back(make_interactor(p, rad(rng), strength(rng)));
  }
  return feet;
}

// Acceptance: the GPU's splat is the CPU's, every cell's integers equal; a later frame with other feet
// and a moved camera holds only those feet (the cells are cleared), a frame without feet holds none.
TEST_F(InteractionFieldTest, TheGpuSplatEqualsTheCpuReferenceFrameAfterFrame) {
  render::InteractionField field(ctx());
  std::vector<Interactor> feet;
  field.set_gather([&](const InteractionGrid&, std::vector<Interactor>& out) {
    out.insert(out.end(), feet.begin(), feet.end());
  });
  const auto check = [&](const char* what) {
    const InteractionGrid& grid = field.header().grid;
    std::vector<InteractionCell> want(std::size_t(grid.resolution) * grid.resolution);
    splat_interactions(grid, field.interactors(), field.reach(), want);
    const std::vector<InteractionCell> got = field.read_cells();
    EXPECT_EQ(got.size(), want.size());
    if (got.size() != want.size()) return std::size_t(0);
    std::size_t differ = 0, trodden = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      differ += got[i].push_x != want[i].push_x || got[i].push_z != want[i].push_z ||
                got[i].press != want[i].press || got[i].pad != 0;
      trodden += want[i].press != 0;
    }
    EXPECT_EQ(differ, 0u) << what;
    return trodden;
  };

  const glm::vec3 eye(130.2f, 30.0f, -221.7f);
  feet = scattered_feet({eye.x, eye.z}, 3000, 1);
  frame(field, camera_at(eye, eye + glm::vec3(0.0f, -1.0f, 10.0f)));
  // The feet kept are exactly those that reach the grid.
  std::size_t reaching = 0;
  for (const Interactor& e : feet)
    reaching += interactor_reaches(field.header().grid, e.position, 1.0f / e.inv_radius);
  EXPECT_EQ(field.interactors().size(), reaching);
  EXPECT_LT(field.interactors().size(), feet.size());
  EXPECT_GT(check("first frame"), 5000u);

  // The camera moves 7.3 m (the grid follows, snapped), other feet.
  const glm::vec3 moved = eye + glm::vec3(7.3f, 0.0f, -2.1f);
  feet = scattered_feet({moved.x, moved.z}, 200, 2);
  frame(field, camera_at(moved, moved + glm::vec3(0.0f, -1.0f, 10.0f)));
  EXPECT_NE(field.header().grid.min.x, interaction_grid_around({eye.x, eye.z}, 0.25f, 256).min.x);
  EXPECT_GT(check("second frame"), 300u);

  feet.clear();
  frame(field, camera_at(moved, moved + glm::vec3(0.0f, -1.0f, 10.0f)));
  EXPECT_EQ(field.reach(), 0u);
  EXPECT_EQ(check("no feet"), 0u);

  // Two frames in one command buffer (as frames queued back to back run): the second clears after the
  // first's splat and holds only its own feet (synchronization validation checks the order).
  const render::FrameView view = camera_at(eye, eye + glm::vec3(0.0f, -1.0f, 10.0f));
  ctx().uploads().begin_frame();
  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    feet = scattered_feet({eye.x, eye.z}, 500, 3);
    field.update(view, 0.0f);
    field.upload(cmd);
    feet = scattered_feet({eye.x, eye.z}, 500, 4);
    field.update(view, 0.0f);
    field.upload(cmd);
  });
  EXPECT_GT(check("two frames in one submission"), 1000u);
}

// The x-centroid of the pixels drawn (not the clear colour) in rows [y0, y1) of an RGBA image, and
// their count.
struct Centroid {
  double x = 0.0;
  std::size_t pixels = 0;
};
Centroid centroid(const std::vector<std::uint8_t>& rgba, std::uint32_t w, std::uint32_t y0,
                  std::uint32_t y1) {
  Centroid c;
  for (std::uint32_t y = y0; y < y1; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::size_t i = (std::size_t(y) * w + x) * 4;
      if (rgba[i] == 0 && rgba[i + 1] == 0 && rgba[i + 2] == 0) continue;
      c.x += double(x);
      ++c.pixels;
    }
  if (c.pixels > 0) c.x /= double(c.pixels);
  return c;
}

// The image row of `p` in a view `h` pixels high (row 0 at the top).
std::uint32_t row_of(const render::FrameView& view, glm::vec3 p, std::uint32_t h) {
  const glm::vec4 c = view.view_proj * glm::vec4(p, 1.0f);
  return std::uint32_t(std::clamp(std::floor((c.y / c.w * 0.5f + 0.5f) * float(h)), 0.0f, float(h - 1)));
}

// Voxel grass (voxel_grass.vert) reads the field: a tuft seen from the side leans away from a foot beside
// it (its top moves, its base does not), stands upright again once the foot is gone, and sways in the
// wind.
TEST_F(InteractionFieldTest, VoxelGrassLeansAwayFromAFootAndSwaysInTheWind) {
  render::VoxelVegetationRenderer veg(ctx(), {1, 1, 1}, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat);
  const glm::vec3 root(8.0f, 1.0f, 8.0f);
  voxel::SectionVegetation v;
  v.grass.push_back({root.x, root.y, root.z, 3u | 0xF000u << 16});  // template 3: the tallest, 0.91 m
  veg.set_section(0, v);
  std::vector<Interactor> feet;
  render::InteractionField field = calm_field_of(ctx(), feet);
  veg.set_motion(&field);
  constexpr std::uint32_t kSize = 96;
  render::OffscreenTarget target(ctx(), kSize, kSize);
  const auto view_at = [&](float time) {
    return camera_at(root + glm::vec3(0.0f, 0.45f, -2.2f), root + glm::vec3(0.0f, 0.45f, 0.0f), kSize, kSize,
                     time);
  };
  const auto image = [&](float time) {
    const render::FrameView view = view_at(time);
    ctx().uploads().begin_frame();
    field.update(view, 0.0f);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      field.upload(cmd);
      veg.upload(cmd);
      veg.cull(cmd, view);
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      veg.draw(cmd, view);
      target.end(cmd);
    });
    return target.read_color();
  };
  // Looking down +Z: world +X is image -x.
  const std::vector<std::uint8_t> upright = image(0.0f);
  feet = {make_interactor({root.x - 0.3f, root.z}, 0.6f)};  // a foot to the west
  const std::vector<std::uint8_t> pushed = image(0.0f);
  feet.clear();
  const std::vector<std::uint8_t> again = image(0.0f);
  EXPECT_EQ(again, upright) << "the foot's trace stayed in the field";
  // Rows of the tuft's upper part (0.6 to 0.95 of its 0.91 m) and of its base (the lowest 5 cm).
  const render::FrameView view = view_at(0.0f);
  const std::uint32_t top0 = row_of(view, root + glm::vec3(0.0f, 0.86f, 0.0f), kSize),
                      top1 = row_of(view, root + glm::vec3(0.0f, 0.55f, 0.0f), kSize),
                      base0 = row_of(view, root + glm::vec3(0.0f, 0.05f, 0.0f), kSize),
                      base1 = row_of(view, root, kSize);
  const Centroid up_top = centroid(upright, kSize, top0, top1),
                 pushed_top = centroid(pushed, kSize, top0, top1);
  ASSERT_GT(up_top.pixels, 20u);
  ASSERT_GT(centroid(upright, kSize, base0, base1).pixels, 5u);
  EXPECT_LT(pushed_top.x, up_top.x - 3.0) << "the top leans east (image left), away from the foot";
  EXPECT_LT(pushed_top.pixels, up_top.pixels) << "and lower";
  // The base stays (its edges' pixels aside: within a pixel).
  EXPECT_NEAR(centroid(pushed, kSize, base0, base1).x, centroid(upright, kSize, base0, base1).x, 1.0)
      << "top moved " << up_top.x - pushed_top.x;

  // The wind moves the top over time; the base stays.
  WindParams wind;
  wind.direction = {1.0f, 0.0f};
  field.set_wind(wind);
  const std::vector<std::uint8_t> a = image(0.0f), b = image(2.5f);
  EXPECT_NE(a, b);
  EXPECT_LT(centroid(a, kSize, top0, top1).x, up_top.x - 1.0) << "leaning downwind (east)";
  EXPECT_NEAR(centroid(a, kSize, base0, base1).x, centroid(b, kSize, base0, base1).x, 1.0);
}

// The vegetation field's plants (veg_plant.vert, pooled): a grass plant beside a foot leans away from it,
// a tree beside a foot does not; in the wind both sway above a base that stays put.
TEST_F(InteractionFieldTest, FieldPlantsLeanAwayFromFeetAndSwayTreesStandTheirGround) {
  using namespace vegetation;
  const std::vector<PlantType> types = default_plant_types();
  std::uint32_t grass = 0, tree = 0;
  for (std::uint32_t t = 0; t < types.size(); ++t) {
    if (types[t].kind == PlantKind::kGrass) grass = t;
    if (types[t].kind == PlantKind::kTree) tree = t;
  }
  const glm::dvec3 grass_root(0.0, 0.0, 0.0), tree_root(3.0, 0.0, 0.0);
  BakeOptions bake;
  const std::vector<WorldInstance> placed{{grass, grass_root, 0.0f, 1.0f, {255, 255, 255}},
                                          {tree, tree_root, 0.0f, 1.0f, {255, 255, 255}}};
  RuntimeWorld world(glm::dvec3(0.0));
  for (Tile& t : bake_tiles(bake, &placed)) {
    auto tile = std::make_shared<const Tile>(std::move(t));
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  }
  ASSERT_EQ(world.types().size(), 2u);
  // Every type's LODs as a thin pole as tall as the type: what moves is easy to see.
  std::vector<PlantMesh> meshes;
  for (std::uint32_t t = 0; t < types.size(); ++t) {
    float height = 1.0f;
    for (const auto& rt : world.types())
      if (rt.prefab.type_id == t) height = rt.prefab.bounds.max.y;
    for (std::uint32_t l = 0; l < kPlantLodCount; ++l)
      meshes.push_back(make_box_mesh({{-0.03f * height, 0.0f, -0.03f}, {0.03f * height, height, 0.03f}}));
  }
  render::VegetationRenderer renderer(ctx(), meshes, render::OffscreenTarget::kColorFormat,
                                      render::OffscreenTarget::kDepthFormat);
  render::VegetationCull cull(ctx());
  std::vector<render::VegetationGpuType> pools;
  for (const auto& rt : world.types())
    pools.push_back(
        cull.upload(rt, renderer.lod_meshes(rt.prefab), 0.0f, 0.0f, renderer.lod_bounds(rt.prefab)));
  std::vector<Interactor> feet;
  render::InteractionField field = calm_field_of(ctx(), feet);
  renderer.set_motion(&field);

  constexpr std::uint32_t kW = 160, kH = 120;
  render::OffscreenTarget target(ctx(), kW, kH);
  const auto view_of = [&](std::size_t type, float time) {
    const glm::vec3 root = glm::vec3(world.types()[type].prefab.type_id == tree ? tree_root : grass_root);
    const float h = world.types()[type].prefab.bounds.max.y;
    return camera_at(root + glm::vec3(0.0f, 0.5f * h, -1.6f * h - 0.5f),
                     root + glm::vec3(0.0f, 0.5f * h, 0.0f), kW, kH, time);
  };
  const auto image = [&](std::size_t type, float time) {
    const render::FrameView view = view_of(type, time);
    render::VegetationDrawOptions s;
    s.instance_ids = true;
    ctx().uploads().begin_frame();
    field.update(view, 0.0f);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      field.upload(cmd);
      (void)cull.record(cmd, view.frustum, view.eye, pools[type]);
      target.begin(cmd, glm::vec4(0.0f));
      (void)renderer.draw(cmd, view, s, pools[type]);
      target.end(cmd);
    });
    return target.read_color();
  };
  for (std::size_t type = 0; type < pools.size(); ++type) {
    const bool is_tree = world.types()[type].prefab.type_id == tree;
    SCOPED_TRACE(is_tree ? "tree" : "grass");
    const glm::vec3 root = glm::vec3(is_tree ? tree_root : grass_root);
    feet.clear();
    const std::vector<std::uint8_t> upright = image(type, 0.0f);
    feet = {make_interactor({root.x - 0.3f, root.z}, 0.6f)};  // a foot to the west
    const std::vector<std::uint8_t> pushed = image(type, 0.0f);
    // Rows of the upper part (0.6 to 0.95 of the height) and of the base (the lowest 4 %).
    const float h = world.types()[type].prefab.bounds.max.y;
    const render::FrameView view = view_of(type, 0.0f);
    const std::uint32_t top0 = row_of(view, root + glm::vec3(0.0f, 0.95f * h, 0.0f), kH),
                        top1 = row_of(view, root + glm::vec3(0.0f, 0.6f * h, 0.0f), kH),
                        base0 = row_of(view, root + glm::vec3(0.0f, 0.04f * h, 0.0f), kH),
                        base1 = row_of(view, root, kH);
    const Centroid top = centroid(upright, kW, top0, top1), base = centroid(upright, kW, base0, base1);
    ASSERT_GT(top.pixels, 10u);
    ASSERT_GT(base.pixels, 3u);
    if (is_tree) {
      EXPECT_EQ(pushed, upright) << "a tree gives way to nobody";
    } else {
      EXPECT_LT(centroid(pushed, kW, top0, top1).x, top.x - 3.0) << "the top leans east (image left)";
      EXPECT_NEAR(centroid(pushed, kW, base0, base1).x, base.x, 1.0)
          << "top moved " << top.x - centroid(pushed, kW, top0, top1).x;
    }
    feet.clear();
    field.set_wind(WindParams{});
    const std::vector<std::uint8_t> a = image(type, 0.0f), b = image(type, 2.0f);
    EXPECT_NE(a, b) << "the wind sways it";
    EXPECT_NEAR(centroid(a, kW, base0, base1).x, centroid(b, kW, base0, base1).x, 1.0);
    field.set_wind(calm());
  }
}

}  // namespace
}  // namespace myriad::test
