// `myriad voxel import MODEL.vox --world-size N --save DIR`: the model written into a streamed world's save
// directory (the edited columns as column_X_Z.mvxc files that streaming reads back instead of generating),
// then one image of it taken with the streamed scene reading those files.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "myriad/voxel/files/vox_file.hpp"

namespace myriad::app {

struct StreamedImportOptions {
  std::string model;   // the file, for the summary
  glm::ivec3 at{0};    // the model box's low corner (checked to fit by the caller)
  int world_size = 0;  // N: the world is N x kStreamedWorldHeight x N
  std::uint64_t seed = 1;
  std::filesystem::path save_dir, out;  // both prepared (created, writable) by the caller
  std::uint32_t width = 1280, height = 720;
};

// Streams the model's footprint in, applies its voxels as edits, saves the edited columns, renders the
// "model" view to <out>/voxel_import_model.png and writes <out>/voxel_import.json. Returns the exit status.
int import_vox_streamed(const voxel::VoxScene& scene, const std::array<std::uint8_t, 256>& materials_of,
                        const StreamedImportOptions& options);

}  // namespace myriad::app
