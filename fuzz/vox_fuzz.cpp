// Fuzzes the MagicaVoxel .vox parser: arbitrary bytes must either parse or fail with a myriad::Error;
// crashes, hangs and other exceptions are bugs. What parses must survive a write and read back with the
// same models, palette and instances.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/files/vox_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::byte> bytes(size);
  if (size) std::memcpy(bytes.data(), data, size);
  try {
    const myriad::voxel::VoxScene scene = myriad::voxel::parse_vox(bytes, "fuzz-input");
    const myriad::voxel::VoxScene again =
        myriad::voxel::parse_vox(myriad::voxel::serialize_vox(scene), "again");
    if (again.models.size() != scene.models.size() || again.instances.size() != scene.instances.size() ||
        again.palette != scene.palette)
      std::abort();
    for (std::size_t i = 0; i < scene.instances.size(); ++i) {
      if (again.instances[i].translation != scene.instances[i].translation ||
          again.instances[i].rotation != scene.instances[i].rotation ||
          again.instances[i].model != scene.instances[i].model)
        std::abort();
    }
  } catch (const myriad::Error&) {
    // Expected for malformed input.
  }
  return 0;
}
