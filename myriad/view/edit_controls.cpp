#include "myriad/view/edit_controls.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>

#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/edit/placeable.hpp"

namespace myriad::view {

bool apply_edit_key(EditState& state, int key) {
  const auto materials = std::uint8_t(voxel::materials().size());
  switch (key) {
    case GLFW_KEY_RIGHT_BRACKET:
      state.material = std::uint8_t(state.material % (materials - 1) + 1);  // 1 .. count - 1, air skipped
      return true;
    case GLFW_KEY_LEFT_BRACKET:
      state.material = std::uint8_t(state.material <= 1 ? materials - 1 : state.material - 1);
      return true;
    case GLFW_KEY_T:
      state.turns = (state.turns + 1) % 4;
      return true;
    default:
      break;
  }
  if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + int(voxel::placeable_shapes().size())) {
    state.shape = std::size_t(key - GLFW_KEY_1);
    return true;
  }
  return false;
}

void refuse(EditState& state, std::string message) {
  state.message = std::move(message);
  state.message_frames = kEditMessageFrames;
}

void age_message(EditState& state) {
  if (state.message_frames > 0 && --state.message_frames == 0) state.message.clear();
}

std::optional<voxel::VoxelEdit> edit_for_click(EditState& state, int button, const voxel::PickResult& pick) {
  if (button != GLFW_MOUSE_BUTTON_LEFT && button != GLFW_MOUSE_BUTTON_RIGHT) return std::nullopt;
  if (pick.stop != voxel::PickStop::kHit) {
    refuse(state,
           std::string("nothing to edit under the crosshair (") + voxel::pick_stop_name(pick.stop) + ")");
    return std::nullopt;
  }
  if (button == GLFW_MOUSE_BUTTON_LEFT) return voxel::VoxelEdit{pick.cell, voxel::kAir, 0};
  return voxel::VoxelEdit{pick.place, state.material,
                          voxel::placed_form(state.material, state.shape, state.turns)};
}

std::vector<std::string> edit_lines(const EditState& state, const voxel::PickResult& pick) {
  std::vector<std::string> lines;
  char b[160];
  const bool model = voxel::is_model_material(state.material);
  std::snprintf(b, sizeof b, "build: %s%s%s, turned %d deg", voxel::materials()[state.material].name,
                model ? "" : " ", model ? "" : voxel::placeable_shapes()[state.shape].name, 90 * state.turns);
  lines.emplace_back(b);
  if (pick.stop == voxel::PickStop::kHit)
    std::snprintf(b, sizeof b, "crosshair: %s at %d %d %d, %.1f m", voxel::materials()[pick.material].name,
                  pick.cell.x, pick.cell.y, pick.cell.z, pick.distance);
  else
    std::snprintf(b, sizeof b, "crosshair: %s", voxel::pick_stop_name(pick.stop));
  lines.emplace_back(b);
  if (!state.message.empty()) lines.push_back("! " + state.message);
  return lines;
}

std::vector<std::string> edit_control_lines() {
  return {"left click dig, right click build, [ ] material or model, 1-5 shape, T turn"};
}

}  // namespace myriad::view
