// The ground's terrain material: its generated detail textures tile seamlessly, are the same on every
// run, look like what they are named (green grass, grey rock, light sand, brown dirt) and carry detail;
// the material's rules are validated.
#include <gtest/gtest.h>

#include <cmath>

#include "myriad/core/io/error.hpp"
#include "myriad/core/math/math.hpp"
#include "myriad/vegetation/bake/ground_material.hpp"

namespace myriad::vegetation::test {
namespace {

glm::vec3 texel(const GroundTexture& t, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* p = &t.rgba8[(std::size_t(y) * t.size + x) * 4];
  return glm::vec3(p[0], p[1], p[2]) / 255.0f;
}

glm::vec3 mean(const GroundTexture& t) {
  glm::vec3 sum(0.0f);
  for (std::uint32_t y = 0; y < t.size; ++y)
    for (std::uint32_t x = 0; x < t.size; ++x) sum += texel(t, x, y);
  return sum / float(t.size * t.size);
}

// Mean absolute step between neighbouring texels along x: across the wrap (last column to first) and
// inside the texture.
void steps(const GroundTexture& t, double& wrap, double& inside) {
  wrap = inside = 0.0;
  for (std::uint32_t y = 0; y < t.size; ++y) {
    wrap += double(glm::length(texel(t, t.size - 1, y) - texel(t, 0, y)));
    for (std::uint32_t x = 0; x + 1 < t.size; ++x)
      inside += double(glm::length(texel(t, x + 1, y) - texel(t, x, y)));
  }
  wrap /= t.size;
  inside /= double(t.size) * (t.size - 1);
}

TEST(GroundMaterial, TexturesTileAndLookLikeTheirLayers) {
  const auto layers = make_ground_textures(64);
  for (std::size_t l = 0; l < layers.size(); ++l) {
    SCOPED_TRACE(l);
    const GroundTexture& t = layers[l];
    ASSERT_EQ(t.size, 64u);
    ASSERT_EQ(t.rgba8.size(), 64u * 64u * 4u);
    double wrap = 0.0, inside = 0.0;
    steps(t, wrap, inside);
    // Across the wrap the texture changes no more than between any two neighbours (seamless), and it
    // changes at all (detail, not a flat colour).
    EXPECT_GT(inside, 0.01);
    EXPECT_LT(wrap, 2.0 * inside + 0.01);
    for (std::size_t i = 3; i < t.rgba8.size(); i += 4) ASSERT_EQ(t.rgba8[i], 255);
  }
  const glm::vec3 grass = mean(layers[std::size_t(GroundLayer::kGrass)]);
  const glm::vec3 dirt = mean(layers[std::size_t(GroundLayer::kDirt)]);
  const glm::vec3 rock = mean(layers[std::size_t(GroundLayer::kRock)]);
  const glm::vec3 sand = mean(layers[std::size_t(GroundLayer::kSand)]);
  EXPECT_GT(grass.g, grass.r);
  EXPECT_GT(grass.g, grass.b * 1.5f);
  EXPECT_GT(dirt.r, dirt.b * 1.3f);
  EXPECT_LT(dirt.r + dirt.g + dirt.b, sand.r + sand.g + sand.b);
  EXPECT_LT(std::abs(rock.r - rock.b), 0.05f) << "rock is grey";
  EXPECT_GT(sand.r + sand.g + sand.b, rock.r + rock.g + rock.b) << "sand is the lightest";
  // Deterministic: another call gives the same bytes.
  const auto again = make_ground_textures(64);
  for (std::size_t l = 0; l < layers.size(); ++l) EXPECT_EQ(layers[l].rgba8, again[l].rgba8);
}

TEST(GroundMaterial, ArrayHoldsEveryLayerWithAMipChain) {
  const TextureArray a = make_ground_texture_array(32);
  EXPECT_EQ(a.size, 32u);
  EXPECT_EQ(a.layers, std::uint32_t(GroundLayer::kCount));
  EXPECT_EQ(a.levels.size(), 6u);  // 32 .. 1
}

TEST(GroundMaterial, ValidationNamesTheField) {
  GroundMaterial m;
  EXPECT_NO_THROW(m.validate());
  m.rock_slope = 1.5f;
  EXPECT_THROW(m.validate(), Error);
  m = GroundMaterial{};
  m.detail_metres = 0.0f;
  try {
    m.validate();
    FAIL() << "a zero detail scale passed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("detail_metres"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_ground_textures(48), Error);
}

}  // namespace
}  // namespace myriad::vegetation::test
