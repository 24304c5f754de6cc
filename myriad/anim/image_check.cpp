#include "myriad/anim/image_check.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include <stb_image.h>

namespace myriad::anim {
namespace {

std::uint32_t big_endian32(const unsigned char* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

// `zero_is_error`: a PNG or JPEG header stating 0 is malformed; other formats' zero sizes are the
// decoder's to refuse.
std::string size_problem(std::uint64_t width, std::uint64_t height, bool zero_is_error = true) {
  if (width == 0 || height == 0) return zero_is_error ? "the image states a size of zero" : std::string();
  const std::string stated = "the image states " + std::to_string(width) + " x " + std::to_string(height);
  if (width > kMaxImageSide || height > kMaxImageSide)
    return stated + " pixels (at most " + std::to_string(kMaxImageSide) + " per side)";
  if (width * height > kMaxImagePixels)
    return stated + " pixels (at most " + std::to_string(kMaxImagePixels) + " in all)";
  return {};
}

std::string png_problem(std::span<const unsigned char> b) {
  std::size_t at = 8;  // after the signature
  bool first = true;
  while (at < b.size()) {
    if (b.size() - at < 12) return "a PNG chunk header is cut off";
    const std::uint32_t length = big_endian32(&b[at]);
    const unsigned char* type = &b[at + 4];
    if (length > b.size() - at - 12)
      return "a PNG chunk states " + std::to_string(length) + " bytes but only " +
             std::to_string(b.size() - at - 12) + " follow";
    if (first) {
      if (std::memcmp(type, "IHDR", 4) != 0 || length < 8) return "a PNG must start with its IHDR chunk";
      if (std::string p = size_problem(big_endian32(&b[at + 8]), big_endian32(&b[at + 12])); !p.empty())
        return p;
      first = false;
    }
    if (std::memcmp(type, "IEND", 4) == 0) return {};
    at += 12 + std::size_t(length);
  }
  return first ? "a PNG without chunks" : std::string();  // no IEND: the decoder decides
}

std::string jpeg_problem(std::span<const unsigned char> b) {
  // Walk the markers up to the first frame header (SOF0..SOF15 but DHT, JPG and DAC).
  std::size_t at = 2;
  while (at + 4 <= b.size()) {
    if (b[at] != 0xFF) return {};  // not a marker: the decoder decides
    const unsigned char marker = b[at + 1];
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    const std::size_t length = (std::size_t(b[at + 2]) << 8) | b[at + 3];
    if (length < 2 || length > b.size() - at - 2) return "a JPEG segment runs past the end of the image data";
    const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (frame) {
      if (length < 7) return "a JPEG frame header is cut off";
      const std::uint32_t height = (std::uint32_t(b[at + 5]) << 8) | b[at + 6];
      const std::uint32_t width = (std::uint32_t(b[at + 7]) << 8) | b[at + 8];
      return size_problem(width, height == 0 ? 1 : height);  // height 0: stated later (DNL)
    }
    if (marker == 0xDA) return {};  // scan data before a frame header: the decoder refuses it
    at += 2 + length;
  }
  return {};
}

}  // namespace

std::string image_bytes_problem(std::span<const unsigned char> bytes) {
  static constexpr unsigned char kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::string problem;
  if (bytes.size() >= 8 && std::memcmp(bytes.data(), kPng, 8) == 0)
    problem = png_problem(bytes);
  else if (bytes.size() >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8)
    problem = jpeg_problem(bytes);
  if (!problem.empty()) return problem;
  // Every format the decoder knows (TGA, BMP, PSD, GIF, HDR, PIC, PNM too): the size its header
  // states, read without decoding; what it cannot read it will refuse to decode as well.
  int width = 0, height = 0, components = 0;
  if (bytes.size() <= static_cast<std::size_t>(std::numeric_limits<int>::max()) &&
      stbi_info_from_memory(bytes.data(), static_cast<int>(bytes.size()), &width, &height, &components) != 0)
    return size_problem(std::uint64_t(std::max(width, 0)), std::uint64_t(std::max(height, 0)), false);
  return {};
}

}  // namespace myriad::anim
