// A scene driven frame by frame by a frame loop: `myriad render`, `myriad view` and the soak test all
// run the same sequence — update() on the CPU, record() into a command buffer, submit, wait,
// finish_frame() — so what the viewer shows is what the headless renders and tests check.
// One frame in flight: update() and record() are called only after the previous frame's submission
// completed (scenes keep single-buffered staging memory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "myriad/core/math/math.hpp"
#include "myriad/gpu/device/vk.hpp"

namespace myriad::render {

class OffscreenTarget;

// A perspective camera (reverse-Z, infinite far plane) looking along `forward`.
struct SceneCamera {
  glm::vec3 eye{0.0f};
  glm::vec3 forward{0.0f, 0.0f, 1.0f};  // unit length
  float fov_y = 0.96f;                  // radians (55 degrees)
  float near_plane = 0.2f;
  float slice_height = 1e30f;  // voxel world: nothing above this height is drawn (V14)

  static SceneCamera look_at(glm::vec3 eye, glm::vec3 target, float fov_y = 0.96f);
  // forward from yaw (radians about +Y, 0 = +Z) and pitch (radians, positive = up).
  static glm::vec3 direction(float yaw, float pitch);
  glm::mat4 view() const;
  glm::mat4 view_proj(float aspect) const;
};

struct FrameOptions {
  bool lod_colors = false;  // colour crowd and vegetation by LOD level
  bool paused = false;      // animation and simulation clocks stand still
  bool occlusion = true;    // two-phase Hi-Z occlusion culling where the systems support it
};

class FrameScene {
 public:
  virtual ~FrameScene() = default;
  // CPU part of a frame: clocks (dt seconds, ignored while paused), streaming, animation, staging.
  virtual void update(double dt, const SceneCamera& camera, const FrameOptions& settings) = 0;
  // Records the whole frame into `target` (cleared by the scene; on return target.end() was recorded,
  // so the colour image is in TRANSFER_SRC_OPTIMAL, ready to blit or read back).
  virtual void record(VkCommandBuffer cmd, const SceneCamera& camera, const FrameOptions& settings,
                      OffscreenTarget& target) = 0;
  // After the frame's submission completed: read-backs for statistics.
  virtual void finish_frame() = 0;
  // Short lines for an on-screen panel (counts, draws, times of the last finished frame).
  virtual std::vector<std::string> stats_lines() const = 0;
};

}  // namespace myriad::render
