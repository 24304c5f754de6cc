// Fuzzes the image decoding behind glTF import: the input is an image file (seeds: small PNGs of every
// colour type, fuzz/corpus/gltf_image) embedded as a data URI into the seed model's base colour texture,
// so the bytes go through the decoder and then the texture conversion the tools run.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "gltf_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nlohmann::json doc = myriad::fuzz::seed_gltf();
  doc["images"][0]["uri"] = "data:image/png;base64," + myriad::fuzz::base64(std::span(data, size));
  const std::string text = doc.dump();
  myriad::fuzz::import_like_the_tools(std::as_bytes(std::span(text)), /*binary=*/false);
  return 0;
}
