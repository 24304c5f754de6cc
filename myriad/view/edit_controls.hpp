// The viewer's voxel editing (V13): what a click does to the cell under the crosshair and the keys that
// choose what is placed. Pure CPU, keyed by GLFW codes: left button digs the picked cell, right button
// places the selected material and shape against the picked face; [ and ] cycle the material (the blocks,
// then the baked models: fence, post, lamp, torch, slab, stairs), 1-5 pick the shape (full, slope, corner,
// inner corner, wedge; models take none), T turns it a quarter about +Y.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "myriad/voxel/edit/edit_script.hpp"
#include "myriad/voxel/edit/pick.hpp"

namespace myriad::view {

// How far the crosshair reaches (metres).
inline constexpr double kEditReach = 96.0;
// Frames a refusal stays on the panel.
inline constexpr int kEditMessageFrames = 240;

struct EditState {
  std::uint8_t material = 1;  // voxel::kStone
  std::size_t shape = 0;      // index into voxel::placeable_shapes()
  int turns = 0;              // quarter turns about +Y
  std::string message;        // the last refusal ("" when none)
  int message_frames = 0;     // frames left to show it
};

// Applies a key press; false when it is not an editing key.
bool apply_edit_key(EditState& state, int key);

// The edit a mouse button (GLFW_MOUSE_BUTTON_*) asks for at `pick`, or none (no hit, another button).
// A click that hits nothing sets the message instead (the world is unchanged).
std::optional<voxel::VoxelEdit> edit_for_click(EditState& state, int button, const voxel::PickResult& pick);

// Panel lines: what a right click places, what the crosshair is on, the last refusal.
std::vector<std::string> edit_lines(const EditState& state, const voxel::PickResult& pick);
std::vector<std::string> edit_control_lines();

// Counts the message down by one frame (clears it at zero).
void age_message(EditState& state);
void refuse(EditState& state, std::string message);

}  // namespace myriad::view
