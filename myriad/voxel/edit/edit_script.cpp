#include "myriad/voxel/edit/edit_script.hpp"

#include <charconv>
#include <cstdio>

#include "myriad/core/io/error.hpp"
#include "myriad/core/io/line_script.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/placeable.hpp"

namespace myriad::voxel {
namespace {

int integer(std::string_view word, const std::string& where, const char* what) {
  int value = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size())
    throw Error(std::string(what) + " '" + std::string(word) + "' is not an integer", where);
  return value;
}

}  // namespace

std::vector<VoxelEdit> parse_edit_script(std::string_view text, const std::string& source) {
  std::vector<VoxelEdit> edits;
  for (const ScriptLine& line : script_lines(text, source)) {
    const std::vector<std::string_view>& w = line.words;
    const std::string& where = line.where;
    const bool dig = w[0] == "dig";
    if (!dig && w[0] != "place")
      throw Error("unknown edit '" + std::string(w[0]) + "'", where,
                  "each line is dig X Y Z, place X Y Z [MATERIAL [SHAPE [DEGREES]]] or place X Y Z MODEL "
                  "[DEGREES]");
    if (w.size() < 4) throw Error("'" + std::string(w[0]) + "' needs X Y Z", where);
    if (w.size() > (dig ? 4u : 7u))
      throw Error("too many words after '" + std::string(w[0]) + "'", where,
                  dig ? "dig X Y Z" : "place X Y Z [MATERIAL [SHAPE [DEGREES]]]");
    VoxelEdit e;
    e.line = line.number;
    std::string_view y = w[2];
    if (y.starts_with('~')) {
      e.from_surface = true;
      y.remove_prefix(1);
      if (y.empty()) y = "0";
    }
    e.cell = {integer(w[1], where, "X"), integer(y, where, "Y"), integer(w[3], where, "Z")};
    if (!dig) {
      e.material = w.size() > 4 ? material_named(w[4], where) : std::uint8_t(kStone);
      // A baked model takes no shape: the word after it is its rotation.
      const bool model = is_model_material(e.material);
      if (model && w.size() > 6)
        throw Error("too many words after the model '" + std::string(w[4]) + "'", where,
                    "place X Y Z " + std::string(w[4]) + " [DEGREES]");
      const std::size_t shape = !model && w.size() > 5 ? shape_named(w[5], where) : 0;
      const std::size_t degrees_word = model ? 5 : 6;
      int turns = 0;
      if (model && w.size() > degrees_word && !w[degrees_word].empty() &&
          std::string_view("0123456789").find(w[degrees_word][0]) == std::string_view::npos)
        throw Error("the model '" + std::string(w[4]) + "' takes no shape ('" + std::string(w[5]) + "')",
                    where, "place X Y Z " + std::string(w[4]) + " [DEGREES]");
      if (w.size() > degrees_word) {
        const int degrees = integer(w[degrees_word], where, "rotation");
        if (degrees % 90 != 0 || degrees < 0 || degrees >= 360)
          throw Error("rotation " + std::to_string(degrees) + " is not 0, 90, 180 or 270 degrees", where);
        turns = degrees / 90;
      }
      e.form = placed_form(e.material, shape, turns);
    }
    edits.push_back(e);
  }
  return edits;
}

std::vector<VoxelEdit> read_edit_script(const std::filesystem::path& path) {
  return parse_edit_script(read_script_file(path, "edit script"), path.string());
}

VoxelEdit resolve_surface(const VoxelEdit& edit, const PickCells& cells) {
  if (!edit.from_surface) return edit;
  const auto where = [&] {
    return edit.line > 0 ? "line " + std::to_string(edit.line) : std::string("edit");
  };
  if (edit.cell.x < 0 || edit.cell.z < 0 || edit.cell.x >= cells.size.x || edit.cell.z >= cells.size.z)
    throw Error("the column of '" + describe_edit(edit) + "' is outside the world", where());
  int top = -1;
  for (int y = cells.size.y - 1; y >= 0 && top < 0; --y) {
    std::uint8_t material = 0, form = 0;
    if (cells.read({edit.cell.x, y, edit.cell.z}, material, form) == CellLookup::kUnloaded)
      throw Error("the column of '" + describe_edit(edit) + "' is not loaded", where(),
                  "edit near the camera, within the streamed radius");
    if (material != kAir) top = y;
  }
  VoxelEdit out = edit;
  out.from_surface = false;
  out.cell.y = top + edit.cell.y;
  return out;
}

std::string describe_edit(const VoxelEdit& e) {
  char at[64];
  if (e.from_surface)
    std::snprintf(at, sizeof at, "(%d, ~%d, %d)", e.cell.x, e.cell.y, e.cell.z);
  else
    std::snprintf(at, sizeof at, "(%d, %d, %d)", e.cell.x, e.cell.y, e.cell.z);
  if (e.material == kAir) return std::string("dig ") + at;
  std::string shape;
  if (is_model_material(e.material)) {
    std::string out = std::string("place ") + materials()[e.material].name;
    if (e.form != 0) out.append(" ").append(std::to_string(90 * e.form));
    return out.append(" at ").append(at);
  }
  for (std::size_t s = 0; s < placeable_shapes().size() && shape.empty(); ++s)
    for (int turns = 0; turns < 4 && shape.empty(); ++turns)
      if (placeable_form(s, turns) == e.form) {
        shape = placeable_shapes()[s].name;
        if (turns > 0) shape.append(" ").append(std::to_string(90 * turns));
      }
  if (shape.empty()) shape.append("form ").append(std::to_string(e.form));
  std::string out = "place ";
  out.append(valid_material(e.material) ? materials()[e.material].name : "?").append(" ").append(shape);
  return out.append(" at ").append(at);
}

}  // namespace myriad::voxel
