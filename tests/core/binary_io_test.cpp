// Atomic file writes, whole-file reads, checksums and the errors of BinaryReader (which must name
// the file, the offset and the field).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "file_size_limit.hpp"
#include "myriad/core/io/binary_io.hpp"

namespace myriad {
namespace {

namespace fs = std::filesystem;

// A fresh folder per test (ctest may run tests of this binary concurrently).
class BinaryIo : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("myriad_core_test_" + std::to_string(::getpid()) + "_" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::vector<fs::path> listing() const {
    std::vector<fs::path> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    return names;
  }
  fs::path dir_;
};

std::string message_of(const auto& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no myriad::Error thrown)";
}

std::span<const std::byte> as_bytes(const std::string& s) { return std::as_bytes(std::span(s)); }

// A tiny file format of the kind every module writes: magic, version, count, checksum, payload.
struct Header {
  std::uint32_t magic;
  std::uint16_t version;
  std::uint16_t reserved;
  std::uint32_t count;
  std::uint32_t pad;
  std::uint64_t checksum;
};

std::vector<std::byte> make_file(const std::vector<float>& payload) {
  BinaryWriter w;
  w.write(Header{0x4d594144u, 3, 0, static_cast<std::uint32_t>(payload.size()), 0, 0});
  const std::size_t payload_offset = w.size();
  w.write_array(std::span<const float>(payload));
  const auto all = std::span<const std::byte>(w.bytes());
  w.patch(offsetof(Header, checksum), checksum64(all.subspan(payload_offset)));
  return w.bytes();
}

std::vector<float> load_file(const fs::path& path) {
  const std::vector<std::byte> bytes = read_file(path);
  BinaryReader r(path.string(), bytes);
  const auto h = r.read<Header>("header");
  if (h.magic != 0x4d594144u) r.fail("bad magic", "header.magic");
  const std::size_t payload_offset = r.offset();
  auto values = r.read_array<float>(h.count, "payload");
  if (checksum64(std::span(bytes).subspan(payload_offset)) != h.checksum) {
    r.seek(payload_offset, "payload");
    r.fail("checksum mismatch", "payload");
  }
  return values;
}

TEST_F(BinaryIo, RoundTripThroughAFile) {
  const std::vector<float> payload = {1.0f, -2.5f, 3.25f, 1e30f, 0.0f};
  const fs::path path = dir_ / "a.bin";
  write_file_atomic(path, make_file(payload));
  EXPECT_EQ(load_file(path), payload);

  const std::vector<std::byte> bytes = read_file(path);
  BinaryReader r(path.string(), bytes);
  EXPECT_EQ(r.read<std::uint32_t>("magic"), 0x4d594144u);
  EXPECT_EQ(r.read<std::uint16_t>("version"), 3);
  r.seek(sizeof(Header), "payload");
  EXPECT_EQ(r.read<float>("first"), 1.0f);
  EXPECT_EQ(r.remaining(), 4 * sizeof(float));
  r.read_bytes(r.remaining(), "rest");
  EXPECT_EQ(r.remaining(), 0u);
}

TEST_F(BinaryIo, AtomicWriteLeavesNoTemporaryAndReplaces) {
  const fs::path path = dir_ / "b.bin";
  write_file_atomic(path, as_bytes("first version, longer"));
  write_file_atomic(path, as_bytes("second"));
  const std::vector<std::byte> bytes = read_file(path);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "second");
  EXPECT_EQ(listing(), std::vector<fs::path>{"b.bin"});
  write_file_atomic(dir_ / "empty.bin", {});
  EXPECT_TRUE(read_file(dir_ / "empty.bin").empty());
}

TEST_F(BinaryIo, WriteIntoMissingFolderThrowsAndCleansUp) {
  const fs::path path = dir_ / "no_such_folder" / "c.bin";
  const std::string msg = message_of([&] { write_file_atomic(path, as_bytes("x")); });
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
  // Renaming onto a folder fails after the temporary was written: it must be removed again.
  fs::create_directories(dir_ / "folder" / "inner");
  EXPECT_THROW(write_file_atomic(dir_ / "folder", as_bytes("x")), Error);
  EXPECT_EQ(listing(), std::vector<fs::path>{"folder"});
}

// A disk that fills up in the middle of the write: one-line error naming the file and the reason, no
// temporary left, and the file the write would have replaced is still the old one, whole.
TEST_F(BinaryIo, DiskFullLeavesNoPartialFileAndKeepsTheOldOne) {
  const fs::path path = dir_ / "full.bin";
  write_file_atomic(path, as_bytes("old contents"));
  const std::vector<std::byte> big(256 * 1024, std::byte{0x5a});
  std::string msg;
  {
    const test::FileSizeLimit limit(4096);
    ASSERT_TRUE(limit.active());
    msg = message_of([&] { write_file_atomic(path, big); });
    // Also a new file, and one smaller than stdio's buffer (the failure then comes from fclose).
    EXPECT_THROW(write_file_atomic(dir_ / "new.bin", big), Error);
    EXPECT_THROW(write_file_atomic(dir_ / "small.bin", std::span(big).first(4097)), Error);
  }
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("File too large"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  EXPECT_EQ(test::folder_listing(dir_), std::vector<std::string>{"full.bin"});
  const std::vector<std::byte> bytes = read_file(path);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "old contents");
}

// A folder that exists but cannot be written. Root writes through permission bits, so as root the
// folder is /sys (sysfs refuses new files to everyone); otherwise a folder made read-only here.
TEST_F(BinaryIo, UnwritableFolderThrowsAndLeavesNothing) {
  const bool root = ::geteuid() == 0;
  const fs::path locked = root ? fs::path("/sys") : dir_ / "locked";
  if (!root) {
    fs::create_directories(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  }
  const std::string msg = message_of([&] { write_file_atomic(locked / "myriad_d.bin", as_bytes("x")); });
  if (!root) fs::permissions(locked, fs::perms::owner_all);
  EXPECT_NE(msg.find("cannot create file: Permission denied"), std::string::npos) << msg;
  EXPECT_NE(msg.find((locked / "myriad_d.bin").string()), std::string::npos) << msg;
  for (const auto& e : fs::directory_iterator(locked))
    EXPECT_EQ(e.path().filename().string().rfind("myriad_d.bin", 0), std::string::npos) << e.path();
}

// Many threads writing the same path: every temporary is its own, the file ends whole (one of them).
TEST_F(BinaryIo, ConcurrentWritersOfOnePathNeverMix) {
  const fs::path path = dir_ / "same.bin";
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      const std::vector<std::byte> data(64 * 1024, std::byte(t));
      for (int i = 0; i < 10; ++i) write_file_atomic(path, data);
    });
  }
  for (std::thread& t : threads) t.join();
  const std::vector<std::byte> bytes = read_file(path);
  ASSERT_EQ(bytes.size(), 64u * 1024u);
  EXPECT_EQ(std::count(bytes.begin(), bytes.end(), bytes.front()), std::ptrdiff_t(bytes.size()));
  EXPECT_EQ(test::folder_listing(dir_), std::vector<std::string>{"same.bin"});
}

TEST_F(BinaryIo, TruncatedReadNamesFileOffsetAndField) {
  const fs::path path = dir_ / "short.bin";
  std::vector<std::byte> bytes = make_file({1.0f, 2.0f, 3.0f});
  bytes.erase(bytes.end() - 2, bytes.end());  // cut into the last float
  write_file_atomic(path, bytes);
  const std::string msg = message_of([&] { load_file(path); });
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("@ offset 24"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'payload'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needed 12 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("only 10 left"), std::string::npos) << msg;

  BinaryReader r("mem.bin", std::span(bytes).first(6));
  r.read<std::uint32_t>("magic");
  const std::string msg2 = message_of([&] { r.read<std::uint32_t>("version"); });
  EXPECT_NE(msg2.find("truncated: needed 4 bytes for field 'version', only 2 left"), std::string::npos)
      << msg2;
  EXPECT_NE(msg2.find("mem.bin @ offset 4"), std::string::npos) << msg2;
  EXPECT_EQ(r.offset(), 4u);  // a failed read consumes nothing
  // A huge count fails before allocating anything.
  EXPECT_THROW(r.read_array<std::uint64_t>(std::size_t{1} << 60, "huge"), Error);
  const std::string msg3 = message_of([&] { r.seek(7, "table"); });
  EXPECT_NE(msg3.find("past the end"), std::string::npos) << msg3;
  EXPECT_NE(msg3.find("'table'"), std::string::npos) << msg3;
  r.seek(6, "end");  // seeking to the very end is fine
  EXPECT_EQ(r.remaining(), 0u);
  // An empty array at the very end is valid and reads nothing (found by fuzz_binary_reader).
  EXPECT_TRUE(r.read_array<std::uint16_t>(0, "empty").empty());
  EXPECT_EQ(r.offset(), 6u);
}

TEST_F(BinaryIo, CorruptionIsDetectedByChecksum) {
  const fs::path path = dir_ / "corrupt.bin";
  std::vector<std::byte> bytes = make_file({1.0f, 2.0f, 3.0f, 4.0f});
  bytes[sizeof(Header) + 5] ^= std::byte{0x10};
  write_file_atomic(path, bytes);
  const std::string msg = message_of([&] { load_file(path); });
  EXPECT_NE(msg.find("checksum mismatch"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path.string() + " @ offset 24"), std::string::npos) << msg;
}

TEST_F(BinaryIo, ChecksumIsXxh3) {
  EXPECT_EQ(checksum64({}), 0x2D06800538D394C2ull);  // XXH3_64bits of no bytes
  const std::string a = "Myriad", b = "Myriae";
  EXPECT_EQ(checksum64(as_bytes(a)), checksum64(as_bytes(std::string("Myriad"))));
  EXPECT_NE(checksum64(as_bytes(a)), checksum64(as_bytes(b)));
}

TEST_F(BinaryIo, MissingFileNamesThePath) {
  const fs::path path = dir_ / "missing.bin";
  try {
    read_file(path);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), path.string());
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_file(dir_), Error);  // a folder is not a file
}

// The frame every format shares: magic, version, format fields, then the seal (payload size + checksum).
constexpr FileFormat kTestFormat{0x5453544du, 2, "test file", "write it again"};  // "MTST"

std::vector<std::byte> framed_file(std::uint32_t field, const std::vector<float>& payload) {
  BinaryWriter w;
  w.write_magic_version(kTestFormat);
  w.write(field);
  const std::size_t header = w.write_seal_fields();
  EXPECT_EQ(header, 4 + 4 + 4 + kFileSealBytes);
  w.write_array(std::span<const float>(payload));
  w.seal(header);
  return w.bytes();
}

std::vector<float> read_framed(std::span<const std::byte> bytes, std::uint32_t& field) {
  BinaryReader r("framed.bin", bytes);
  r.read_magic_version(kTestFormat);
  field = r.read<std::uint32_t>("field");
  r.read_seal();
  return r.read_array<float>(r.remaining() / sizeof(float), "payload");
}

TEST(FileFrame, RoundTripAndSealBytes) {
  const std::vector<float> payload = {1.5f, -2.0f, 8.0f};
  const std::vector<std::byte> bytes = framed_file(77, payload);
  ASSERT_EQ(bytes.size(), 28 + payload.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(bytes.data(), "MTST", 4), 0);
  std::uint64_t size = 0, sum = 0;
  std::memcpy(&size, bytes.data() + 12, 8);
  std::memcpy(&sum, bytes.data() + 20, 8);
  EXPECT_EQ(size, payload.size() * sizeof(float));
  EXPECT_EQ(sum, checksum64(std::span(bytes).subspan(28)));
  std::uint32_t field = 0;
  EXPECT_EQ(read_framed(bytes, field), payload);
  EXPECT_EQ(field, 77u);
  // An empty payload is sealed too.
  EXPECT_TRUE(read_framed(framed_file(5, {}), field).empty());
}

TEST(FileFrame, ErrorsNameTheFormatAndTheField) {
  std::vector<std::byte> bytes = framed_file(1, {1.0f, 2.0f});
  std::uint32_t field = 0;
  auto bad = bytes;
  bad[0] = std::byte{'X'};
  std::string msg = message_of([&] { read_framed(bad, field); });
  EXPECT_NE(msg.find("not a test file (magic is not \"MTST\")"), std::string::npos) << msg;
  EXPECT_NE(msg.find("magic"), std::string::npos) << msg;
  bad = bytes;
  bad[4] = std::byte{9};
  msg = message_of([&] { read_framed(bad, field); });
  EXPECT_NE(msg.find("unsupported version 9 (this build reads 2); write it again"), std::string::npos) << msg;
  bad = bytes;
  bad.push_back(std::byte{0});
  msg = message_of([&] { read_framed(bad, field); });
  EXPECT_NE(msg.find("payload size 8 does not match the 9 bytes after the header"), std::string::npos) << msg;
  bad = bytes;
  bad.back() ^= std::byte{1};
  msg = message_of([&] { read_framed(bad, field); });
  EXPECT_NE(msg.find("checksum mismatch"), std::string::npos) << msg;
  EXPECT_NE(msg.find("payload_checksum"), std::string::npos) << msg;
  // seal_file makes any bytes long enough well-sealed (what the fuzzers do to reach the semantic checks).
  seal_file(bad, 28);
  EXPECT_EQ(read_framed(bad, field).size(), 2u);
  EXPECT_THROW(seal_file(bad, bad.size() + 1), Error);
  EXPECT_THROW(seal_file(bad, kFileSealBytes - 1), Error);
}

TEST(BinaryWriter, PatchPastTheEndThrows) {
  BinaryWriter w;
  w.write(std::uint32_t{1});
  EXPECT_THROW(w.patch(2, std::uint32_t{0}), Error);
  w.patch(0, std::uint32_t{7});
  EXPECT_EQ(w.size(), 4u);
}

}  // namespace
}  // namespace myriad
