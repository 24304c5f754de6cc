// The rendered avatar crowd on lavapipe with validation on: every avatar covers pixels of the image
// (checked through the ID pass: each pixel names the avatar whose palette skinned it), no pixel names
// an unknown avatar, and the palette upload by compute pass gives the same global buffer (and the
// same image) as the staging copy.
#include <cstring>
#include <filesystem>
#include <random>

#include "gpu_fixture.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/render/avatars/avatar_scene.hpp"

namespace myriad::test {
namespace {

class AvatarSceneTest : public GpuTest {};

TEST_F(AvatarSceneTest, EveryAvatarCoversPixels) {
  render::AvatarSceneOptions o;
  o.width = 480;
  o.height = 270;
  o.avatars = 16;
  const render::AvatarSceneResult r = render::render_avatar_scene(ctx(), o);
  ASSERT_EQ(r.avatar_pixels.size(), 16u);
  for (std::size_t a = 0; a < r.avatar_pixels.size(); ++a)
    EXPECT_GT(r.avatar_pixels[a], 50u) << "avatar " << a << " barely or not visible";
  EXPECT_EQ(r.unknown_id_pixels, 0u);
  // Each avatar wears its 17 body parts and an outfit from the kit's 8 item meshes; each worn part mesh
  // is one instanced draw for all the avatars wearing it.
  EXPECT_GE(r.draws, 17u);
  EXPECT_LE(r.draws, 25u);
  EXPECT_EQ(r.draws_unbatched, r.worn_parts);
  EXPECT_GT(r.worn_parts, 16u * 17u);
  // The colour image shows avatars where the ID pass does, and ground elsewhere.
  std::size_t ground = 0;
  for (std::size_t i = 0; i < r.rgba.size(); i += 4)
    ground += r.rgba[i] == 143 && r.rgba[i + 1] == 153 ? 1 : 0;
  std::size_t covered = 0;
  for (std::uint32_t n : r.avatar_pixels) covered += n;
  EXPECT_GT(ground, 0u);
  EXPECT_LE(ground + covered, std::size_t{o.width} * o.height);
  const std::filesystem::path png = std::filesystem::path(::testing::TempDir()) / "avatars.png";
  write_png_rgba8(png, r.width, r.height, r.rgba);
  EXPECT_TRUE(std::filesystem::exists(png));
}

TEST_F(AvatarSceneTest, ComputeUploadEqualsStagingCopy) {
  // Random palette rows, queued as three ranges (two adjacent: merged), uploaded both ways.
  constexpr std::size_t kMatrices = 1000;
  std::vector<anim::Mat3x4> palettes(kMatrices);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-10.0f, 10.0f);
  for (anim::Mat3x4& m : palettes) {
    for (glm::vec4& row : m.rows) row = {u(rng), u(rng), u(rng), u(rng)};
  }
  std::vector<std::vector<anim::Mat3x4>> got;
  for (render::PaletteUpload how : {render::PaletteUpload::kStagingCopy, render::PaletteUpload::kCompute}) {
    render::SkinPalette palette(ctx(), kMatrices);
    palette.write(palettes, 0, 300);
    palette.write(palettes, 300, 200);
    palette.write(palettes, 611, 389);
    EXPECT_EQ(palette.pending_regions(), 2u);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { palette.record_upload(cmd, how); });
    EXPECT_EQ(palette.pending_regions(), 0u);
    got.push_back(gpu::read_buffer_as<anim::Mat3x4>(ctx(), palette.buffer(), kMatrices));
  }
  // Written ranges hold the palettes; both paths leave identical buffers.
  EXPECT_EQ(std::memcmp(got[0].data(), palettes.data(), 500 * sizeof(anim::Mat3x4)), 0);
  EXPECT_EQ(std::memcmp(got[0].data() + 611, palettes.data() + 611, 389 * sizeof(anim::Mat3x4)), 0);
  EXPECT_EQ(std::memcmp(got[1].data(), palettes.data(), 500 * sizeof(anim::Mat3x4)), 0);
  EXPECT_EQ(std::memcmp(got[1].data() + 611, palettes.data() + 611, 389 * sizeof(anim::Mat3x4)), 0);

  // The whole scene through either path: the same image.
  render::AvatarSceneOptions o;
  o.width = 160;
  o.height = 90;
  o.avatars = 4;
  o.id_pass = false;
  const render::AvatarSceneResult copy = render::render_avatar_scene(ctx(), o);
  o.upload = render::PaletteUpload::kCompute;
  const render::AvatarSceneResult compute = render::render_avatar_scene(ctx(), o);
  EXPECT_EQ(copy.rgba, compute.rgba);
  EXPECT_TRUE(compute.avatar_pixels.empty());
}

}  // namespace
}  // namespace myriad::test
