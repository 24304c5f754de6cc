// Helpers shared by the streamed-world tests: a scratch folder removed afterwards, byte-for-byte mesh
// equality, and updating a stream until it is idle.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "myriad/voxel/mesh/mesher.hpp"
#include "myriad/voxel/stream/stream_world.hpp"

namespace myriad::voxel::test_support {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

inline bool same(const SectionMesh& a, const SectionMesh& b) {
  return a.quad_vertices == b.quad_vertices && a.vertices.size() == b.vertices.size() &&
         a.indices == b.indices && a.atlas.size() == b.atlas.size() &&
         (a.vertices.empty() || std::memcmp(a.vertices.data(), b.vertices.data(),
                                            a.vertices.size() * sizeof(TerrainVertex)) == 0) &&
         (a.atlas.empty() ||
          std::memcmp(a.atlas.data(), b.atlas.data(), a.atlas.size() * sizeof(AtlasRecord)) == 0);
}

inline void settle(StreamWorld& s, glm::dvec3 camera) {
  for (int i = 0; i < 200000; ++i) {
    s.update(camera);
    if (s.idle()) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  FAIL() << "the stream did not settle";
}

}  // namespace myriad::voxel::test_support
