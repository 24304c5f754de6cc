// Viewer input scripts (docs/FORMATS.md): scripted sessions of `myriad view --input FILE`, one action per
// line, at frame times; the viewer steps its clocks by 1/30 s per frame while a script plays, so a session
// replays the same way on any machine:
//   wait N            let N frames pass
//   key K             press key K once (a letter, a digit, [ ] or one of SPACE TAB ESC F1 PAGEUP PAGEDOWN)
//   hold K N          hold key K for the next N frames (flying: W A S D E Q, Shift: SHIFT)
//   look DX DY        drag the view by DX, DY pixels
//   click left|right  click a mouse button (dig, build)
// '#' starts a comment. Actions on consecutive lines happen in the same frame until a wait.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "myriad/core/math/math.hpp"

namespace myriad::view {

class Window;

struct InputAction {
  enum class Kind : std::uint8_t { kKey, kHold, kLook, kClick };
  std::uint64_t frame = 0;  // the frame it happens before
  Kind kind = Kind::kKey;
  int code = 0;              // GLFW key or mouse button
  std::uint64_t frames = 0;  // kHold: how long
  glm::vec2 look{0.0f};      // kLook: pixels
  int line = 0;
};

struct InputScript {
  std::vector<InputAction> actions;  // by frame
  std::uint64_t length = 0;          // frames until the last action (and its holds) are done
};

// Throws myriad::Error naming `source` and the line for an unknown action or key, or a bad number.
InputScript parse_input_script(std::string_view text, const std::string& source);
InputScript read_input_script(const std::filesystem::path& path);

// Feeds the actions due before `frame` into the window (presses, clicks, drags, holds and their ends).
void play_input(const InputScript& script, std::uint64_t frame, Window& window);

}  // namespace myriad::view
