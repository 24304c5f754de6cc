#include "myriad/view/viewer.hpp"

#include "myriad/gpu/memory/staging_ring.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "myriad/core/image/image_io.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/gpu/memory/command_memory.hpp"
#include "myriad/gpu/sync/sync.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/voxel_editing.hpp"
#include "myriad/view/controls.hpp"
#include "myriad/view/crosshair.hpp"
#include "myriad/view/edit_controls.hpp"
#include "myriad/view/fly_camera.hpp"
#include "myriad/view/stats_panel.hpp"
#include "myriad/view/swapchain.hpp"

namespace myriad::view {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// One command buffer and its fence: the loop waits for each frame before recording the next.
class FrameCommands {
 public:
  // The pool's host memory follows the context's choice (ContextOptions::command_arena).
  explicit FrameCommands(gpu::Context& ctx)
      : device_(ctx.device()),
        memory_(ctx.command_memory() ? std::make_unique<gpu::CommandMemory>() : nullptr) {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = ctx.queue_family();
    gpu::check(vkCreateCommandPool(device_, &pool_info, callbacks(), &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    try {
      gpu::check(vkAllocateCommandBuffers(device_, &alloc, &cmd_), "vkAllocateCommandBuffers");
      gpu::check(vkCreateFence(device_, &fence_info, nullptr, &fence_), "vkCreateFence");
    } catch (...) {
      release();
      throw;
    }
  }
  ~FrameCommands() { release(); }
  FrameCommands(const FrameCommands&) = delete;
  FrameCommands& operator=(const FrameCommands&) = delete;

  VkCommandBuffer begin() {
    gpu::check(vkResetCommandBuffer(cmd_, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    gpu::check(vkBeginCommandBuffer(cmd_, &info), "vkBeginCommandBuffer");
    if (memory_) memory_->open();  // the frame's commands from the pool's arena (rewound by the reset above)
    return cmd_;
  }

  // Submits after waiting for the image's acquisition; signals `rendered` for the present.
  void submit(VkQueue queue, VkSemaphore acquired, VkSemaphore rendered) {
    gpu::check(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
    if (memory_) memory_->close();
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = acquired;
    wait.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;  // the swapchain image is only written by blits
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = rendered;
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmd_info.commandBuffer = cmd_;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = 1;
    submit.pWaitSemaphoreInfos = &wait;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmd_info;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = &signal;
    gpu::check(vkQueueSubmit2(queue, 1, &submit, fence_), "vkQueueSubmit2");
  }

  void wait() {
    gpu::check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    gpu::check(vkResetFences(device_, 1, &fence_), "vkResetFences");
  }

 private:
  void release() noexcept {
    if (fence_) vkDestroyFence(device_, fence_, nullptr);
    if (pool_) vkDestroyCommandPool(device_, pool_, callbacks());
    fence_ = VK_NULL_HANDLE;
    pool_ = VK_NULL_HANDLE;
  }

  const VkAllocationCallbacks* callbacks() const { return memory_ ? memory_->callbacks() : nullptr; }

  VkDevice device_;
  std::unique_ptr<gpu::CommandMemory> memory_;  // null: the driver's allocator; outlives the pool
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

// Frames per second over the last half second (steadier to read than one frame's time).
class FrameRate {
 public:
  void frame_done(Clock::time_point now) {
    ++frames_;
    const double elapsed = seconds_between(window_start_, now);
    // Until the first half second has passed, the frames so far give the rate.
    if (elapsed >= 0.5 || fps_ == 0.0) fps_ = frames_ / elapsed;
    if (elapsed >= 0.5) {
      frames_ = 0;
      window_start_ = now;
    }
  }
  double fps() const { return fps_; }

 private:
  Clock::time_point window_start_ = Clock::now();
  int frames_ = 0;
  double fps_ = 0.0;
};

FlyInput read_fly_input(Window& window) {
  const auto axis = [&](int positive, int negative) {
    return (window.key_held(positive) ? 1.0f : 0.0f) - (window.key_held(negative) ? 1.0f : 0.0f);
  };
  FlyInput input;
  input.move = {axis(GLFW_KEY_D, GLFW_KEY_A), axis(GLFW_KEY_E, GLFW_KEY_Q), axis(GLFW_KEY_W, GLFW_KEY_S)};
  input.look = window.take_drag();
  input.wheel = window.take_scroll();
  input.fast = window.key_held(GLFW_KEY_LEFT_SHIFT) || window.key_held(GLFW_KEY_RIGHT_SHIFT);
  return input;
}

float slice_direction(Window& window) {
  const bool up = window.key_held(GLFW_KEY_R) || window.key_held(GLFW_KEY_PAGE_UP);
  const bool down = window.key_held(GLFW_KEY_F) || window.key_held(GLFW_KEY_PAGE_DOWN);
  return (up ? 1.0f : 0.0f) - (down ? 1.0f : 0.0f);
}

const char* present_mode_name(VkPresentModeKHR mode) {
  switch (mode) {
    case VK_PRESENT_MODE_MAILBOX_KHR:
      return "mailbox";
    case VK_PRESENT_MODE_IMMEDIATE_KHR:
      return "immediate";
    case VK_PRESENT_MODE_FIFO_KHR:
      return "fifo (vsync)";
    default:
      return "other";
  }
}

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::vector<std::string> panel_lines(const gpu::Context& ctx, const Swapchain& swapchain,
                                     const FrameRate& rate, double frame_ms, const FlyCamera& camera,
                                     const ViewState& state, const render::FrameScene& scene,
                                     const EditState* edit, const voxel::PickResult& pick) {
  std::vector<std::string> lines;
  lines.push_back(format("%.1f FPS   %.2f ms/frame", rate.fps(), frame_ms));
  lines.push_back(format("%s   %ux%u   %s", ctx.device_name().c_str(), swapchain.extent().width,
                         swapchain.extent().height, present_mode_name(swapchain.present_mode())));
  const glm::vec3 eye = camera.eye();
  lines.push_back(format("camera %.1f %.1f %.1f   speed %.1f m/s", double(eye.x), double(eye.y),
                         double(eye.z), double(camera.speed())));
  const std::string slice =
      state.slice_height >= kSliceOff ? std::string("off") : format("%.1f m", double(state.slice_height));
  lines.push_back("slice " + slice + "   LOD colours " + (state.settings.lod_colors ? "on" : "off") +
                  (state.settings.paused ? "   PAUSED" : ""));
  for (std::string& line : scene.stats_lines()) lines.push_back(std::move(line));
  if (edit)
    for (std::string& line : edit_lines(*edit, pick)) lines.push_back(std::move(line));
  // Small windows keep their room for the scene; the controls are also printed at start.
  if (swapchain.extent().height >= 480) {
    lines.emplace_back();
    for (std::string& line : control_lines()) lines.push_back(std::move(line));
    if (edit)
      for (std::string& line : edit_control_lines()) lines.push_back(std::move(line));
  }
  return lines;
}

// Writes the frame (scene, then panel) into the acquired swapchain image and leaves it ready to present;
// with `readback` also copies it there.
void record_composite(VkCommandBuffer cmd, const render::OffscreenTarget& target, const Swapchain& swapchain,
                      std::uint32_t image, const StatsPanel* panel, const Crosshair* crosshair,
                      const gpu::Buffer* readback) {
  const VkImage dst = swapchain.image(image);
  // The target's end() made its colour visible to copies; blits are their own stage, reached by chaining.
  gpu::image_barrier(cmd, {target.color().handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT});
  // The submission waits for the acquisition at the transfer stages, which this barrier starts from.
  gpu::image_barrier(cmd, {dst, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_NONE,
                           VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT});
  const VkExtent2D extent = swapchain.extent();
  VkImageBlit blit{};
  blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = {int(target.width()), int(target.height()), 1};
  blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.dstOffsets[1] = {int(extent.width), int(extent.height), 1};
  vkCmdBlitImage(cmd, target.color().handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
  if (panel) panel->record(cmd, dst, extent);
  if (crosshair) crosshair->record(cmd, dst, extent);

  if (!readback) {
    gpu::image_barrier(cmd, {dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                             VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE});
    return;
  }
  gpu::image_barrier(cmd, {dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT});
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyImageToBuffer(cmd, dst, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback->handle(), 1, &copy);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
  gpu::image_barrier(
      cmd, {dst, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE});
}

// The read-back swapchain image as RGBA8 (swapchains are often BGRA).
std::vector<std::uint8_t> to_rgba(const gpu::Buffer& readback, VkExtent2D extent, VkFormat format) {
  readback.invalidate();
  const std::size_t bytes = std::size_t(extent.width) * extent.height * 4;
  std::vector<std::uint8_t> rgba(bytes);
  std::memcpy(rgba.data(), readback.mapped(), bytes);
  if (format == VK_FORMAT_B8G8R8A8_UNORM) {
    for (std::size_t i = 0; i < bytes; i += 4) std::swap(rgba[i], rgba[i + 2]);
  }
  // The presented image is opaque whatever the scene left in alpha.
  for (std::size_t i = 3; i < bytes; i += 4) rgba[i] = 255;
  return rgba;
}

}  // namespace

void ViewerOptions::validate() const {
  static_assert(FlyCamera::kMinSpeed == 0.5f && FlyCamera::kMaxSpeed == 2000.0f, "the message names them");
  if (!(speed >= FlyCamera::kMinSpeed && speed <= FlyCamera::kMaxSpeed))
    throw Error("the fly speed must be 0.5 to 2000 metres per second", "ViewerOptions::speed");
  if (!(draw_distance >= 0.0f && draw_distance <= render::kMaxDrawDistance))
    throw Error("the draw distance must be 0 (none) to 1,000,000 metres", "ViewerOptions::draw_distance");
}

ViewerResult run_viewer(gpu::Context& ctx, Window& window, render::FrameScene& scene,
                        const render::SceneCamera& start, const ViewerOptions& options) {
  options.validate();
  if (!ctx.presentation_enabled()) {
    throw Error("run_viewer needs a context created with Window::context_options()", "viewer");
  }
  const bool want_screenshot = !options.screenshot.empty();
  // The window size the swapchain was last built for: the surface may settle on another extent (clamped
  // to its limits), which must not trigger a rebuild every frame.
  VkExtent2D built_for = window.framebuffer_size();
  Swapchain swapchain(ctx, window.create_surface(ctx.instance()), built_for, options.vsync);
  if (want_screenshot && !swapchain.readable()) {
    throw Error("this window's swapchain images cannot be copied out, so no screenshot can be taken",
                "viewer", "run without --screenshot, or use `myriad render` for images");
  }
  auto target =
      std::make_unique<render::OffscreenTarget>(ctx, swapchain.extent().width, swapchain.extent().height);
  FrameCommands commands(ctx);
  StatsPanel panel(ctx);
  // Scenes with a voxel world get the crosshair, its pick and outline, and clicks that dig and build.
  render::VoxelEditing* editing = scene.voxel_editing();
  std::optional<Crosshair> crosshair;
  if (editing) crosshair.emplace(ctx);
  EditState edit_state;
  voxel::PickResult pick;
  FlyCamera camera(start, options.speed);
  ViewState state;
  state.settings.draw_distance = options.draw_distance;
  state.slice_height = start.slice_height;
  state.show_panel = options.show_panel;
  FrameRate rate;
  ViewerResult result;

  const Clock::time_point started = Clock::now();
  Clock::time_point last = started;
  double frame_ms = 0.0;
  bool recreate = false;
  bool last_frame = false;
  for (;;) {
    if (options.before_frame) options.before_frame(result.frames);
    play_input(options.input, result.frames, window);
    window.poll_events();
    if (window.close_requested()) {
      // Closing still shows one more frame when a screenshot is due, so it is what was on screen.
      if (!want_screenshot) break;
      last_frame = true;
    }
    VkExtent2D size = window.framebuffer_size();
    if (size.width == 0 || size.height == 0) {  // minimised: nothing to draw into
      window.wait_events();
      continue;
    }
    if (recreate || size.width != built_for.width || size.height != built_for.height) {
      swapchain.recreate(size);
      built_for = size;
      target.reset();
      target =
          std::make_unique<render::OffscreenTarget>(ctx, swapchain.extent().width, swapchain.extent().height);
      ++result.swapchain_recreations;
      recreate = false;
    }
    const std::optional<std::uint32_t> image = swapchain.acquire();
    if (!image) {
      recreate = true;
      continue;
    }

    const Clock::time_point now = Clock::now();
    // A scripted session steps its clocks by a fixed 1/30 s per frame, so it replays the same way
    // however fast the machine draws.
    const float dt = options.input.length > 0 ? 1.0f / 30.0f : float(seconds_between(last, now));
    last = now;
    for (int key : window.take_key_presses())
      if (!apply_key_press(state, key) && editing) apply_edit_key(edit_state, key);
    // Esc arrives with an acquired image: that frame is drawn and presented as the last one.
    if (state.quit) last_frame = true;
    camera.update(read_fly_input(window), dt);
    move_slice(state, slice_direction(window), dt);
    render::SceneCamera view = camera.scene_camera(start);
    view.slice_height = state.slice_height;
    const std::vector<int> clicks = window.take_clicks();
    if (editing) {
      // The crosshair is the view's centre: the pick runs along the view direction from the eye.
      age_message(edit_state);
      pick = editing->pick(glm::dvec3(view.eye), glm::dvec3(view.forward), kEditReach, view.slice_height);
      for (const int button : clicks) {
        const std::optional<voxel::VoxelEdit> edit = edit_for_click(edit_state, button, pick);
        if (!edit) continue;
        try {
          editing->edit(*edit);
          ++result.edits;
        } catch (const Error& e) {
          refuse(edit_state, e.problem());
          ++result.edits_refused;
        }
      }
      // After an edit the cell under the crosshair may have changed: pick again for the outline.
      if (!clicks.empty())
        pick = editing->pick(glm::dvec3(view.eye), glm::dvec3(view.forward), kEditReach, view.slice_height);
      editing->set_outline(pick.stop == voxel::PickStop::kHit
                               ? std::optional<render::CellOutlineTarget>({pick.cell, pick.face})
                               : std::nullopt);
    }

    if (options.frames > 0 && result.frames + 1 == options.frames) last_frame = true;
    if (options.frames == 0 && options.input.length > 0 && result.frames + 1 >= options.input.length)
      last_frame = true;
    const bool capture = want_screenshot && last_frame;
    std::optional<gpu::Buffer> readback;
    if (capture) {
      readback.emplace(ctx, VkDeviceSize(swapchain.extent().width) * swapchain.extent().height * 4,
                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryKind::kReadback);
    }

    scene.update(dt, view, target->width(), target->height(), state.settings);
    if (state.show_panel)
      panel.set_lines(panel_lines(ctx, swapchain, rate, frame_ms, camera, state, scene,
                                  editing ? &edit_state : nullptr, pick),
                      1 + int(swapchain.extent().height >= 720));
    VkCommandBuffer cmd = commands.begin();
    ctx.record_guard_fills(cmd);
    scene.record(cmd, state.settings, *target);
    record_composite(cmd, *target, swapchain, *image, state.show_panel ? &panel : nullptr,
                     crosshair ? &*crosshair : nullptr, readback ? &*readback : nullptr);
    ctx.record_guard_copies(cmd);
    commands.submit(ctx.queue(), swapchain.acquired_semaphore(), swapchain.present_semaphore(*image));
    if (!swapchain.present(*image)) recreate = true;
    commands.wait();
    ctx.check_guards();
    ctx.staging_ring().complete_all();  // the frame's staged uploads were read: reusable
    scene.finish_frame();

    if (capture) {
      result.screenshot_width = swapchain.extent().width;
      result.screenshot_height = swapchain.extent().height;
      result.screenshot_rgba = to_rgba(*readback, swapchain.extent(), swapchain.format());
      write_png_rgba8(options.screenshot, result.screenshot_width, result.screenshot_height,
                      result.screenshot_rgba);
    }
    ++result.frames;
    const Clock::time_point done = Clock::now();
    frame_ms = seconds_between(now, done) * 1000.0;
    rate.frame_done(done);
    if (last_frame) break;
  }
  result.seconds = seconds_between(started, Clock::now());
  gpu::check(vkDeviceWaitIdle(ctx.device()), "vkDeviceWaitIdle");
  return result;
}

}  // namespace myriad::view
