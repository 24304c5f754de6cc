#include "myriad/gltf/image_check.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>

#include <stb_image.h>

namespace myriad::gltf {
namespace {

std::uint32_t big_endian32(const unsigned char* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

// `zero_is_error`: a PNG or JPEG header stating 0 is malformed; other formats' zero sizes are the
// decoder's to refuse.
std::string stated(std::uint64_t width, std::uint64_t height) {
  return "the image states " + std::to_string(width) + " x " + std::to_string(height) + " pixels";
}

std::string size_problem(std::uint64_t width, std::uint64_t height, bool zero_is_error = true) {
  if (width == 0 || height == 0) return zero_is_error ? "the image states a size of zero" : std::string();
  if (width > kMaxImageSide || height > kMaxImageSide)
    return stated(width, height) + " (at most " + std::to_string(kMaxImageSide) + " per side)";
  if (width * height > kMaxImagePixels)
    return stated(width, height) + " (at most " + std::to_string(kMaxImagePixels) + " in all)";
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

// The decoder fills whatever the data lacks with zeros and decodes on, so a short file stating a large
// image costs as much as a real one (74 bytes read as a 6168 x 6168 TGA took seconds and 680 MB). Every
// format has a densest packing: no valid file describes more pixels per byte than this, so a file
// stating more is short and is refused before decoding. The figures are upper bounds, never guesses:
//   PNG   8256  deflate expands at most 1032:1, and a 1-bit pixel is an eighth of a byte
//   JPEG   512  every 8 x 8 block of the first scan takes at least one bit
//   GIF  10923  an LZW code of at least 3 bits stands for at most 4096 pixels
//   BMP      8  stored uncompressed (the only kinds the decoder reads), 1 bit per pixel at best
//   PSD     64  PackBits: a 2-byte packet repeats a channel value at most 128 times
//   HDR     16  a scanline's runs take 2 bytes per 127 values of each of 4 components, or 4 bytes flat
//   PIC  16384  a mixed packet of at least 4 bytes repeats a value at most 65535 times
//   PNM      1  binary (P5, P6) 8-bit grey at best
//   TGA     64  RLE: a 1-byte header and a pixel of at least 1 byte stand for at most 128 pixels
enum class Kind { kPng, kJpeg, kOther };

struct Format {
  Kind kind;
  const char* name;
  std::uint64_t max_pixels_per_byte;
};

Format format_of(std::span<const unsigned char> b) {
  const auto starts = [&](std::string_view magic) {
    return b.size() >= magic.size() && std::memcmp(b.data(), magic.data(), magic.size()) == 0;
  };
  if (starts("\x89PNG\r\n\x1a\n")) return {Kind::kPng, "PNG", 8256};
  if (starts("\xff\xd8")) return {Kind::kJpeg, "JPEG", 512};
  if (starts("GIF8")) return {Kind::kOther, "GIF", 10923};
  if (starts("BM")) return {Kind::kOther, "BMP", 8};
  if (starts("8BPS")) return {Kind::kOther, "PSD", 64};
  if (starts("#?RADIANCE\n") || starts("#?RGBE\n")) return {Kind::kOther, "HDR", 16};
  if (starts("\x53\x80\xf6\x34")) return {Kind::kOther, "PIC", 16384};
  if (starts("P5") || starts("P6")) return {Kind::kOther, "PNM", 1};
  return {Kind::kOther, "TGA", 64};  // the decoder's only format without a signature, tried last
}

std::string density_problem(const Format& format, std::size_t bytes, std::uint64_t width,
                            std::uint64_t height) {
  const std::uint64_t pixels = width * height;  // both at most kMaxImageSide: no overflow
  if (pixels <= bytes * format.max_pixels_per_byte) return {};
  return stated(width, height) + ", more than its " + std::to_string(bytes) + " bytes can hold (a " +
         format.name + " describes at most " + std::to_string(format.max_pixels_per_byte) +
         " pixels per byte)";
}

}  // namespace

std::string image_bytes_problem(std::span<const unsigned char> bytes) {
  const Format format = format_of(bytes);
  if (format.kind == Kind::kPng) {
    if (std::string p = png_problem(bytes); !p.empty()) return p;
  } else if (format.kind == Kind::kJpeg) {
    if (std::string p = jpeg_problem(bytes); !p.empty()) return p;
  }
  // Every format the decoder knows (TGA, BMP, PSD, GIF, HDR, PIC, PNM too): the size its header
  // states, read without decoding; what it cannot read it will refuse to decode as well.
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) return {};
  int width = 0, height = 0, components = 0;
  const int length = static_cast<int>(bytes.size());
  if (stbi_info_from_memory(bytes.data(), length, &width, &height, &components) != 0) {
    const std::uint64_t w = std::uint64_t(std::max(width, 0)), h = std::uint64_t(std::max(height, 0));
    if (std::string p = size_problem(w, h, false); !p.empty()) return p;
    return density_problem(format, bytes.size(), w, h);
  }
  return {};
}

}  // namespace myriad::gltf
