// The crowd's shadows on lavapipe with validation on: the shadow pass draws each entity the shadow view
// keeps with its own level's mesh, or with coarse shadows (every caster, or from LOD1 on) the next
// coarser level's (forced levels cast at the forced level), exactly as the CPU reference of the shadow cull
// predicts; the ground plane's pixels are the shading model's colour of its albedo and darken where the
// enemies' shadows fall; and shadow_change counts what a change of casters did to an image's shadows.
#include <algorithm>
#include <array>
#include <vector>

#include "crowd_test_types.hpp"
#include "gpu_fixture.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/crowd/entity_cull.hpp"
#include "myriad/render/crowd/crowd_renderer.hpp"
#include "myriad/render/crowd/crowd_scene.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/lighting.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/ground_plane.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/shaders/ground_plane_layout.h"

namespace myriad::test {
namespace {

class CrowdShadowTest : public GpuTest {};

// Two types (the second with its own triangle counts) on a 16 x 24 grid spaced 4 m x 9 m along +z.
struct Crowd {
  std::vector<crowd::CrowdFile> types;
  std::vector<crowd::CrowdEntity> entities;
};
Crowd make_crowd() {
  Crowd c;
  c.types.push_back(make_test_crowd_type());
  crowd::EnemyOptions thin;
  thin.tube_sides = 4;
  c.types.push_back(make_test_crowd_type(thin));
  for (int z = 0; z < 24; ++z) {
    for (int x = 0; x < 16; ++x) {
      crowd::CrowdEntity e;
      e.position = {float(x) * 4.0f - 30.0f, 0.0f, float(z) * 9.0f + 4.0f};
      e.yaw_scale = crowd::pack_yaw_scale(float(x + z) * 0.9f, 1.0f);
      e.type_clip = std::uint32_t(x + z) % 2u;
      e.time_offset = float(x * 5 + z) * 0.17f;
      e.speed = 1.0f;
      e.tint = 0xffc0c0c0u;
      c.entities.push_back(e);
    }
  }
  return c;
}

render::FrameView crowd_view(render::CrowdRenderer& renderer) {
  // Switches at about 45 m and 80 m for the first type: every level appears along the grid.
  renderer.set_lod_reference_diameter(renderer.type_bounds()[0].diameter * 0.5f);
  render::SceneCamera camera =
      render::SceneCamera::look_at({0.0f, 12.0f, -20.0f}, glm::vec3(0.0f, 0.0f, 90.0f), glm::radians(50.0f));
  camera.near_plane = 0.5f;
  return render::FrameView::of_camera(camera, 256, 192, glm::vec3(0.5f, 0.7f, 0.2f), 1.3f);
}

TEST_F(CrowdShadowTest, CoarseCastersDrawTheNextLevelsMeshes) {
  const Crowd c = make_crowd();
  render::OffscreenTarget target(ctx(), 256, 192);
  render::CrowdRenderer renderer(ctx(), c.types, c.entities, render::OffscreenTarget::kColorFormat,
                                 render::OffscreenTarget::kDepthFormat);
  const render::FrameView view = crowd_view(renderer);
  render::ShadowMap shadow(ctx(), 512);
  shadow.fit(view, 150.0f, 30.0f);
  render::SceneFrame frame(ctx());
  frame.set_occlusion(false);
  render::FrameSystem* const systems[] = {&renderer};
  for (const int forced : {-1, 0, 1}) {
    renderer.set_forced_level(forced);
    // What the shadow view keeps, per slot (the camera's eye, so the camera's levels).
    crowd::CrowdCullResult expected;
    crowd::cull_entities(c.entities, renderer.type_bounds(), renderer.cull_params(shadow.view()), expected);
    for (const int from : {render::CrowdRenderer::kNoCoarseShadows, 0, 1}) {
      renderer.set_coarse_shadows(from);
      ctx().submit_and_wait([&](VkCommandBuffer cmd) {
        frame.record(cmd, view, systems, target, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f), &shadow, 0.0f);
      });
      const render::CrowdFrameStats got = renderer.read_shadow_stats();
      render::CrowdFrameStats want;
      for (std::size_t slot = 0; slot < expected.slots.size(); ++slot) {
        const std::size_t level = slot % 3;
        const bool coarser = forced < 0 && int(level) >= from;
        const std::size_t drawn_level = coarser ? std::min<std::size_t>(level + 1, 2) : level;
        const crowd::CrowdLod& mesh = c.types[slot / 3].lods[drawn_level];
        const std::size_t n = expected.slots[slot].size();
        want.entities[level] += n;
        want.triangles[level] += n * mesh.triangle_count();
        want.vertices[level] += n * mesh.vertex_count();
      }
      EXPECT_EQ(got.entities, want.entities) << "forced " << forced << " coarse from " << from;
      EXPECT_EQ(got.triangles, want.triangles) << "forced " << forced << " coarse from " << from;
      EXPECT_EQ(got.vertices, want.vertices) << "forced " << forced << " coarse from " << from;
      if (forced < 0) {
        for (std::size_t level = 0; level < 2; ++level) EXPECT_GT(want.entities[level], 0u) << level;
      }
    }
  }
  // Per-entity LOD with coarse casters draws fewer shadow triangles than with the camera's levels.
  renderer.set_forced_level(-1);
  std::array<std::uint64_t, 2> triangles{};
  for (const bool coarse : {false, true}) {
    renderer.set_coarse_shadows(coarse ? 0 : render::CrowdRenderer::kNoCoarseShadows);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      frame.record(cmd, view, systems, target, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f), &shadow, 0.0f);
    });
    triangles[coarse ? 1 : 0] = renderer.read_shadow_stats().total_triangles();
  }
  EXPECT_LT(triangles[1], triangles[0]);
}

// A camera looking down at the plane, light-only (no shadow map): every pixel is the model's colour of
// ground_plane_albedo at the point it sees.
TEST_F(CrowdShadowTest, GroundPlanePixelsAreTheModelsShadingOfItsAlbedo) {
  render::GroundPlaneOptions options;
  options.variation_scale = 3.0f;
  render::GroundPlane ground(ctx(), options, render::OffscreenTarget::kColorFormat,
                             render::OffscreenTarget::kDepthFormat);
  render::SceneCamera camera =
      render::SceneCamera::look_at({2.0f, 25.0f, -9.0f}, glm::vec3(0.0f, 0.0f, 6.0f), glm::radians(50.0f));
  render::FrameView view = render::FrameView::of_camera(camera, 160, 120, glm::vec3(0.3f, 0.8f, 0.4f), 0.0f);
  render::shader::LightParamsGpu params{};
  render::fill_lighting(params, view);
  render::OffscreenTarget target(ctx(), view.width, view.height);
  render::ShadowMap light(ctx(), 16);
  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    light.record_light_only(cmd, view);
    target.begin(cmd, glm::vec4(0.0f));
    ground.draw(cmd, view, render::FramePhase::kSingle, &light);
    target.end(cmd);
  });
  const std::vector<std::uint8_t> pixels = target.read_color();
  const glm::mat4 inverse = glm::inverse(view.view_proj);
  std::size_t checked = 0, wrong = 0;
  glm::ivec3 lightest(0), darkest(255);
  for (std::uint32_t y = 0; y < view.height; ++y) {
    for (std::uint32_t x = 0; x < view.width; ++x) {
      // The pixel centre's ray, met with the plane y = 0.
      const glm::vec2 ndc((float(x) + 0.5f) / float(view.width) * 2.0f - 1.0f,
                          (float(y) + 0.5f) / float(view.height) * 2.0f - 1.0f);
      const glm::vec4 a = inverse * glm::vec4(ndc, 1.0f, 1.0f);
      const glm::vec4 b = inverse * glm::vec4(ndc, 0.5f, 1.0f);
      const glm::vec3 p0 = glm::vec3(a) / a.w, p1 = glm::vec3(b) / b.w;
      const float t = p0.y / (p0.y - p1.y);
      const glm::vec3 world = p0 + (p1 - p0) * t;
      const float depth = (view.view_proj * glm::vec4(world, 1.0f)).w;
      const glm::vec3 albedo = render::shader::ground_plane_albedo(options.albedo_srgb, {world.x, world.z},
                                                                   options.variation_scale);
      const glm::vec3 want = render::shade_reference(params, view.lighting.shading, albedo, kWorldUp, 1.0f,
                                                     1.0f, glm::vec3(0.0f), depth);
      const glm::ivec3 w(glm::round(glm::clamp(want, 0.0f, 1.0f) * 255.0f));
      const std::uint8_t* px = &pixels[4 * (std::size_t(y) * view.width + x)];
      ++checked;
      for (int k = 0; k < 3; ++k) {
        if (std::abs(int(px[k]) - w[k]) > 1) {
          ++wrong;
          break;
        }
      }
      lightest = glm::max(lightest, glm::ivec3(px[0], px[1], px[2]));
      darkest = glm::min(darkest, glm::ivec3(px[0], px[1], px[2]));
    }
  }
  EXPECT_EQ(wrong, 0u) << "of " << checked << " ground pixels";
  EXPECT_GT(lightest.g - darkest.g, 8) << "the albedo varies across the plane";
}

// The crowd over the plane under the sun: with the shadow map, ground pixels darken where enemies stand
// between them and the sun; without it, none does. shadow_change counts those pixels.
TEST_F(CrowdShadowTest, EnemiesCastShadowsOntoTheGroundPlane) {
  const Crowd c = make_crowd();
  render::CrowdRenderer renderer(ctx(), c.types, c.entities, render::OffscreenTarget::kColorFormat,
                                 render::OffscreenTarget::kDepthFormat);
  render::GroundPlane ground(ctx(), {}, render::OffscreenTarget::kColorFormat,
                             render::OffscreenTarget::kDepthFormat);
  const render::FrameView view = crowd_view(renderer);
  render::ShadowMap shadow(ctx(), 1024);
  shadow.fit(view, 60.0f, 30.0f);
  render::OffscreenTarget target(ctx(), view.width, view.height);
  render::SceneFrame frame(ctx());
  frame.set_occlusion(false);
  render::FrameSystem* const systems[] = {&ground, &renderer};
  std::array<std::vector<std::uint8_t>, 2> images;
  for (int with_shadow = 0; with_shadow < 2; ++with_shadow) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      frame.record(cmd, view, systems, target, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f),
                   with_shadow ? &shadow : nullptr, 0.0f);
    });
    images[std::size_t(with_shadow)] = target.read_color();
  }
  // Darkened pixels: every channel lower with the shadow map than without.
  std::size_t darker = 0, lighter = 0, differing = 0;
  for (std::size_t p = 0; p < images[0].size(); p += 4) {
    const bool differs = images[1][p] != images[0][p] || images[1][p + 1] != images[0][p + 1] ||
                         images[1][p + 2] != images[0][p + 2];
    differing += differs ? 1u : 0u;
    const bool all_lower = images[1][p] < images[0][p] && images[1][p + 1] < images[0][p + 1] &&
                           images[1][p + 2] < images[0][p + 2];
    const bool any_higher = images[1][p] > images[0][p] || images[1][p + 1] > images[0][p + 1] ||
                            images[1][p + 2] > images[0][p + 2];
    darker += all_lower ? 1u : 0u;
    lighter += any_higher ? 1u : 0u;
  }
  EXPECT_GT(darker, 300u) << "the enemies' shadows on the ground";
  EXPECT_EQ(lighter, 0u) << "a shadow only takes light away";
  // shadow_change counts as shadowed exactly the pixels the map changed; against the unshadowed image
  // as the candidate, every one of them changed.
  const render::ShadowChange change = render::shadow_change(images[1], images[0], images[0]);
  EXPECT_EQ(change.shadowed, differing);
  EXPECT_EQ(change.changed, differing);
  EXPECT_DOUBLE_EQ(change.share(), 1.0);
}

TEST(ShadowChange, CountsShadowedAndChangedPixels) {
  // Five pixels: lit everywhere (only the candidate's alpha differs); shadowed and unchanged; shadowed
  // and changed; changed where unshadowed; shadowed in the green channel alone and unchanged.
  const std::vector<std::uint8_t> unshadowed{200, 200, 200, 255, 200, 200, 200, 255, 200, 200,
                                             200, 255, 200, 200, 200, 255, 200, 200, 200, 255};
  const std::vector<std::uint8_t> reference{200, 200, 200, 255, 90,  90,  90,  255, 90,  90,
                                            90,  255, 200, 200, 200, 255, 200, 150, 200, 255};
  const std::vector<std::uint8_t> candidate{200, 200, 200, 0,   90,  90,  90,  255, 91,  90,
                                            90,  255, 120, 120, 120, 255, 200, 150, 200, 255};
  const render::ShadowChange change = render::shadow_change(reference, candidate, unshadowed);
  EXPECT_EQ(change.shadowed, 3u);
  EXPECT_EQ(change.changed, 2u);  // alpha does not count
  EXPECT_DOUBLE_EQ(change.share(), 2.0 / 3.0);
  EXPECT_THROW(render::shadow_change(reference, std::vector<std::uint8_t>(12), unshadowed), Error);
}

}  // namespace
}  // namespace myriad::test
