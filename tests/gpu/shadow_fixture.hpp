// What the shadow tests share: the test image, the camera looking down on the origin, the plant meshes
// with a ground slab, and a baked plant field.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpu_fixture.hpp"
#include "myriad/render/frame/frame_scene.hpp"
#include "myriad/render/vegetation/vegetation_renderer.hpp"
#include "myriad/vegetation/bake/baker.hpp"

namespace myriad::test {

constexpr std::uint32_t kWidth = 160, kHeight = 120;
inline constexpr float kAspect = float(kWidth) / float(kHeight);
inline const glm::vec3 kToLight = glm::normalize(glm::vec3(-1.0f, 0.5f, 0.0f));  // low sun from -x

// 30 m above the origin looking straight down: the ground (y = 0) shows x in about [-21.8, 21.8].
inline render::SceneCamera top_camera() {
  render::SceneCamera c;
  c.eye = {0.0f, 30.0f, 0.0f};
  c.forward = {0.0f, -1.0f, 0.0f};
  c.fov_y = 1.0f;
  return c;
}

// The camera's view of the test image, lit from kToLight (or `to_light`).
inline render::FrameView camera_view(const render::SceneCamera& camera, glm::vec3 to_light = kToLight) {
  return render::FrameView::of_camera(camera, kWidth, kHeight, to_light, 1.0f);
}

class ShadowTest : public GpuTest {
 protected:
  // Plant meshes plus a unit box (index box_mesh()) for the ground slab.
  std::vector<vegetation::PlantMesh> meshes() {
    std::vector<vegetation::PlantMesh> m = render::default_plant_art().meshes;
    m.push_back(vegetation::make_box_mesh({{-0.5f, 0.0f, -0.5f}, {0.5f, 1.0f, 0.5f}}));
    return m;
  }
  // The textures the plant meshes sample.
  std::vector<vegetation::PlantTexture> textures() { return render::default_plant_art().textures; }
  static std::uint32_t box_mesh() {
    return std::uint32_t(vegetation::PlantKind::kCount) * vegetation::kPlantLodCount;
  }
  // A 120 m x 120 m slab whose top is the plane y = 0.
  gpu::Buffer ground_buffer() {
    const vegetation::RuntimeInstance slab =
        render::static_instance({0.0f, -1.0f, 0.0f}, {120.0f, 1.0f, 120.0f}, {200, 190, 170});
    gpu::Buffer b(ctx(), sizeof(slab), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
    gpu::upload(ctx(), b, std::span<const vegetation::RuntimeInstance>(&slab, 1));
    return b;
  }
};

using vegetation::RuntimeWorld;

inline RuntimeWorld plants(const std::vector<vegetation::WorldInstance>& field) {
  vegetation::BakeOptions o;
  RuntimeWorld world(glm::dvec3(0.0));
  for (vegetation::Tile& t : vegetation::bake_tiles(o, &field)) {
    auto tile = std::make_shared<const vegetation::Tile>(std::move(t));
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  }
  return world;
}

}  // namespace myriad::test
