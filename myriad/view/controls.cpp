#include "myriad/view/controls.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace myriad::view {

bool apply_key_press(ViewState& state, int key) {
  switch (key) {
    case GLFW_KEY_L:
      state.settings.lod_colors = !state.settings.lod_colors;
      return true;
    case GLFW_KEY_P:
    case GLFW_KEY_SPACE:
      state.settings.paused = !state.settings.paused;
      return true;
    case GLFW_KEY_F1:
    case GLFW_KEY_TAB:
      state.show_panel = !state.show_panel;
      return true;
    case GLFW_KEY_ESCAPE:
      state.quit = true;
      return true;
    default:
      return false;
  }
}

void move_slice(ViewState& state, float direction, float dt) {
  if (direction == 0.0f || dt <= 0.0f) return;
  const bool off = state.slice_height >= kSliceOff;
  if (off && direction > 0.0f) return;
  const float from = off ? kSliceStart : state.slice_height;
  const float to = from + direction * kSliceSpeed * dt;
  // Raising the cut above the world's top turns the slice off again.
  state.slice_height = to > kSliceStart ? render::SceneCamera{}.slice_height : std::max(to, 0.0f);
}

std::vector<std::string> control_lines() {
  return {"W/A/S/D move, E/Q up/down, drag to look, Shift fast, wheel speed",
          "R/F or PageUp/PageDown slice height, L LOD colours, P/Space pause", "F1/Tab panel, Esc quit"};
}

}  // namespace myriad::view
