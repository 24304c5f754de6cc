#include "myriad/view/window.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <atomic>
#include <utility>

namespace myriad::view {
namespace {

std::atomic<bool> g_window_open{false};
std::string g_last_glfw_error;

void record_glfw_error(int, const char* description) { g_last_glfw_error = description ? description : ""; }

Window* owner(GLFWwindow* handle) { return static_cast<Window*>(glfwGetWindowUserPointer(handle)); }

constexpr const char* kDisplayHint =
    "run on a desktop session, or under a virtual display: xvfb-run -a myriad view ...";

}  // namespace

Window::Window(std::uint32_t width, std::uint32_t height, const std::string& title) {
  if (g_window_open.exchange(true)) throw Error("only one viewer window can be open at a time");
  glfwSetErrorCallback(&record_glfw_error);
  g_last_glfw_error.clear();
  if (!glfwInit()) {
    g_window_open = false;
    throw Error("cannot open a window: " + g_last_glfw_error, "window system", kDisplayHint);
  }
  if (!glfwVulkanSupported()) {
    glfwTerminate();
    g_window_open = false;
    throw Error("cannot open a window: the window system offers no Vulkan surface support", "window system",
                "install a Vulkan driver (mesa-vulkan-drivers) and its window-system loader (libvulkan1)");
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  window_ = glfwCreateWindow(int(width), int(height), title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    g_window_open = false;
    throw Error("cannot open a window: " + g_last_glfw_error, "window system", kDisplayHint);
  }
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, &Window::on_key);
  glfwSetMouseButtonCallback(window_, &Window::on_mouse_button);
  glfwSetCursorPosCallback(window_, &Window::on_cursor);
  glfwSetScrollCallback(window_, &Window::on_scroll);
  glfwGetCursorPos(window_, &cursor_.x, &cursor_.y);
}

Window::~Window() {
  glfwDestroyWindow(window_);
  glfwTerminate();
  g_window_open = false;
}

gpu::ContextOptions Window::context_options(gpu::ContextOptions base) const {
  std::uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  if (!names) {
    throw Error("cannot present to the window: " + g_last_glfw_error, "window system",
                "install a Vulkan driver with window-system support (mesa-vulkan-drivers)");
  }
  for (std::uint32_t i = 0; i < count; ++i) base.instance_extensions.emplace_back(names[i]);
  base.presentation = true;
  base.can_present = [](VkInstance instance, VkPhysicalDevice device, std::uint32_t family) {
    return glfwGetPhysicalDevicePresentationSupport(instance, device, family) == GLFW_TRUE;
  };
  return base;
}

VkSurfaceKHR Window::create_surface(VkInstance instance) const {
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  const VkResult r = glfwCreateWindowSurface(instance, window_, nullptr, &surface);
  if (r != VK_SUCCESS) {
    throw Error(std::string("cannot create a Vulkan surface for the window: ") + gpu::result_name(r),
                "window system", g_last_glfw_error);
  }
  return surface;
}

void Window::poll_events() { glfwPollEvents(); }
void Window::wait_events() { glfwWaitEvents(); }
bool Window::close_requested() const { return glfwWindowShouldClose(window_) == GLFW_TRUE; }
void Window::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

VkExtent2D Window::framebuffer_size() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return {std::uint32_t(std::max(w, 0)), std::uint32_t(std::max(h, 0))};
}

void Window::set_size(std::uint32_t width, std::uint32_t height) {
  glfwSetWindowSize(window_, int(width), int(height));
}

bool Window::key_held(int key) const {
  return glfwGetKey(window_, key) == GLFW_PRESS ||
         std::find(scripted_holds_.begin(), scripted_holds_.end(), key) != scripted_holds_.end();
}

void Window::set_scripted_hold(int key, bool held) {
  std::erase(scripted_holds_, key);
  if (held) scripted_holds_.push_back(key);
}

std::vector<int> Window::take_clicks() { return std::exchange(clicks_, {}); }

std::vector<int> Window::take_key_presses() { return std::exchange(presses_, {}); }

glm::vec2 Window::take_drag() { return glm::vec2(std::exchange(drag_, glm::dvec2(0.0))); }

float Window::take_scroll() { return float(std::exchange(scroll_, 0.0)); }

void Window::on_key(GLFWwindow* handle, int key, int, int action, int) {
  if (action == GLFW_PRESS) owner(handle)->presses_.push_back(key);
}

void Window::on_mouse_button(GLFWwindow* handle, int button, int action, int) {
  Window* self = owner(handle);
  const bool tracked = button >= 0 && button < kButtons;
  if (action == GLFW_PRESS) {
    ++self->buttons_held_;
    if (tracked) self->press_travel_[button] = 0.0;
  }
  if (action == GLFW_RELEASE) {
    self->buttons_held_ = std::max(0, self->buttons_held_ - 1);
    if (tracked && self->press_travel_[button] <= kClickSlop) self->clicks_.push_back(button);
  }
}

void Window::on_cursor(GLFWwindow* handle, double x, double y) {
  Window* self = owner(handle);
  const glm::dvec2 now{x, y};
  if (self->buttons_held_ > 0) {
    self->drag_ += now - self->cursor_;
    for (double& travel : self->press_travel_) travel += glm::length(now - self->cursor_);
  }
  self->cursor_ = now;
}

void Window::on_scroll(GLFWwindow* handle, double, double dy) { owner(handle)->scroll_ += dy; }

}  // namespace myriad::view
