// The VAT crowd scene (SPEC C8, issue "VAT crowd rendering"): thousands of enemies of several types
// spread over a plane, rendered headless from a whole-map view and a close-up view inside the crowd,
// once with per-entity LOD and once per forced LOD level, with draw counts (C2: vertices and
// triangles per LOD), the shadow pass's counts and frame times. What `myriad bench crowd` and
// `myriad bench crowd-article` measure. The enemies stand on a ground plane under the sun's
// shadow map; each frame may cast with the camera's levels, one level coarser, or not at all.
#pragma once

#include "myriad/crowd/crowd_file.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/crowd/crowd_renderer.hpp"
#include "myriad/render/frame/scene_image.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace myriad::render {

// How a frame's enemies cast shadows.
enum class CrowdShadows {
  kOff,             // no shadow map: every receiver fully lit
  kDefault,         // the renderer's default (CrowdRenderer::kCoarseShadowsFromLevel)
  kFullLod,         // casters at the camera's level per entity
  kCoarseAll,       // every caster one level coarser (CrowdRenderer::set_coarse_shadows(0))
  kCoarseFromLod1,  // LOD1 casters cast LOD2, LOD0 casters keep LOD0 (set_coarse_shadows(1))
};
const char* crowd_shadows_name(CrowdShadows shadows);  // "off", "default", "full_lod", ...

// One frame of a view: the LOD mode (-1 = per-entity LOD, 0..2 = every entity at that level, shadows
// included) and how it casts.
struct CrowdFrameSpec {
  int mode = -1;
  CrowdShadows shadows = CrowdShadows::kDefault;
};

// The views' camera. kScene: Myriad's own views (whole map 50°, close-up 60°). kArticle: the article's
// camera (004: fov 30°, LOD switches tuned for 93.3 m / 167.9 m at 1440 px): the whole map seen from
// high above one edge, a low view into the crowd towards the far side of the map, and a third view the
// article does not name, "zoomed_in": a strategy game's camera brought down over the crowd.
enum class CrowdCamera { kScene, kArticle };

struct CrowdSceneOptions : SceneImageSize {
  std::uint32_t entities = 3000;
  float map_size = 320.0f;  // metres, square, centred on the origin
  std::uint64_t seed = 1;
  float time = 2.5f;  // the global clock of the rendered frames
  bool lod_colors = false;
  CrowdCamera camera = CrowdCamera::kScene;
  // Frames rendered per view, in this order on the first round.
  std::vector<CrowdFrameSpec> frames{{-1}, {0}, {1}, {2}};
  std::vector<std::string> views;  // "whole_map", "close_up" (kArticle: also "zoomed_in"); empty = all
  // Timed rounds per view after one untimed warm-up round (pipelines built, caches filled); each round
  // starts one frame later in `frames`, so no frame always runs first. frame_ms is the median.
  int rounds = 1;
  std::uint32_t shadow_map_size = 2048;
  bool ground = true;  // the ground plane (and the sky beyond it); off: the clear colour is the ground

  // Throws myriad::Error naming the first invalid field (render_crowd_scene calls it).
  void validate() const;
};

struct CrowdSceneFrame {
  std::string view;
  CrowdFrameSpec spec;
  std::vector<std::uint8_t> rgba;  // of the last round
  CrowdFrameStats stats;           // the camera's draws
  CrowdFrameStats shadow_stats;    // the shadow pass's draws (zero with kOff)
  double frame_ms = 0.0;           // upload + shadow + cull + draw, submit to completion, wall clock: median
  std::vector<double> frame_ms_rounds;
  // GPU timestamps per pass ("shadow", "cull", "draw"; SceneFrame::record's marks), medians over the
  // rounds; empty where the device has no timestamps.
  std::map<std::string, double> gpu_ms;
};

struct CrowdSceneResult {
  std::vector<CrowdSceneFrame> frames;
  std::uint64_t gpu_bytes = 0;
  std::vector<std::size_t> type_triangles;  // per type·3 + level
  bool gpu_timestamps = false;
};

// Places `count` entities of `type_count` types deterministically: random positions on the map,
// yaw, prefab scale 1–1.5, clip, clock offset and speed.
std::vector<crowd::CrowdEntity> scatter_crowd(std::uint32_t count, std::uint32_t type_count, float map_size,
                                              std::uint64_t seed);

// `types`: baked enemy types (three LODs each). Renders every requested view × frame.
CrowdSceneResult render_crowd_scene(gpu::Context& ctx, std::span<const crowd::CrowdFile> types,
                                    const CrowdSceneOptions& options);

// What changing the casters did to an image's shadows: `shadowed` pixels differ between the image with
// shadows (`reference`) and without (`unshadowed`); `changed` pixels differ between `reference` and
// `candidate` (any channel, any amount). share = changed / shadowed (0 without shadowed pixels).
struct ShadowChange {
  std::uint64_t shadowed = 0;
  std::uint64_t changed = 0;
  double share() const { return shadowed ? double(changed) / double(shadowed) : 0.0; }
};
ShadowChange shadow_change(std::span<const std::uint8_t> reference, std::span<const std::uint8_t> candidate,
                           std::span<const std::uint8_t> unshadowed);

}  // namespace myriad::render
