// Vegetation placement from per-cell hashes.
#include "myriad/voxel/vegetation.hpp"

#include <algorithm>

#include "myriad/core/packing.hpp"
#include "myriad/core/parallel.hpp"
#include "myriad/voxel/material.hpp"
#include "myriad/voxel/noise.hpp"
#include "myriad/voxel/shape.hpp"

namespace myriad::voxel {
namespace {

constexpr std::uint64_t kVegetationSalt = 0x5005;
constexpr float kGrassChance = 0.45f, kTreeChance = 0.012f;
constexpr std::uint32_t kNoVegetationFlag = 1;

std::uint32_t light_bytes(Light16 l) {
  auto ch = [&](int c) { return std::uint8_t(light_channel(l, c) * 17); };
  return pack_light({ch(0), ch(1), ch(2), ch(3)});
}

}  // namespace

void place_vegetation(const World& world, glm::ivec3 section, std::uint64_t seed, SectionVegetation& out) {
  out.clear();
  const auto mats = world.materials();
  const auto forms = world.forms();
  const auto lights = world.lights();
  const auto flags = world.flag_data();
  const glm::ivec3 base = section * kSectionSize;
  for (int y = 0; y < kSectionSize; ++y)
    for (int z = 0; z < kSectionSize; ++z)
      for (int x = 0; x < kSectionSize; ++x) {
        const glm::ivec3 p = base + glm::ivec3(x, y, z);
        if (p.y == 0) continue;
        const std::size_t i = world.index(p);
        const std::size_t below = world.index(p - glm::ivec3(0, 1, 0));
        if (mats[i] != kAir || mats[below] != kGrass || forms[below] != kFormFull) continue;
        if (flags[below] & kNoVegetationFlag) continue;
        const std::uint64_t r = hash3(mix64(seed) ^ kVegetationSalt, p.x, p.y, p.z);
        const float u = hash_unit(r);
        const float jx = float(r >> 8 & 0xFF) / 255.0f * 0.6f + 0.2f,
                    jz = float(r >> 16 & 0xFF) / 255.0f * 0.6f + 0.2f;
        if (u < kTreeChance) {
          const int height = 4 + int(r >> 24 & 3);
          const int top_y = std::min(p.y + height, world.size().y - 1);
          TreeInstance t{float(p.x) + 0.5f,
                         float(p.y),
                         float(p.z) + 0.5f,
                         std::uint32_t(r >> 32 & 0xFFFF) % kTreeTypes | std::uint32_t(height * 16) << 16,
                         light_bytes(lights[i]),
                         light_bytes(lights[world.index({p.x, top_y, p.z})])};
          out.trees.push_back(t);
        } else if (u < kTreeChance + kGrassChance) {
          const std::uint32_t templ =
              (r >> 28 & 0xF) == 0 ? kFlowerTemplate : std::uint32_t(r >> 32) % kGrassTemplates;
          out.grass.push_back(
              {float(p.x) + jx, float(p.y), float(p.z) + jz, templ | std::uint32_t(lights[i]) << 16});
        }
      }
}

void place_all_vegetation(const World& world, std::uint64_t seed, std::vector<SectionVegetation>& out) {
  out.resize(std::size_t(world.section_count()));
  parallel_for(0, out.size(), 8, [&](std::size_t b, std::size_t e) {
    for (std::size_t s = b; s < e; ++s) place_vegetation(world, world.section_coord(int(s)), seed, out[s]);
  });
}

}  // namespace myriad::voxel
