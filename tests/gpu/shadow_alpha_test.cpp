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

// A horizontal card 6 m square at y = kCardY, u along +x (plus `u_offset`) and v along +z, sampling
// texture `texture` (or untextured) with alpha cutoff `cutoff`.
vegetation::PlantMesh card_mesh(std::uint8_t cutoff, bool textured, float u_offset = 0.0f,
                                std::uint16_t texture = 0) {
  vegetation::PlantMesh m;
  for (int i = 0; i < 4; ++i) {
    const glm::vec2 uv(float(i & 1), float(i >> 1));
    m.positions.push_back({(uv.x * 2.0f - 1.0f) * kCardHalf, kCardY, (uv.y * 2.0f - 1.0f) * kCardHalf});
    m.normals.push_back(kWorldUp);
    m.uvs.push_back(uv + glm::vec2(u_offset, 0.0f));
    m.surfaces.push_back({{255, 255, 255}, cutoff, textured ? texture : vegetation::kNoPlantTexture});
  }
  m.indices = {0, 2, 1, 1, 2, 3};
  return m;
}

// The shadow map's texels classified by where each centre's light ray (straight down) meets the card's
// plane; texels within kMargin of the card's edges or of the texture's seam (linear filtering) are not
// judged. "Right" is the card's x > 0 half.
struct Coverage {
  std::size_t right = 0, right_covered = 0;  // inside
  std::size_t left = 0, left_covered = 0;    // inside
  std::size_t outside_covered = 0;
  std::size_t covered = 0;
};

// `cards` cast one at a time into a 512² shadow map lit from straight above.
class CardCaster {
 public:
  CardCaster(gpu::Context& ctx, const std::vector<vegetation::PlantMesh>& cards,
             const std::vector<vegetation::PlantTexture>& textures)
      : ctx_(ctx),
        renderer_(ctx, cards, render::OffscreenTarget::kColorFormat, render::OffscreenTarget::kDepthFormat,
                  textures),
        instance_(ctx, sizeof(vegetation::RuntimeInstance), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                  gpu::MemoryKind::kDeviceLocal),
        shadow_(ctx, 512) {
    const vegetation::RuntimeInstance at_origin =
        render::static_instance({}, glm::vec3(1.0f), {255, 255, 255});
    gpu::upload(ctx, instance_, std::span<const vegetation::RuntimeInstance>(&at_origin, 1));
    shadow_.fit(camera_view(top_camera(), kDown), 20.0f, 10.0f);
  }
  float texel_world_size() const { return shadow_.texel_world_size(); }

  Coverage cast(std::uint32_t mesh) {
    ctx_.submit_and_wait([&](VkCommandBuffer cmd) {
      shadow_.begin(cmd);
      renderer_.draw_direct_shadow(cmd, shadow_.view(), mesh, instance_, 1);
      shadow_.end(cmd);
    });
    const std::vector<float> depth = read_depth(ctx_, shadow_);
    constexpr float kMargin = 0.3f;
    const glm::mat4 inv = glm::inverse(shadow_.light_view_proj());
    Coverage c;
    const std::uint32_t n = shadow_.size();
    for (std::uint32_t y = 0; y < n; ++y)
      for (std::uint32_t x = 0; x < n; ++x) {
        const bool covered = depth[std::size_t(y) * n + x] != 0.0f;
        const glm::vec4 h = inv * glm::vec4((float(x) + 0.5f) / float(n) * 2.0f - 1.0f,
                                            (float(y) + 0.5f) / float(n) * 2.0f - 1.0f, 0.5f, 1.0f);
        const glm::vec3 p = glm::vec3(h) / h.w;
        const glm::vec3 q = p - kDown * ((p.y - kCardY) / kDown.y);
        const float ex = std::abs(q.x), ez = std::abs(q.z);
        c.covered += covered ? 1 : 0;
        if (ex > kCardHalf + kMargin || ez > kCardHalf + kMargin) {
          c.outside_covered += covered ? 1 : 0;
        } else if (ex < kCardHalf - kMargin && ez < kCardHalf - kMargin && std::abs(q.x) > kMargin) {
          std::size_t& all = q.x > 0.0f ? c.right : c.left;
          std::size_t& hit = q.x > 0.0f ? c.right_covered : c.left_covered;
          ++all;
          hit += covered ? 1 : 0;
        }
      }
    return c;
  }

 private:
  static constexpr glm::vec3 kDown{0.0f, 1.0f, 0.0f};  // towards the light: the map sees the card square on
  gpu::Context& ctx_;
  render::VegetationRenderer renderer_;
  gpu::Buffer instance_;
  render::ShadowMap shadow_;
};

// A 16 x 16 texture whose left half (u < 0.5) is transparent, addressed with `wrap`.
vegetation::PlantTexture half_transparent(UvWrapModes wrap = {}) {
  vegetation::PlantTexture half{"left half transparent", 16, 16, {}, wrap};
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x)
      half.rgba8.insert(half.rgba8.end(), {90, 160, 60, std::uint8_t(x < 8 ? 0 : 255)});
  return half;
}

// Vegetation casters alpha-test their cards as the colour pass does: a card whose texture's left half
// (u < 0.5, x < 0) is transparent casts exactly its right half; the same card opaque (cutoff 0) and an
// untextured one (never tested, whatever its cutoff) cast the whole quad.
TEST_F(ShadowTest, AlphaTestedCardCastsOnlyItsOpaqueTexels) {
  CardCaster caster(ctx(), {card_mesh(128, true), card_mesh(0, true), card_mesh(255, false)},
                    {half_transparent()});
  ASSERT_LT(caster.texel_world_size(), 0.1f);  // the card spans 60+ texels
  const Coverage tested = caster.cast(0);
  EXPECT_GT(tested.right, 1000u);
  EXPECT_EQ(tested.right_covered, tested.right);
  EXPECT_EQ(tested.left_covered, 0u) << "the transparent half casts";
  EXPECT_EQ(tested.outside_covered, 0u);
  for (const std::uint32_t opaque_mesh : {1u, 2u}) {
    const Coverage whole = caster.cast(opaque_mesh);
    EXPECT_EQ(whole.right_covered, whole.right) << opaque_mesh;
    EXPECT_EQ(whole.left_covered, whole.left) << opaque_mesh;
    EXPECT_EQ(whole.outside_covered, 0u) << opaque_mesh;
    // The alpha-tested card casts about half the quad.
    EXPECT_NEAR(double(tested.covered) / double(whole.covered), 0.5, 0.05) << opaque_mesh;
  }
}

// Plant textures are addressed as their glTF samplers say (plant_texel.glsl): the card's u runs 1 to 2.
// Repeating, that is the texture again (the right half casts); mirrored, it runs back from 1 to 0 (the
// left half casts); clamped, every texel reads the opaque right edge (the whole card casts).
TEST_F(ShadowTest, PlantTexturesAreAddressedAsTheirSamplers) {
  CardCaster caster(
      ctx(), {card_mesh(128, true, 1.0f, 0), card_mesh(128, true, 1.0f, 1), card_mesh(128, true, 1.0f, 2)},
      {half_transparent(), half_transparent({UvWrap::kMirroredRepeat, UvWrap::kRepeat}),
       half_transparent({UvWrap::kClampToEdge, UvWrap::kClampToEdge})});
  const Coverage repeat = caster.cast(0), mirror = caster.cast(1), clamp = caster.cast(2);
  EXPECT_GT(repeat.right, 1000u);
  EXPECT_EQ(repeat.right_covered, repeat.right);
  EXPECT_EQ(repeat.left_covered, 0u);
  EXPECT_EQ(mirror.left_covered, mirror.left);
  EXPECT_EQ(mirror.right_covered, 0u) << "the mirrored card cast as if repeating";
  EXPECT_EQ(clamp.left_covered, clamp.left) << "the clamped card cast as if repeating";
  EXPECT_EQ(clamp.right_covered, clamp.right);
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
