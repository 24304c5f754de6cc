// The VAT crowd scene (SPEC C8, issue "VAT crowd rendering"): thousands of enemies of several types
// spread over a plane, rendered headless from a whole-map view and a close-up view inside the crowd,
// once with per-entity LOD and once per forced LOD level, with draw counts (C2: vertices and
// triangles per LOD) and frame times. What `myriad bench crowd` measures.
#pragma once

#include "myriad/crowd/crowd_file.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/crowd/crowd_renderer.hpp"
#include "myriad/render/frame/scene_image.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace myriad::render {

struct CrowdSceneOptions : SceneImageSize {
  std::uint32_t entities = 3000;
  float map_size = 320.0f;  // metres, square, centred on the origin
  std::uint64_t seed = 1;
  float time = 2.5f;  // the global clock of the rendered frames
  bool lod_colors = false;
  // Modes rendered per view: -1 = per-entity LOD, 0..2 = forced level.
  std::vector<int> modes{-1, 0, 1, 2};
  std::vector<std::string> views;  // "whole_map", "close_up"; empty = both

  // Throws myriad::Error naming the first invalid field (render_crowd_scene calls it).
  void validate() const;
};

struct CrowdSceneFrame {
  std::string view;
  int mode = -1;
  std::vector<std::uint8_t> rgba;
  CrowdFrameStats stats;
  double frame_ms = 0.0;  // cull + draw, submit to completion, wall clock
};

struct CrowdSceneResult {
  std::vector<CrowdSceneFrame> frames;
  std::uint64_t gpu_bytes = 0;
  std::vector<std::size_t> type_triangles;  // per type·3 + level
};

// Places `count` entities of `type_count` types deterministically: random positions on the map,
// yaw, prefab scale 1–1.5, clip, clock offset and speed.
std::vector<crowd::CrowdEntity> scatter_crowd(std::uint32_t count, std::uint32_t type_count, float map_size,
                                              std::uint64_t seed);

// `types`: baked enemy types (three LODs each). Renders every requested view × mode.
CrowdSceneResult render_crowd_scene(gpu::Context& ctx, std::span<const crowd::CrowdFile> types,
                                    const CrowdSceneOptions& options);

}  // namespace myriad::render
