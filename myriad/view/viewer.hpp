// The interactive frame loop: window input -> fly camera and toggles -> scene.update -> scene.record
// into an offscreen target -> blit onto the swapchain image -> stats panel -> present, one frame in
// flight (what render::FrameScene requires). Optionally stops after N frames and keeps the last
// presented image as a screenshot.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/view/input_script.hpp"
#include "myriad/view/window.hpp"

namespace myriad::view {

struct ViewerOptions {
  std::uint64_t frames = 0;  // stop after this many presented frames; 0 = until the window closes
  // Written (PNG) from the last presented frame, panel included.
  std::filesystem::path screenshot;
  bool show_panel = true;
  bool vsync = false;
  float speed = 20.0f;  // fly camera, metres per second (FlyCamera::kMinSpeed..kMaxSpeed)
  // Metres from the eye beyond which nothing is drawn (render::FrameOptions::draw_distance); 0: none.
  float draw_distance = 0.0f;
  // Called before each frame with its index (tests resize the window through it).
  std::function<void(std::uint64_t frame)> before_frame;
  // Scripted input played into the window frame by frame; with frames = 0 the viewer closes when it ends.
  InputScript input;

  // Throws myriad::Error naming the first invalid field (run_viewer calls it).
  void validate() const;
};

struct ViewerResult {
  std::uint64_t frames = 0;                    // presented
  std::uint64_t edits = 0, edits_refused = 0;  // voxel edits the clicks asked for
  double seconds = 0.0;
  std::uint32_t swapchain_recreations = 0;
  // The screenshot's pixels (RGBA8, rows top to bottom) when one was asked for.
  std::uint32_t screenshot_width = 0;
  std::uint32_t screenshot_height = 0;
  std::vector<std::uint8_t> screenshot_rgba;
};

// `ctx` must have been created with window.context_options(). Throws myriad::Error on failure.
ViewerResult run_viewer(gpu::Context& ctx, Window& window, render::FrameScene& scene,
                        const render::SceneCamera& start, const ViewerOptions& options);

}  // namespace myriad::view
