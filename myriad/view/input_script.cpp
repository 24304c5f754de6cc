#include "myriad/view/input_script.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "myriad/core/io/error.hpp"
#include "myriad/core/io/line_script.hpp"
#include "myriad/view/window.hpp"

namespace myriad::view {
namespace {

int key_code(std::string_view name, const std::string& where) {
  if (name.size() == 1) {
    const char c = char(std::toupper(static_cast<unsigned char>(name[0])));
    if (c >= 'A' && c <= 'Z') return GLFW_KEY_A + (c - 'A');
    if (c >= '0' && c <= '9') return GLFW_KEY_0 + (c - '0');
    if (c == '[') return GLFW_KEY_LEFT_BRACKET;
    if (c == ']') return GLFW_KEY_RIGHT_BRACKET;
  }
  static const std::pair<std::string_view, int> kNamed[] = {
      {"SPACE", GLFW_KEY_SPACE},     {"TAB", GLFW_KEY_TAB},        {"ESC", GLFW_KEY_ESCAPE},
      {"F1", GLFW_KEY_F1},           {"PAGEUP", GLFW_KEY_PAGE_UP}, {"PAGEDOWN", GLFW_KEY_PAGE_DOWN},
      {"SHIFT", GLFW_KEY_LEFT_SHIFT}};
  for (const auto& [n, code] : kNamed)
    if (name == n) return code;
  throw Error("unknown key '" + std::string(name) + "'", where,
              "a letter, a digit, [ or ], or SPACE, TAB, ESC, F1, PAGEUP, PAGEDOWN, SHIFT");
}

template <class T>
T number(std::string_view word, const std::string& where) {
  T value{};
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size())
    throw Error("'" + std::string(word) + "' is not a number", where);
  return value;
}

}  // namespace

InputScript parse_input_script(std::string_view text, const std::string& source) {
  InputScript script;
  std::uint64_t frame = 0;
  for (const ScriptLine& line : script_lines(text, source)) {
    const std::vector<std::string_view>& w = line.words;
    const std::string& where = line.where;
    const auto need = [&](std::size_t n, const char* usage) {
      if (w.size() != n) throw Error("'" + std::string(w[0]) + "' takes " + usage, where);
    };
    InputAction a;
    a.frame = frame;
    a.line = line.number;
    if (w[0] == "wait") {
      need(2, "a frame count");
      frame += number<std::uint64_t>(w[1], where);
      script.length = std::max(script.length, frame);
      continue;
    }
    if (w[0] == "key") {
      need(2, "a key");
      a.kind = InputAction::Kind::kKey;
      a.code = key_code(w[1], where);
    } else if (w[0] == "hold") {
      need(3, "a key and a frame count");
      a.kind = InputAction::Kind::kHold;
      a.code = key_code(w[1], where);
      a.frames = number<std::uint64_t>(w[2], where);
    } else if (w[0] == "look") {
      need(3, "DX DY in pixels");
      a.kind = InputAction::Kind::kLook;
      a.look = {number<float>(w[1], where), number<float>(w[2], where)};
    } else if (w[0] == "click") {
      need(2, "left or right");
      a.kind = InputAction::Kind::kClick;
      if (w[1] == "left")
        a.code = GLFW_MOUSE_BUTTON_LEFT;
      else if (w[1] == "right")
        a.code = GLFW_MOUSE_BUTTON_RIGHT;
      else
        throw Error("unknown button '" + std::string(w[1]) + "'", where, "left or right");
    } else {
      throw Error("unknown action '" + std::string(w[0]) + "'", where, "wait, key, hold, look or click");
    }
    script.length = std::max(script.length, a.frame + a.frames + 1);
    script.actions.push_back(a);
  }
  return script;
}

InputScript read_input_script(const std::filesystem::path& path) {
  return parse_input_script(read_script_file(path, "input script"), path.string());
}

void play_input(const InputScript& script, std::uint64_t frame, Window& window) {
  for (const InputAction& a : script.actions) {
    if (a.kind == InputAction::Kind::kHold) {
      if (a.frame == frame) window.set_scripted_hold(a.code, true);
      if (a.frame + a.frames == frame) window.set_scripted_hold(a.code, false);
      continue;
    }
    if (a.frame != frame) continue;
    switch (a.kind) {
      case InputAction::Kind::kKey:
        window.push_key_press(a.code);
        break;
      case InputAction::Kind::kLook:
        window.push_drag(a.look);
        break;
      case InputAction::Kind::kClick:
        window.push_click(a.code);
        break;
      case InputAction::Kind::kHold:
        break;
    }
  }
}

}  // namespace myriad::view
