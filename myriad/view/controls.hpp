// What the viewer's keys do besides flying: toggles (LOD colours, pause, panel), quitting, and the
// slice height that cuts the voxel world open. Pure CPU, keyed by GLFW key codes.
#pragma once

#include <string>
#include <vector>

#include "myriad/render/frame/frame_scene.hpp"

namespace myriad::view {

struct ViewState {
  render::FrameOptions settings;
  float slice_height = render::SceneCamera{}.slice_height;  // at or above kSliceOff: no slice
  bool show_panel = true;
  bool quit = false;
};

// A slice height this high draws everything.
inline constexpr float kSliceOff = 1e29f;
// Where a slice starts when first lowered: the voxel world's height (64 voxels of 1 m), so the first
// steps down already cut into it.
inline constexpr float kSliceStart = 64.0f;
inline constexpr float kSliceSpeed = 12.0f;  // metres per second while the key is held

// Applies one key press; false when the key is not one of the viewer's toggles.
bool apply_key_press(ViewState& state, int key);

// Moves the slice for `dt` seconds of a held key: direction +1 raises it (until off), -1 lowers it.
void move_slice(ViewState& state, float direction, float dt);

// One line per control, for the panel and the command's help.
std::vector<std::string> control_lines();

}  // namespace myriad::view
