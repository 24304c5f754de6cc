// PNG through stb (the compiled implementations come from libstb): writing encodes in memory, then writes
// atomically like every other file; reading checks the stated size before decoding.
#include "myriad/core/image/image_io.hpp"

#include <climits>
#include <cstring>
#include <memory>
#include <cstddef>
#include <string>
#include <vector>

#include <stb_image.h>
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

RgbaImage read_png_rgba8(const std::filesystem::path& path, std::uint32_t max_side) {
  const std::vector<std::byte> bytes = read_file(path);
  static constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() < sizeof(kSignature) || std::memcmp(bytes.data(), kSignature, sizeof(kSignature)) != 0)
    throw Error("not a PNG file", path.string());
  if (bytes.size() > std::size_t(INT_MAX)) throw Error("the PNG file is too large", path.string());
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int length = static_cast<int>(bytes.size());
  int w = 0, h = 0, components = 0;
  if (stbi_info_from_memory(data, length, &w, &h, &components) == 0 || w <= 0 || h <= 0)
    throw Error(std::string("the PNG cannot be read: ") + stbi_failure_reason(), path.string());
  if (std::uint32_t(w) > max_side || std::uint32_t(h) > max_side)
    throw Error("the image is " + std::to_string(w) + " x " + std::to_string(h) + " pixels, more than " +
                    std::to_string(max_side) + " per side",
                path.string());
  const std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(data, length, &w, &h, &components, 4), stbi_image_free);
  if (!pixels) throw Error(std::string("the PNG cannot be decoded: ") + stbi_failure_reason(), path.string());
  RgbaImage image{std::uint32_t(w), std::uint32_t(h), {}};
  image.rgba.assign(pixels.get(), pixels.get() + std::size_t(w) * std::size_t(h) * 4);
  return image;
}

}  // namespace myriad
