// Fuzzes the benchmark anchors reader (`myriad bench --anchors FILE`): arbitrary text must either parse
// into anchors with finite values or fail with a myriad::Error.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "anchors.hpp"
#include "myriad/core/io/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto set = myriad::bench::parse_anchors(std::string_view(reinterpret_cast<const char*>(data), size),
                                                  "fuzz-input");
    for (const auto& [key, anchor] : set.anchors) {
      if (!std::isfinite(anchor.value)) std::abort();
    }
  } catch (const myriad::Error&) {
    // Expected for malformed input.
  }
  return 0;
}
