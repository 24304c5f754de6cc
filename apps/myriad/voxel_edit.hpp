// `myriad voxel edit --script FILE`: applies an edit script (docs/FORMATS.md) to the fixed world, or with
// --world-size to the streamed one, one edit per frame as the viewer would, and writes a view of the edited
// place before and after (<out>/voxel_edit_before.png, voxel_edit_after.png) and voxel_edit.json: per edit
// and in total the sections re-meshed and uploaded, the milliseconds on the frame thread and the frames
// from the edit to the frame that draws it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace myriad::app {

struct VoxelEditCommand {
  std::string script;
  std::string out = "out";
  std::uint64_t seed = 1;
  std::vector<int> size{256, 64, 256};  // the fixed world
  std::uint32_t world_size = 0;         // streamed: N x 128 x N (0: the fixed world of --size)
  int stream_radius = 8;
  std::string save_dir;  // streamed: edited columns are saved here at the end
  std::uint32_t width = 1280, height = 720;
};

int run_voxel_edit(const VoxelEditCommand& options);

}  // namespace myriad::app
