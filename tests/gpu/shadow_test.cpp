// The directional light's shadow map on lavapipe (validation on): the fitted light view holds the
// camera's frustum slice and the caster reach and snaps to whole texels; casters outside the camera
// frustum (a crowd giant, a vegetation tree, a voxel pillar, a voxel tree) darken the visible ground exactly
// inside their predicted shadow footprint and nowhere else; the ground shadowing itself leaves the picture
// exactly as drawn without a map (no acne); skinned avatars receive the map (alpha-tested plant casters:
// shadow_alpha_test.cpp); and the shadow view's culling
// keeps the camera's LOD for every entity and plant that both views see, and leaves the vegetation's
// two-phase visibility flags alone.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "crowd_test_types.hpp"
#include "vegetation_cull_reference.hpp"
#include "gpu_fixture.hpp"
#include "shadow_fixture.hpp"
#include "lit_terrain.hpp"
#include "myriad/crowd/entity_cull.hpp"
#include "myriad/render/avatars/avatar_crowd_renderer.hpp"
#include "myriad/render/crowd/crowd_renderer.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/terrain/terrain_renderer.hpp"
#include "myriad/render/vegetation/vegetation_renderer.hpp"
#include "myriad/render/voxel/voxel_vegetation.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace myriad::test {
namespace {

glm::vec3 ndc(const glm::mat4& m, glm::vec3 p) {
  const glm::vec4 c = m * glm::vec4(p, 1.0f);
  return glm::vec3(c) / c.w;
}

// Where a pixel centre's ray meets the ground plane y = ground_y.
glm::vec2 ground_point(const glm::mat4& inv_view_proj, glm::vec3 eye, std::uint32_t x, std::uint32_t y,
                       float ground_y) {
  const glm::vec2 n((float(x) + 0.5f) / float(kWidth) * 2.0f - 1.0f,
                    (float(y) + 0.5f) / float(kHeight) * 2.0f - 1.0f);
  const glm::vec4 p = inv_view_proj * glm::vec4(n, 0.5f, 1.0f);
  const glm::vec3 dir = glm::vec3(p) / p.w - eye;
  const float t = (ground_y - eye.y) / dir.y;
  return {eye.x + dir.x * t, eye.z + dir.z * t};
}

// The ground footprint (xz box) of a caster's box projected along the light onto y = ground_y,
// widened by `margin`.
Aabb footprint(const Aabb& caster, float margin, float ground_y) {
  Aabb f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c(i & 1 ? caster.max.x : caster.min.x, i & 2 ? caster.max.y : caster.min.y,
                      i & 4 ? caster.max.z : caster.min.z);
    const glm::vec3 g = c - kToLight * ((c.y - ground_y) / kToLight.y);
    f.expand(glm::vec3(g.x, 0.0f, g.z));
  }
  f.min -= glm::vec3(margin);
  f.max += glm::vec3(margin);
  return f;
}

struct ShadowDiff {
  std::size_t darkened_inside = 0;  // pixels of the footprint that got darker
  std::size_t changed_outside = 0;  // pixels outside the widened footprint that changed at all
  std::size_t lighter = 0;          // pixels that got lighter anywhere
};

ShadowDiff compare(const std::vector<std::uint8_t>& lit, const std::vector<std::uint8_t>& shadowed,
                   const glm::mat4& view_proj, glm::vec3 eye, const Aabb& caster, float ground_y = 0.0f) {
  const glm::mat4 inv = glm::inverse(view_proj);
  const Aabb tight = footprint(caster, 0.0f, ground_y), wide = footprint(caster, 1.5f, ground_y);
  ShadowDiff d;
  for (std::uint32_t y = 0; y < kHeight; ++y) {
    for (std::uint32_t x = 0; x < kWidth; ++x) {
      const std::size_t i = (std::size_t(y) * kWidth + x) * 4;
      const int a = lit[i] + lit[i + 1] + lit[i + 2], b = shadowed[i] + shadowed[i + 1] + shadowed[i + 2];
      const bool changed = !std::equal(lit.begin() + std::ptrdiff_t(i), lit.begin() + std::ptrdiff_t(i + 4),
                                       shadowed.begin() + std::ptrdiff_t(i));
      const glm::vec2 g = ground_point(inv, eye, x, y, ground_y);
      const glm::vec3 p(g.x, 0.0f, g.y);
      const bool in_tight =
          glm::all(glm::greaterThanEqual(p, tight.min)) && glm::all(glm::lessThanEqual(p, tight.max));
      const bool in_wide =
          glm::all(glm::greaterThanEqual(p, wide.min)) && glm::all(glm::lessThanEqual(p, wide.max));
      if (in_tight && b + 30 < a) ++d.darkened_inside;
      if (!in_wide && changed) ++d.changed_outside;
      if (b > a) ++d.lighter;
    }
  }
  return d;
}

std::size_t differing_pixels(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); i += 4)
    n += std::equal(a.begin() + std::ptrdiff_t(i), a.begin() + std::ptrdiff_t(i + 4),
                    b.begin() + std::ptrdiff_t(i))
             ? 0
             : 1;
  return n;
}

// A crowd entity `scale` times its size standing at `position`.
crowd::CrowdEntity giant_at(glm::vec3 position, float scale) {
  crowd::CrowdEntity giant;
  giant.position = position;
  giant.yaw_scale = crowd::pack_yaw_scale(0.0f, scale);
  giant.type_clip = 0;
  giant.tint = 0xffffffffu;
  return giant;
}

// The same just outside the camera frustum (by its culling sphere), on the light's side.
crowd::CrowdEntity giant_outside(const Frustum& view_frustum, const Aabb& local, float scale) {
  glm::vec3 position(-20.0f, 0.0f, 0.0f);
  while (view_frustum.intersects(Sphere{position, crowd::type_bounds(local).bound_radius * scale}))
    position.x -= 1.0f;
  return giant_at(position, scale);
}

TEST_F(ShadowTest, FitHoldsTheSliceAndTheReachAndSnapsToTexels) {
  render::ShadowMap shadow(ctx(), 1024);
  const glm::vec3 to_light = glm::normalize(glm::vec3(0.3f, 1.0f, 0.2f));
  constexpr float kDistance = 60.0f, kReach = 40.0f;
  render::SceneCamera camera = render::SceneCamera::look_at({3.0f, 10.0f, -5.0f}, {20.0f, 0.0f, 40.0f});
  shadow.fit(render::FrameView::of_camera(camera, 150, 100, to_light), kDistance, kReach);
  const glm::mat4& m = shadow.light_view_proj();
  EXPECT_NEAR(glm::length(shadow.to_light() - to_light), 0.0f, 1e-6f);

  // The slice's corners: inside the map, between its depth planes.
  const glm::mat4 inv_view = glm::inverse(camera.view());
  const float ty = std::tan(0.5f * camera.fov_y), tx = ty * 1.5f;
  std::vector<glm::vec3> corners;
  for (float d : {camera.near_plane, kDistance})
    for (float sx : {-1.0f, 1.0f})
      for (float sy : {-1.0f, 1.0f})
        corners.push_back(glm::vec3(inv_view * glm::vec4(sx * tx * d, sy * ty * d, -d, 1.0f)));
  float highest = 0.0f;  // the slice's depth nearest the light
  for (const glm::vec3& c : corners) {
    const glm::vec3 p = ndc(m, c);
    EXPECT_LE(std::abs(p.x), 1.0f) << p.x;
    EXPECT_LE(std::abs(p.y), 1.0f) << p.y;
    EXPECT_GE(p.z, 0.0f);
    EXPECT_LE(p.z, 1.0f);
    highest = std::max(highest, p.z);
    // A caster `reach` metres towards the light from any slice point is still in the map and culled in.
    const glm::vec3 caster = c + to_light * kReach;
    EXPECT_LE(ndc(m, caster).z, 1.0f);
    EXPECT_TRUE(shadow.caster_frustum().intersects(Sphere{caster, 0.01f}));
  }
  // ...but the box does not reach much further: past reach + slice diameter + a few texels, culled out.
  const float diameter = glm::distance(corners[0], corners[7]) + glm::distance(corners[1], corners[6]);
  const glm::vec3 beyond = corners[7] + to_light * (kReach + diameter + 1.0f);
  EXPECT_GT(ndc(m, beyond).z, 1.0f);
  EXPECT_FALSE(shadow.caster_frustum().intersects(Sphere{beyond, 0.01f}));
  EXPECT_LT(highest, 1.0f);

  // Turning the camera keeps the texel size; moving it moves the map by whole texels only.
  const float texel = shadow.texel_world_size();
  const glm::vec3 fixed_point(7.0f, 1.0f, 13.0f);
  const glm::vec3 before = ndc(m, fixed_point);
  camera.forward = glm::normalize(glm::vec3(-0.6f, -0.3f, 0.2f));
  camera.eye += glm::vec3(0.013f, 0.002f, -0.171f);
  shadow.fit(render::FrameView::of_camera(camera, 150, 100, to_light), kDistance, kReach);
  EXPECT_EQ(shadow.texel_world_size(), texel);
  const glm::vec3 after = ndc(shadow.light_view_proj(), fixed_point);
  for (int axis = 0; axis < 2; ++axis) {
    const float texels = (after[axis] - before[axis]) * 0.5f * float(shadow.size());
    EXPECT_NEAR(texels, std::round(texels), 2e-3f) << axis;
  }
  EXPECT_EQ(shadow.gpu_bytes(), 1024ull * 1024ull * 4ull + sizeof(render::shader::LightParamsGpu));
}

// Crowd: a giant outside the camera frustum shadows the visible ground; with it moved away, the
// shadowed frame equals the frame drawn without any shadow map.
TEST_F(ShadowTest, CrowdCasterOutsideTheViewDarkensTheGround) {
  const std::vector<crowd::CrowdFile> types{make_test_crowd_type()};
  constexpr float kScale = 12.0f;
  Aabb local{types[0].animated_min, types[0].animated_max};
  local.expand(Aabb{types[0].bind_min, types[0].bind_max});
  const render::SceneCamera camera = top_camera();
  const render::FrameView view = camera_view(camera);
  const glm::mat4& view_proj = view.view_proj;
  const Frustum& view_frustum = view.frustum;
  const crowd::CrowdEntity giant = giant_outside(view_frustum, local, kScale);
  crowd::CrowdEntity away = giant;
  away.position = {0.0f, 0.0f, 5000.0f};
  render::OffscreenTarget target(ctx(), kWidth, kHeight);
  render::CrowdRenderer crowd_renderer(ctx(), types, std::span(&giant, 1),
                                       render::OffscreenTarget::kColorFormat,
                                       render::OffscreenTarget::kDepthFormat);
  const render::VegetationRenderer ground_renderer(ctx(), meshes(), render::OffscreenTarget::kColorFormat,
                                                   render::OffscreenTarget::kDepthFormat, textures());
  const gpu::Buffer ground = ground_buffer();
  render::ShadowMap shadow(ctx(), 1024);
  shadow.fit(view, 60.0f, 60.0f);

  const crowd::CrowdCullParams camera_params = crowd_renderer.cull_params(view);
  const crowd::CrowdCullParams shadow_params = crowd_renderer.cull_params(shadow.view());
  // The giant is outside the camera's view but inside the shadow view.
  crowd::CrowdCullResult seen;
  crowd::cull_entities(std::span(&giant, 1), crowd_renderer.type_bounds(), camera_params, seen);
  ASSERT_EQ(seen.visible, 0u);
  crowd::cull_entities(std::span(&giant, 1), crowd_renderer.type_bounds(), shadow_params, seen);
  ASSERT_EQ(seen.visible, 1u);

  const render::VegetationDrawOptions settings;
  auto frame = [&](bool with_shadow) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      if (with_shadow) {
        crowd_renderer.cull_shadow(cmd, shadow.view());
        shadow.begin(cmd);
        ground_renderer.draw_direct_shadow(cmd, shadow.view(), box_mesh(), ground, 1);
        crowd_renderer.draw_shadow(cmd, shadow.view());
        shadow.end(cmd);
      }
      crowd_renderer.cull(cmd, view);
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      const render::ShadowMap* map = with_shadow ? &shadow : nullptr;
      ground_renderer.draw_direct(cmd, view, settings, box_mesh(), ground, 1, map);
      crowd_renderer.draw(cmd, view, map);
      target.end(cmd);
    });
    return target.read_color();
  };
  const std::vector<std::uint8_t> shadowed = frame(true);
  crowd_renderer.set_entities(std::span(&away, 1));
  const std::vector<std::uint8_t> self_shadowed_ground = frame(true);
  const std::vector<std::uint8_t> no_map = frame(false);
  EXPECT_EQ(differing_pixels(self_shadowed_ground, no_map), 0u) << "the ground shadows itself (acne)";

  const Aabb bounds{local.min * kScale + giant.position, local.max * kScale + giant.position};
  const ShadowDiff d = compare(no_map, shadowed, view_proj, camera.eye, bounds);
  EXPECT_GT(d.darkened_inside, 100u);
  EXPECT_EQ(d.changed_outside, 0u);
  EXPECT_EQ(d.lighter, 0u);
}

// Skinned avatars receive the scene's shadow map: beside a giant (drawn only into the map), some of
// their pixels darken and none gets lighter; with the giant far away the map changes nothing.
TEST_F(ShadowTest, AvatarsReceiveTheShadowOfACaster) {
  const std::vector<crowd::CrowdFile> types{make_test_crowd_type()};
  render::SceneCamera camera = top_camera();
  camera.eye.y = 14.0f;  // closer: the avatars cover more pixels
  const render::FrameView view = camera_view(camera);
  const crowd::CrowdEntity giant = giant_at({-14.0f, 0.0f, 0.0f}, 16.0f);
  const crowd::CrowdEntity away = giant_at({0.0f, 0.0f, 5000.0f}, 16.0f);
  render::OffscreenTarget target(ctx(), kWidth, kHeight);
  render::CrowdRenderer crowd_renderer(ctx(), types, std::span(&giant, 1),
                                       render::OffscreenTarget::kColorFormat,
                                       render::OffscreenTarget::kDepthFormat);
  // Five by five avatars 4 m tall (so that they cover pixels from 14 m above) in the giant's shadow's reach.
  render::AvatarCrowdRenderer avatars(
      ctx(), {.avatars = 25, .spacing = 2.5f, .origin = {-5.0f, 0.0f, 5.0f}, .height = 4.0f}, false,
      render::OffscreenTarget::kColorFormat, render::OffscreenTarget::kDepthFormat);
  render::ShadowMap shadow(ctx(), 1024);
  shadow.fit(view, 60.0f, 60.0f);
  auto frame = [&](bool with_shadow) {
    avatars.update(view, 0.0f);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      crowd_renderer.cull(cmd, view);
      crowd_renderer.cull_shadow(cmd, shadow.view());
      shadow.begin(cmd);
      crowd_renderer.draw_shadow(cmd, shadow.view());
      shadow.end(cmd);
      avatars.upload(cmd);
      avatars.cull(cmd, view, render::FramePhase::kSingle, nullptr);
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      avatars.draw(cmd, view, render::FramePhase::kSingle, with_shadow ? &shadow : nullptr);
      target.end(cmd);
    });
    return target.read_color();
  };
  const std::vector<std::uint8_t> lit = frame(false);
  const std::vector<std::uint8_t> shadowed = frame(true);
  crowd_renderer.set_entities(std::span(&away, 1));
  const std::vector<std::uint8_t> unshadowed = frame(true);
  std::size_t covered = 0, darker = 0, lighter = 0;
  for (std::size_t i = 0; i < lit.size(); i += 4) {
    const int a = lit[i] + lit[i + 1] + lit[i + 2], b = shadowed[i] + shadowed[i + 1] + shadowed[i + 2];
    covered += a > 0 ? 1 : 0;
    darker += b + 30 < a ? 1 : 0;
    lighter += b > a ? 1 : 0;
  }
  ASSERT_GT(covered, 300u) << "the avatars are not in view";
  EXPECT_GT(darker, 50u) << "the shadow map does not reach the avatars";
  EXPECT_EQ(lighter, 0u);
  // Avatars cast no map shadow (B9): a map without casters changes none of their pixels (no acne).
  EXPECT_EQ(differing_pixels(lit, unshadowed), 0u);
}

// Terrain: a voxel pillar outside the camera frustum shadows the floor (the same world both times;
// only the shadow pass differs), and the camera view keeps its static-frame property.
TEST_F(ShadowTest, TerrainPillarOutsideTheViewDarkensTheFloor) {
  voxel::World world(64, 48, 64);
  for (int z = 0; z < 64; ++z)
    for (int x = 0; x < 64; ++x)
      for (int y = 0; y < 4; ++y)
        world.set_voxel({x, y, z}, y == 3 ? voxel::kGrass : voxel::kStone, voxel::kFormFull);
  const Aabb pillar{{4.0f, 4.0f, 30.0f}, {8.0f, 40.0f, 34.0f}};
  for (int y = 4; y < 40; ++y)
    for (int z = 30; z < 34; ++z)
      for (int x = 4; x < 8; ++x) world.set_voxel({x, y, z}, voxel::kStone, voxel::kFormFull);
  const std::unique_ptr<render::TerrainRenderer> terrain_owner = lit_terrain(ctx(), world);
  render::TerrainRenderer& terrain = *terrain_owner;

  render::SceneCamera camera;
  camera.eye = {40.0f, 30.0f, 32.0f};
  camera.forward = {0.0f, -1.0f, 0.0f};
  camera.fov_y = 1.0f;
  const render::FrameView view = camera_view(camera);
  const glm::mat4& view_proj = view.view_proj;
  ASSERT_FALSE(view.frustum.intersects(pillar));
  render::ShadowMap shadow(ctx(), 1024);
  shadow.fit(view, 60.0f, 50.0f);
  ASSERT_TRUE(shadow.caster_frustum().intersects(pillar));
  render::OffscreenTarget target(ctx(), kWidth, kHeight);
  auto frame = [&](bool terrain_casts) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      terrain.upload(cmd);
      terrain.cull(cmd, view);
      terrain.cull_shadow(cmd, shadow.view());
      shadow.begin(cmd);
      if (terrain_casts) terrain.draw_shadow(cmd, shadow.view());
      shadow.end(cmd);
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      terrain.draw(cmd, view, &shadow);
      target.end(cmd);
    });
    return target.read_color();
  };
  const std::vector<std::uint8_t> lit = frame(false);
  EXPECT_TRUE(terrain.shadow_stats().culled);
  const std::vector<std::uint8_t> shadowed = frame(true);
  EXPECT_FALSE(terrain.shadow_stats().culled);  // same light view, same pages: no second cull
  EXPECT_GT(terrain.shadow_stats().arenas_drawn, 0u);
  EXPECT_FALSE(terrain.frame_stats().culled);
  EXPECT_EQ(terrain.frame_stats().uploaded_bytes, 0u);
  const ShadowDiff d = compare(lit, shadowed, view_proj, camera.eye, pillar, 4.0f);
  EXPECT_GT(d.darkened_inside, 100u);
  EXPECT_EQ(d.changed_outside, 0u);
  EXPECT_EQ(d.lighter, 0u);
}

// Voxel trees: a tree outside the camera frustum casts onto the ground through draw_shadow (the
// camera's cull() finds no visible group and skips its culling, the shadow pass still draws).
TEST_F(ShadowTest, VoxelTreeOutsideTheViewDarkensTheGround) {
  render::VoxelVegetationRenderer trees(ctx(), {2, 1, 2}, render::OffscreenTarget::kColorFormat,
                                        render::OffscreenTarget::kDepthFormat);
  constexpr float kTreeHeight = 14.0f;
  voxel::SectionVegetation v;
  v.trees.push_back({-30.0f, 0.0f, 0.0f, std::uint32_t(kTreeHeight * 16.0f) << 16, 0xF000u, 0xF000u});
  trees.set_section(0, v);
  const Aabb tree{{-30.0f - 0.5f * kTreeHeight, 0.0f, -0.5f * kTreeHeight},
                  {-29.0f + 0.5f * kTreeHeight, kTreeHeight, 1.0f + 0.5f * kTreeHeight}};
  const render::VegetationRenderer ground_renderer(ctx(), meshes(), render::OffscreenTarget::kColorFormat,
                                                   render::OffscreenTarget::kDepthFormat, textures());
  const gpu::Buffer ground = ground_buffer();
  render::OffscreenTarget target(ctx(), kWidth, kHeight);
  render::ShadowMap shadow(ctx(), 1024);
  const render::SceneCamera camera = top_camera();
  render::FrameView view = camera_view(camera);
  view.time = 2.0f;
  shadow.fit(view, 60.0f, 40.0f);
  const glm::mat4& view_proj = view.view_proj;
  const render::VegetationDrawOptions settings;
  auto frame = [&](bool tree_casts) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      trees.upload(cmd);
      trees.cull(cmd, view);
      if (tree_casts) trees.cull_shadow(cmd, shadow.view());
      shadow.begin(cmd);
      ground_renderer.draw_direct_shadow(cmd, shadow.view(), box_mesh(), ground, 1);
      trees.draw_shadow(cmd, shadow.view());
      shadow.end(cmd);
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      ground_renderer.draw_direct(cmd, view, settings, box_mesh(), ground, 1, &shadow);
      trees.draw(cmd, view, &shadow);
      target.end(cmd);
    });
    return target.read_color();
  };
  const std::vector<std::uint8_t> lit = frame(false);
  const std::vector<std::uint8_t> shadowed = frame(true);
  EXPECT_TRUE(trees.stats().skipped);  // nothing of it in the camera's view
  EXPECT_EQ(trees.stats().shadow_draws, 1u);
  const ShadowDiff d = compare(lit, shadowed, view_proj, camera.eye, tree);
  EXPECT_GT(d.darkened_inside, 100u);
  EXPECT_EQ(d.changed_outside, 0u);
  EXPECT_EQ(d.lighter, 0u);
}

// Vegetation: a tree outside the camera frustum, culled for the shadow view, shadows the ground.
TEST_F(ShadowTest, VegetationCasterOutsideTheViewDarkensTheGround) {
  const RuntimeWorld world = plants({{0, {-30.0, 0.0, 0.0}, 0.0f, 1.4f, {90, 140, 70}}});
  ASSERT_EQ(world.types().size(), 1u);
  const RuntimeWorld::Type& type = world.types()[0];
  render::OffscreenTarget target(ctx(), kWidth, kHeight);
  render::VegetationCull cull(ctx());
  const render::VegetationRenderer renderer(ctx(), meshes(), render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat, textures());
  const render::VegetationGpuType g = cull.upload(type, renderer.lod_meshes(type.prefab), 0.2f, 0.1f);
  const gpu::Buffer ground = ground_buffer();
  render::ShadowMap shadow(ctx(), 1024);
  const render::SceneCamera camera = top_camera();
  const render::FrameView view = camera_view(camera);
  shadow.fit(view, 60.0f, 40.0f);
  const glm::mat4& view_proj = view.view_proj;
  const Frustum& frustum = view.frustum;
  const Sphere tree = type.expand(0).sphere;
  ASSERT_FALSE(frustum.intersects(tree));
  ASSERT_TRUE(shadow.caster_frustum().intersects(tree));

  const render::VegetationDrawOptions settings;
  auto frame = [&](bool tree_casts) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      (void)cull.record(cmd, shadow.caster_frustum(), camera.eye, g);
      shadow.begin(cmd);
      renderer.draw_direct_shadow(cmd, shadow.view(), box_mesh(), ground, 1);
      if (tree_casts) {
        EXPECT_GT(renderer.draw_shadow(cmd, shadow.view(), g), 0u);
      }
      shadow.end(cmd);
      (void)cull.record(cmd, frustum, camera.eye, g);  // the camera's culling reuses the lists
      target.begin(cmd, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      renderer.draw_direct(cmd, view, settings, box_mesh(), ground, 1, &shadow);
      (void)renderer.draw(cmd, view, settings, g, 0xFu, &shadow);
      target.end(cmd);
    });
    return target.read_color();
  };
  const std::vector<std::uint8_t> lit = frame(false);
  const std::vector<std::uint8_t> shadowed = frame(true);
  const Aabb bounds{glm::vec3(tree.center) - glm::vec3(tree.radius),
                    glm::vec3(tree.center) + glm::vec3(tree.radius)};
  const ShadowDiff d = compare(lit, shadowed, view_proj, camera.eye, bounds);
  EXPECT_GT(d.darkened_inside, 100u);
  EXPECT_EQ(d.changed_outside, 0u);
  EXPECT_EQ(d.lighter, 0u);
}

// A camera low over a wide field and its shadow view: culling for the light with the camera's
// position picks, for every entity / plant both views keep, exactly the camera cull's LOD.
render::SceneCamera field_camera() {
  return render::SceneCamera::look_at({0.0f, 6.0f, -45.0f}, {0.0f, 0.0f, 0.0f});
}

// Levels per culled item (entity or plant: a cross-fading plant sits in two LODs' lists).
using Levels = std::map<std::uint32_t, std::set<std::uint32_t>>;

// Culls for the shadow view and for the camera view (`cull` reads back the levels) and checks that every
// item both kept got the same levels from both; counts what was seen.
struct LevelAgreement {
  std::size_t both = 0, shadow_only = 0;
  std::set<std::uint32_t> levels;
};
LevelAgreement agreement(const render::ShadowMap& shadow, const render::SceneCamera& camera,
                         const std::function<Levels(const Frustum&)>& cull) {
  const Levels in_shadow = cull(shadow.caster_frustum());
  const Levels in_view = cull(camera_view(camera).frustum);
  LevelAgreement a;
  for (const auto& [item, levels] : in_shadow) {
    const auto it = in_view.find(item);
    if (it == in_view.end()) {
      ++a.shadow_only;
      continue;
    }
    ++a.both;
    a.levels.insert(levels.begin(), levels.end());
    EXPECT_EQ(levels, it->second) << "item " << item;
  }
  return a;
}

TEST_F(ShadowTest, CrowdShadowCullKeepsTheCameraLod) {
  const std::vector<crowd::CrowdFile> types{make_test_crowd_type()};
  std::vector<crowd::CrowdEntity> entities;
  for (int z = -15; z <= 15; ++z)
    for (int x = -15; x <= 15; ++x) {
      crowd::CrowdEntity e;
      e.position = {float(x) * 5.0f, 0.0f, float(z) * 5.0f};
      e.yaw_scale = crowd::pack_yaw_scale(0.3f * float(x), 1.0f);
      entities.push_back(e);
    }
  render::CrowdRenderer renderer(ctx(), types, entities, render::OffscreenTarget::kColorFormat,
                                 render::OffscreenTarget::kDepthFormat);
  render::ShadowMap shadow(ctx(), 256);
  const render::SceneCamera camera = field_camera();
  // At 240 pixels high, switches at about 25 and 45 m.
  render::FrameView view = render::FrameView::of_camera(camera, 320, 240, kToLight);
  shadow.fit(view, 80.0f, 40.0f);
  renderer.set_lod_reference_diameter(renderer.type_bounds()[0].diameter * 4.0f);
  auto levels = [&](const Frustum& frustum) {
    view.frustum = frustum;  // the camera's eye and LOD reference, the frustum of the view under test
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { renderer.cull(cmd, view); });
    const auto commands = gpu::read_buffer_as<render::shader::DrawIndexedCommand>(
        ctx(), renderer.cull().commands(), renderer.cull().slot_count());
    const auto visible =
        gpu::read_buffer_as<std::uint32_t>(ctx(), renderer.cull().visible(), renderer.cull().list_capacity());
    Levels level;
    for (std::uint32_t slot = 0; slot < commands.size(); ++slot)
      for (std::uint32_t i = 0; i < commands[slot].instance_count; ++i)
        level[visible[commands[slot].first_instance + i]].insert(slot % crowd::kCrowdLodCount);
    return level;
  };
  const LevelAgreement a = agreement(shadow, camera, levels);
  EXPECT_GT(a.both, 50u);
  EXPECT_GT(a.shadow_only, 0u);
  EXPECT_EQ(a.levels.size(), 3u);
}

TEST_F(ShadowTest, VegetationShadowCullKeepsTheCameraLod) {
  std::vector<vegetation::WorldInstance> field;
  for (int z = -12; z <= 12; ++z)
    for (int x = -12; x <= 12; ++x)
      field.push_back({1, {5.0 * x, 0.0, 5.0 * z}, 0.4f * float(x * z), 1.0f, {80, 120, 60}});
  const RuntimeWorld world = plants(field);
  ASSERT_EQ(world.types().size(), 1u);
  const RuntimeWorld::Type& type = world.types()[0];
  render::VegetationCull cull(ctx());
  const render::VegetationRenderer renderer(ctx(), meshes(), render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat, textures());
  const render::VegetationGpuType g = cull.upload(type, renderer.lod_meshes(type.prefab), 0.2f, 0.1f);
  render::ShadowMap shadow(ctx(), 256);
  const render::SceneCamera camera = field_camera();
  shadow.fit(camera_view(camera), 80.0f, 40.0f);
  auto lods = [&](const Frustum& frustum) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { (void)cull.record(cmd, frustum, camera.eye, g); });
    const auto args = gpu::read_buffer_as<render::shader::VegCullArgs>(ctx(), g.args, 1)[0];
    const auto lists = gpu::read_buffer_as<std::uint32_t>(ctx(), g.lists, std::size_t(g.capacity) * 2);
    Levels lod;
    for (std::uint32_t l = 0; l < vegetation::kGpuMaxLods; ++l)
      for (const std::uint32_t word : vegetation_list_entries(args, lists, g, l))
        lod[word & VEG_SLOT_MASK].insert(l);
    return lod;
  };
  // The two-phase occlusion state (last frame's visibility) survives the single-pass shadow cull.
  std::vector<std::uint32_t> visibility(g.capacity);
  for (std::uint32_t i = 0; i < g.capacity; ++i) visibility[i] = i % 3 == 0 ? 1u : 0u;
  gpu::upload(ctx(), g.visibility, std::span<const std::uint32_t>(visibility));
  const LevelAgreement a = agreement(shadow, camera, lods);
  EXPECT_GT(a.both, 50u);
  EXPECT_GT(a.shadow_only, 0u);
  EXPECT_GE(a.levels.size(), 2u);
  EXPECT_EQ(gpu::read_buffer_as<std::uint32_t>(ctx(), g.visibility, g.capacity), visibility);
}

}  // namespace
}  // namespace myriad::test
