#include "myriad/gltf/writer.hpp"

#include "myriad/core/io/binary_io.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>

namespace myriad::gltf {
namespace {

void write_glb(const std::filesystem::path& path, const std::string& text,
               const std::vector<std::byte>& bin) {
  std::string json_chunk = text;
  while (json_chunk.size() % 4) json_chunk.push_back(' ');
  std::vector<std::byte> padded = bin;
  while (padded.size() % 4) padded.push_back(std::byte{0});
  const std::uint32_t total = 12 + 8 + std::uint32_t(json_chunk.size()) + 8 + std::uint32_t(padded.size());
  std::vector<std::byte> out;
  const auto put = [&](std::uint32_t v) {
    const auto* b = reinterpret_cast<const std::byte*>(&v);
    out.insert(out.end(), b, b + 4);
  };
  put(0x46546C67u);  // "glTF"
  put(2);
  put(total);
  put(std::uint32_t(json_chunk.size()));
  put(0x4E4F534Au);  // "JSON"
  const auto* j = reinterpret_cast<const std::byte*>(json_chunk.data());
  out.insert(out.end(), j, j + json_chunk.size());
  put(std::uint32_t(padded.size()));
  put(0x004E4942u);  // "BIN\0"
  out.insert(out.end(), padded.begin(), padded.end());
  write_file_atomic(path, out);
}

// RFC 4648 base64 with padding, as data URIs carry it.
std::string base64(const std::vector<std::byte>& bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 3; ++k)
      v = v << 8 | (k < n ? std::to_integer<std::uint32_t>(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[v >> (18 - 6 * k) & 63u] : '=';
  }
  return out;
}

}  // namespace

int Writer::view(const void* data, std::size_t bytes, int target) {
  while (bin.size() % 4) bin.push_back(std::byte{0});
  const std::size_t offset = bin.size();
  const auto* p = static_cast<const std::byte*>(data);
  bin.insert(bin.end(), p, p + bytes);
  nlohmann::json v = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}};
  if (target) v["target"] = target;
  doc["bufferViews"].push_back(v);
  return static_cast<int>(doc["bufferViews"].size() - 1);
}

void Writer::save(const std::filesystem::path& path, bool embed_buffer) {
  const bool binary = path.extension() == ".glb";
  nlohmann::json buffer = {{"byteLength", bin.size()}};
  if (!binary && embed_buffer) {
    buffer["uri"] = "data:application/octet-stream;base64," + base64(bin);
  } else if (!binary) {
    const std::string file = path.stem().string() + ".bin";
    write_file_atomic(path.parent_path() / file, bin);
    buffer["uri"] = file;
  }
  // json::array: a braced list of one json would be a copy, not an array, with some compilers.
  doc["buffers"] = nlohmann::json::array({buffer});
  const std::string text = doc.dump();
  if (binary) {
    write_glb(path, text, bin);
  } else {
    write_file_atomic(path, std::as_bytes(std::span(text.data(), text.size())));
  }
}

}  // namespace myriad::gltf
