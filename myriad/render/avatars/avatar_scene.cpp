#include "myriad/render/avatars/avatar_scene.hpp"

#include <array>
#include <cmath>

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/render/avatars/avatar_crowd_renderer.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

namespace myriad::render {
namespace {

// Looks down at the grid's centre from the front, far enough for the whole grid to fit.
SceneCamera grid_camera(std::size_t avatars, float spacing, float aspect) {
  const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(avatars))));
  const std::size_t rows = (avatars + side - 1) / side;
  const float width = static_cast<float>(side - 1) * spacing, depth = static_cast<float>(rows - 1) * spacing;
  const glm::vec3 centre(0.5f * width, 0.8f, -0.5f * depth);
  const float fov = glm::radians(40.0f);
  const float extent = std::max(width, depth) + 2.5f;
  const float distance = 0.6f * extent / std::tan(0.5f * fov) / std::min(aspect, 1.0f) + 1.0f;
  SceneCamera c =
      SceneCamera::look_at(centre + distance * glm::normalize(glm::vec3(0.3f, 0.55f, 1.0f)), centre, fov);
  c.near_plane = 0.1f;
  return c;
}

}  // namespace

std::uint32_t avatar_id_from_rgba(const std::uint8_t* pixel) {
  return std::uint32_t{pixel[0]} | (std::uint32_t{pixel[1]} << 8) | (std::uint32_t{pixel[2]} << 16);
}

void AvatarSceneOptions::validate() const {
  validate_size("AvatarSceneOptions");
  if (avatars == 0) throw Error("the avatar scene needs avatars", "AvatarSceneOptions::avatars");
  if (!(spacing > 0.0f) || !std::isfinite(spacing))
    throw Error("the avatars' spacing must be a finite number of metres > 0", "AvatarSceneOptions::spacing");
  if (!(time >= 0.0f) || !std::isfinite(time))
    throw Error("the time must be a finite number of seconds >= 0", "AvatarSceneOptions::time");
}

AvatarSceneResult render_avatar_scene(gpu::Context& ctx, const AvatarSceneOptions& o) {
  o.validate();
  AvatarCrowdRenderer avatars(ctx, {.avatars = o.avatars, .spacing = o.spacing}, o.clothed,
                              OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat);
  // Avatars are unlit: the light direction is unused.
  const FrameView view = FrameView::of_camera(
      grid_camera(o.avatars, o.spacing, static_cast<float>(o.width) / static_cast<float>(o.height)), o.width,
      o.height, kWorldUp, o.time);
  avatars.set_palette_upload(o.upload);

  OffscreenTarget target(ctx, o.width, o.height);
  AvatarSceneResult result;
  result.width = o.width;
  result.height = o.height;
  // The same scene frame as the default scene's, over the avatars alone: update (animate `time`
  // seconds, pose, cull), upload, draw. The clear colour is the ground the blob shadows darken.
  SceneFrame scene_frame(ctx);
  scene_frame.set_sky(false);  // the clear colour is the ground under the avatars
  FrameSystem* const systems[] = {&avatars};
  Stopwatch frame;
  ctx.submit_and_wait([&](VkCommandBuffer cmd) {
    scene_frame.record(cmd, view, systems, target, glm::vec4(0.56f, 0.60f, 0.52f, 1.0f), nullptr, o.time);
  });
  result.frame_ms = frame.elapsed_ms();
  result.draws = avatars.stats().draws;
  result.draws_unbatched = avatars.stats().draws_unbatched;
  result.worn_parts = avatars.crowd().worn_parts();
  result.matrices = avatars.stats().matrices;
  result.pipeline_binds = avatars.stats().pipeline_binds;
  result.descriptor_binds = avatars.stats().descriptor_binds;
  result.batch_types = avatars.stats().batch_types;
  result.rgba = target.read_color();

  if (o.id_pass) {
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      target.begin(cmd, glm::vec4(0.0f));
      avatars.draw_ids(cmd, view);
      target.end(cmd);
    });
    const std::vector<std::uint8_t> ids = target.read_color();
    const std::size_t palette_size = avatars.crowd().animator().palette_size();
    result.avatar_pixels.assign(o.avatars, 0);
    for (std::size_t i = 0; i + 3 < ids.size(); i += 4) {
      const std::uint32_t id = avatar_id_from_rgba(ids.data() + i);
      if (id == 0) continue;
      const std::size_t a = (id - 1) / palette_size;
      if (a < o.avatars && (id - 1) % palette_size == 0) {
        ++result.avatar_pixels[a];
      } else {
        ++result.unknown_id_pixels;
      }
    }
  }
  return result;
}

}  // namespace myriad::render
