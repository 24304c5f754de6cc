// Vegetation drawing on the device (lavapipe, validation on), checked through instance-id images: a
// small field's pixels come exactly from the CPU cull's visible set and every clearly visible
// instance shows; the dithered cross-fade splits each fading instance's pixels between its two LODs
// with complementary masks (never both, together all, the incoming share following the distance);
// and a rendered frame with two-phase Hi-Z behind a wall draws far fewer instances yet gives the
// same image as drawing every frustum-visible instance.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/vegetation/vegetation_frame.hpp"
#include "myriad/vegetation/bake/baker.hpp"

namespace myriad::test {
namespace {

using namespace myriad::vegetation;

constexpr std::uint32_t kBush = 1;  // index of the bush in default_plant_types()

RuntimeWorld bushes(const std::vector<WorldInstance>& field, std::array<float, kPlantLodCount> lods) {
  BakeOptions o;
  for (PlantType& t : o.types) t.lod_distances = lods;
  RuntimeWorld world(glm::dvec3(0.0));
  for (Tile& t : bake_tiles(o, &field)) {
    auto tile = std::make_shared<const Tile>(std::move(t));
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  }
  return world;
}

// Instance id + 1 per pixel (0 = nothing) and the LOD in the alpha byte.
struct IdImage {
  std::vector<std::uint32_t> id;
  std::vector<std::uint8_t> lod;
};
IdImage decode(const std::vector<std::uint8_t>& rgba) {
  IdImage img;
  for (std::size_t i = 0; i < rgba.size(); i += 4) {
    img.id.push_back(std::uint32_t(rgba[i]) | std::uint32_t(rgba[i + 1]) << 8 |
                     std::uint32_t(rgba[i + 2]) << 16);
    img.lod.push_back(rgba[i + 3]);
  }
  return img;
}

// A kW x kH view from `cam` towards `target` (vertical fov in radians, near plane `near`).
render::FrameView test_view(glm::vec3 cam, glm::vec3 target, float fov, int kW, int kH, float near = 0.1f,
                            glm::vec3 up = kWorldUp) {
  return render::FrameView::of_matrices(glm::lookAt(cam, target, up),
                                        perspective_infinite_reverse_z(fov, float(kW) / float(kH), near),
                                        std::uint32_t(kW), std::uint32_t(kH), glm::vec3(0.4f, 1.0f, 0.3f));
}

class VegetationRenderTest : public GpuTest {
 protected:
  std::vector<PlantMesh> meshes() {
    std::vector<PlantMesh> m = render::default_plant_art().meshes;
    m.push_back(make_box_mesh({{-0.5f, 0.0f, -0.5f}, {0.5f, 1.0f, 0.5f}}));
    return m;
  }
  // The textures the plant meshes sample.
  std::vector<PlantTexture> textures() { return render::default_plant_art().textures; }
  // Culls `g` and draws the LODs of `lod_mask` as instance ids into a fresh image.
  IdImage draw_ids(render::OffscreenTarget& target, const render::VegetationCull& cull,
                   const render::VegetationRenderer& renderer, const render::VegetationGpuType& g,
                   const render::FrameView& view, std::uint32_t lod_mask = 0xF) {
    render::VegetationDrawOptions s;
    s.instance_ids = true;
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      (void)cull.record(cmd, view.frustum, view.eye, g);
      target.begin(cmd, glm::vec4(0.0f));
      (void)renderer.draw(cmd, view, s, g, lod_mask);
      target.end(cmd);
    });
    return decode(target.read_color());
  }
};

// Pixel rectangle of a sphere's bounding cube (as in the Hi-Z reference of vegetation_test.cpp).
glm::ivec4 sphere_rect(const glm::mat4& vp, glm::vec4 s, int w, int h) {
  glm::vec2 lo(1e30f), hi(-1e30f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c =
        glm::vec3(s) + s.w * glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
    const glm::vec4 p = vp * glm::vec4(c, 1.0f);
    lo = glm::min(lo, glm::vec2(p) / p.w);
    hi = glm::max(hi, glm::vec2(p) / p.w);
  }
  const glm::vec2 size{float(w), float(h)};
  const glm::ivec2 a(glm::floor((lo * 0.5f + 0.5f) * size)), b(glm::floor((hi * 0.5f + 0.5f) * size));
  return {a.x, a.y, b.x, b.y};
}

TEST_F(VegetationRenderTest, FieldPixelsComeExactlyFromTheCpuVisibleSet) {
  // A 20 x 20 grid of bushes 6 m apart seen from 60 m straight above: no two overlap on screen, the
  // frustum cuts the grid's edges, the LOD switches (with a hashed band and cross-fades) fall inside.
  std::vector<WorldInstance> field;
  for (int z = 0; z < 20; ++z)
    for (int x = 0; x < 20; ++x)
      field.push_back(
          {kBush, {-57.0 + 6.0 * x, 0.0, -57.0 + 6.0 * z}, 0.3f * float(x + z), 1.0f, {60, 140, 50}});
  const RuntimeWorld world = bushes(field, {63.0f, 68.0f, 75.0f, 1000.0f});
  ASSERT_EQ(world.types().size(), 1u);
  const auto& type = world.types()[0];
  constexpr int kW = 160, kH = 120;
  const glm::vec3 cam(0.0f, 60.0f, 0.0f);
  const render::FrameView view = test_view(cam, glm::vec3(0.0f), 1.0f, kW, kH, 0.5f, {0.0f, 0.0f, -1.0f});
  const glm::mat4& vp = view.view_proj;
  const Frustum& frustum = view.frustum;

  render::OffscreenTarget target(ctx(), kW, kH);
  render::VegetationCull cull(ctx());
  const render::VegetationRenderer renderer(ctx(), meshes(), render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat, textures());
  const render::VegetationGpuType g = cull.upload(type, renderer.lod_meshes(type.prefab), 0.2f, 0.1f);
  const IdImage img = draw_ids(target, cull, renderer, g, view);

  // CPU reference: the group test, then the hashed LOD pick and the sphere frustum test.
  std::map<std::uint32_t, LodPick> visible;
  for (const auto& seg : type.segments) {
    if (!group_visible(frustum, seg.bounds, cam, g.lod)) continue;
    for_each_slot(type, seg, [&](std::uint32_t i) {
      const ExpandedPlant e = type.expand(i);
      const LodPick pick = pick_lod_hashed(e.sphere.center - cam, e.instance.spare.y, g.lod);
      if (pick.lod < g.lod.count && frustum.intersects(e.sphere)) visible[i] = pick;
    });
  }
  ASSERT_GT(visible.size(), 100u);
  ASSERT_LT(visible.size(), type.instances);  // the frustum culls part of the grid
  std::map<std::uint32_t, std::size_t> pixels;
  std::set<std::uint32_t> lods_seen;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const std::size_t p = std::size_t(y) * kW + std::size_t(x);
      if (img.id[p] == 0) continue;
      const std::uint32_t i = img.id[p] - 1;
      ASSERT_TRUE(visible.count(i)) << "pixel from culled instance " << i;
      const LodPick pick = visible[i];
      EXPECT_TRUE(img.lod[p] == pick.lod || (pick.fading && img.lod[p] == pick.lod + 1)) << "instance " << i;
      const Sphere sphere = type.expand(i).sphere;
      const glm::ivec4 r = sphere_rect(vp, glm::vec4(sphere.center, sphere.radius), kW, kH);
      EXPECT_TRUE(x >= r.x - 1 && x <= r.z + 1 && y >= r.y - 1 && y <= r.w + 1) << "instance " << i;
      ++pixels[i];
      lods_seen.insert(img.lod[p]);
    }
  // Every visible instance whose bounds lie wholly on screen shows.
  std::size_t on_screen = 0;
  for (const auto& [i, pick] : visible) {
    const Sphere sphere = type.expand(i).sphere;
    const glm::ivec4 r = sphere_rect(vp, glm::vec4(sphere.center, sphere.radius), kW, kH);
    if (r.x < 0 || r.y < 0 || r.z >= kW || r.w >= kH) continue;
    ++on_screen;
    EXPECT_GT(pixels[i], 0u) << "visible instance " << i << " drew nothing";
  }
  EXPECT_GT(on_screen, 100u);
  EXPECT_GE(lods_seen.size(), 3u);  // LODs 0..2 all drawn
}

TEST_F(VegetationRenderTest, CrossFadeMasksAreComplementary) {
  // Seven bushes on an arc, 12..19.2 m away and 0.2 rad apart (no overlap on screen), all inside the
  // cross-fade band [11, 20) m of the LOD 0 -> 1 switch; no hash band, so the distance alone decides.
  std::vector<WorldInstance> field;
  for (int k = 0; k < 7; ++k) {
    const double a = -0.6 + 0.2 * k, d = 12.0 + 1.2 * k;
    field.push_back({kBush, {d * std::sin(a), 0.0, -d * std::cos(a)}, 0.0f, 1.0f, {60, 140, 50}});
  }
  const RuntimeWorld world = bushes(field, {20.0f, 40.0f, 60.0f, 1000.0f});
  ASSERT_EQ(world.types().size(), 1u);
  const auto& type = world.types()[0];
  RuntimeWorld::Type all_lod1 = type;  // the same instances with LOD 1 from 5 m on
  all_lod1.prefab.lods[0].switch_distance = 5.0f;

  // Large enough that each bush has a few hundred pixels both levels cover: its leaf cards are
  // alpha-tested and laid out differently per level, so the levels overlap on about a third of it.
  constexpr int kW = 640, kH = 320;
  const glm::vec3 cam(0.0f, 0.7f, 0.0f);
  const render::FrameView view = test_view(cam, cam + glm::vec3(0.0f, 0.0f, -1.0f), 0.9f, kW, kH);
  render::OffscreenTarget target(ctx(), kW, kH);
  render::VegetationCull cull(ctx());
  const render::VegetationRenderer renderer(ctx(), meshes(), render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat, textures());
  const auto lod_meshes = renderer.lod_meshes(type.prefab);
  const render::VegetationGpuType fading = cull.upload(type, lod_meshes, 0.0f, 0.45f);
  const render::VegetationGpuType lod0 = cull.upload(type, lod_meshes, 0.0f, 0.0f);
  const render::VegetationGpuType lod1 = cull.upload(all_lod1, lod_meshes, 0.0f, 0.0f);
  const IdImage a = draw_ids(target, cull, renderer, fading, view, 1u);  // outgoing LOD 0
  const IdImage b = draw_ids(target, cull, renderer, fading, view, 2u);  // incoming LOD 1
  const IdImage c0 = draw_ids(target, cull, renderer, lod0, view, 1u);   // all of LOD 0
  const IdImage c1 = draw_ids(target, cull, renderer, lod1, view, 2u);

  std::map<std::uint32_t, std::size_t> both, incoming;
  std::size_t twice = 0;
  for (std::size_t p = 0; p < a.id.size(); ++p) {
    if (a.id[p] != 0 && a.id[p] == b.id[p]) ++twice;
    if (a.id[p] != 0) {
      EXPECT_EQ(a.id[p], c0.id[p]) << "pixel " << p;
    }
    if (b.id[p] != 0) {
      EXPECT_EQ(b.id[p], c1.id[p]) << "pixel " << p;
    }
    if (c0.id[p] == 0 || c0.id[p] != c1.id[p]) continue;
    // Covered by both levels: exactly one of them draws it.
    EXPECT_NE(a.id[p] == c0.id[p], b.id[p] == c1.id[p]) << "pixel " << p;
    ++both[c0.id[p] - 1];
    if (b.id[p] != 0) ++incoming[c0.id[p] - 1];
  }
  EXPECT_EQ(twice, 0u) << "pixels drawn by both LODs of one instance";
  ASSERT_EQ(both.size(), 7u);
  // The incoming level's share follows the squared distance through the band [11, 20) m (no pop at
  // either end).
  for (const auto& [i, n] : both) {
    const glm::vec3 c = type.expand(i).sphere.center;
    const float d2 = glm::dot(c - cam, c - cam);
    const float t = (d2 - 121.0f) / (400.0f - 121.0f);
    const double share = double(incoming[i]) / double(n);
    EXPECT_GT(n, 200u);
    EXPECT_NEAR(share, double(t), 0.1) << "instance " << i << " at t " << t;
  }
}

TEST_F(VegetationRenderTest, HiZFrameBehindAWallDrawsFewerAndLooksTheSame) {
  // A field of bushes 10..170 m ahead, a 4 m wall 30 m ahead; camera 1.5 m up looking down -Z.
  std::vector<WorldInstance> field;
  for (int z = 0; z < 80; ++z)
    for (int x = 0; x < 60; ++x)
      field.push_back({kBush, {-60.0 + 2.0 * x, 0.0, -10.0 - 2.0 * z}, 0.1f * float(x), 1.0f, {50, 90, 40}});
  const RuntimeWorld world = bushes(field, {40.0f, 80.0f, 120.0f, 1000.0f});
  ASSERT_EQ(world.types().size(), 1u);
  const auto& type = world.types()[0];
  constexpr int kW = 256, kH = 192;
  const glm::vec3 cam(0.0f, 1.5f, 0.0f);
  const render::FrameView view = test_view(cam, cam + glm::vec3(0, 0, -1), 1.0f, kW, kH);
  render::VegetationDrawOptions settings;
  settings.instance_ids = true;

  render::OffscreenTarget target(ctx(), kW, kH);
  render::VegetationCull cull(ctx());
  const std::vector<PlantMesh> mesh_list = meshes();
  const render::VegetationRenderer renderer(ctx(), mesh_list, render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat, textures());
  const render::VegetationGpuType g = cull.upload(type, renderer.lod_meshes(type.prefab), 0.2f, 0.1f);
  const std::array wall_instance{
      render::static_instance({0.0f, 0.0f, -30.0f}, {90.0f, 4.0f, 1.0f}, {1, 1, 1})};
  gpu::Buffer wall(ctx(), sizeof(wall_instance), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                   gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), wall, std::span<const RuntimeInstance>(wall_instance));
  const auto box = static_cast<std::uint32_t>(mesh_list.size() - 1);
  auto opaque = [&](VkCommandBuffer cmd) {
    render::VegetationDrawOptions wall_ids = settings;
    wall_ids.id_base = 0xFFFFFEu;  // the wall's pixels read as id 0xFFFFFE
    renderer.draw_direct(cmd, view, wall_ids, box, wall, 1);
  };
  render::VegetationFrame frame(ctx(), cull, renderer, target);
  const std::array types{render::VegetationFrameType{&g, 0}};
  auto render_frame = [&](bool occlusion, render::VegetationFrameCounts& counts) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      frame.record(cmd, view, settings, types, opaque, occlusion, glm::vec4(0.0f));
    });
    counts = frame.read_counts();
    return decode(target.read_color());
  };
  auto ids = [](const IdImage& img) {
    std::set<std::uint32_t> s(img.id.begin(), img.id.end());
    s.erase(0);
    return s;
  };
  render::VegetationFrameCounts all, first, second;
  const IdImage reference = render_frame(false, all);  // every frustum-visible instance drawn
  const IdImage frame1 = render_frame(true, first);
  const IdImage frame2 = render_frame(true, second);

  ASSERT_GT(all.total(), 2000u);
  EXPECT_EQ(first.early, (std::array<std::uint64_t, kGpuMaxLods>{}));  // nothing was visible before
  EXPECT_LT(first.total() * 4, all.total()) << first.total() << " of " << all.total();
  EXPECT_EQ(second.early, first.late);  // last frame's visible set, drawn before the pyramid
  EXPECT_EQ(second.total(), first.total());
  // Conservative: every instance with a pixel in the reference image (visible in its depth) was drawn,
  // and the images agree.
  const std::set<std::uint32_t> seen = ids(reference);
  EXPECT_GT(seen.size(), 50u);
  EXPECT_EQ(ids(frame1), seen);
  EXPECT_EQ(ids(frame2), seen);
  std::size_t differ1 = 0, differ2 = 0;
  for (std::size_t p = 0; p < reference.id.size(); ++p) {
    differ1 += reference.id[p] != frame1.id[p];
    differ2 += reference.id[p] != frame2.id[p];
  }
  EXPECT_EQ(differ1, 0u);
  EXPECT_EQ(differ2, 0u);
  RecordProperty("frustum_drawn", int(all.total()));
  RecordProperty("hiz_drawn", int(first.total()));
  RecordProperty("instances_with_pixels", int(seen.size()));
}

}  // namespace
}  // namespace myriad::test
