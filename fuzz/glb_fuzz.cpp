// Fuzzes binary glTF (.glb) import from raw bytes: the seed corpus (fuzz/corpus/glb) holds a valid model
// whose buffer and PNG image live in the BIN chunk.
#include <cstddef>
#include <cstdint>
#include <span>

#include "gltf_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  myriad::fuzz::import_like_the_tools(std::as_bytes(std::span(data, size)), /*binary=*/true);
  return 0;
}
