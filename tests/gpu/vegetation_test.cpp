// Vegetation GPU culling on the device (lavapipe in CI): per-instance hashed LOD + frustum culling with
// per-LOD compaction and indirect args returns exactly the CPU reference set (group AABB test, then
// pick_lod_hashed + Frustum::intersects per instance, cross-fading instances in two lists with one
// shared threshold) for random cameras; with Hi-Z, a wall in front
// of a field hides most of it while no instance visible in the CPU reference depth buffer is culled.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/core/cull/hiz_occlusion.hpp"
#include "myriad/core/cull/min_pyramid.hpp"
#include "myriad/gpu/memory/image.hpp"
#include "myriad/gpu/memory/staging_ring.hpp"
#include "myriad/render/shaders/shared_types.h"
#include "myriad/render/shaders/veg_cull_layout.h"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "vegetation_cull_reference.hpp"

namespace myriad::test {
namespace {

using render::shader::DrawIndexedCommand;
using namespace myriad::vegetation;

class VegetationGpuTest : public GpuTest {};

TEST_F(VegetationGpuTest, CullingWithoutHiZEqualsTheCpuSet) {
  BakeOptions o;
  o.world_max = {600.0, 600.0};
  o.terrain.amplitude = 40.0f;
  for (PlantType& t : o.types) t.spacing *= 1.5f;
  const glm::dvec3 origin(300.0, 0.0, 300.0);
  RuntimeWorld world(origin);
  for (Tile& t : bake_tiles(o)) {
    auto tile = std::make_shared<const Tile>(std::move(t));
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  }
  ASSERT_EQ(world.types().size(), 3u);
  render::VegetationCull cull(ctx());
  const std::array<render::MeshRange, 4> meshes{{{36, 0, 0}, {24, 36, 100}, {12, 60, 200}, {6, 72, 300}}};
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> xz(-350.0f, 350.0f), h(1.0f, 60.0f);
  std::size_t visible_total = 0, skipped_segments = 0, fading_total = 0, per_lod_differs = 0;
  for (const auto& type : world.types()) {
    // Each LOD with bounds of its own (narrower and lower as the LOD coarsens, a tall thin billboard),
    // so the picked LOD's sphere decides: the same pool with the prefab's bounds for every LOD must
    // list a different set somewhere.
    const Aabb& b = type.prefab.bounds;
    auto shaped = [&](float width, float height) {
      return Aabb{{b.min.x * width, b.min.y, b.min.z * width},
                  {b.max.x * width, b.min.y + (b.max.y - b.min.y) * height, b.max.z * width}};
    };
    const std::array<Aabb, 4> lod_bounds{shaped(1.0f, 1.0f), shaped(0.6f, 0.8f), shaped(0.4f, 0.5f),
                                         shaped(0.3f, 1.3f)};
    // A 15 % cross-fade band: instances inside it are listed at their LOD and the next one.
    const render::VegetationGpuType gpu_type = cull.upload(type, meshes, 0.2f, 0.15f, lod_bounds);
    const render::VegetationGpuType one_shape = cull.upload(type, meshes, 0.2f, 0.15f);
    for (int cam_i = 0; cam_i < 6; ++cam_i) {
      const glm::vec3 cam(xz(rng), h(rng), xz(rng));
      const glm::vec3 target(xz(rng), 0.0f, xz(rng));
      const Frustum frustum =
          Frustum::from_view_proj(perspective(1.0f, 1.5f, 0.1f, 800.0f) * glm::lookAt(cam, target, kWorldUp));
      std::uint32_t dispatched = 0;
      ctx().submit_and_wait(
          [&](VkCommandBuffer cmd) { dispatched = cull.record(cmd, frustum, cam, gpu_type); });
      skipped_segments += type.segments.size() - dispatched;

      const VegetationLists expected = expected_vegetation_lists(type, gpu_type, frustum, cam);
      const VegetationLists with_one_shape = expected_vegetation_lists(type, one_shape, frustum, cam);
      for (std::uint32_t l = 0; l < kGpuMaxLods; ++l) per_lod_differs += expected[l] != with_one_shape[l];
      std::uint32_t overflow = 0;
      const VegetationLists got = read_vegetation_lists(ctx(), gpu_type, &overflow);
      EXPECT_EQ(overflow, 0u);
      for (std::uint32_t l = 0; l < kGpuMaxLods; ++l) {
        ASSERT_EQ(got[l].size(), expected[l].size()) << "lod " << l << " camera " << cam_i;
        EXPECT_EQ(got[l], expected[l]);
        visible_total += got[l].size();
        for (const auto& [id, fade_in] : got[l]) fading_total += fade_in;
      }
    }
  }
  EXPECT_GT(fading_total, 100u);
  EXPECT_GT(visible_total, 1000u);
  EXPECT_GT(skipped_segments, 0u);  // the group AABB test did reject whole groups
  EXPECT_GT(per_lod_differs, 0u);   // the LODs' own spheres decided some verdicts
}

// Clip-space rectangle (pixels) and nearest reverse-Z depth of a sphere's bounding cube; false when a
// corner is at or behind the camera plane.
bool project(const glm::mat4& vp, glm::vec4 s, std::uint32_t w, std::uint32_t h, glm::ivec4& rect,
             float& nearest) {
  glm::vec2 lo(1e30f), hi(-1e30f);
  nearest = 0.0f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 c =
        glm::vec3(s) + s.w * glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
    const glm::vec4 p = vp * glm::vec4(c, 1.0f);
    if (p.w <= 1e-6f) return false;
    lo = glm::min(lo, glm::vec2(p) / p.w);
    hi = glm::max(hi, glm::vec2(p) / p.w);
    nearest = std::max(nearest, p.z / p.w);
  }
  const glm::ivec2 size{int(w), int(h)};
  const glm::ivec2 a =
      glm::clamp(glm::ivec2(glm::floor((lo * 0.5f + 0.5f) * glm::vec2(size))), glm::ivec2(0), size - 1);
  const glm::ivec2 b =
      glm::clamp(glm::ivec2(glm::floor((hi * 0.5f + 0.5f) * glm::vec2(size))), glm::ivec2(0), size - 1);
  rect = {a.x, a.y, b.x, b.y};
  return true;
}

TEST_F(VegetationGpuTest, HiZWallHidesTheFieldBehindIt) {
  // A field of bushes on flat ground in front of the camera, 10..300 m away.
  BakeOptions o;
  for (PlantType& t : o.types) t.lod_distances = {100.0f, 200.0f, 400.0f, 1000.0f};
  std::vector<WorldInstance> field;
  for (int z = 0; z < 145; ++z)
    for (int x = 0; x < 100; ++x)
      field.push_back({1, {-100.0 + 2.0 * x, 0.0, -10.0 - 2.0 * z}, 0.1f * float(x), 1.0f, {50, 90, 40}});
  RuntimeWorld world(glm::dvec3(0.0));
  for (Tile& t : bake_tiles(o, &field)) {
    auto tile = std::make_shared<const Tile>(std::move(t));
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  }
  ASSERT_EQ(world.types().size(), 1u);
  const auto& type = world.types()[0];

  // Camera 1.5 m up looking down -Z; a wall 30 m ahead spanning the view's width, up to 4 m high.
  constexpr std::uint32_t kW = 256, kH = 192;
  const glm::vec3 cam(0.0f, 1.5f, 0.0f);
  const glm::mat4 vp = perspective_infinite_reverse_z(1.0f, float(kW) / float(kH), 0.1f) *
                       glm::lookAt(cam, cam + glm::vec3(0, 0, -1), kWorldUp);
  const Frustum frustum = Frustum::from_view_proj(vp, DepthConvention::kReverseZ);
  std::vector<float> depth(std::size_t(kW) * kH, 0.0f);  // cleared to far (0 with reverse-Z)
  {
    glm::ivec4 r;
    float wall_depth = 0.0f;
    ASSERT_TRUE(project(vp, {0.0f, 0.0f, -30.0f, 0.0f}, kW, kH, r, wall_depth));
    const glm::vec4 a = vp * glm::vec4(-40.0f, 4.0f, -30.0f, 1.0f),
                    b = vp * glm::vec4(40.0f, -20.0f, -30.0f, 1.0f);
    const glm::vec2 lo = (glm::min(glm::vec2(a) / a.w, glm::vec2(b) / b.w) * 0.5f + 0.5f) * glm::vec2(kW, kH);
    const glm::vec2 hi = (glm::max(glm::vec2(a) / a.w, glm::vec2(b) / b.w) * 0.5f + 0.5f) * glm::vec2(kW, kH);
    for (std::uint32_t y = 0; y < kH; ++y)
      for (std::uint32_t x = 0; x < kW; ++x)
        if (float(x) + 0.5f >= lo.x && float(x) + 0.5f <= hi.x && float(y) + 0.5f >= lo.y &&
            float(y) + 0.5f <= hi.y)
          depth[std::size_t(y) * kW + x] = wall_depth;
  }
  const auto levels = build_min_pyramid(depth, kW, kH);
  gpu::ImageDesc desc;
  desc.format = VK_FORMAT_R32_SFLOAT;
  desc.width = levels[0].width;
  desc.height = levels[0].height;
  desc.mip_levels = static_cast<std::uint32_t>(levels.size());
  desc.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  gpu::Image pyramid(ctx(), desc);
  for (std::uint32_t l = 0; l < levels.size(); ++l)
    gpu::upload_image(ctx(), pyramid, std::as_bytes(std::span<const float>(levels[l].texels)),
                      VK_IMAGE_LAYOUT_GENERAL, l);
  const gpu::Sampler sampler = gpu::make_nearest_sampler(ctx());
  render::VegetationHiz hiz{pyramid.view(), sampler.handle(), desc.mip_levels, kW, kH, vp};

  render::VegetationCull cull(ctx());
  const std::array<render::MeshRange, 4> meshes{};
  const render::VegetationGpuType g = cull.upload(type, meshes, 0.0f);
  auto run_pass = [&](const render::VegetationHiz* h, render::VegetationPass pass) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { (void)cull.record(cmd, frustum, cam, g, h, pass); });
    const auto args = gpu::read_buffer_as<render::shader::VegCullArgs>(ctx(), g.args, 1)[0];
    const auto lists = gpu::read_buffer_as<std::uint32_t>(ctx(), g.lists, std::size_t(g.capacity) * 2);
    std::vector<std::uint32_t> out;
    for (std::uint32_t l = 0; l < kGpuMaxLods; ++l)
      for (const std::uint32_t word : vegetation_list_entries(args, lists, g, l))
        out.push_back(word & VEG_SLOT_MASK);
    std::sort(out.begin(), out.end());
    return out;
  };
  // Nothing was drawn before: phase 1 draws nothing, phase 2 everything the wall does not hide.
  const auto without = run_pass(nullptr, render::VegetationPass::kSingle);
  EXPECT_TRUE(run_pass(nullptr, render::VegetationPass::kEarly).empty());
  const auto with = run_pass(&hiz, render::VegetationPass::kLate);
  ASSERT_GT(without.size(), 3000u);
  EXPECT_LT(with.size() * 4, without.size()) << with.size() << " of " << without.size();  // large reduction
  EXPECT_TRUE(std::includes(without.begin(), without.end(), with.begin(), with.end()));
  // Exactly the CPU reference on the same pyramid (hiz_sphere_occluded), and conservative: every
  // instance with a pixel of its bounds' rectangle not behind the depth buffer stays.
  const HizReference reference{vp, levels, kW, kH};
  std::size_t cpu_visible = 0;
  for (std::uint32_t i : without) {
    const Sphere sphere = type.expand(i).sphere;
    const glm::vec4 s(sphere.center, sphere.radius);
    EXPECT_EQ(std::binary_search(with.begin(), with.end(), i), !hiz_sphere_occluded(reference, s))
        << "instance " << i;
    glm::ivec4 r;
    float nearest = 0.0f;
    bool visible = !project(vp, s, kW, kH, r, nearest);
    for (int y = r.y; y <= r.w && !visible; ++y)
      for (int x = r.x; x <= r.z && !visible; ++x)
        visible = depth[std::size_t(y) * kW + std::size_t(x)] <= nearest;
    if (!visible) continue;
    ++cpu_visible;
    ASSERT_TRUE(std::binary_search(with.begin(), with.end(), i)) << "instance " << i << " culled but visible";
  }
  EXPECT_GT(cpu_visible, 100u);

  // Two-phase: the next frame's early pass takes exactly those, and its late pass adds nothing while
  // the wall stands.
  EXPECT_EQ(run_pass(nullptr, render::VegetationPass::kEarly), with);
  EXPECT_TRUE(run_pass(&hiz, render::VegetationPass::kLate).empty());
  // The wall goes: the late pass against an empty pyramid adds exactly the instances it had hidden.
  std::vector<float> empty(depth.size(), 0.0f);
  const auto empty_levels = build_min_pyramid(empty, kW, kH);
  for (std::uint32_t l = 0; l < empty_levels.size(); ++l)
    gpu::upload_image(ctx(), pyramid, std::as_bytes(std::span<const float>(empty_levels[l].texels)),
                      VK_IMAGE_LAYOUT_GENERAL, l);
  EXPECT_EQ(run_pass(nullptr, render::VegetationPass::kEarly), with);
  std::vector<std::uint32_t> revealed;
  std::set_difference(without.begin(), without.end(), with.begin(), with.end(), std::back_inserter(revealed));
  EXPECT_EQ(run_pass(&hiz, render::VegetationPass::kLate), revealed);
  EXPECT_EQ(run_pass(nullptr, render::VegetationPass::kEarly), without);
  RecordProperty("frustum_visible", int(without.size()));
  RecordProperty("hiz_visible", int(with.size()));
  RecordProperty("cpu_depth_visible", int(cpu_visible));
}

TEST(VegetationHashedLod, HashScattersTheSwitchDistance) {
  const std::vector<LodLevel> lods{{0, 0, 10.0f}, {1, 0, 20.0f}};
  const HashedLod p = make_hashed_lod(lods, 0.2f);
  // At 9.6 m an instance with hash 0 (f = 0.9) is still LOD 0, one with hash 1 (f = 1.1) is LOD 1.
  EXPECT_EQ(select_lod_hashed({9.6f, 0.0f, 0.0f}, 0.0f, p), 0u);
  EXPECT_EQ(select_lod_hashed({9.6f, 0.0f, 0.0f}, 1.0f, p), 1u);
  EXPECT_EQ(select_lod_hashed({30.0f, 0.0f, 0.0f}, 0.5f, p), 2u);  // beyond the draw distance
}

// The culling and vertex shaders' expansion of pooled records equals vegetation::expand_plant bit for bit
// (matrix rows, tint, LOD hash, radius and sphere of every slot, free slots zero), 10 km from the
// world origin too.
TEST_F(VegetationGpuTest, GpuExpansionEqualsTheCpuBitForBit) {
  BakeOptions o;
  o.world_min = {10000.0, -10000.0};
  o.world_max = {10400.0, -9600.0};
  o.terrain.amplitude = 30.0f;
  RuntimeWorld world(glm::dvec3(10170.0, 3.0, -9790.0));
  std::vector<std::shared_ptr<const Tile>> tiles;
  for (Tile& t : bake_tiles(o)) tiles.push_back(std::make_shared<const Tile>(std::move(t)));
  for (const auto& tile : tiles)
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  world.remove_tile({tiles[1]->x, tiles[1]->z});  // free pages inside the pools
  render::VegetationCull cull(ctx());
  const std::array<render::MeshRange, 4> meshes{};
  std::size_t compared = 0;
  for (const auto& type : world.types()) {
    const render::VegetationGpuType g = cull.upload(type, meshes, 0.2f, 0.1f);
    const gpu::Buffer out = gpu::make_storage_buffer(ctx(), VkDeviceSize(g.capacity) * 80);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { cull.record_expand(cmd, g, out); });
    const auto got = gpu::read_buffer_as<glm::vec4>(ctx(), out, std::size_t(g.capacity) * 5);
    const ExpandedType want = expand_type(type);
    for (std::uint32_t i = 0; i < type.slot_count(); ++i) {
      const Sphere& s = Sphere{{want.spheres.x[i], want.spheres.y[i], want.spheres.z[i]}, want.spheres.r[i]};
      const glm::vec4 expect[5] = {
          want.instances[i].row0, want.instances[i].row1, want.instances[i].row2,
          i % kPageSlots < type.pages[i / kPageSlots].count ? want.instances[i].spare : glm::vec4(0.0f),
          glm::vec4(s.center, s.radius)};
      ASSERT_EQ(std::memcmp(expect, &got[std::size_t(i) * 5], sizeof(expect)), 0) << "slot " << i;
      compared += i % kPageSlots < type.pages[i / kPageSlots].count;
    }
  }
  EXPECT_GT(compared, 10000u);
}

}  // namespace
}  // namespace myriad::test
