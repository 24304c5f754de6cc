// What every headless scene (voxel, crowd, avatars, smoke) shares: the size of the image its options
// ask for and the image its result holds. Options and results derive from these, so callers keep
// writing `options.width` and reading `result.rgba`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace myriad::render {

// The largest image edge a scene renders (what desktop GPUs and lavapipe allow for 2D images).
inline constexpr std::uint32_t kMaxSceneImageEdge = 16384;

// Throws myriad::Error naming `width_field` or `height_field` unless the side is 1 to kMaxSceneImageEdge
// pixels (the scenes' options and the command line check their image sizes with it).
void check_scene_image_size(std::uint32_t width, std::uint32_t height, const std::string& width_field,
                            const std::string& height_field);

struct SceneImageSize {
  std::uint32_t width = 1280;
  std::uint32_t height = 720;

  // check_scene_image_size naming "<owner>::width" or "<owner>::height", for the deriving options'
  // validate().
  void validate_size(const std::string& owner) const;
};

struct SceneImage {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width*height RGBA8, top row first
};

}  // namespace myriad::render
