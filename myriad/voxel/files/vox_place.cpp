#include "myriad/voxel/files/vox_place.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/edit.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/mesh_export.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {
namespace {

glm::vec3 material_color(const Material& m) {
  return (tile_color(m.tile_top) + tile_color(m.tile_side) + tile_color(m.tile_bottom)) / 3.0f;
}

// Palette colours and the tiles' colours are both display values (the tiles are written to the image
// as they are), so they are compared as they are.
glm::vec3 display(glm::u8vec4 c) { return glm::vec3(c) / 255.0f; }

std::string point_text(glm::ivec3 p) {
  return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + "," + std::to_string(p.z) + ")";
}

// The file's (x, y, z), z up, to the world's (x, z, -y).
glm::ivec3 to_world(glm::ivec3 v) { return glm::ivec3(v.x, v.z, -v.y); }

// The world-axis box [lo, hi] (inclusive) of every instance's voxels, before placement.
void vox_bounds(const VoxScene& scene, glm::ivec3& lo, glm::ivec3& hi) {
  lo = glm::ivec3(std::numeric_limits<int>::max());
  hi = glm::ivec3(std::numeric_limits<int>::min());
  for (const VoxInstance& inst : scene.instances) {
    const VoxModel& model = scene.models.at(inst.model);
    const glm::ivec3 half = model.size / 2;
    for (int corner = 0; corner < 8; ++corner) {
      const glm::ivec3 c((corner & 1) ? model.size.x - 1 : 0, (corner & 2) ? model.size.y - 1 : 0,
                         (corner & 4) ? model.size.z - 1 : 0);
      const glm::ivec3 p = to_world(inst.translation + vox_rotate(inst.rotation, c - half));
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  }
}

void check_palette(const std::array<std::uint8_t, 256>& materials_of) {
  for (std::size_t i = 1; i < 256; ++i) {
    if (!valid_material(materials_of[i]) || materials_of[i] == kAir || is_model_material(materials_of[i]))
      throw Error("palette index " + std::to_string(i) + " maps to no solid block material", "place_vox");
  }
}

}  // namespace

glm::ivec3 vox_extent(const VoxScene& scene) {
  glm::ivec3 lo(0), hi(0);
  vox_bounds(scene, lo, hi);
  return hi - lo + glm::ivec3(1);
}

std::array<std::uint8_t, 256> map_vox_palette(const VoxScene& scene) {
  std::array<std::uint8_t, 256> out{};
  const std::span<const Material> table = materials();
  for (std::size_t i = 1; i < 256; ++i) {
    const glm::vec3 want = display(scene.palette[i]);
    float best = std::numeric_limits<float>::max();
    for (std::size_t m = 1; m < kFirstModelMaterial; ++m) {  // blocks only: a voxel is a cube
      const bool lamp = table[m].emit_r + table[m].emit_g + table[m].emit_b > 0;
      if (lamp != scene.emissive[i]) continue;
      // Lamps by the colour of their light, solids by their texture tiles.
      const glm::vec3 have = lamp ? glm::vec3(table[m].emit_r, table[m].emit_g, table[m].emit_b) / 15.0f
                                  : material_color(table[m]);
      const glm::vec3 d = want - have;
      const float distance = glm::dot(d, d);
      if (distance < best) best = distance, out[i] = static_cast<std::uint8_t>(m);
    }
  }
  return out;
}

std::vector<VoxCell> vox_cells(const VoxScene& scene, glm::ivec3 at,
                               const std::array<std::uint8_t, 256>& materials_of) {
  check_palette(materials_of);
  glm::ivec3 lo(0), hi(0);
  vox_bounds(scene, lo, hi);
  std::size_t count = 0;
  for (const VoxInstance& inst : scene.instances) count += scene.models.at(inst.model).voxels.size();
  std::vector<VoxCell> out;
  out.reserve(count);
  for (const VoxInstance& inst : scene.instances) {
    const VoxModel& model = scene.models[inst.model];
    const glm::ivec3 half = model.size / 2;
    for (const VoxVoxel& v : model.voxels) {
      const glm::ivec3 p = inst.translation + vox_rotate(inst.rotation, glm::ivec3(v.x, v.y, v.z) - half);
      out.push_back({to_world(p) - lo + at, materials_of[v.color]});
    }
  }
  return out;
}

VoxPlacement place_vox(World& world, const VoxScene& scene, glm::ivec3 at,
                       const std::array<std::uint8_t, 256>& materials_of) {
  check_palette(materials_of);
  VoxPlacement out;
  out.min = at;
  out.max = at + vox_extent(scene);
  if (!world.contains(out.min) || !world.contains(out.max - glm::ivec3(1))) {
    const glm::ivec3 extent = out.max - out.min;
    throw Error("the model covers " + point_text(out.min) + ".." + point_text(out.max - glm::ivec3(1)) +
                    ", outside the world (voxels (0,0,0).." + point_text(world.size() - glm::ivec3(1)) + ")",
                "--at",
                "place it so that it fits: the model is " + std::to_string(extent.x) + " x " +
                    std::to_string(extent.y) + " x " + std::to_string(extent.z) + " voxels (x, y up, z)");
  }
  std::vector<std::size_t> cells;
  for (const VoxCell& c : vox_cells(scene, at, materials_of)) {
    world.set_voxel(c.p, c.material, kFormFull);
    cells.push_back(world.index(c.p));
    ++out.per_material[c.material];
    ++out.voxels;
  }
  // Sky light below the model changes down to the ground: the relit box reaches y = 0.
  relight_box(world, glm::ivec3(out.min.x, 0, out.min.z), out.max - glm::ivec3(1), &cells);
  out.dirty_sections = sections_reading(world, cells);
  return out;
}

}  // namespace myriad::voxel
