// Fuzzes a texture pack's mapping file (tiles.json, voxel::load_tile_pack): arbitrary bytes as the mapping
// of a folder holding two good tiles must either load or fail with a myriad::Error; crashes, hangs and
// other exceptions are bugs. What loads has every layer and level of the array texture.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "myriad/core/image/image_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/voxel/tiles/builtin_tiles.hpp"
#include "myriad/voxel/tiles/tile_pack.hpp"

namespace {

// One folder per process with a.png (16 x 16) and b.png (32 x 32, half clear) beside the mapping.
const std::filesystem::path& pack_folder() {
  static const std::filesystem::path dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("myriad_fuzz_tiles_" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    std::vector<std::uint8_t> a(16 * 16 * 4, 200), b(32 * 32 * 4, 60);
    for (std::size_t i = 3; i < b.size(); i += 8) b[i] = 0;
    myriad::write_png_rgba8(d / "a.png", 16, 16, a);
    myriad::write_png_rgba8(d / "b.png", 32, 32, b);
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path& dir = pack_folder();
  {
    std::ofstream out(dir / "tiles.json", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  }
  try {
    const myriad::voxel::TileSet set = myriad::voxel::load_tile_pack(dir);
    const auto& t = set.texture;
    if (t.layers != myriad::voxel::kTileCount || t.levels.empty()) std::abort();
    for (std::size_t l = 0; l < t.levels.size(); ++l) {
      const std::size_t side = t.size >> l;
      if (side == 0 || t.levels[l].size() != side * side * 4 * t.layers) std::abort();
    }
  } catch (const myriad::Error&) {
    // Expected for malformed mappings.
  }
  return 0;
}
