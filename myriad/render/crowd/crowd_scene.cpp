#include "myriad/render/crowd/crowd_scene.hpp"

#include "myriad/core/io/error.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/frame_view.hpp"
#include "myriad/render/frame/scene_frame.hpp"
#include "myriad/render/passes/ground_plane.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>

namespace myriad::render {

namespace {

struct CrowdView {
  const char* name;
  glm::vec3 eye, target;
  float fov_degrees;
  float shadow_distance;  // the shadow map covers the view nearer than this (metres)
};

// kScene — whole map: high above one edge, the whole square in view; close-up: eye height in the crowd.
// kArticle (fov 30°) — whole map: 50° above the horizon, far enough that the square fills the image;
// close-up: 8 m up inside the crowd, looking across it to the far edge (near enemies at LOD0, the far
// side at LOD1 and LOD2); zoomed-in: a strategy game's camera brought down over the crowd, 80 m up and
// 113 m from the point it looks at (enemies around the LOD1 switch, their shadows in the map).
std::vector<CrowdView> crowd_views(float map_size, CrowdCamera camera) {
  const float h = map_size * 0.5f;
  if (camera == CrowdCamera::kArticle) {
    return {{"whole_map",
             {0.0f, map_size * 1.126f, -map_size * 0.945f},
             {0.0f, 0.0f, 0.0f},
             30.0f,
             map_size * 2.2f},
            {"close_up", {-10.0f, 8.0f, -h * 0.7f}, {0.0f, 2.0f, -h * 0.7f + 40.0f}, 30.0f, 80.0f},
            {"zoomed_in", {0.0f, 80.0f, -h * 0.15f - 80.0f}, {0.0f, 0.0f, -h * 0.15f}, 30.0f, 200.0f}};
  }
  return {{"whole_map", {0.0f, map_size * 0.3f, -h * 1.15f}, {0.0f, 0.0f, h * 0.2f}, 50.0f, map_size * 1.6f},
          {"close_up", {-6.0f, 2.2f, -h * 0.2f}, {4.0f, 1.0f, -h * 0.2f + 20.0f}, 60.0f, 50.0f}};
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

const char* crowd_shadows_name(CrowdShadows shadows) {
  switch (shadows) {
    case CrowdShadows::kOff:
      return "off";
    case CrowdShadows::kDefault:
      return "default";
    case CrowdShadows::kFullLod:
      return "full_lod";
    case CrowdShadows::kCoarseAll:
      return "coarse_all";
    case CrowdShadows::kCoarseFromLod1:
      return "coarse_from_lod1";
  }
  return "?";
}

namespace {

// CrowdRenderer::set_coarse_shadows's level for a frame's shadows.
int coarse_from_level(CrowdShadows shadows) {
  switch (shadows) {
    case CrowdShadows::kCoarseAll:
      return 0;
    case CrowdShadows::kCoarseFromLod1:
      return 1;
    case CrowdShadows::kDefault:
      return CrowdRenderer::kCoarseShadowsFromLevel;
    case CrowdShadows::kOff:
    case CrowdShadows::kFullLod:
      break;
  }
  return CrowdRenderer::kNoCoarseShadows;
}

}  // namespace

void CrowdSceneOptions::validate() const {
  validate_size("CrowdSceneOptions");
  if (entities == 0) throw Error("crowd scene: no entities", "CrowdSceneOptions::entities");
  if (!(map_size > 0.0f) || !std::isfinite(map_size))
    throw Error("crowd scene: the map size must be a finite number of metres > 0",
                "CrowdSceneOptions::map_size");
  if (!(time >= 0.0f) || !std::isfinite(time))
    throw Error("crowd scene: the time must be a finite number of seconds >= 0", "CrowdSceneOptions::time");
  if (frames.empty()) throw Error("crowd scene: no frames to render", "CrowdSceneOptions::frames");
  for (const CrowdFrameSpec& frame : frames)
    if (frame.mode < -1 || frame.mode > 2)
      throw Error("crowd scene: mode " + std::to_string(frame.mode) + " is invalid",
                  "CrowdSceneOptions::frames", "-1: per-entity LOD, 0..2: forced level");
  if (rounds < 1 || rounds > 1000)
    throw Error("crowd scene: rounds must be in [1, 1000]", "CrowdSceneOptions::rounds");
  if (shadow_map_size < 64 || shadow_map_size > 8192)
    throw Error("crowd scene: the shadow map size must be in [64, 8192] texels",
                "CrowdSceneOptions::shadow_map_size");
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
  std::unique_ptr<GroundPlane> ground;
  if (options.ground) {
    GroundPlaneOptions plane;
    plane.half_extent = glm::vec2(options.map_size * 4.0f);
    ground = std::make_unique<GroundPlane>(ctx, plane, OffscreenTarget::kColorFormat,
                                           OffscreenTarget::kDepthFormat);
  }
  ShadowMap shadow_map(ctx, options.shadow_map_size);
  std::unique_ptr<gpu::GpuTimer> timer;
  if (ctx.has_timestamps()) timer = std::make_unique<gpu::GpuTimer>(ctx);
  result.gpu_timestamps = timer != nullptr;
  // The same scene frame as the default scene's, over the crowd (and its ground). One phase: each view
  // and frame stands alone, and the stats compare the per-entity LOD with the forced levels.
  SceneFrame scene_frame(ctx);
  scene_frame.set_sky(options.ground);  // without the plane the clear colour is the ground
  scene_frame.set_occlusion(false);
  std::vector<FrameSystem*> systems;
  if (ground) systems.push_back(ground.get());
  systems.push_back(&renderer);
  CrowdDrawOptions draw;
  draw.lod_colors = options.lod_colors;
  renderer.set_draw_options(draw);
  const std::size_t frame_count = options.frames.size();
  for (const CrowdView& view : crowd_views(options.map_size, options.camera)) {
    if (!wanted(options.views, view.name)) continue;
    SceneCamera camera = SceneCamera::look_at(view.eye, view.target, glm::radians(view.fov_degrees));
    camera.near_plane = 0.1f;
    const FrameView frame_view = FrameView::of_camera(camera, options.width, options.height,
                                                      glm::vec3(0.4f, 0.8f, 0.3f), options.time);
    shadow_map.fit(frame_view, view.shadow_distance, 60.0f);
    const std::size_t first = result.frames.size();
    for (const CrowdFrameSpec& spec : options.frames) {
      CrowdSceneFrame frame;
      frame.view = view.name;
      frame.spec = spec;
      result.frames.push_back(std::move(frame));
    }
    std::vector<std::map<std::string, std::vector<double>>> gpu_rounds(frame_count);
    // Round 0 is the warm-up; each later round starts one frame further on.
    for (int round = 0; round <= options.rounds; ++round) {
      for (std::size_t k = 0; k < frame_count; ++k) {
        const std::size_t i = (k + std::size_t(std::max(round - 1, 0))) % frame_count;
        CrowdSceneFrame& frame = result.frames[first + i];
        renderer.set_forced_level(frame.spec.mode);
        renderer.set_coarse_shadows(coarse_from_level(frame.spec.shadows));
        ShadowMap* shadow = frame.spec.shadows == CrowdShadows::kOff ? nullptr : &shadow_map;
        Stopwatch clock;
        ctx.submit_and_wait([&](VkCommandBuffer cmd) {
          if (timer) timer->begin_frame(cmd);
          scene_frame.record(cmd, frame_view, systems, target, glm::vec4(0.36f, 0.42f, 0.33f, 1.0f), shadow,
                             0.0f, timer.get());
        });
        const double ms = clock.elapsed_ms();
        if (round == 0) continue;
        frame.frame_ms_rounds.push_back(ms);
        if (timer) {
          for (const gpu::GpuTimer::Interval& interval : timer->resolve())
            gpu_rounds[i][interval.name].push_back(interval.ms);
        }
        if (round == options.rounds) {
          frame.stats = renderer.read_stats();
          frame.shadow_stats = shadow ? renderer.read_shadow_stats() : CrowdFrameStats{};
          frame.rgba = target.read_color();
        }
      }
    }
    for (std::size_t i = 0; i < frame_count; ++i) {
      CrowdSceneFrame& frame = result.frames[first + i];
      frame.frame_ms = median(frame.frame_ms_rounds);
      for (const auto& [name, samples] : gpu_rounds[i]) frame.gpu_ms[name] = median(samples);
    }
  }
  return result;
}

ShadowChange shadow_change(std::span<const std::uint8_t> reference, std::span<const std::uint8_t> candidate,
                           std::span<const std::uint8_t> unshadowed) {
  if (candidate.size() != reference.size() || unshadowed.size() != reference.size() || reference.size() % 4)
    throw Error("shadow_change: the three images must be RGBA8 of one size");
  const auto differs = [](const std::uint8_t* a, const std::uint8_t* b) {
    return a[0] != b[0] || a[1] != b[1] || a[2] != b[2];
  };
  ShadowChange change;
  for (std::size_t p = 0; p < reference.size(); p += 4) {
    const bool shadowed = differs(&reference[p], &unshadowed[p]);
    const bool changed = differs(&reference[p], &candidate[p]);
    change.shadowed += shadowed ? 1u : 0u;
    change.changed += changed ? 1u : 0u;
  }
  return change;
}

}  // namespace myriad::render
