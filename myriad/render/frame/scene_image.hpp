// What every headless scene (voxel, crowd, avatars, smoke) shares: the size of the image its options
// ask for and the image its result holds. Options and results derive from these, so callers keep
// writing `options.width` and reading `result.rgba`.
#pragma once

#include <cstdint>
#include <vector>

namespace myriad::render {

struct SceneImageSize {
  std::uint32_t width = 1280;
  std::uint32_t height = 720;
};

struct SceneImage {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width*height RGBA8, top row first
};

}  // namespace myriad::render
