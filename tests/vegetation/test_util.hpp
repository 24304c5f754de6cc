// Helpers shared by the vegetation tests: small baked worlds, random cameras and a temporary folder.
#pragma once

#include <filesystem>
#include <random>
#include <string>

#include <unistd.h>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/math/math.hpp"
#include "myriad/vegetation/bake/baker.hpp"

namespace myriad::vegetation::test {

inline BakeOptions small_world(double size_m = 600.0, std::uint64_t seed = 7) {
  BakeOptions o;
  o.seed = seed;
  o.world_min = {0.0, 0.0};
  o.world_max = {size_m, size_m};
  o.terrain.amplitude = 40.0f;
  return o;
}

// A camera-relative view-projection (eye at the origin) looking from `eye` to `target`.
inline glm::mat4 relative_view_proj(glm::dvec3 eye, glm::dvec3 target, float far = 2000.0f) {
  const glm::vec3 dir = glm::vec3(target - eye);
  const glm::mat4 view = glm::lookAt(glm::vec3(0.0f), dir, glm::vec3(0, 1, 0));
  return perspective(1.0f, 1.5f, 0.5f, far) * view;
}

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name) {
    path = std::filesystem::temp_directory_path() / ("myriad_veg_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace myriad::vegetation::test
