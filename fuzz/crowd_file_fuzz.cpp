// Fuzzes the .crowd parser: arbitrary bytes must either parse into a file that serializes back to the
// same bytes or fail with a myriad::Error; crashes, hangs and other exceptions are bugs. The checksum
// would reject almost every mutation, so inputs with an even first byte get a valid magic, version,
// payload size and checksum, which drives the semantic checks (counts, ranges, VAT and clip layout).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/crowd/crowd_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using myriad::crowd::kCrowdHeaderBytes;
  std::vector<std::byte> bytes(size);
  if (size) std::memcpy(bytes.data(), data, size);
  if (size >= kCrowdHeaderBytes && (data[0] & 1u) == 0) {
    const std::uint32_t magic = myriad::crowd::kCrowdMagic, version = myriad::crowd::kCrowdVersion;
    std::memcpy(bytes.data(), &magic, 4);
    std::memcpy(bytes.data() + 4, &version, 4);
    myriad::seal_file(bytes, kCrowdHeaderBytes);
  }
  try {
    const myriad::crowd::CrowdFile file = myriad::crowd::parse_crowd(bytes, "fuzz-input");
    if (myriad::crowd::serialize_crowd(file) != bytes) std::abort();
  } catch (const myriad::Error&) {
    // Expected for malformed input.
  }
  return 0;
}
