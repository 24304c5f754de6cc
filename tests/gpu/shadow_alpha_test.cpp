// Plant cards in the shadow map: the plant casters run the colour pass's alpha test, so a card casts the
// shadow of its opaque texels only, and pooled plants cast less than the same meshes made opaque.
#include <algorithm>
#include <cstring>
#include <vector>

#include "myriad/gpu/memory/image.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/passes/shadow_map.hpp"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/render/vegetation/vegetation_renderer.hpp"
#include "shadow_fixture.hpp"

namespace myriad::test {
namespace {

// The shadow map's depth texels (reverse-Z: 0 = nothing cast).
std::vector<float> read_depth(gpu::Context& ctx, const render::ShadowMap& shadow) {
  const std::vector<std::byte> bytes =
      gpu::read_image(ctx, shadow.image(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  std::vector<float> depth(bytes.size() / sizeof(float));
  std::memcpy(depth.data(), bytes.data(), depth.size() * sizeof(float));
  return depth;
}

std::size_t covered_texels(const std::vector<float>& depth) {
  return std::size_t(std::count_if(depth.begin(), depth.end(), [](float d) { return d != 0.0f; }));
}

constexpr float kCardHalf = 3.0f, kCardY = 1.0f;

// A horizontal card 6 m square at y = kCardY, u along +x and v along +z, sampling texture 0 (or
// untextured) with alpha cutoff `cutoff`.
vegetation::PlantMesh card_mesh(std::uint8_t cutoff, bool textured) {
  vegetation::PlantMesh m;
  for (int i = 0; i < 4; ++i) {
    const glm::vec2 uv(float(i & 1), float(i >> 1));
    m.positions.push_back({(uv.x * 2.0f - 1.0f) * kCardHalf, kCardY, (uv.y * 2.0f - 1.0f) * kCardHalf});
    m.normals.push_back(kWorldUp);
    m.uvs.push_back(uv);
    m.surfaces.push_back(
        {{255, 255, 255}, cutoff, textured ? std::uint16_t(0) : vegetation::kNoPlantTexture});
  }
  m.indices = {0, 2, 1, 1, 2, 3};
  return m;
}

// Vegetation casters alpha-test their cards as the colour pass does: a card whose texture's left half
// (u < 0.5, x < 0) is transparent casts exactly its right half; the same card opaque (cutoff 0) and an
// untextured one (never tested, whatever its cutoff) cast the whole quad.
TEST_F(ShadowTest, AlphaTestedCardCastsOnlyItsOpaqueTexels) {
  vegetation::PlantTexture half{"left half transparent", 16, 16, {}};
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x)
      half.rgba8.insert(half.rgba8.end(), {90, 160, 60, std::uint8_t(x < 8 ? 0 : 255)});
  const std::vector<vegetation::PlantMesh> cards{card_mesh(128, true), card_mesh(0, true),
                                                 card_mesh(255, false)};
  const std::vector<vegetation::PlantTexture> card_textures{half};
  const render::VegetationRenderer renderer(ctx(), cards, render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat, card_textures);
  const vegetation::RuntimeInstance at_origin = render::static_instance({}, glm::vec3(1.0f), {255, 255, 255});
  gpu::Buffer instance(ctx(), sizeof(at_origin), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                       gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), instance, std::span<const vegetation::RuntimeInstance>(&at_origin, 1));

  const glm::vec3 to_light(0.0f, 1.0f, 0.0f);  // straight down: the map sees the card square on
  render::ShadowMap shadow(ctx(), 512);
  shadow.fit(camera_view(top_camera(), to_light), 20.0f, 10.0f);
  ASSERT_LT(shadow.texel_world_size(), 0.1f);  // the card spans 60+ texels
  const glm::mat4 inv = glm::inverse(shadow.light_view_proj());
  auto cast = [&](std::uint32_t mesh) {
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      shadow.begin(cmd);
      renderer.draw_direct_shadow(cmd, shadow.view(), mesh, instance, 1);
      shadow.end(cmd);
    });
    return read_depth(ctx(), shadow);
  };

  // Each texel classified by where its centre's light ray meets the card's plane; texels within
  // kMargin of the card's edges or of the texture's seam (linear filtering) are not judged.
  constexpr float kMargin = 0.3f;
  struct Coverage {
    std::size_t opaque = 0, opaque_covered = 0;            // right half, inside
    std::size_t transparent = 0, transparent_covered = 0;  // left half, inside
    std::size_t outside_covered = 0;
    std::size_t covered = 0;
  };
  auto coverage = [&](const std::vector<float>& depth) {
    Coverage c;
    const std::uint32_t n = shadow.size();
    for (std::uint32_t y = 0; y < n; ++y)
      for (std::uint32_t x = 0; x < n; ++x) {
        const bool covered = depth[std::size_t(y) * n + x] != 0.0f;
        const glm::vec4 h = inv * glm::vec4((float(x) + 0.5f) / float(n) * 2.0f - 1.0f,
                                            (float(y) + 0.5f) / float(n) * 2.0f - 1.0f, 0.5f, 1.0f);
        const glm::vec3 p = glm::vec3(h) / h.w;
        const glm::vec3 q = p - to_light * ((p.y - kCardY) / to_light.y);
        const float ex = std::abs(q.x), ez = std::abs(q.z);
        c.covered += covered ? 1 : 0;
        if (ex > kCardHalf + kMargin || ez > kCardHalf + kMargin) {
          c.outside_covered += covered ? 1 : 0;
        } else if (ex < kCardHalf - kMargin && ez < kCardHalf - kMargin && std::abs(q.x) > kMargin) {
          std::size_t& all = q.x > 0.0f ? c.opaque : c.transparent;
          std::size_t& hit = q.x > 0.0f ? c.opaque_covered : c.transparent_covered;
          ++all;
          hit += covered ? 1 : 0;
        }
      }
    return c;
  };

  const Coverage tested = coverage(cast(0));
  EXPECT_GT(tested.opaque, 1000u);
  EXPECT_EQ(tested.opaque_covered, tested.opaque);
  EXPECT_EQ(tested.transparent_covered, 0u) << "the transparent half casts";
  EXPECT_EQ(tested.outside_covered, 0u);
  for (const std::uint32_t opaque_mesh : {1u, 2u}) {
    const Coverage whole = coverage(cast(opaque_mesh));
    EXPECT_EQ(whole.opaque_covered, whole.opaque) << opaque_mesh;
    EXPECT_EQ(whole.transparent_covered, whole.transparent) << opaque_mesh;
    EXPECT_EQ(whole.outside_covered, 0u) << opaque_mesh;
    // The alpha-tested card casts about half the quad.
    EXPECT_NEAR(double(tested.covered) / double(whole.covered), 0.5, 0.05) << opaque_mesh;
  }
}

// The pooled casters (draw_shadow, what scenes draw) alpha-test too: the generated tree's needle cards
// cast far fewer texels than the same meshes made opaque, and nothing the opaque ones do not.
TEST_F(ShadowTest, PooledPlantCastersDropTheirCardsGaps) {
  const RuntimeWorld world = plants({{0, {0.0, 0.0, 0.0}, 0.0f, 1.4f, {90, 140, 70}}});
  ASSERT_EQ(world.types().size(), 1u);
  const RuntimeWorld::Type& type = world.types()[0];
  std::vector<vegetation::PlantMesh> opaque = meshes();
  for (vegetation::PlantMesh& m : opaque)
    for (vegetation::PlantSurface& s : m.surfaces) s.alpha_cutoff = 0;
  render::SceneCamera camera = top_camera();
  render::ShadowMap shadow(ctx(), 512);
  shadow.fit(camera_view(camera, glm::vec3(0.0f, 1.0f, 0.0f)), 30.0f, 10.0f);
  camera.eye = {0.0f, 2.0f, -6.0f};  // near: the detailed LOD, the one with the most cards
  auto cast = [&](const std::vector<vegetation::PlantMesh>& plant_meshes) {
    render::VegetationCull cull(ctx());
    const render::VegetationRenderer renderer(ctx(), plant_meshes, render::OffscreenTarget::kColorFormat,
                                              render::OffscreenTarget::kDepthFormat, textures());
    const render::VegetationGpuType g = cull.upload(type, renderer.lod_meshes(type.prefab), 0.2f, 0.1f);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) {
      (void)cull.record(cmd, shadow.caster_frustum(), camera.eye, g);
      shadow.begin(cmd);
      EXPECT_GT(renderer.draw_shadow(cmd, shadow.view(), g), 0u);
      shadow.end(cmd);
    });
    return read_depth(ctx(), shadow);
  };
  const std::vector<float> tested = cast(meshes()), whole = cast(opaque);
  const std::size_t tested_count = covered_texels(tested), whole_count = covered_texels(whole);
  EXPECT_GT(tested_count, 100u);
  EXPECT_LT(double(tested_count), 0.9 * double(whole_count));
  std::size_t extra = 0;
  for (std::size_t i = 0; i < tested.size(); ++i) extra += tested[i] != 0.0f && whole[i] == 0.0f ? 1 : 0;
  EXPECT_EQ(extra, 0u);
}

}  // namespace
}  // namespace myriad::test
