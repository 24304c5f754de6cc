// Image bytes are checked before the decoder sees them: chunk lengths past the data and stated sizes
// past the limit are refused with a reason, well-formed images pass.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <stb_image_write.h>

#include "myriad/gltf/image_check.hpp"

namespace myriad::gltf {
namespace {

// A 2 x 2 RGBA PNG (the glTF image fuzzer's seed).
const std::vector<unsigned char> kRgba2x2{
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x06, 0x00, 0x00, 0x00, 0x72, 0xb6, 0x0d,
    0x24, 0x00, 0x00, 0x00, 0x13, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
    0x1f, 0x0c, 0x81, 0x34, 0x08, 0x34, 0x00, 0x00, 0x49, 0x49, 0x09, 0x78, 0x9c, 0x51, 0x17, 0x92,
    0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

// What the fuzzer found: the same image with four bytes shifted, so the second chunk states
// 604,878,336 bytes; the decoder reserved that much before noticing the data was short.
const std::vector<unsigned char> kChunkPastTheData{
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x06, 0x00, 0x00, 0x00, 0x72, 0x00, 0x00,
    0x13, 0x24, 0x0d, 0xb6, 0x00, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
    0x1f, 0x0c, 0x81, 0x34, 0x08, 0x34, 0x00, 0x00, 0x49, 0x49, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x70, 0x82};

std::vector<unsigned char> with_size(std::vector<unsigned char> png, std::uint32_t w, std::uint32_t h) {
  for (int i = 0; i < 4; ++i) {
    png[16 + i] = static_cast<unsigned char>(w >> (24 - 8 * i));
    png[20 + i] = static_cast<unsigned char>(h >> (24 - 8 * i));
  }
  return png;
}

// A JPEG start: SOI, an APP0 segment, then a baseline frame header of the given size.
std::vector<unsigned char> jpeg(std::uint32_t w, std::uint32_t h) {
  return {0xFF,
          0xD8,
          0xFF,
          0xE0,
          0x00,
          0x04,
          0x00,
          0x00,
          0xFF,
          0xC0,
          0x00,
          0x0B,
          0x08,
          static_cast<unsigned char>(h >> 8),
          static_cast<unsigned char>(h),
          static_cast<unsigned char>(w >> 8),
          static_cast<unsigned char>(w),
          0x01,
          0x01,
          0x11,
          0x00};
}

// A w x h image of one colour, encoded by stb_image_write in the named format: the densest packing a
// real encoder produces for each, which the check must pass.
std::vector<unsigned char> encoded(const char* format, int w, int h) {
  const std::vector<unsigned char> rgb(std::size_t(w) * std::size_t(h) * 3, 0x80);
  std::vector<unsigned char> out;
  const auto append = [](void* context, void* data, int size) {
    auto* bytes = static_cast<unsigned char*>(data);
    static_cast<std::vector<unsigned char>*>(context)->insert(
        static_cast<std::vector<unsigned char>*>(context)->end(), bytes, bytes + size);
  };
  const std::string f = format;
  int ok = 0;
  if (f == "png") ok = stbi_write_png_to_func(append, &out, w, h, 3, rgb.data(), w * 3);
  if (f == "jpg") ok = stbi_write_jpg_to_func(append, &out, w, h, 3, rgb.data(), 90);
  if (f == "tga") ok = stbi_write_tga_to_func(append, &out, w, h, 3, rgb.data());  // RLE by default
  if (f == "bmp") ok = stbi_write_bmp_to_func(append, &out, w, h, 3, rgb.data());
  EXPECT_NE(ok, 0) << format;
  return out;
}

TEST(ImageCheck, WellFormedImagesPass) {
  EXPECT_EQ(image_bytes_problem(kRgba2x2), "");
  EXPECT_EQ(image_bytes_problem(with_size(kRgba2x2, kMaxImageSide, 1)), "");
  for (const char* format : {"png", "jpg", "tga", "bmp"}) {
    for (const auto& [w, h] : {std::pair{1, 1}, std::pair{640, 480}, std::pair{2048, 2048}}) {
      const std::vector<unsigned char> image = encoded(format, w, h);
      EXPECT_EQ(image_bytes_problem(image), "") << format << " " << w << " x " << h;
    }
  }
  const std::vector<unsigned char> other{'G', 'I', 'F', '8', '9', 'a'};
  EXPECT_EQ(image_bytes_problem(other), "");  // not checked: the decoder decides
}

TEST(ImageCheck, ChunkPastTheDataIsRefused) {
  const std::string p = image_bytes_problem(kChunkPastTheData);
  EXPECT_NE(p.find("PNG chunk states 604878336 bytes"), std::string::npos) << p;
  std::vector<unsigned char> cut(kRgba2x2.begin(), kRgba2x2.begin() + 40);
  EXPECT_NE(image_bytes_problem(cut), "");
  std::vector<unsigned char> header_only(kRgba2x2.begin(), kRgba2x2.begin() + 14);
  EXPECT_NE(image_bytes_problem(header_only), "");
}

// What the fuzzer found next: 28 bytes the decoder reads as an uncompressed TGA of 65535 x 4292 pixels
// (it allocated for all of them and ran out of memory).
const std::vector<unsigned char> kHugeTga{0xff, 0x00, 0x02, 0x00, 0x00, 0xff, 0xff, 0xd8, 0x99, 0xc4,
                                          0x04, 0xbd, 0xff, 0xff, 0xc4, 0x10, 0x08, 0x3c, 0x3d, 0x3c,
                                          0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x04};

TEST(ImageCheck, StatedSizesPastTheLimitAreRefused) {
  EXPECT_NE(image_bytes_problem(kHugeTga).find("65535 x 4292"), std::string::npos)
      << image_bytes_problem(kHugeTga);
  EXPECT_NE(image_bytes_problem(with_size(kRgba2x2, 9000, 9000)).find("in all"), std::string::npos);
  EXPECT_NE(image_bytes_problem(with_size(kRgba2x2, kMaxImageSide + 1, 2)).find("per side"),
            std::string::npos);
  EXPECT_NE(image_bytes_problem(with_size(kRgba2x2, 2, 0xFFFFFFFFu)), "");
  EXPECT_NE(image_bytes_problem(with_size(kRgba2x2, 0, 2)).find("zero"), std::string::npos);
  EXPECT_NE(image_bytes_problem(jpeg(65535, 65535)).find("per side"), std::string::npos);
  std::vector<unsigned char> short_segment = jpeg(640, 480);
  short_segment[11] = 0x40;  // the frame header claims more than follows
  EXPECT_NE(image_bytes_problem(short_segment), "");
}

// What the fuzzer found third: 74 bytes the decoder reads as an uncompressed grey TGA of 6168 x 6168
// pixels, within the size limits; it filled the missing 38 million pixels with zeros (seconds, 680 MB).
const std::vector<unsigned char> kShortTga{
    0x89, 0x00, 0x03, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18,
    0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18,
    0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18,
    0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x00, 0x08, 0x00, 0x00, 0x0a, 0x00,
    0xff, 0xff, 0x50, 0xff, 0xff, 0x00, 0x30, 0x04, 0x52, 0x5d, 0x2a, 0x23, 0x08, 0x82};

TEST(ImageCheck, MorePixelsThanTheBytesCanHoldAreRefused) {
  const std::string p = image_bytes_problem(kShortTga);
  EXPECT_NE(p.find("6168 x 6168 pixels, more than its 74 bytes can hold (a TGA"), std::string::npos) << p;
  // A frame header alone cannot describe 640 x 480 pixels: every 8 x 8 block takes a bit.
  EXPECT_NE(image_bytes_problem(jpeg(640, 480)).find("a JPEG describes at most 512"), std::string::npos);
  // Real files cut short: the header survives, the pixel data does not.
  for (const char* format : {"jpg", "tga", "bmp"}) {
    std::vector<unsigned char> cut = encoded(format, 2048, 2048);
    cut.resize(cut.size() / 64);
    EXPECT_NE(image_bytes_problem(cut).find("more than its"), std::string::npos) << format;
  }
}

}  // namespace
}  // namespace myriad::gltf
