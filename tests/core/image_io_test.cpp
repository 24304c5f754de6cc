// PNG writing: the pixels read back by stb_image are exactly the ones written; bad sizes throw.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <stb_image.h>
#include <unistd.h>

#include "file_size_limit.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/image/image_io.hpp"

namespace myriad {
namespace {

namespace fs = std::filesystem;

TEST(ImageIo, PngRoundTripIsExact) {
  const fs::path dir = fs::temp_directory_path() / ("myriad_core_png_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / "small.png";
  const std::uint32_t w = 7, h = 5;
  std::vector<std::uint8_t> rgba(w * h * 4);
  std::mt19937 rng(3);
  for (auto& v : rgba) v = static_cast<std::uint8_t>(rng());
  rgba[3] = 0;  // fully transparent pixel keeps its colour
  write_png_rgba8(path, w, h, rgba);

  const std::vector<std::byte> file = read_file(path);
  int rw = 0, rh = 0, channels = 0;
  stbi_uc* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(file.data()),
                                          static_cast<int>(file.size()), &rw, &rh, &channels, 4);
  ASSERT_NE(pixels, nullptr) << stbi_failure_reason();
  EXPECT_EQ(rw, 7);
  EXPECT_EQ(rh, 5);
  EXPECT_EQ(channels, 4);
  const std::vector<std::uint8_t> back(pixels, pixels + w * h * 4);
  stbi_image_free(pixels);
  EXPECT_EQ(back, rgba);
  std::vector<fs::path> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
  EXPECT_EQ(names, std::vector<fs::path>{"small.png"});  // no temporary left behind
  fs::remove_all(dir);
}

// The disk fills up while the PNG is written: one-line error naming the file, nothing left behind.
TEST(ImageIo, DiskFullLeavesNoPartialPng) {
  const fs::path dir = fs::temp_directory_path() / ("myriad_core_png_full_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / "noise.png";
  const std::uint32_t w = 256, h = 256;
  std::vector<std::uint8_t> rgba(w * h * 4);
  std::mt19937 rng(5);
  for (auto& v : rgba) v = static_cast<std::uint8_t>(rng());  // noise: the PNG stays about 256 KiB
  std::string msg;
  {
    const test::FileSizeLimit limit(8192);
    ASSERT_TRUE(limit.active());
    try {
      write_png_rgba8(path, w, h, rgba);
    } catch (const Error& e) {
      msg = e.what();
    }
  }
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("File too large"), std::string::npos) << msg;
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST(ImageIo, BadSizesThrow) {
  const fs::path path = fs::temp_directory_path() / "myriad_never_written.png";
  const std::vector<std::uint8_t> rgba(16);
  EXPECT_THROW(write_png_rgba8(path, 2, 3, rgba), Error);  // needs 24 bytes
  EXPECT_THROW(write_png_rgba8(path, 0, 4, {}), Error);
  EXPECT_THROW(write_png_rgba8(path, 4, 0, {}), Error);
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
}  // namespace myriad
