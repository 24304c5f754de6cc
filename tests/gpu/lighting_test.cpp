// The one shading model (shaders/lighting_model.h) on lavapipe against its CPU reference
// (render/frame/lighting.hpp): the function itself over random inputs in both modes, then a shaded
// sample of each system (the crowd, the plant pass, the voxel terrain, the sky) whose pixels must be the
// reference's colour for what that system was given.
#include <array>
#include <algorithm>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "crowd_test_types.hpp"
#include "gpu_fixture.hpp"
#include "lit_terrain.hpp"
#include "lighting_probe_layout.h"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/render/crowd/crowd_renderer.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/lighting.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/passes/sky_pass.hpp"
#include "myriad/render/terrain/terrain_renderer.hpp"
#include "myriad/render/vegetation/vegetation_renderer.hpp"
#include "myriad/vegetation/plant/plant_mesh.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"
#include "myriad_test_shaders.hpp"

namespace myriad::test {
namespace {

using render::shader::LightingProbe;
using render::shader::LightingProbePush;

class LightingTest : public GpuTest {};

// A light block as a frame fills it (the view's sun and lighting; shadows off).
render::shader::LightParamsGpu light_block(const render::FrameView& view) {
  render::shader::LightParamsGpu p{};
  render::fill_lighting(p, view);
  return p;
}

// Lighting whose result does not depend on the normal: no sun, the same sky from above and below. A
// system's shaded pixel is then a function of its albedo alone, which the test knows.
render::Lighting uniform_lighting() {
  render::Lighting l;
  l.sun_intensity = 0.0f;
  l.sky_ambient = glm::vec3(0.55f, 0.6f, 0.7f);
  l.ground = l.sky_ambient;
  l.exposure = 1.3f;
  return l;
}

glm::ivec3 to_bytes(glm::vec3 c) { return glm::ivec3(glm::round(glm::clamp(c, 0.0f, 1.0f) * 255.0f)); }

bool within(const std::uint8_t* px, glm::ivec3 want, int tolerance) {
  for (int k = 0; k < 3; ++k)
    if (std::abs(int(px[k]) - want[k]) > tolerance) return false;
  return true;
}

// Pixels something was drawn into (depth above the cleared 0), and how many of them are within one step of
// one of `wants` (the first that fits), counted per colour.
struct Matches {
  std::size_t covered = 0, matching = 0;
  std::vector<std::size_t> per_colour;
};
Matches match_drawn(render::OffscreenTarget& target, std::span<const glm::ivec3> wants) {
  const std::vector<std::uint8_t> pixels = target.read_color();
  const std::vector<float> depth = target.read_depth();
  Matches m;
  m.per_colour.assign(wants.size(), 0);
  for (std::size_t p = 0; p < depth.size(); ++p) {
    if (depth[p] == 0.0f) continue;
    ++m.covered;
    for (std::size_t w = 0; w < wants.size(); ++w)
      if (within(&pixels[4 * p], wants[w], 1)) {
        ++m.matching;
        ++m.per_colour[w];
        break;
      }
  }
  return m;
}

TEST_F(LightingTest, TheModelOnTheGpuEqualsTheCpuReference) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), signed_unit(-1.0f, 1.0f);
  std::vector<LightingProbe> probes;
  for (int i = 0; i < 512; ++i) {
    glm::vec3 n(signed_unit(rng), signed_unit(rng), signed_unit(rng));
    n = glm::length(n) > 1e-3f ? glm::normalize(n) : glm::vec3(0.0f, 1.0f, 0.0f);
    glm::vec3 d(signed_unit(rng), signed_unit(rng), signed_unit(rng));
    d = glm::length(d) > 1e-3f ? glm::normalize(d) : glm::vec3(0.0f, 0.0f, 1.0f);
    if (i < 8) d = glm::normalize(glm::vec3(0.3f, 0.5f, 0.2f) + glm::vec3(0.0f, 0.0f, 0.002f * float(i)));
    probes.push_back({{unit(rng), unit(rng), unit(rng), unit(rng) * 600.0f},
                      {n, unit(rng)},
                      {glm::vec3(unit(rng), unit(rng), unit(rng)) * (i % 3 == 0 ? 1.0f : 0.0f), unit(rng)},
                      {d, 0.0f}});
  }
  render::FrameView view;
  view.to_light = glm::normalize(glm::vec3(0.3f, 0.5f, 0.2f));  // the first probes look at the sun's disc
  view.lighting.fog_distance = 400.0f;                          // depths run past it
  const render::shader::LightParamsGpu params = light_block(view);

  gpu::Buffer light(ctx(), sizeof(params), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer in(ctx(), probes.size() * sizeof(LightingProbe), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                 gpu::MemoryKind::kDeviceLocal);
  gpu::Buffer out(ctx(), probes.size() * 2 * sizeof(glm::vec4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                  gpu::MemoryKind::kReadback);
  gpu::upload(ctx(), light, std::span<const render::shader::LightParamsGpu>(&params, 1));
  gpu::upload(ctx(), in, std::span<const LightingProbe>(probes));
  const gpu::Pipeline pipeline =
      gpu::make_compute_pipeline(ctx(), spirv::lighting_probe_comp(),
                                 {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                   VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                  sizeof(LightingProbePush)});
  for (const render::Shading mode : {render::Shading::kFull, render::Shading::kFlat}) {
    const LightingProbePush push{std::uint32_t(probes.size()), std::uint32_t(mode)};
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      const std::array bindings{gpu::storage_buffer(light), gpu::storage_buffer(in),
                                gpu::storage_buffer(out)};
      gpu::bind(ctx(), cmd, pipeline, bindings, &push, sizeof(push));
      vkCmdDispatch(cmd, (push.count + 63) / 64, 1, 1);
    });
    const auto results = gpu::read_buffer_as<glm::vec4>(ctx(), out, probes.size() * 2);
    float worst = 0.0f;
    std::set<int> distinct;
    for (std::size_t i = 0; i < probes.size(); ++i) {
      const LightingProbe& p = probes[i];
      const glm::vec3 surface =
          render::shade_reference(params, mode, glm::vec3(p.albedo_depth), glm::vec3(p.normal_sun),
                                  p.normal_sun.w, p.lamp_sky.w, glm::vec3(p.lamp_sky), p.albedo_depth.w);
      const glm::vec3 sky = render::sky_reference(params, mode, glm::vec3(p.sky_dir));
      worst = std::max({worst, glm::length(glm::vec3(results[2 * i]) - surface),
                        glm::length(glm::vec3(results[2 * i + 1]) - sky)});
      distinct.insert(to_bytes(surface).r);
    }
    // pow, exp and the sRGB curve are approximated on GPUs: a thousandth is far below one 8-bit step.
    EXPECT_LT(worst, 1e-3f) << "mode " << std::uint32_t(mode);
    EXPECT_GT(distinct.size(), 100u) << "the probes must cover the model's range";
  }
}

// The crowd's diagnostic LOD colours are its albedo: under uniform light every pixel it covers is one of
// the three colours as the model shades them.
TEST_F(LightingTest, CrowdPixelsAreTheModelsShadingOfTheirAlbedo) {
  std::vector<crowd::CrowdFile> types{make_test_crowd_type()};
  std::vector<crowd::CrowdEntity> entities;
  for (int i = 0; i < 40; ++i) {
    crowd::CrowdEntity e;
    e.position = {float(i % 8) * 3.0f - 10.5f, 0.0f, float(i / 8) * 14.0f + 6.0f};
    e.yaw_scale = crowd::pack_yaw_scale(float(i) * 0.6f, 1.0f);
    e.tint = 0xffffffffu;
    entities.push_back(e);
  }
  render::CrowdRenderer crowd(ctx(), types, entities, render::OffscreenTarget::kColorFormat,
                              render::OffscreenTarget::kDepthFormat);
  crowd.set_lod_reference_diameter(crowd.type_bounds()[0].diameter * 2.0f);
  render::CrowdDrawOptions draw;
  draw.lod_colors = true;
  crowd.set_draw_options(draw);
  render::SceneCamera camera =
      render::SceneCamera::look_at({0.0f, 6.0f, -8.0f}, glm::vec3(0.0f, 0.0f, 40.0f), glm::radians(50.0f));
  render::FrameView view = render::FrameView::of_camera(camera, 320, 240, glm::vec3(0.3f, 0.9f, 0.2f), 0.5f);
  view.lighting = uniform_lighting();
  view.sun_color = glm::vec3(0.0f);
  const render::shader::LightParamsGpu params = light_block(view);
  const std::array lod_albedo{glm::vec3(0.2f, 0.85f, 0.3f), glm::vec3(0.95f, 0.8f, 0.2f),
                              glm::vec3(0.9f, 0.3f, 0.25f)};
  std::array<glm::ivec3, 3> want;
  for (std::size_t l = 0; l < 3; ++l)
    want[l] = to_bytes(render::shade_reference(params, render::Shading::kFull, lod_albedo[l], kWorldUp, 1.0f,
                                               1.0f, glm::vec3(0.0f), 10.0f));

  render::OffscreenTarget target(ctx(), view.width, view.height);
  render::ShadowMap light(ctx(), 16);
  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    light.record_light_only(cmd, view);
    crowd.cull(cmd, view);
    target.begin(cmd, glm::vec4(0.0f));
    crowd.draw(cmd, view, render::FramePhase::kSingle, &light);
    target.end(cmd);
  });
  const Matches m = match_drawn(target, want);
  ASSERT_GT(m.covered, 500u);
  EXPECT_EQ(m.matching, m.covered) << "crowd pixels that are not the model's colour of an LOD's albedo";
  EXPECT_GT(m.per_colour[0], 0u);
}

// The plant pass (the field's plants and occluders) and the ground's material pass: a box of a known tint
// under uniform light is the model's colour of that tint, in both modes; the flat mode is not the full one.
TEST_F(LightingTest, PlantPassPixelsAreTheModelsShadingOfTheTint) {
  const std::vector<vegetation::PlantMesh> meshes{
      vegetation::make_box_mesh({{-0.5f, 0.0f, -0.5f}, {0.5f, 1.0f, 0.5f}})};
  const render::VegetationRenderer renderer(ctx(), meshes, render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat);
  const glm::u8vec3 tint{200, 120, 60};
  const std::array instance{render::static_instance({0.0f, 0.0f, 0.0f}, {4.0f, 3.0f, 4.0f}, tint)};
  gpu::Buffer instances(ctx(), sizeof(instance), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                        gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), instances, std::span<const vegetation::RuntimeInstance>(instance));
  render::SceneCamera camera =
      render::SceneCamera::look_at({5.0f, 5.0f, -7.0f}, glm::vec3(0.0f, 1.0f, 0.0f), glm::radians(50.0f));
  render::OffscreenTarget target(ctx(), 160, 120);
  render::ShadowMap light(ctx(), 16);
  std::array<glm::ivec3, 2> seen{};
  for (const render::Shading mode : {render::Shading::kFull, render::Shading::kFlat}) {
    render::FrameView view = render::FrameView::of_camera(camera, 160, 120, glm::vec3(0.3f, 0.9f, 0.2f));
    view.lighting = uniform_lighting();
    view.sun_color = glm::vec3(0.0f);  // flat shading's sun too
    view.lighting.flat_ambient = 0.8f;
    view.lighting.shading = mode;
    const glm::ivec3 want = to_bytes(render::shade_reference(
        light_block(view), mode, glm::vec3(tint) / 255.0f, kWorldUp, 1.0f, 1.0f, glm::vec3(0.0f), 5.0f));
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      light.record_light_only(cmd, view);
      target.begin(cmd, glm::vec4(0.0f));
      renderer.draw_direct(cmd, view, render::VegetationDrawOptions{}, 0, instances, 1, &light);
      target.end(cmd);
    });
    const Matches m = match_drawn(target, std::span(&want, 1));
    ASSERT_GT(m.covered, 1000u);
    EXPECT_EQ(m.matching, m.covered) << "mode " << std::uint32_t(mode);
    seen[std::size_t(mode)] = want;
  }
  EXPECT_NE(seen[0], seen[1]) << "the flat mode must differ from the full model";
}

// Voxel terrain (light-only albedo, 0.8 grey): the open floor's cells see the whole sky and no lamp, so
// under uniform light every floor pixel is the model's colour of that grey at full sky visibility.
TEST_F(LightingTest, TerrainPixelsAreTheModelsShadingOfTheirCellLight) {
  voxel::World world(32, 32, 32);
  for (int z = 0; z < 32; ++z)
    for (int x = 0; x < 32; ++x)
      for (int y = 0; y < 3; ++y) world.set_voxel({x, y, z}, voxel::kStone, voxel::kFormFull);
  const std::unique_ptr<render::TerrainRenderer> terrain_owner = lit_terrain(ctx(), world);
  render::TerrainRenderer& terrain = *terrain_owner;
  terrain.set_debug_mode(1);  // albedo 0.8 grey: the light alone
  render::SceneCamera camera;
  camera.eye = {16.0f, 20.0f, 16.0f};
  camera.forward = {0.0f, -1.0f, 0.0f};
  camera.fov_y = 1.0f;
  render::FrameView view = render::FrameView::of_camera(camera, 128, 128, glm::vec3(0.3f, 0.9f, 0.2f));
  view.lighting = uniform_lighting();
  view.sun_color = glm::vec3(0.0f);
  const glm::ivec3 want =
      to_bytes(render::shade_reference(light_block(view), render::Shading::kFull, glm::vec3(0.8f), kWorldUp,
                                       0.0f, 1.0f, glm::vec3(0.0f), 17.0f));
  render::OffscreenTarget target(ctx(), 128, 128);
  render::ShadowMap light(ctx(), 16);
  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    light.record_light_only(cmd, view);
    terrain.upload(cmd);
    terrain.cull(cmd, view);
    target.begin(cmd, glm::vec4(0.0f));
    terrain.draw(cmd, view, &light);
    target.end(cmd);
  });
  const Matches m = match_drawn(target, std::span(&want, 1));
  ASSERT_GT(m.covered, 10000u);
  EXPECT_EQ(m.matching, m.covered) << "floor pixels that are not the model's colour of their cell light";
}

// The sky pass: each pixel is the model's sky along that pixel's view ray, top to horizon a gradient,
// and it leaves pixels that geometry covered as they were.
TEST_F(LightingTest, SkyPixelsAreTheModelsSkyAlongEachRay) {
  constexpr std::uint32_t kW = 96, kH = 64;
  render::SceneCamera camera =
      render::SceneCamera::look_at({0.0f, 2.0f, 0.0f}, glm::vec3(0.0f, 2.3f, 10.0f), glm::radians(70.0f));
  const render::FrameView view = render::FrameView::of_camera(camera, kW, kH, glm::vec3(-0.2f, 0.5f, -0.8f));
  const render::shader::LightParamsGpu params = light_block(view);
  render::OffscreenTarget target(ctx(), kW, kH);
  render::ShadowMap light(ctx(), 16);
  render::SkyPass sky(ctx(), render::OffscreenTarget::kColorFormat, render::OffscreenTarget::kDepthFormat);
  ctx().submit_and_wait([&](VkCommandBuffer cmd) {
    light.record_light_only(cmd, view);
    target.begin(cmd, glm::vec4(0.0f));
    sky.draw(cmd, view, light);
    target.end(cmd);
  });
  const std::vector<std::uint8_t> pixels = target.read_color();
  const glm::mat4 inverse = glm::inverse(view.view_proj);
  std::size_t worst = 0;
  for (std::uint32_t y = 0; y < kH; ++y)
    for (std::uint32_t x = 0; x < kW; ++x) {
      // The pixel centre's ray, as sky.frag reconstructs it (image row 0 at the top: ndc y = -1).
      const glm::vec2 ndc((float(x) + 0.5f) / float(kW) * 2.0f - 1.0f,
                          (float(y) + 0.5f) / float(kH) * 2.0f - 1.0f);
      const glm::vec4 p = inverse * glm::vec4(ndc, 1.0f, 1.0f);
      const glm::vec3 d = glm::normalize(glm::vec3(p) / p.w - view.eye);
      const glm::ivec3 want = to_bytes(render::sky_reference(params, render::Shading::kFull, d));
      const std::uint8_t* px = &pixels[4 * (std::size_t(y) * kW + x)];
      for (int k = 0; k < 3; ++k) worst = std::max(worst, std::size_t(std::abs(int(px[k]) - want[k])));
    }
  EXPECT_LE(worst, 1u);
  const std::uint8_t* top = &pixels[4 * (kW / 2)];
  const std::uint8_t* low = &pixels[4 * ((kH - 1) * kW + kW / 2)];
  EXPECT_GT(int(low[0]) + int(low[1]) - int(top[0]) - int(top[1]), 20) << "no gradient from the zenith down";
}

}  // namespace
}  // namespace myriad::test
