// World storage and its checked edges.
#include "myriad/voxel/data/world.hpp"

#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {
namespace {

std::string format(glm::ivec3 p) {
  return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ", " + std::to_string(p.z) + ")";
}

}  // namespace

World::World(int size_x, int size_y, int size_z) : size_(size_x, size_y, size_z) {
  for (int a = 0; a < 3; ++a)
    if (size_[a] <= 0 || size_[a] % kSectionSize != 0 || size_[a] > 4096)
      throw Error("voxel world size " + format(size_) + " is invalid",
                  "World size, axis " + std::to_string(a),
                  "each size must be a positive multiple of 16, at most 4096");
  sections_ = size_ / kSectionSize;
  const std::size_t cells = std::size_t(section_count()) * kSectionCells;
  material_.assign(cells, kAir);
  form_.assign(cells, kAir);
  light_.assign(cells, 0);
  flags_.assign(cells, 0);
}

std::size_t World::checked(glm::ivec3 p) const {
  if (!contains(p))
    throw Error("voxel coordinate " + format(p) + " is outside the world of size " + format(size_), "voxel",
                "use coordinates 0 <= p < size");
  return index(p);
}

void World::set_voxel(glm::ivec3 p, std::uint8_t material, std::uint8_t form) {
  const std::size_t i = checked(p);
  if (!valid_material(material))
    throw Error("unknown material id " + std::to_string(material), "voxel " + format(p),
                "use an id below " + std::to_string(int(kMaterialCount)) + " (see voxel/data/material.hpp)");
  material_[i] = material;
  form_[i] = stored_form(material, form);
}

}  // namespace myriad::voxel
