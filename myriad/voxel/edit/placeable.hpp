// What an edit can put into a cell: a material (by name) and a shape from the formByte catalogue (full
// cube, slope, corner, inner corner, wedge) turned in quarter turns about +Y, or a baked model (fence,
// post, lamp, torch, slab, stairs; voxel/model) turned in quarter turns. The viewer cycles through the
// same lists the edit scripts name, so both place exactly the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace myriad::voxel {

struct PlaceableShape {
  const char* name;
  std::uint8_t form;  // unrotated: slopes and corners rise towards -X (their high side at x = 0)
  const char* description;
};
// full, slope, corner, inner_corner, wedge.
std::span<const PlaceableShape> placeable_shapes();

// The form byte of shape `shape` (an index into placeable_shapes()) turned `quarter_turns` times about +Y.
std::uint8_t placeable_form(std::size_t shape, int quarter_turns);
// The form byte a placed `material` gets: placeable_form for a block; for a baked model its turn (models
// take no shape).
std::uint8_t placed_form(std::uint8_t material, std::size_t shape, int quarter_turns);

// Lookups by name; throw myriad::Error listing the valid names (`where` names the field or line).
std::uint8_t material_named(std::string_view name, const std::string& where);
std::size_t shape_named(std::string_view name, const std::string& where);

// "stone, dirt, ..." (every material but air) and "full, slope, ..." for messages and help.
std::string material_names();
std::string shape_names();

}  // namespace myriad::voxel
