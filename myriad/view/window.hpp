// The viewer's desktop window (GLFW, no client API: Vulkan presents into it) and the input gathered
// from it between frames: keys pressed since the last look, keys held, mouse drag and wheel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "myriad/core/math/math.hpp"
#include "myriad/gpu/device/context.hpp"

struct GLFWwindow;

namespace myriad::view {

class Window {
 public:
  // Throws myriad::Error naming the cause when no window can be opened (no display, no Vulkan
  // support in the window system). One window at a time.
  Window(std::uint32_t width, std::uint32_t height, const std::string& title);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // `base` plus what a context needs to present to this window: the surface instance extensions,
  // VK_KHR_swapchain and a queue that can present.
  gpu::ContextOptions context_options(gpu::ContextOptions base) const;
  // A new surface for this window (the caller destroys it).
  VkSurfaceKHR create_surface(VkInstance instance) const;

  // Processes pending window-system events (input callbacks run here); wait_events() sleeps until one
  // arrives (while minimised).
  void poll_events();
  void wait_events();
  bool close_requested() const;
  void request_close();

  // Size of the drawable area in pixels (0 x 0 while minimised).
  VkExtent2D framebuffer_size() const;
  void set_size(std::uint32_t width, std::uint32_t height);

  // GLFW key codes (GLFW_KEY_*).
  bool key_held(int key) const;
  std::vector<int> take_key_presses();
  // Cursor movement in pixels while a mouse button was held, since the last call.
  glm::vec2 take_drag();
  // Wheel notches since the last call (positive = away from the user).
  float take_scroll();
  // Mouse buttons (GLFW_MOUSE_BUTTON_*) pressed and released without dragging the cursor more than
  // kClickSlop pixels in between, since the last call: clicks, as opposed to drags to look.
  std::vector<int> take_clicks();
  static constexpr double kClickSlop = 4.0;
  // Input from elsewhere than the window system (scripted runs, tests), taken like the real input.
  void push_key_press(int key) { presses_.push_back(key); }
  void push_drag(glm::vec2 pixels) { drag_ += glm::dvec2(pixels); }
  void push_click(int button) { clicks_.push_back(button); }
  // A key held by a script until released by it (key_held reports it as if pressed).
  void set_scripted_hold(int key, bool held);

 private:
  static void on_key(GLFWwindow* handle, int key, int scancode, int action, int mods);
  static void on_mouse_button(GLFWwindow* handle, int button, int action, int mods);
  static void on_cursor(GLFWwindow* handle, double x, double y);
  static void on_scroll(GLFWwindow* handle, double dx, double dy);

  GLFWwindow* window_ = nullptr;
  std::vector<int> presses_;
  int buttons_held_ = 0;
  std::vector<int> clicks_;
  std::vector<int> scripted_holds_;
  static constexpr int kButtons = 8;
  double press_travel_[kButtons] = {};  // cursor travel since each button's press
  glm::dvec2 cursor_{0.0};
  glm::dvec2 drag_{0.0};
  double scroll_ = 0.0;
};

}  // namespace myriad::view
