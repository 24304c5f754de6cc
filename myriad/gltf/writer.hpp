// Writing glTF 2.0: a JSON document plus one binary buffer, saved as .glb (one file) or .gltf with a
// .bin beside it or embedded, atomically. Shared by the plant writer (vegetation), the avatar kit
// writer (anim) and `myriad export`.
#pragma once

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <type_traits>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

namespace myriad::gltf {

inline constexpr int kUnsignedShort = 5123, kUnsignedInt = 5125, kFloat = 5126;
inline constexpr int kArrayBuffer = 34962, kElementBuffer = 34963;

struct Writer {
  nlohmann::json doc = {{"asset", {{"version", "2.0"}, {"generator", "myriad"}}}};
  std::vector<std::byte> bin;

  // Appends bytes (4-byte aligned) as a new buffer view; `target` 0 leaves it unset (images, animation).
  int view(const void* data, std::size_t bytes, int target);

  // An accessor over `data` (glm vectors/matrices or scalars). `bounds` adds min/max (required on POSITION).
  template <class T>
  int accessor(const std::vector<T>& data, const char* type, int component, int target, bool bounds = false) {
    nlohmann::json a = {{"bufferView", view(data.data(), data.size() * sizeof(T), target)},
                        {"componentType", component},
                        {"count", data.size()},
                        {"type", type}};
    if constexpr (std::is_same_v<T, glm::vec3>) {
      if (bounds) {
        glm::vec3 lo(INFINITY), hi(-INFINITY);
        for (const glm::vec3& p : data) lo = glm::min(lo, p), hi = glm::max(hi, p);
        a["min"] = {lo.x, lo.y, lo.z};
        a["max"] = {hi.x, hi.y, hi.z};
      }
    } else if constexpr (std::is_same_v<T, float>) {
      if (bounds && !data.empty()) {  // animation inputs need min/max too
        float lo = data[0], hi = data[0];
        for (const float v : data) lo = std::min(lo, v), hi = std::max(hi, v);
        a["min"] = nlohmann::json::array({lo});
        a["max"] = nlohmann::json::array({hi});
      }
    }
    doc["accessors"].push_back(a);
    return static_cast<int>(doc["accessors"].size() - 1);
  }

  // Adds the buffer and writes `path`: GLB when it ends in .glb, else JSON with `<stem>.bin` beside it,
  // or with the buffer inside the JSON as a base64 data URI when `embed_buffer` is set (one .gltf file).
  void save(const std::filesystem::path& path, bool embed_buffer = false);
};

}  // namespace myriad::gltf
