// Writing images: RGBA8 pixels to PNG (atomically), the format every render and contact sheet uses.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace myriad {

// `rgba` holds width*height RGBA8 pixels, rows top to bottom.
void write_png_rgba8(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                     std::span<const std::uint8_t> rgba);

// The same PNG in memory (files that embed images: GLB). `name` starts the errors' place.
std::vector<std::byte> encode_png_rgba8(std::uint32_t width, std::uint32_t height,
                                        std::span<const std::uint8_t> rgba, const std::string& name = "PNG");

}  // namespace myriad
