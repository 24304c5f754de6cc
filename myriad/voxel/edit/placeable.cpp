#include "myriad/voxel/edit/placeable.hpp"

#include <array>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"

namespace myriad::voxel {
namespace {

// Corner bits: 0-3 bottom (x | z << 1), 4-7 top.
constexpr std::uint8_t kBottom = 0x0F;
constexpr std::array<PlaceableShape, 5> kShapes{{
    {"full", kFormFull, "a full cube"},
    {"slope", std::uint8_t(kBottom | 1u << kCornerX0Y1Z0 | 1u << kCornerX0Y1Z1),
     "a ramp from the top edge at x = 0 down to the bottom edge at x = 1"},
    {"corner", std::uint8_t(kBottom | 1u << kCornerX0Y1Z0), "an outer corner: the floor and one top corner"},
    {"inner_corner", std::uint8_t(0xFF & ~(1u << kCornerX1Y1Z1)), "an inner corner: one top corner cut"},
    {"wedge",
     std::uint8_t(1u << kCornerX0Y0Z0 | 1u << kCornerX1Y0Z0 | 1u << kCornerX0Y0Z1 | 1u << kCornerX0Y1Z0 |
                  1u << kCornerX1Y1Z0 | 1u << kCornerX0Y1Z1),
     "half a cube cut along a vertical diagonal"},
}};

}  // namespace

std::span<const PlaceableShape> placeable_shapes() { return kShapes; }

std::uint8_t placeable_form(std::size_t shape, int quarter_turns) {
  std::uint8_t form = kShapes.at(shape).form;
  for (int i = 0; i < (quarter_turns % 4 + 4) % 4; ++i) form = rotate_form_y(form);
  return form;
}

std::uint8_t placed_form(std::uint8_t material, std::size_t shape, int quarter_turns) {
  if (is_model_material(material)) return std::uint8_t((quarter_turns % 4 + 4) % 4);
  return placeable_form(shape, quarter_turns);
}

std::string material_names() {
  std::string out;
  for (std::size_t m = 1; m < materials().size(); ++m)
    out += std::string(m > 1 ? ", " : "") + materials()[m].name;
  return out;
}

std::string shape_names() {
  std::string out;
  for (const PlaceableShape& s : kShapes) out += std::string(out.empty() ? "" : ", ") + s.name;
  return out;
}

std::uint8_t material_named(std::string_view name, const std::string& where) {
  for (std::size_t m = 1; m < materials().size(); ++m)
    if (name == materials()[m].name) return std::uint8_t(m);
  throw Error("unknown material '" + std::string(name) + "'", where, "materials: " + material_names());
}

std::size_t shape_named(std::string_view name, const std::string& where) {
  for (std::size_t s = 0; s < kShapes.size(); ++s)
    if (name == kShapes[s].name) return s;
  throw Error("unknown shape '" + std::string(name) + "'", where, "shapes: " + shape_names());
}

}  // namespace myriad::voxel
