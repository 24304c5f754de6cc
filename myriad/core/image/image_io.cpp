// PNG writing through stb_image_write (the compiled implementation comes from libstb): encode in
// memory, then write atomically like every other file.
#include "myriad/core/image/image_io.hpp"

#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include <stb_image_write.h>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"

namespace myriad {
namespace {

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<std::byte>*>(context);
  const auto* p = static_cast<const std::byte*>(data);
  out->insert(out->end(), p, p + size);
}

}  // namespace

void write_png_rgba8(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                     std::span<const std::uint8_t> rgba) {
  write_file_atomic(path, encode_png_rgba8(width, height, rgba, path.string()));
}

std::vector<std::byte> encode_png_rgba8(std::uint32_t width, std::uint32_t height,
                                        std::span<const std::uint8_t> rgba, const std::string& name) {
  const std::string size_text = std::to_string(width) + "x" + std::to_string(height);
  if (width == 0 || height == 0)
    throw Error("write_png_rgba8: image has no pixels (" + size_text + ")", name);
  // stb takes int sizes and an int row stride.
  if (width > INT_MAX / 4 || height > INT_MAX)
    throw Error("write_png_rgba8: image too large (" + size_text + ")", name);
  const std::uint64_t expected = std::uint64_t{width} * height * 4;
  if (rgba.size() != expected)
    throw Error("write_png_rgba8: pixel data has " + std::to_string(rgba.size()) + " bytes, " + size_text +
                    " RGBA8 needs " + std::to_string(expected),
                name, "pass width*height*4 bytes, rows top to bottom");

  std::vector<std::byte> png;
  const int w = static_cast<int>(width);
  const int h = static_cast<int>(height);
  if (stbi_write_png_to_func(append_bytes, &png, w, h, 4, rgba.data(), w * 4) == 0)
    throw Error("write_png_rgba8: PNG encoding failed (" + size_text + ")", name);
  return png;
}

}  // namespace myriad
