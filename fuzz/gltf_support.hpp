// Shared by the glTF fuzz targets: the import every target runs (anim::import_gltf's in-memory twin,
// then what `myriad crowd bake` does next), the seed model the structure-aware targets start from, and
// base64 for data URIs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

namespace myriad::fuzz {

// Imports `bytes` with anim::import_gltf_bytes, then (when the crowd module is built) turns the model
// into the baker's input with crowd::import_for_bake. A myriad::Error is the only accepted failure;
// anything else escapes to libFuzzer, which reports it.
void import_like_the_tools(std::span<const std::byte> bytes, bool binary);

// fuzz/corpus/gltf/skin_textured.gltf, parsed once: a small valid skinned, animated, textured model.
const nlohmann::json& seed_gltf();

std::string base64(std::span<const std::uint8_t> bytes);

}  // namespace myriad::fuzz
