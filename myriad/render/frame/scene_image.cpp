// The image size every scene's options check.
#include "myriad/render/frame/scene_image.hpp"

#include <utility>

#include "myriad/core/io/error.hpp"

namespace myriad::render {

void check_scene_image_size(std::uint32_t width, std::uint32_t height, const std::string& width_field,
                            const std::string& height_field) {
  for (const auto& [side, field] : {std::pair{width, &width_field}, std::pair{height, &height_field}})
    if (side == 0 || side > kMaxSceneImageEdge)
      throw Error("image size must be in [1, " + std::to_string(kMaxSceneImageEdge) + "] pixels", *field);
}

void SceneImageSize::validate_size(const std::string& owner) const {
  check_scene_image_size(width, height, owner + "::width", owner + "::height");
}

}  // namespace myriad::render
