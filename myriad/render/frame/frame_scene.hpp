// A scene driven frame by frame by a frame loop: `myriad render`, `myriad view` and the soak test all
// run the same sequence — update() on the CPU, record() into a command buffer, submit, wait,
// finish_frame() — so what the viewer shows is what the headless renders and tests check. update()
// builds the frame's one FrameView (the camera over the image it will draw) and record() draws that
// view: nothing else builds a frustum or reads an aspect.
// One frame in flight: update() and record() are called only after the previous frame's submission
// completed (scenes keep single-buffered staging memory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "myriad/core/math/math.hpp"
#include "myriad/gpu/device/vk.hpp"
#include "myriad/render/frame/frame_view.hpp"

namespace myriad::render {

class OffscreenTarget;
struct FrameView;

// A perspective camera (reverse-Z, infinite far plane) looking along `forward`.
struct SceneCamera {
  glm::vec3 eye{0.0f};
  glm::vec3 forward{0.0f, 0.0f, 1.0f};  // unit length
  float fov_y = 0.96f;                  // radians (55 degrees)
  float near_plane = 0.2f;
  float slice_height = kNoSlice;  // voxel world: nothing above this height is drawn (V14)

  static SceneCamera look_at(glm::vec3 eye, glm::vec3 target, float fov_y = 0.96f);
  // forward from yaw (radians about +Y, 0 = +Z) and pitch (radians, positive = up).
  static glm::vec3 direction(float yaw, float pitch);
  glm::mat4 view() const;
  glm::mat4 view_proj(float aspect) const;
};

// The largest draw distance the command line and the viewer accept, metres.
inline constexpr float kMaxDrawDistance = 1e6f;

struct FrameOptions {
  bool lod_colors = false;  // colour crowd and vegetation by LOD level
  bool paused = false;      // animation and simulation clocks stand still
  bool occlusion = true;    // two-phase Hi-Z occlusion culling where the systems support it
  // Metres from the eye beyond which nothing is drawn (FrameView::limit_distance: culling drops what
  // lies wholly beyond, the terrain's fog is complete there); 0: the scene's own reach.
  float draw_distance = 0.0f;
  // The shading model (Lighting::shading): full, or flat (the look before it, and its cost baseline).
  Shading shading = Shading::kFull;
};

class VoxelEditing;

class FrameScene {
 public:
  virtual ~FrameScene() = default;
  // CPU part of a frame: clocks (dt seconds, ignored while paused), streaming, animation, staging, and
  // the frame's view of `camera` over a `width` x `height` image.
  virtual void update(double dt, const SceneCamera& camera, std::uint32_t width, std::uint32_t height,
                      const FrameOptions& settings) = 0;
  // Records the frame the last update() prepared into `target` (of update()'s image size; cleared by
  // the scene; on return target.end() was recorded, so the colour image is in TRANSFER_SRC_OPTIMAL,
  // ready to blit or read back). May be called again to draw the same frame again.
  virtual void record(VkCommandBuffer cmd, const FrameOptions& settings, OffscreenTarget& target) = 0;
  // After the frame's submission completed: read-backs for statistics.
  virtual void finish_frame() = 0;
  // Short lines for an on-screen panel (counts, draws, times of the last finished frame).
  virtual std::vector<std::string> stats_lines() const = 0;
  // The scene's editable voxel world (voxel_editing.hpp), or null when it has none.
  virtual VoxelEditing* voxel_editing() { return nullptr; }
};

// The view a scene's update() built, checked against the target record() draws into: throws
// myriad::Error when there is none yet or the sizes differ.
const FrameView& checked_view(const FrameView* view, const OffscreenTarget& target, const char* where);

}  // namespace myriad::render
