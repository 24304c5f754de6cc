// Fuzzes the checked binary reader that every Myriad file parser is built on: arbitrary bytes drive a
// sequence of typed reads, array reads and seeks; any outcome but a myriad::Error is a bug.
#include <cstddef>
#include <cstdint>
#include <span>

#include "myriad/core/io/binary_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  myriad::BinaryReader reader("fuzz-input", bytes);
  try {
    // Seeks can jump backwards, so bound the number of operations rather than loop to the end.
    for (int ops = 0; ops < 256 && reader.remaining() > 0; ++ops) {
      const auto op = reader.read<std::uint8_t>("op");
      switch (op % 5) {
        case 0:
          (void)reader.read<std::uint32_t>("u32");
          break;
        case 1:
          (void)reader.read<double>("f64");
          break;
        case 2: {
          const auto count = reader.read<std::uint32_t>("count");
          (void)reader.read_array<std::uint16_t>(count, "array");
          break;
        }
        case 3:
          (void)reader.read_bytes(reader.read<std::uint8_t>("n"), "bytes");
          break;
        default:
          reader.seek(reader.read<std::uint16_t>("offset"), "seek");
          break;
      }
    }
    (void)myriad::checksum64(bytes);
  } catch (const myriad::Error&) {
    // Expected for malformed input.
  }
  return 0;
}
