// The images a `myriad render` scene writes: the folder, their size and which camera presets. Bound once
// to --out, --width, --height and --view, and read by every scene's renderer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/frame/scene_image.hpp"

namespace myriad::app {

struct ImageOutput {
  std::string out = "out";
  std::uint32_t width = 1280, height = 720;
  std::vector<std::string> views;  // camera presets; empty = all
  // Metres from the eye beyond which nothing is drawn (render::FrameOptions::draw_distance); 0: the
  // scene's own reach. Read by the scenes drawn through FrameScene (world, streamed voxel).
  float draw_distance = 0.0f;

  // Whether the preset `view` is asked for.
  bool wants(const std::string& view) const {
    return views.empty() || std::find(views.begin(), views.end(), view) != views.end();
  }
  // Throws myriad::Error naming --width/--height unless both are 1 to 16384 pixels (every scene's limit).
  void validate() const {
    if (width == 0 || height == 0 || width > render::kMaxSceneImageEdge ||
        height > render::kMaxSceneImageEdge)
      throw Error("image size must be between 1 and " + std::to_string(render::kMaxSceneImageEdge) +
                      " pixels per side",
                  "--width/--height");
    if (!(draw_distance >= 0.0f && draw_distance <= render::kMaxDrawDistance))
      throw Error("the draw distance must be 0 (none) to 1,000,000 metres", "--draw-distance");
  }
};

}  // namespace myriad::app
