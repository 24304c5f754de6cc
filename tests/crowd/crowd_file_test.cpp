// The .crowd file: a round trip keeps every byte, and damaged files fail with errors naming the file
// and the field.
#include "myriad/crowd/crowd_file.hpp"

#include "../core/file_size_limit.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace myriad::crowd {
namespace {

CrowdFile small_file() {
  CrowdFile f;
  f.name = "triangle";
  f.bind_min = {0.0f, 0.0f, 0.0f};
  f.bind_max = {1.0f, 1.0f, 0.0f};
  f.animated_min = {-1.0f, 0.0f, 0.0f};
  f.animated_max = {1.0f, 2.0f, 0.5f};
  f.materials = {{"skin", false}, {"cloth", true}};
  f.parts = {{"body", "", 3, 1, "skin"}, {"helmet", "head", 1, 0, ""}};
  anim::Texture t;
  t.name = "atlas";
  t.width = 2;
  t.height = 1;
  t.rgba8 = {1, 2, 3, 4, 5, 6, 7, 8};
  f.textures = {t};
  CrowdLod lod;
  lod.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  lod.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  lod.uvs = {{0, 0}, {1, 0}, {0, 1}};
  lod.columns = {0, 1, 3};
  lod.indices = {0, 1, 2};
  lod.triangle_material = {1};
  f.lods = {lod};
  f.fps = 30.0f;
  f.columns = 4;
  f.skinned_columns = 3;
  f.rows = 3;
  f.clips = {{"walk", 0.04f, 0, 2, {-1, 0, 0}, {1, 2, 0.5f}}, {"attack", 0.0f, 2, 1, {0, 0, 0}, {1, 1, 0}}};
  f.attachments = {{0, 1, 2, {0.2f, 0.3f, 0.5f}}};
  for (std::uint16_t i = 0; i < 12; ++i) f.texels.push_back({i, std::uint16_t(i * 2), 7, 9});
  return f;
}

std::string parse_error(std::vector<std::byte> bytes) {
  try {
    parse_crowd(bytes, "enemy.crowd");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// Re-seals the checksum so a semantic error is reached.
std::vector<std::byte> resealed(std::vector<std::byte> bytes) {
  const std::uint64_t sum = checksum64(std::span<const std::byte>(bytes).subspan(kCrowdHeaderBytes));
  std::memcpy(bytes.data() + 16, &sum, 8);
  return bytes;
}

TEST(CrowdFile, RoundTripsEveryField) {
  const CrowdFile f = small_file();
  const std::vector<std::byte> bytes = serialize_crowd(f);
  const CrowdFile g = parse_crowd(bytes, "mem");
  EXPECT_EQ(serialize_crowd(g), bytes);
  EXPECT_EQ(g.name, "triangle");
  EXPECT_TRUE(g.materials[1].double_sided);
  EXPECT_EQ(g.clips[1].name, "attack");
  ASSERT_EQ(g.parts.size(), 2u);
  EXPECT_EQ(g.parts[1].name, "helmet");
  EXPECT_EQ(g.parts[1].joint, "head");
  EXPECT_EQ(g.parts[0].joints, 3u);
  EXPECT_EQ(g.parts[0].material, "skin");
  EXPECT_EQ(g.attachments[0].w, f.attachments[0].w);
  EXPECT_EQ(g.lods[0].columns, f.lods[0].columns);
  EXPECT_EQ(g.texels, f.texels);
  const auto path = std::filesystem::temp_directory_path() / "myriad_crowd_file_test.crowd";
  write_crowd(path, f);
  EXPECT_EQ(serialize_crowd(read_crowd(path)), bytes);
  std::filesystem::remove(path);
}

// A failed write (disk full, folder not writable) leaves no partial .crowd file and keeps the old one.
TEST(CrowdFile, FailedWriteLeavesNoPartialFile) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("myriad_crowd_write_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto path = dir / "enemy.crowd";
  CrowdFile old = small_file();
  old.name = "old";
  write_crowd(path, old);
  std::string msg;
  {
    const myriad::test::FileSizeLimit limit(64);
    ASSERT_TRUE(limit.active());
    try {
      write_crowd(path, small_file());
    } catch (const Error& e) {
      msg = e.what();
    }
    EXPECT_THROW(write_crowd(dir / "new.crowd", small_file()), Error);
  }
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("File too large"), std::string::npos) << msg;
  EXPECT_EQ(myriad::test::folder_listing(dir), std::vector<std::string>{"enemy.crowd"});
  EXPECT_EQ(read_crowd(path).name, "old");
  // Into a folder that does not exist: the error names the path, nothing is created.
  EXPECT_THROW(write_crowd(dir / "missing" / "x.crowd", small_file()), Error);
  EXPECT_EQ(myriad::test::folder_listing(dir), std::vector<std::string>{"enemy.crowd"});
  std::filesystem::remove_all(dir);
}

TEST(CrowdFile, DamagedFilesNameFileAndField) {
  const std::vector<std::byte> good = serialize_crowd(small_file());
  std::vector<std::byte> b = good;
  b[0] = std::byte{'X'};
  EXPECT_NE(parse_error(b).find("magic"), std::string::npos);
  EXPECT_NE(parse_error(b).find("enemy.crowd"), std::string::npos);
  b = good;
  b[good.size() - 3] ^= std::byte{1};
  EXPECT_NE(parse_error(b).find("checksum"), std::string::npos);
  b = good;
  b.resize(good.size() - 5);
  EXPECT_NE(parse_error(b).find("payload_bytes"), std::string::npos);
  // A column index past the VAT (lod.columns[2] = 3 -> 4), checksum re-sealed.
  CrowdFile f = small_file();
  f.lods[0].columns[2] = 4;
  EXPECT_NE(parse_error(serialize_crowd(f)).find("lod.columns"), std::string::npos);
  f = small_file();
  f.parts[1].joints = 2;  // a rigid part follows one joint
  EXPECT_NE(parse_error(serialize_crowd(f)).find("part.joints"), std::string::npos);
  f = small_file();
  f.attachments[0].c = 3;  // attached columns may name skinned columns only
  EXPECT_NE(parse_error(serialize_crowd(f)).find("vat.attachments"), std::string::npos);
  f = small_file();
  f.clips[1].first_row = 1;
  EXPECT_NE(parse_error(serialize_crowd(f)).find("clip.first_row"), std::string::npos);
  // Version from the future.
  b = good;
  b[4] = std::byte{9};
  EXPECT_NE(parse_error(resealed(b)).find("unsupported version"), std::string::npos);
}

}  // namespace
}  // namespace myriad::crowd
