// Fuzzes the vegetation tile parser: arbitrary bytes must either parse into a tile whose contents pass
// a re-serialization round trip or fail with a myriad::Error; crashes, hangs and other exceptions are bugs.
// The checksum would reject almost every mutation, so the fuzzer's bytes are re-sealed with a valid one
// when long enough: that drives the semantic checks (sizes, tree layout, ranges, bounds) too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/bake/tile_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::byte> bytes(size);
  if (size) std::memcpy(bytes.data(), data, size);
  // Odd first byte: keep the input as is (exercises magic/version/size/checksum errors).
  if (size >= 48 && (data[0] & 1u) == 0) {
    const std::uint32_t magic = myriad::vegetation::kTileMagic, version = myriad::vegetation::kTileVersion;
    std::memcpy(bytes.data(), &magic, 4);
    std::memcpy(bytes.data() + 4, &version, 4);
    myriad::seal_file(bytes, 48);  // the tile header's size
  }
  try {
    const auto tile = myriad::vegetation::parse_tile(bytes, "fuzz-input");
    // Whatever parses must serialize back to the same bytes.
    if (myriad::vegetation::serialize_tile(tile) != bytes) std::abort();
  } catch (const myriad::Error&) {
    // Expected for malformed input.
  }
  return 0;
}
