#include "myriad/render/crowd/crowd_scene.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

#include <algorithm>
#include <random>
#include <string>

namespace myriad::render {

namespace {

struct CrowdView {
  const char* name;
  glm::vec3 eye, target;
  float fov_degrees;
};

// Whole map: high above one edge, the whole square in view. Close-up: eye height in the crowd.
std::vector<CrowdView> crowd_views(float map_size) {
  const float h = map_size * 0.5f;
  return {{"whole_map", {0.0f, map_size * 0.3f, -h * 1.15f}, {0.0f, 0.0f, h * 0.2f}, 50.0f},
          {"close_up", {-6.0f, 2.2f, -h * 0.2f}, {4.0f, 1.0f, -h * 0.2f + 20.0f}, 60.0f}};
}

bool wanted(const std::vector<std::string>& views, const char* name) {
  return views.empty() || std::find(views.begin(), views.end(), name) != views.end();
}

}  // namespace

std::vector<crowd::CrowdEntity> scatter_crowd(std::uint32_t count, std::uint32_t type_count, float map_size,
                                              std::uint64_t seed) {
  if (type_count == 0) throw Error("crowd scene: no enemy types");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> pos(-map_size * 0.5f, map_size * 0.5f);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<crowd::CrowdEntity> out(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    crowd::CrowdEntity& e = out[i];
    e.position = {pos(rng), 0.0f, pos(rng)};
    e.yaw_scale = crowd::pack_yaw_scale(unit(rng) * 6.2831853f, 1.0f + unit(rng) * 0.5f);
    e.type_clip = (i % type_count) | (std::uint32_t(unit(rng) < 0.7f ? 0 : 1) << 16);
    e.time_offset = unit(rng) * 10.0f;
    e.speed = 0.85f + unit(rng) * 0.3f;
    const auto shade = std::uint32_t(170 + unit(rng) * 85.0f);
    e.tint = 0xff000000u | (shade << 16) | (shade << 8) | shade;
  }
  return out;
}

void CrowdSceneOptions::validate() const {
  validate_size("CrowdSceneOptions");
  if (entities == 0) throw Error("crowd scene: no entities", "CrowdSceneOptions::entities");
  if (!(map_size > 0.0f) || !std::isfinite(map_size))
    throw Error("crowd scene: the map size must be a finite number of metres > 0",
                "CrowdSceneOptions::map_size");
  if (!(time >= 0.0f) || !std::isfinite(time))
    throw Error("crowd scene: the time must be a finite number of seconds >= 0", "CrowdSceneOptions::time");
  for (const int mode : modes)
    if (mode < -1 || mode > 2)
      throw Error("crowd scene: mode " + std::to_string(mode) + " is invalid", "CrowdSceneOptions::modes",
                  "-1: per-entity LOD, 0..2: forced level");
}

CrowdSceneResult render_crowd_scene(gpu::Context& ctx, std::span<const crowd::CrowdFile> types,
                                    const CrowdSceneOptions& options) {
  options.validate();
  const std::vector<crowd::CrowdEntity> entities =
      scatter_crowd(options.entities, std::uint32_t(types.size()), options.map_size, options.seed);
  OffscreenTarget target(ctx, options.width, options.height);
  CrowdRenderer renderer(ctx, types, entities, OffscreenTarget::kColorFormat, OffscreenTarget::kDepthFormat);
  CrowdSceneResult result;
  result.gpu_bytes = renderer.gpu_bytes();
  for (const crowd::CrowdFile& f : types) {
    for (const crowd::CrowdLod& lod : f.lods) result.type_triangles.push_back(lod.triangle_count());
  }
  // The same scene frame as the default scene's, over the crowd alone. One phase: each view and mode is
  // a single frame, and the stats compare the per-entity LOD with the forced levels.
  SceneFrame scene_frame(ctx);
  scene_frame.set_sky(false);  // the clear colour is the ground the enemies walk on
  scene_frame.set_occlusion(false);
  FrameSystem* const systems[] = {&renderer};
  for (const CrowdView& view : crowd_views(options.map_size)) {
    if (!wanted(options.views, view.name)) continue;
    SceneCamera camera = SceneCamera::look_at(view.eye, view.target, glm::radians(view.fov_degrees));
    camera.near_plane = 0.1f;
    const FrameView frame_view = FrameView::of_camera(camera, options.width, options.height,
                                                      glm::vec3(0.4f, 0.8f, 0.3f), options.time);
    CrowdDrawOptions draw;
    draw.lod_colors = options.lod_colors;
    renderer.set_draw_options(draw);
    for (int mode : options.modes) {
      renderer.set_forced_level(mode);
      Stopwatch clock;
      ctx.submit_and_wait([&](VkCommandBuffer cmd) {
        scene_frame.record(cmd, frame_view, systems, target, glm::vec4(0.36f, 0.42f, 0.33f, 1.0f), nullptr,
                           0.0f);
      });
      CrowdSceneFrame frame;
      frame.frame_ms = clock.elapsed_ms();
      frame.view = view.name;
      frame.mode = mode;
      frame.stats = renderer.read_stats();
      frame.rgba = target.read_color();
      result.frames.push_back(std::move(frame));
    }
  }
  return result;
}

}  // namespace myriad::render
