// Single-voxel edits: write, relight the affected region, collect the sections that read changed cells.
#include "myriad/voxel/data/edit.hpp"

#include <algorithm>

#include "myriad/voxel/light/light.hpp"

namespace myriad::voxel {
namespace {

glm::ivec3 cell_of_index(const World& world, std::size_t index) {
  const glm::ivec3 sec = world.section_coord(int(index / kSectionCells));
  const int c = int(index % kSectionCells);
  return sec * kSectionSize + glm::ivec3(c & 15, c >> 8, c >> 4 & 15);
}

// Height of the first opaque cell from the top of column (x, z), -1 when the column is open.
int sky_top(const World& world, int x, int z) {
  for (int y = world.size().y - 1; y >= 0; --y) {
    const std::size_t i = world.index({x, y, z});
    if (!light_transparent(world.materials()[i], world.forms()[i])) return y;
  }
  return -1;
}

}  // namespace

SectionBox sections_around_cell(glm::ivec3 p) {
  SectionBox box{p >> 4, p >> 4};
  for (int a = 0; a < 3; ++a) {
    if ((p[a] & 15) == 0) box.lo[a] -= 1;
    if ((p[a] & 15) == 15) box.hi[a] += 1;
  }
  return box;
}

std::vector<int> sections_reading(const World& world, std::span<const std::size_t> cells) {
  std::vector<int> out;
  for (const std::size_t index : cells) {
    const auto [lo, hi] = sections_around_cell(cell_of_index(world, index));
    for (int y = lo.y; y <= hi.y; ++y)
      for (int z = lo.z; z <= hi.z; ++z)
        for (int x = lo.x; x <= hi.x; ++x)
          if (world.contains_section({x, y, z})) out.push_back(world.section_index({x, y, z}));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

EditResult edit_voxel(World& world, glm::ivec3 p, std::uint8_t material, std::uint8_t form) {
  const int sky_before = world.contains(p) ? sky_top(world, p.x, p.z) : 0;
  world.set_voxel(p, material, form);  // validates first
  const int sky_after = sky_top(world, p.x, p.z);
  // Cells between the old and the new first opaque cell gained or lost the open sky.
  glm::ivec3 lo = p, hi = p;
  if (sky_before != sky_after) {
    lo.y = std::min(lo.y, std::max(0, std::min(sky_before, sky_after)));
    hi.y = std::max(hi.y, std::max(sky_before, sky_after));
  }
  std::vector<std::size_t> changed;
  relight_box(world, lo, hi, &changed);
  EditResult result;
  result.light_changed = changed.size();
  changed.push_back(world.index(p));
  result.dirty_sections = sections_reading(world, changed);
  return result;
}

}  // namespace myriad::voxel
