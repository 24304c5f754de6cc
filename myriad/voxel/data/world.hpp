// The voxel world: W x H x D voxels stored section by section (16^3 cells each, contiguous) as parallel
// arrays of material, formByte, light (4 x 4-bit levels: R, G, B lamp, sun) and flags. Checked accessors
// throw myriad::Error at the edges; the unchecked ones are for hot loops that already know the bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "myriad/core/math/math.hpp"

namespace myriad::voxel {

inline constexpr int kSectionSize = 16;
inline constexpr int kSectionCells = kSectionSize * kSectionSize * kSectionSize;
inline constexpr int kLightMax = 15;

// Light levels packed in 16 bits: r bits 0-3, g 4-7, b 8-11, sun 12-15.
using Light16 = std::uint16_t;
constexpr int light_channel(Light16 l, int channel) { return l >> (4 * channel) & 0xF; }
constexpr Light16 make_light16(int r, int g, int b, int sun) {
  return Light16(r | g << 4 | b << 8 | sun << 12);
}

// Cell index inside a section: x fastest, then z, then y (a horizontal layer is contiguous).
constexpr int cell_index(int x, int y, int z) { return x + kSectionSize * (z + kSectionSize * y); }

class World {
 public:
  // Sizes in voxels; each must be a positive multiple of 16 (at most 4096 per axis).
  World(int size_x, int size_y, int size_z);

  glm::ivec3 size() const { return size_; }
  glm::ivec3 sections() const { return sections_; }
  int section_count() const { return sections_.x * sections_.y * sections_.z; }
  bool contains(glm::ivec3 p) const {
    return p.x >= 0 && p.y >= 0 && p.z >= 0 && p.x < size_.x && p.y < size_.y && p.z < size_.z;
  }
  bool contains_section(glm::ivec3 s) const {
    return s.x >= 0 && s.y >= 0 && s.z >= 0 && s.x < sections_.x && s.y < sections_.y && s.z < sections_.z;
  }
  // Section order: x fastest, then z, then y.
  int section_index(glm::ivec3 s) const { return s.x + sections_.x * (s.z + sections_.z * s.y); }
  glm::ivec3 section_coord(int index) const {
    return {index % sections_.x, index / (sections_.x * sections_.z), index / sections_.x % sections_.z};
  }
  // Unchecked linear index of voxel p.
  std::size_t index(glm::ivec3 p) const {
    return std::size_t(section_index(p >> 4)) * kSectionCells +
           std::size_t(cell_index(p.x & 15, p.y & 15, p.z & 15));
  }

  // Checked accessors: throw myriad::Error for coordinates outside the world.
  std::uint8_t material(glm::ivec3 p) const { return material_[checked(p)]; }
  std::uint8_t form(glm::ivec3 p) const { return form_[checked(p)]; }
  Light16 light(glm::ivec3 p) const { return light_[checked(p)]; }
  std::uint8_t flags(glm::ivec3 p) const { return flags_[checked(p)]; }
  // Writes material and form as stored_form keeps it (air gets form 0, a baked model its turn 0-3). Throws
  // for coordinates outside the world and unknown material ids. Does not relight or mark anything: see
  // edit.hpp for the full edit.
  void set_voxel(glm::ivec3 p, std::uint8_t material, std::uint8_t form);
  void set_flags(glm::ivec3 p, std::uint8_t flags) { flags_[checked(p)] = flags; }

  // Raw arrays (section-major, see index()); the generator, light and mesher work on these directly.
  // Writers keep set_voxel's rule: a cell's form is stored_form(material, form).
  std::span<std::uint8_t> materials() { return material_; }
  std::span<std::uint8_t> forms() { return form_; }
  std::span<Light16> lights() { return light_; }
  std::span<std::uint8_t> flag_data() { return flags_; }
  std::span<const std::uint8_t> materials() const { return material_; }
  std::span<const std::uint8_t> forms() const { return form_; }
  std::span<const Light16> lights() const { return light_; }
  std::span<const std::uint8_t> flag_data() const { return flags_; }

 private:
  std::size_t checked(glm::ivec3 p) const;

  glm::ivec3 size_{0};
  glm::ivec3 sections_{0};
  std::vector<std::uint8_t> material_;
  std::vector<std::uint8_t> form_;
  std::vector<Light16> light_;
  std::vector<std::uint8_t> flags_;
};

}  // namespace myriad::voxel
