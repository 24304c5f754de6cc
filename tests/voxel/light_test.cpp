// Light: the parallel checkerboard flood fill and the incremental relight after edits equal a plain
// single-threaded BFS, channel by channel, on random small worlds.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "myriad/core/thread/parallel.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "test_util.hpp"

namespace myriad::voxel {
namespace {

// Reference: for each channel, BFS from every source over a flat x-fastest grid; a transparent cell takes
// max(neighbour - 1).
std::vector<Light16> reference_light(const World& w) {
  const glm::ivec3 size = w.size();
  const std::size_t n = std::size_t(size.x) * std::size_t(size.y) * std::size_t(size.z);
  auto flat = [&](glm::ivec3 p) {
    return (std::size_t(p.y) * std::size_t(size.z) + std::size_t(p.z)) * std::size_t(size.x) +
           std::size_t(p.x);
  };
  std::vector<std::uint8_t> transparent(n);
  std::vector<std::array<int, 4>> source(n);
  for (int z = 0; z < size.z; ++z)
    for (int x = 0; x < size.x; ++x) {
      bool sky = true;
      for (int y = size.y - 1; y >= 0; --y) {
        const glm::ivec3 p{x, y, z};
        const std::size_t i = w.index(p);
        const bool t = w.materials()[i] == kAir || w.forms()[i] != kFormFull;
        sky = sky && t;
        const Material& m = materials()[w.materials()[i]];
        transparent[flat(p)] = t;
        source[flat(p)] = {m.emit_r, m.emit_g, m.emit_b, sky ? 15 : 0};
      }
    }
  std::vector<int> level[4];
  std::vector<glm::ivec3> queue;
  for (int ch = 0; ch < 4; ++ch) {
    level[ch].assign(n, 0);
    queue.clear();
    for (int y = 0; y < size.y; ++y)
      for (int z = 0; z < size.z; ++z)
        for (int x = 0; x < size.x; ++x) {
          const int src = source[flat({x, y, z})][std::size_t(ch)];
          level[ch][flat({x, y, z})] = src;
          if (src) queue.push_back({x, y, z});
        }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const glm::ivec3 p = queue[head];
      const int v = level[ch][flat(p)] - 1;
      if (v <= 0) continue;
      for (int f = 0; f < 6; ++f) {
        const glm::ivec3 q = p + face_direction(f);
        if (!w.contains(q) || !transparent[flat(q)]) continue;
        int& l = level[ch][flat(q)];
        if (l < v) {
          l = v;
          queue.push_back(q);
        }
      }
    }
  }
  std::vector<Light16> out(w.lights().size());
  for (int y = 0; y < size.y; ++y)
    for (int z = 0; z < size.z; ++z)
      for (int x = 0; x < size.x; ++x) {
        const std::size_t i = flat({x, y, z});
        out[w.index({x, y, z})] = make_light16(level[0][i], level[1][i], level[2][i], level[3][i]);
      }
  return out;
}

World random_lit_world(glm::ivec3 size, std::uint32_t seed) {
  World w(size.x, size.y, size.z);
  std::mt19937 rng(seed);
  for (int y = 0; y < size.y; ++y)
    for (int z = 0; z < size.z; ++z)
      for (int x = 0; x < size.x; ++x) {
        const auto r = unsigned(rng() % 1000);
        // Denser below, so the sun has roofs and caves to work around.
        const unsigned solid = y < size.y / 2 ? 700 : 250;
        if (r < 6)
          w.set_voxel({x, y, z}, std::uint8_t(kLampWarm + rng() % 3), rng() % 2 ? kFormFull : 0x7F);
        else if (r < solid)
          w.set_voxel({x, y, z}, kStone, r % 7 == 0 ? std::uint8_t(rng()) : kFormFull);
      }
  return w;
}

std::size_t mismatches(const World& w, const std::vector<Light16>& ref) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) bad += w.lights()[i] != ref[i];
  return bad;
}

TEST(Light, FloodFillEqualsSingleThreadedBfs) {
  for (std::uint32_t seed = 1; seed <= 4; ++seed) {
    World w = random_lit_world({48, 32, 32}, seed);
    const LightStats stats = compute_light(w);
    EXPECT_GE(stats.passes, 1);
    EXPECT_EQ(mismatches(w, reference_light(w)), 0u) << "seed " << seed;
    World one = random_lit_world({48, 32, 32}, seed);
    {
      ThreadLimit limit(1);
      compute_light(one);
    }
    EXPECT_TRUE(std::equal(one.lights().begin(), one.lights().end(), w.lights().begin()));
  }
}

TEST(Light, LampCrossesManySectionsAndSunFillsCaves) {
  World w(64, 32, 16);
  for (int z = 0; z < 16; ++z)
    for (int x = 0; x < 64; ++x) w.set_voxel({x, 20, z}, kStone, kFormFull);  // a roof
  w.set_voxel({14, 10, 8}, kLampCold, kFormFull);
  const LightStats stats = compute_light(w);
  EXPECT_GT(stats.passes, 1) << "light crossed section borders, so at least one more pass ran";
  EXPECT_EQ(light_channel(w.light({15, 10, 8}), 2), 14);
  EXPECT_EQ(light_channel(w.light({28, 10, 8}), 2), 1);
  EXPECT_EQ(light_channel(w.light({29, 10, 8}), 2), 0);
  EXPECT_EQ(light_channel(w.light({5, 25, 5}), 3), 15);
  EXPECT_EQ(light_channel(w.light({5, 10, 5}), 3), 0) << "under the roof, no sky";
  EXPECT_EQ(mismatches(w, reference_light(w)), 0u);
}

TEST(Light, IncrementalEditsEqualBfs) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    World w = random_lit_world({32, 32, 32}, seed + 10);
    compute_light(w);
    std::mt19937 rng(seed);
    for (int e = 0; e < 25; ++e) {
      const glm::ivec3 p(int(rng() % 32), int(rng() % 32), int(rng() % 32));
      switch (rng() % 4) {
        case 0:
          edit_voxel(w, p, std::uint8_t(kLampWarm + rng() % 3), kFormFull);
          break;  // add lamp
        case 1:
          edit_voxel(w, p, kAir, 0);
          break;  // remove anything
        case 2:
          edit_voxel(w, p, kStone, kFormFull);
          break;  // add block
        default:
          edit_voxel(w, p, kDirt, std::uint8_t(rng()));
          break;  // cut shape
      }
      ASSERT_EQ(mismatches(w, reference_light(w)), 0u) << "seed " << seed << " edit " << e;
    }
    // Removing every lamp leaves sun light only (one world is enough; each removal relights a region).
    if (seed != 1) continue;
    for (std::size_t i = 0; i < w.materials().size(); ++i) {
      if (w.materials()[i] < kLampWarm) continue;
      const int s = int(i / kSectionCells), c = int(i % kSectionCells);
      edit_voxel(w, w.section_coord(s) * kSectionSize + glm::ivec3(c & 15, c >> 8, c >> 4 & 15), kAir, 0);
    }
    for (const Light16 l : w.lights()) ASSERT_EQ(l & 0x0FFF, 0);
    EXPECT_EQ(mismatches(w, reference_light(w)), 0u);
  }
}

}  // namespace
}  // namespace myriad::voxel
