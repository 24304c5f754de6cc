// Edit scripts (docs/FORMATS.md, voxel edit scripts): one edit per line,
//   dig X Y Z
//   place X Y Z [MATERIAL [SHAPE [DEGREES]]]     (default stone, full, 0; degrees 0, 90, 180 or 270)
//   place X Y Z MODEL [DEGREES]                  (a baked model: fence, post, lamp, torch, slab, stairs)
// with '#' comments and blank lines allowed. Y may be ~N: N cells above the highest solid cell of the
// column (x, z) when the edit applies (~0 is that cell, ~1 the air on it), so scripts fit any terrain. What
// `myriad voxel edit --script` applies; the viewer's clicks make the same VoxelEdit values.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "myriad/core/math/math.hpp"
#include "myriad/voxel/edit/pick.hpp"

namespace myriad::voxel {

struct VoxelEdit {
  glm::ivec3 cell{0};
  std::uint8_t material = 0;  // 0 (air): dig
  std::uint8_t form = 0;      // ignored for air
  int line = 0;               // 1-based line of the script it came from (0: not from a script)
  bool from_surface = false;  // cell.y counts from the column's highest solid cell (resolve_surface)
};

// Throws myriad::Error naming `source` and the line for anything malformed: an unknown command, a
// coordinate that is not an integer, an unknown material or shape (listing the valid ones), a rotation
// that is not a quarter turn, extra words. Coordinates are not checked against a world here.
std::vector<VoxelEdit> parse_edit_script(std::string_view text, const std::string& source);
std::vector<VoxelEdit> read_edit_script(const std::filesystem::path& path);

// The edit with a ~N height resolved against the cells as they are now (the column's highest solid cell,
// -1 for an empty column, plus N). Throws myriad::Error naming the edit when the column is outside the
// world or not loaded.
VoxelEdit resolve_surface(const VoxelEdit& edit, const PickCells& cells);

// "dig (x, y, z)" or "place stone slope at (x, y, z)": for messages.
std::string describe_edit(const VoxelEdit& edit);

}  // namespace myriad::voxel
