// Images as RGBA8 pixels and PNG: written atomically (every render and contact sheet), and read (block
// texture packs).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace myriad {

// width*height RGBA8 pixels, rows top to bottom.
struct RgbaImage {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
};

// `rgba` holds width*height RGBA8 pixels, rows top to bottom.
void write_png_rgba8(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                     std::span<const std::uint8_t> rgba);

// The same PNG in memory (files that embed images: GLB). `name` starts the errors' place.
std::vector<std::byte> encode_png_rgba8(std::uint32_t width, std::uint32_t height,
                                        std::span<const std::uint8_t> rgba, const std::string& name = "PNG");

// Reads a PNG file (any bit depth and colour type) as RGBA8. Throws myriad::Error naming the file when it
// cannot be read, is not a PNG, cannot be decoded or states a side longer than `max_side` (checked before
// decoding).
RgbaImage read_png_rgba8(const std::filesystem::path& path, std::uint32_t max_side = 16384);

}  // namespace myriad
