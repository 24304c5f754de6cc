// File I/O with loud errors: atomic writes via a per-process temporary name and rename, whole-file
// reads, XXH3 checksums, and the error paths of BinaryReader.
#include "myriad/core/io/binary_io.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <system_error>

#include <unistd.h>
#include <xxhash.h>

namespace myriad {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

// Removes the temporary file (best effort) and reports the failure against the final path.
[[noreturn]] void fail_write(const std::filesystem::path& path, const std::filesystem::path& temp,
                             const std::string& problem, int err) {
  std::error_code ignored;
  std::filesystem::remove(temp, ignored);
  throw Error(problem + ": " + errno_text(err), path.string(),
              "check that the folder exists, is writable and has free space");
}

}  // namespace

std::uint64_t checksum64(std::span<const std::byte> data) { return XXH3_64bits(data.data(), data.size()); }

void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> data) {
  // Process id and a per-process count: two threads (or processes) writing one path never share a
  // temporary, and the last rename wins whole.
  static std::atomic<std::uint64_t> writes{0};
  std::filesystem::path temp = path;
  temp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(writes.fetch_add(1));

  // errno is captured at once: building the message strings may overwrite it.
  FilePtr file(std::fopen(temp.c_str(), "wb"));
  if (!file) {
    const int err = errno;
    fail_write(path, temp, "cannot create file", err);
  }
  if (!data.empty() && std::fwrite(data.data(), 1, data.size(), file.get()) != data.size()) {
    const int err = errno;
    fail_write(path, temp, "cannot write file", err);
  }
  // fclose flushes; its failure (e.g. disk full on the final block) must not be ignored.
  if (std::fclose(file.release()) != 0) {
    const int err = errno;
    fail_write(path, temp, "cannot write file", err);
  }

  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) fail_write(path, temp, "cannot rename temporary file into place", ec.value());
}

std::vector<std::byte> read_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found)
    throw Error("file not found", path.string(), "check the path (and that the file was written)");
  if (ec) throw Error("cannot access file: " + ec.message(), path.string(), "check the folder's permissions");
  if (!std::filesystem::is_regular_file(status))
    throw Error("not a regular file", path.string(), "pass the path of a file, not a folder");

  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    const int err = errno;
    throw Error("cannot open file: " + errno_text(err), path.string(), "check its permissions");
  }
  std::vector<std::byte> bytes;
  const auto size_hint = std::filesystem::file_size(path, ec);
  if (!ec) bytes.reserve(static_cast<std::size_t>(size_hint));
  // Read to EOF rather than trusting the size, which may change under us.
  std::byte chunk[64 * 1024];
  for (;;) {
    const std::size_t n = std::fread(chunk, 1, sizeof(chunk), file.get());
    bytes.insert(bytes.end(), chunk, chunk + n);
    if (n < sizeof(chunk)) break;
  }
  if (std::ferror(file.get())) {
    const int err = errno;
    throw Error("cannot read file: " + errno_text(err), path.string());
  }
  return bytes;
}

void seal_file(std::span<std::byte> file, std::size_t header_bytes) {
  if (header_bytes < kFileSealBytes || header_bytes > file.size())
    throw Error("seal_file: a header of " + std::to_string(header_bytes) + " bytes does not fit a file of " +
                std::to_string(file.size()));
  const std::uint64_t payload = file.size() - header_bytes;
  const std::uint64_t sum = checksum64(file.subspan(header_bytes));
  std::memcpy(file.data() + header_bytes - kFileSealBytes, &payload, sizeof(payload));
  std::memcpy(file.data() + header_bytes - sizeof(sum), &sum, sizeof(sum));
}

void BinaryReader::read_magic_version(const FileFormat& format) {
  if (read<std::uint32_t>("magic") != format.magic) {
    char text[5] = {};
    std::memcpy(text, &format.magic, 4);
    fail(std::string("not a ") + format.name + " (magic is not \"" + text + "\")", "magic");
  }
  const auto version = read<std::uint32_t>("version");
  if (version != format.version) {
    fail("unsupported version " + std::to_string(version) + " (this build reads " +
             std::to_string(format.version) + "); " + format.remedy,
         "version");
  }
}

void BinaryReader::read_seal() {
  const auto payload_bytes = read<std::uint64_t>("payload_bytes");
  const auto checksum = read<std::uint64_t>("payload_checksum");
  if (payload_bytes != remaining()) {
    fail("payload size " + std::to_string(payload_bytes) + " does not match the " +
             std::to_string(remaining()) + " bytes after the header (truncated or padded file)",
         "payload_bytes");
  }
  if (checksum64(data_.subspan(offset_)) != checksum)
    fail("checksum mismatch: the file is corrupted", "payload_checksum");
}

void BinaryReader::seek(std::size_t offset, const char* field) {
  if (offset > data_.size())
    fail("seek to offset " + std::to_string(offset) + " past the end (size " + std::to_string(data_.size()) +
             ")",
         field);
  offset_ = offset;
}

void BinaryReader::fail(const std::string& problem, const char* field) const {
  throw Error(problem + " (field '" + std::string(field ? field : "?") + "')",
              source_ + " @ offset " + std::to_string(offset_),
              "the file is corrupt or was written by another version; re-create it");
}

std::span<const std::byte> BinaryReader::take(std::size_t count, const char* field) {
  if (count > remaining()) fail_truncated(count, field);
  const auto bytes = data_.subspan(offset_, count);
  offset_ += count;
  return bytes;
}

void BinaryReader::fail_truncated(std::size_t wanted, const char* field) const {
  throw Error("truncated: needed " + std::to_string(wanted) + " bytes for field '" +
                  std::string(field ? field : "?") + "', only " + std::to_string(remaining()) + " left",
              source_ + " @ offset " + std::to_string(offset_),
              "the file is incomplete or corrupt; re-create it");
}

}  // namespace myriad
