// The shared real models (../shared/assets) for crowd tests: a missing file fails the test with the
// path, never skips it.
#pragma once

#include "myriad/anim/import/gltf_import.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace myriad::crowd {

inline std::filesystem::path shared_model_path(const char* file) {
  const std::filesystem::path p = std::filesystem::path(MYRIAD_SHARED_DIR) / "assets" / file;
  EXPECT_TRUE(std::filesystem::exists(p)) << "missing test asset " << p << " (see shared/assets/README.md)";
  return p;
}

inline anim::ImportedModel load_shared_model(const char* file) {
  return anim::import_gltf(shared_model_path(file));
}

}  // namespace myriad::crowd
