// Fuzzes JSON glTF import from raw bytes: the seed corpus (fuzz/corpus/gltf) holds a valid model with
// data-URI buffers and an embedded PNG, so mutations start from files that reach the importer.
#include <cstddef>
#include <cstdint>
#include <span>

#include "gltf_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  myriad::fuzz::import_like_the_tools(std::as_bytes(std::span(data, size)), /*binary=*/false);
  return 0;
}
