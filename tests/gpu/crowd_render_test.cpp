// VAT crowd rendering on lavapipe with validation on: the draws of every forced-LOD mode carry exactly
// the expected triangle and vertex counts (per visible entity, per type), per-entity LOD draws what the
// CPU reference chose, and the picture shows the crowd in every LOD's diagnostic colour.
#include <vector>

#include "crowd_test_types.hpp"
#include "gpu_fixture.hpp"
#include "myriad/crowd/entity_cull.hpp"
#include "myriad/render/crowd/crowd_renderer.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

namespace myriad::test {
namespace {

class CrowdRenderTest : public GpuTest {};

struct Scene {
  std::vector<crowd::CrowdFile> types;
  std::vector<crowd::CrowdEntity> entities;
};

// A 30 x 20 grid of enemies spaced 4 m along +z, two types, random clocks.
Scene make_scene() {
  Scene s;
  s.types.push_back(make_test_crowd_type());
  crowd::EnemyOptions thin;
  thin.tube_sides = 4;
  s.types.push_back(make_test_crowd_type(thin));
  for (int z = 0; z < 30; ++z) {
    for (int x = 0; x < 20; ++x) {
      crowd::CrowdEntity e;
      e.position = {float(x) * 4.0f - 38.0f, 0.0f, float(z) * 12.0f + 6.0f};
      const std::uint32_t type = std::uint32_t(x + z) % 2u;
      e.yaw_scale = crowd::pack_yaw_scale(float(x) * 0.7f, 1.0f + float(z % 3) * 0.5f);
      e.type_clip = type | (std::uint32_t(x % 2) << 16);
      e.time_offset = float(x * 7 + z) * 0.13f;
      e.speed = 0.8f + float(x % 3) * 0.2f;
      e.tint = 0xff80c0ffu;
      s.entities.push_back(e);
    }
  }
  return s;
}

// The test camera over the grid (60 degrees). With the renderer's LOD reference at 0.7 times the first
// type's size the switch distances are about 62 and 112 m for a unit-scale enemy of that type, inside
// the grid: every level appears.
render::FrameView camera_view(render::CrowdRenderer& renderer, float time = 0.0f) {
  renderer.set_lod_reference_diameter(renderer.type_bounds()[0].diameter * 0.7f);
  render::SceneCamera camera =
      render::SceneCamera::look_at({0.0f, 25.0f, -30.0f}, glm::vec3(0.0f, 0.0f, 120.0f), glm::radians(60.0f));
  camera.near_plane = 0.5f;
  return render::FrameView::of_camera(camera, 320, 240, glm::vec3(0.4f, 0.8f, 0.3f), time);
}

TEST_F(CrowdRenderTest, DrawsExactlyTheChosenLodsAndShowsTheCrowd) {
  const Scene scene = make_scene();
  render::OffscreenTarget target(ctx(), 320, 240);
  render::CrowdRenderer renderer(ctx(), scene.types, scene.entities, render::OffscreenTarget::kColorFormat,
                                 render::OffscreenTarget::kDepthFormat);
  for (int forced : {0, 1, 2, -1}) {
    const render::FrameView view = camera_view(renderer, 3.7f);
    renderer.set_forced_level(forced);
    const crowd::CrowdCullParams params = renderer.cull_params(view);
    crowd::CrowdCullResult expected;
    crowd::cull_entities(scene.entities, renderer.type_bounds(), params, expected);
    ASSERT_GT(expected.visible, 300u);

    render::CrowdDrawOptions draw;
    draw.lod_colors = true;
    renderer.set_draw_options(draw);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      renderer.cull(cmd, view);
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      renderer.draw(cmd, view);
      target.end(cmd);
    });
    const render::CrowdFrameStats stats = renderer.read_stats();
    render::CrowdFrameStats want;
    for (std::size_t slot = 0; slot < expected.slots.size(); ++slot) {
      const crowd::CrowdLod& lod = scene.types[slot / 3].lods[slot % 3];
      want.entities[slot % 3] += expected.slots[slot].size();
      want.triangles[slot % 3] += expected.slots[slot].size() * lod.triangle_count();
      want.vertices[slot % 3] += expected.slots[slot].size() * lod.vertex_count();
    }
    EXPECT_EQ(stats.entities, want.entities) << "forced " << forced;
    EXPECT_EQ(stats.triangles, want.triangles) << "forced " << forced;
    EXPECT_EQ(stats.vertices, want.vertices) << "forced " << forced;
    if (forced >= 0) {
      EXPECT_EQ(stats.total_entities(), stats.entities[std::size_t(forced)]);
    } else {
      for (std::size_t level = 0; level < 3; ++level) EXPECT_GT(stats.entities[level], 0u) << level;
    }

    // Count pixels in each LOD's diagnostic colour (shading only scales it, so classify by hue).
    const std::vector<std::uint8_t> pixels = target.read_color();
    std::size_t per_lod[3] = {0, 0, 0};
    for (std::size_t i = 0; i < pixels.size(); i += 4) {
      const int r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
      if (r + g + b < 30) continue;
      if (g > r && g > 2 * b)
        ++per_lod[0];
      else if (r > 2 * b && g > 2 * b && g * 10 > r * 6)
        ++per_lod[1];
      else if (r > g && r > 2 * b)
        ++per_lod[2];
    }
    for (int level = 0; level < 3; ++level) {
      const bool drawn = stats.entities[std::size_t(level)] > 0;
      if (drawn) {
        EXPECT_GT(per_lod[level], 10u) << "forced " << forced << " level " << level;
      } else {
        EXPECT_EQ(per_lod[level], 0u) << "forced " << forced << " level " << level;
      }
    }
  }
}

// The LOD-colour image shows the cross-fade bands, and the two LODs of a fading entity cover each pixel
// exactly once. With identical meshes for all three LODs the covered pixels are the same with or
// without bands, pixel for pixel (the complementary dither masks leave no hole); with bands, entities
// inside them show both levels' colours interleaved by the dither, which the image without bands never
// does inside one entity. The frame's fading count equals the CPU reference's (state kept across frames).
TEST_F(CrowdRenderTest, LodColoursShowTheBandsAndTheDitherMasksAreComplementary) {
  Scene scene = make_scene();
  for (crowd::CrowdFile& type : scene.types) {
    type.lods[1] = type.lods[0];
    type.lods[2] = type.lods[0];
  }
  render::OffscreenTarget target(ctx(), 320, 240);
  render::CrowdRenderer renderer(ctx(), scene.types, scene.entities, render::OffscreenTarget::kColorFormat,
                                 render::OffscreenTarget::kDepthFormat);
  render::CrowdDrawOptions draw;
  draw.lod_colors = true;
  renderer.set_draw_options(draw);
  std::vector<std::uint32_t> state(scene.entities.size(), CROWD_LOD_NONE);
  struct Image {
    std::vector<std::uint8_t> pixels;
    std::size_t covered = 0, mixed = 0;
    render::CrowdFrameStats stats;
  };
  auto render_with = [&](float band) {
    renderer.set_fade_band(band);
    // Close to the first rows, with switches at about 10 and 18 m for a unit-scale enemy of the first
    // type: the first row (10 m, scale 1) lies in the first band, the second (22 m, scale 1.5) in the
    // second, and the fading entities are a hundred pixels tall.
    renderer.set_lod_reference_diameter(renderer.type_bounds()[0].diameter * 4.4f);
    render::SceneCamera camera =
        render::SceneCamera::look_at({0.0f, 2.0f, -3.0f}, glm::vec3(0.0f, 1.0f, 40.0f), glm::radians(60.0f));
    camera.near_plane = 0.5f;
    const render::FrameView view =
        render::FrameView::of_camera(camera, 320, 240, glm::vec3(0.4f, 0.8f, 0.3f), 1.3f);
    crowd::CrowdCullResult expected;
    crowd::cull_entities(scene.entities, renderer.type_bounds(), renderer.cull_params(view), state, expected);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      renderer.cull(cmd, view);
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      renderer.draw(cmd, view);
      target.end(cmd);
    });
    Image im;
    im.stats = renderer.read_stats();
    EXPECT_EQ(im.stats.fading, expected.fading) << band;
    EXPECT_EQ(im.stats.total_entities(), expected.visible) << band;
    im.pixels = target.read_color();
    // LOD class per pixel by hue (-1: background), then horizontally adjacent pixels of two levels.
    std::vector<int> cls(im.pixels.size() / 4, -1);
    for (std::size_t p = 0; p < cls.size(); ++p) {
      const int r = im.pixels[4 * p], g = im.pixels[4 * p + 1], b = im.pixels[4 * p + 2];
      if (r + g + b < 30) continue;
      ++im.covered;
      cls[p] = (g > r && g > 2 * b) ? 0 : (r > 2 * b && g > 2 * b && g * 10 > r * 6) ? 1 : 2;
    }
    const auto differ = [&](std::size_t a, std::size_t b) {
      return cls[a] >= 0 && cls[b] >= 0 && cls[a] != cls[b];
    };
    // Below the horizon's dense rows: the first row, whose entities do not overlap.
    for (std::size_t p = target.width() * target.height() * 13 / 24; p + target.width() < cls.size(); ++p) {
      if ((p + 1) % target.width() != 0 && differ(p, p + 1)) ++im.mixed;
      if (differ(p, p + target.width())) ++im.mixed;
    }
    return im;
  };
  const Image plain = render_with(0.0f);
  EXPECT_EQ(plain.stats.fading, 0u);
  const Image faded = render_with(0.4f);
  EXPECT_GT(faded.stats.fading, 20u);
  ASSERT_EQ(plain.covered, faded.covered);
  for (std::size_t p = 0; p < plain.pixels.size(); p += 4) {
    const bool a = plain.pixels[p] + plain.pixels[p + 1] + plain.pixels[p + 2] >= 30;
    const bool b = faded.pixels[p] + faded.pixels[p + 1] + faded.pixels[p + 2] >= 30;
    ASSERT_EQ(a, b) << "pixel " << p / 4 << ": covered without bands and with them differ";
  }
  // Without bands one entity has one colour, and the first row's entities do not touch.
  EXPECT_LE(plain.mixed, 2u);
  EXPECT_GT(faded.mixed, 50u);
  RecordProperty("fading", int(faded.stats.fading));
  RecordProperty("mixed_pixels", int(faded.mixed));
  EXPECT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
}

}  // namespace
}  // namespace myriad::test
