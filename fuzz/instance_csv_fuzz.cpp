// Fuzzes the vegetation instance list (CSV) as `myriad veg bake --csv` uses it: arbitrary text must
// either parse into instances that respect the documented ranges or fail with a myriad::Error, and
// whatever parses must bake (default plant types) into tiles that the tile reader reads back, or fail
// with a myriad::Error. Crashes, sanitizer reports and other exceptions are bugs.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/bake/tile_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace myriad::vegetation;
  static const BakeOptions options;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<Tile> tiles;
  try {
    const std::vector<WorldInstance> instances = parse_instance_csv(text, options.types, "fuzz-input");
    for (const WorldInstance& w : instances) {
      const bool ok = w.type < options.types.size() && std::isfinite(w.position.x) &&
                      std::isfinite(w.position.y) && std::isfinite(w.position.z) && std::isfinite(w.yaw) &&
                      w.scale > 0.0f && w.scale <= 60000.0f;
      if (!ok) std::abort();
    }
    if (!instances.empty()) tiles = bake_tiles(options, &instances);
  } catch (const myriad::Error&) {
    return 0;  // expected for malformed input
  }
  // A tile the baker wrote but the reader rejects is a bug too (parse_tile's Error escapes).
  for (const Tile& tile : tiles) (void)parse_tile(serialize_tile(tile), "baked tile");
  return 0;
}
