// `--tiles DIR` of `myriad render` and `myriad view`: a block texture pack (voxel/tiles/tile_pack.hpp),
// read and checked before Vulkan starts, so a bad tile costs one line, not a scene build.
#pragma once

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "myriad/voxel/tiles/tile_pack.hpp"

namespace myriad::app {

// Null for an empty `folder` (the built-in tiles); prints what was read and which tiles stay built-in.
inline std::shared_ptr<const voxel::TileSet> load_tiles_option(const std::string& folder) {
  if (folder.empty()) return nullptr;
  auto set = std::make_shared<const voxel::TileSet>(voxel::load_tile_pack(folder));
  std::printf("      tiles: %s (%s), %u x %u texels, %zu mip levels\n", set->source.c_str(),
              set->mapping.c_str(), set->texture.size, set->texture.size, set->texture.levels.size());
  if (!set->builtin.empty()) {
    std::string names;
    for (const std::string& n : set->builtin) names += (names.empty() ? "" : ", ") + n;
    std::printf("      built-in tiles kept for: %s\n", names.c_str());
  }
  return set;
}

// The pack in a render's stats JSON.
inline nlohmann::ordered_json tiles_stats(const voxel::TileSet& set) {
  return {{"pack", set.source},
          {"mapping", set.mapping},
          {"size", set.texture.size},
          {"mip_levels", set.texture.levels.size()},
          {"builtin", set.builtin}};
}

}  // namespace myriad::app
