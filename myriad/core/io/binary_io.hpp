// Binary files: atomic writes (temporary name + rename), a 64-bit checksum (XXH3), the header frame
// every Myriad format shares, and a bounds-checked reader whose errors name the file, the byte offset
// and the field being read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "myriad/core/io/error.hpp"

namespace myriad {

std::uint64_t checksum64(std::span<const std::byte> data);

// Writes to "<path>.tmp-<pid>-<n>" in the same folder, then renames it over `path`: readers never see
// a partial file, and an existing file at `path` stays whole until the new one replaces it. Any
// failure (folder missing or not writable, disk full, file-size limit, `path` a folder) removes the
// temporary and throws myriad::Error naming `path` and the system's reason, on one line.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> data);
std::vector<std::byte> read_file(const std::filesystem::path& path);

// The frame of every Myriad file (docs/FORMATS.md): the header starts with magic and version, may hold
// format-specific fields next, and ends with "the seal": the payload's size and XXH3 checksum (u64 each),
// the payload being every byte after the header.
struct FileFormat {
  std::uint32_t magic = 0;  // four ASCII characters in file order: "MCRD" is 0x4452434d
  std::uint32_t version = 0;
  const char* name = "";    // errors say "not a <name>"
  const char* remedy = "";  // said after an unsupported version, e.g. "re-bake the model"
};
inline constexpr std::size_t kFileSealBytes = 16;

// Fills the seal that ends a header of `header_bytes` bytes from the bytes after it (writers, and tools
// that make arbitrary bytes well-formed).
void seal_file(std::span<std::byte> file, std::size_t header_bytes);

// Appends trivially copyable values in native (little-endian) layout.
class BinaryWriter {
 public:
  // The file frame: magic and version first; the seal fields last in the header (zero until seal()).
  void write_magic_version(const FileFormat& format) {
    write(format.magic);
    write(format.version);
  }
  // Returns the header size (the payload starts here).
  std::size_t write_seal_fields() {
    write(std::uint64_t{0});
    write(std::uint64_t{0});
    return size();
  }
  void seal(std::size_t header_bytes) { seal_file(bytes_, header_bytes); }

  template <class T>
  void write(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void write_array(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(values.data());
    bytes_.insert(bytes_.end(), p, p + values.size_bytes());
  }
  // Overwrites a value written earlier (e.g. a size or checksum field).
  template <class T>
  void patch(std::size_t offset, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (offset + sizeof(T) > bytes_.size()) throw Error("BinaryWriter::patch past the end");
    std::memcpy(bytes_.data() + offset, &value, sizeof(T));
  }
  std::size_t size() const { return bytes_.size(); }
  const std::vector<std::byte>& bytes() const { return bytes_; }
  std::vector<std::byte>& bytes() { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

// Reads from a byte span it does not own. `source` names the file in error messages.
class BinaryReader {
 public:
  BinaryReader(std::string source, std::span<const std::byte> data)
      : source_(std::move(source)), data_(data) {}

  template <class T>
  T read(const char* field) {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof(T), field).data(), sizeof(T));
    return value;
  }
  // Reads `count` values; fails (before allocating) when the file is too short.
  template <class T>
  std::vector<T> read_array(std::size_t count, const char* field) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (count > remaining() / sizeof(T)) fail_truncated(count * sizeof(T), field);
    if (count == 0) return {};  // memcpy with an empty vector's null data() is undefined
    std::vector<T> out(count);
    std::memcpy(out.data(), take(count * sizeof(T), field).data(), count * sizeof(T));
    return out;
  }
  std::span<const std::byte> read_bytes(std::size_t count, const char* field) { return take(count, field); }
  // The file frame (see FileFormat): magic and version must be `format`'s; the seal's size and checksum
  // must match the rest of the data.
  void read_magic_version(const FileFormat& format);
  void read_seal();
  void seek(std::size_t offset, const char* field);

  std::size_t offset() const { return offset_; }
  std::size_t remaining() const { return data_.size() - offset_; }
  const std::string& source() const { return source_; }
  // Throws myriad::Error naming the file, the current offset and the field.
  [[noreturn]] void fail(const std::string& problem, const char* field) const;

 private:
  std::span<const std::byte> take(std::size_t count, const char* field);
  [[noreturn]] void fail_truncated(std::size_t wanted, const char* field) const;

  std::string source_;
  std::span<const std::byte> data_;
  std::size_t offset_ = 0;
};

}  // namespace myriad
