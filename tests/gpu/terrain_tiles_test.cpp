// Block textures on the GPU: a texture pack's texels reach the image, far ground reads the pack's mip chain,
// and every cell's tile variation turns the tile exactly as the CPU computes it (voxel/mesh/
// tile_variation.hpp), near (texel by texel) and farther away (through the mip chain). The world is a flat
// stone floor in full sun, so light is the same everywhere and a pixel's colour names the texel it shows.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "gpu_fixture.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/tile_variation.hpp"
#include "myriad/voxel/tiles/tile_pack.hpp"

namespace myriad::test {
namespace {

namespace fs = std::filesystem;
using Rgb = std::array<int, 3>;

class TerrainTilesTest : public GpuTest {};

constexpr glm::ivec3 kWorld{64, 48, 64};
constexpr float kFloor = 4.0f;  // the floor's top
constexpr std::uint32_t kW = 320, kH = 200;

// A pack whose stone is `size` x `size` texels of colour(x, y) (a tiles.json naming it).
template <class F>
std::shared_ptr<const voxel::TileSet> stone_pack(const std::string& name, std::uint32_t size, F colour) {
  const fs::path dir = fs::temp_directory_path() / ("myriad_terrain_tiles_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::uint8_t> rgba;
  for (std::uint32_t y = 0; y < size; ++y)
    for (std::uint32_t x = 0; x < size; ++x) {
      const Rgb c = colour(x, y);
      rgba.insert(rgba.end(), {std::uint8_t(c[0]), std::uint8_t(c[1]), std::uint8_t(c[2]), 255});
    }
  write_png_rgba8(dir / "stone.png", size, size, rgba);
  std::ofstream(dir / "tiles.json") << R"({"version": 1, "materials": {"stone": "stone.png"}})";
  return std::make_shared<const voxel::TileSet>(voxel::load_tile_pack(dir));
}

// The flat world seen from `camera`, terrain only.
render::VoxelFrame render_floor(gpu::Context& ctx, const render::SceneCamera& camera,
                                std::shared_ptr<const voxel::TileSet> tiles, bool variation = true) {
  render::VoxelSceneOptions o;
  o.width = kW;
  o.height = kH;
  o.size = kWorld;
  o.vegetation = false;
  o.tiles = std::move(tiles);
  o.tile_variation = variation;
  o.views = {"floor"};
  o.extra_views = {{"floor", camera}};
  o.edit_world = [](voxel::World& w) {
    for (int y = 0; y < kWorld.y; ++y)
      for (int z = 0; z < kWorld.z; ++z)
        for (int x = 0; x < kWorld.x; ++x)
          w.set_voxel({x, y, z}, y < int(kFloor) ? voxel::kStone : voxel::kAir,
                      y < int(kFloor) ? voxel::kFormFull : voxel::kFormEmpty);
    voxel::compute_light(w);
  };
  render::VoxelSceneResult r = render::render_voxel_scene(ctx, o);
  EXPECT_EQ(r.frames.size(), 1u);
  return std::move(r.frames.at(0));
}

Rgb pixel(const render::VoxelFrame& f, std::uint32_t x, std::uint32_t y) {
  const std::size_t i = (std::size_t(y) * kW + x) * 4;
  return {f.rgba[i], f.rgba[i + 1], f.rgba[i + 2]};
}

// The same colour up to the rounding of a mip level (encoded to 8 bits after averaging in linear light);
// the blocks' colours lie 60 apart.
bool same_colour(const Rgb& a, const Rgb& b) {
  return std::abs(a[0] - b[0]) <= 2 && std::abs(a[1] - b[1]) <= 2 && std::abs(a[2] - b[2]) <= 2;
}

// Where each pixel's ray meets the floor's top (the camera looks down at it), and how far apart the hits
// of neighbouring pixels lie (a pixel's footprint, in cells).
struct FloorHits {
  std::vector<glm::dvec3> at;
  std::vector<double> footprint;
};
FloorHits floor_hits(const render::SceneCamera& camera) {
  const render::FrameView view = render::FrameView::of_camera(camera, kW, kH, kWorldUp);
  const glm::dmat4 inverse = glm::inverse(glm::dmat4(view.view_proj));
  auto hit = [&](double px, double py) {
    const glm::dvec2 ndc(px / kW * 2.0 - 1.0, py / kH * 2.0 - 1.0);
    const glm::dvec4 a = inverse * glm::dvec4(ndc, 1.0, 1.0), b = inverse * glm::dvec4(ndc, 0.5, 1.0);
    const glm::dvec3 from = glm::dvec3(a) / a.w, to = glm::dvec3(b) / b.w;
    return from + (to - from) * ((double(kFloor) - from.y) / (to.y - from.y));
  };
  FloorHits h;
  for (std::uint32_t y = 0; y < kH; ++y)
    for (std::uint32_t x = 0; x < kW; ++x) {
      const glm::dvec3 c = hit(x + 0.5, y + 0.5);
      h.at.push_back(c);
      h.footprint.push_back(
          std::max(glm::length(hit(x + 1.5, y + 0.5) - c), glm::length(hit(x + 0.5, y + 1.5) - c)));
    }
  return h;
}

// A pixel on the floor, away from the world's edge.
bool on_floor(const render::VoxelFrame& f, const FloorHits& h, std::size_t i) {
  const glm::dvec3 p = h.at[i];
  return f.depth[i] > 0.0f && p.x > 1.0 && p.z > 1.0 && p.x < kWorld.x - 1.0 && p.z < kWorld.z - 1.0;
}

// Looking down steeply at the middle of the floor from a few cells above it: every pixel magnifies.
const render::SceneCamera kNear =
    render::SceneCamera::look_at({30.3f, kFloor + 5.0f, 27.6f}, {32.1f, kFloor, 33.4f});
// Lower and along the floor: near cells magnify, farther ones read levels 1 and 2 of a 16-texel tile.
const render::SceneCamera kAlong =
    render::SceneCamera::look_at({30.3f, kFloor + 2.5f, 20.6f}, {32.1f, kFloor, 30.0f});

TEST_F(TerrainTilesTest, APacksTexelColourReachesTheGround) {
  const render::SceneCamera camera = kNear;
  const FloorHits hits = floor_hits(camera);
  const auto red = stone_pack("red", 16, [](std::uint32_t, std::uint32_t) { return Rgb{220, 0, 0}; });
  const render::VoxelFrame packed = render_floor(ctx(), camera, red);
  const render::VoxelFrame builtin = render_floor(ctx(), camera, nullptr);
  std::size_t floor = 0, red_pixels = 0, grey_pixels = 0;
  for (std::uint32_t y = 0; y < kH; ++y)
    for (std::uint32_t x = 0; x < kW; ++x) {
      const std::size_t i = std::size_t(y) * kW + x;
      if (!on_floor(packed, hits, i)) continue;
      ++floor;
      const Rgb p = pixel(packed, x, y), b = pixel(builtin, x, y);
      red_pixels += p[0] > 120 && p[1] == 0 && p[2] == 0;  // lighting scales each channel: zero stays zero
      grey_pixels += b[1] > 60 && b[2] > 60 && std::abs(b[0] - b[1]) < 40;
    }
  ASSERT_GT(floor, std::size_t(kW) * kH / 2);
  EXPECT_EQ(red_pixels, floor) << "every ground pixel shows the pack's red stone";
  EXPECT_EQ(grey_pixels, floor) << "the built-in stone is grey";
}

// A 16 x 16 stone of black and white texels: near ground shows both, ground whose pixels cover a whole cell
// or more shows the chain's last levels, the checker averaged to one grey.
TEST_F(TerrainTilesTest, FarGroundReadsTheMipChain) {
  const render::SceneCamera camera =
      render::SceneCamera::look_at({4.0f, kFloor + 2.0f, 4.0f}, {40.0f, kFloor, 40.0f});
  const FloorHits hits = floor_hits(camera);
  const auto checker = stone_pack("checker", 16, [](std::uint32_t x, std::uint32_t y) {
    return (x + y) % 2 ? Rgb{255, 255, 255} : Rgb{0, 0, 0};
  });
  const render::VoxelFrame f = render_floor(ctx(), camera, checker);
  std::size_t near = 0, near_extreme = 0, far = 0, far_grey = 0;
  int far_min = 255, far_max = 0;
  for (std::uint32_t y = 0; y < kH; ++y)
    for (std::uint32_t x = 0; x < kW; ++x) {
      const std::size_t i = std::size_t(y) * kW + x;
      if (!on_floor(f, hits, i)) continue;
      const int v = pixel(f, x, y)[1];
      if (hits.footprint[i] < 0.8 / 16.0) {  // less than a texel: level 0
        ++near;
        near_extreme += v < 20 || v > 200;
      } else if (hits.footprint[i] > 1.5) {  // more than a cell: levels 4 (1 x 1) and beyond
        ++far;
        far_grey += v > 100 && v < 220;
        far_min = std::min(far_min, v);
        far_max = std::max(far_max, v);
      }
    }
  std::printf("near %zu (black or white %zu), far %zu (grey %zu, %d..%d)\n", near, near_extreme, far,
              far_grey, far_min, far_max);
  ASSERT_GT(near, 200u);
  ASSERT_GT(far, 200u);
  EXPECT_EQ(near_extreme, near) << "near ground shows the checker's texels";
  EXPECT_EQ(far_grey, far) << "far ground shows the checker averaged";
  EXPECT_LE(far_max - far_min, 12) << "one grey, not a pattern";
}

// Each cell of the floor turns its tile by cell_uv_transform, exactly as the CPU says: near, texel by texel
// (a 4 x 4 tile of 16 colours), and farther, through the mip chain (a 16 x 16 tile of four flat quadrants,
// which keep their colours down to level 2). Without variation the image is the identity's.
TEST_F(TerrainTilesTest, TileVariationTurnsEachCellsTileAsTheCpuDoes) {
  struct Case {
    const char* name;
    render::SceneCamera camera;
    std::uint32_t size, blocks;  // tile texels, distinct colours per side (texels or quadrants)
  };
  for (const Case& c : {Case{"texels", kNear, 4, 4}, Case{"quadrants", kAlong, 16, 2}}) {
    const std::uint32_t block = c.size / c.blocks;
    const auto pack = stone_pack(c.name, c.size, [&](std::uint32_t x, std::uint32_t y) {
      return Rgb{int(30 + 60 * (x / block)), int(30 + 60 * (y / block)), 128};
    });
    const FloorHits hits = floor_hits(c.camera);
    const render::VoxelFrame varied = render_floor(ctx(), c.camera, pack, true);
    const render::VoxelFrame plain = render_floor(ctx(), c.camera, pack, false);
    // Without variation the pixel's own block is shown: learn each block's lit colour from that image.
    std::map<std::pair<std::uint32_t, std::uint32_t>, Rgb> lit;
    std::size_t checked = 0, plain_ok = 0, varied_ok = 0, changed = 0, minified = 0;
    const voxel::Material& stone = voxel::materials()[voxel::kStone];
    for (int pass = 0; pass < 2; ++pass)
      for (std::uint32_t y = 0; y < kH; ++y)
        for (std::uint32_t x = 0; x < kW; ++x) {
          const std::size_t i = std::size_t(y) * kW + x;
          if (!on_floor(varied, hits, i) || hits.footprint[i] > 0.9 / double(c.blocks)) continue;
          const glm::dvec3 p = hits.at[i];
          const glm::ivec3 cell(int(std::floor(p.x)), int(kFloor) - 1, int(std::floor(p.z)));
          // The top side's tile coordinates are (x, z); skip pixels near a block's edge.
          const glm::dvec2 b(glm::fract(p.x) * c.blocks, glm::fract(p.z) * c.blocks);
          const double margin = 0.05 + hits.footprint[i] * c.blocks;
          if (glm::fract(b.x) < margin || glm::fract(b.x) > 1.0 - margin || glm::fract(b.y) < margin ||
              glm::fract(b.y) > 1.0 - margin)
            continue;
          const glm::uvec2 own(std::uint32_t(b.x), std::uint32_t(b.y));
          const glm::uvec2 turned =
              voxel::transform_texel(own, c.blocks, voxel::cell_uv_transform(stone, voxel::kPosY, cell));
          if (pass == 0) {
            lit.try_emplace({own.x, own.y}, pixel(plain, x, y));
            continue;
          }
          ++checked;
          minified += hits.footprint[i] * c.size > 1.5;
          plain_ok += same_colour(pixel(plain, x, y), lit.at({own.x, own.y}));
          const auto it = lit.find({turned.x, turned.y});
          varied_ok += it != lit.end() && same_colour(pixel(varied, x, y), it->second);
          changed += !same_colour(pixel(varied, x, y), pixel(plain, x, y));
        }
    std::printf(
        "%s: %zu pixels checked (%zu minified), %zu as the identity without variation, %zu as the CPU's "
        "transform with it, %zu changed\n",
        c.name, checked, minified, plain_ok, varied_ok, changed);
    ASSERT_EQ(lit.size(), std::size_t(c.blocks) * c.blocks) << c.name;
    ASSERT_GT(checked, 5000u) << c.name;
    EXPECT_EQ(plain_ok, checked) << c.name << ": one lit colour per block";
    EXPECT_EQ(varied_ok, checked) << c.name;
    EXPECT_GT(changed, checked / 2) << c.name << ": the variation changes the picture";
    if (c.blocks == 2) {
      EXPECT_GT(minified, 1000u) << "farther cells read the mip chain";
    }
  }
}

}  // namespace
}  // namespace myriad::test
