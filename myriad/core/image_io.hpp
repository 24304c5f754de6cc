// Writing images: RGBA8 pixels to PNG (atomically), the format every render and contact sheet uses.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

namespace myriad {

// `rgba` holds width*height RGBA8 pixels, rows top to bottom.
void write_png_rgba8(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                     std::span<const std::uint8_t> rgba);

}  // namespace myriad
