// Structure-aware glTF fuzzing: the input is a script of edits applied to the seed model's JSON (indices,
// counts, offsets, strides, strings, removed or duplicated entries), so every input reaches the importer
// as well-formed glTF and the fuzzer spends its time on the importer's semantic checks rather than on
// JSON syntax. Each edit is 5 bytes: op, node selector (u16, little endian), value (u16, little endian).
// The node selector picks any value of the document (depth-first order); the op says what to do with it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "gltf_support.hpp"

namespace {

using nlohmann::json;

// Values where size arithmetic overflows or a signed index turns negative.
constexpr std::array<std::uint64_t, 14> kBigValues = {
    0x7fffffffu,         0x80000000u,         0xffffffffu,         0x100000000u,        0x3fffffffu,
    0x40000000u,         0x20000000000001u,   0x3fffffffffffffffu, 0x4000000000000000u, 0x4000000000000001u,
    0x7fffffffffffffffu, 0x8000000000000000u, 0xfffffffffffffffcu, 0xffffffffffffffffu};

constexpr std::array<const char*, 24> kStrings = {"",
                                                  "LINEAR",
                                                  "STEP",
                                                  "CUBICSPLINE",
                                                  "translation",
                                                  "rotation",
                                                  "scale",
                                                  "weights",
                                                  "SCALAR",
                                                  "VEC2",
                                                  "VEC3",
                                                  "VEC4",
                                                  "MAT2",
                                                  "MAT3",
                                                  "MAT4",
                                                  "image/png",
                                                  "2.0",
                                                  "3.0",
                                                  "BLEND",
                                                  "missing.bin",
                                                  "data:application/octet-stream;base64,AAAA",
                                                  "data:,x",
                                                  "data:image/png;base64,",
                                                  "../../etc/hostname"};

void collect(const json::json_pointer& at, const json& node, std::vector<json::json_pointer>& out) {
  out.push_back(at);
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) collect(at / key, value, out);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) collect(at / i, node[i], out);
  }
}

void apply(json& doc, std::uint8_t op, std::uint16_t selector, std::uint16_t value) {
  std::vector<json::json_pointer> nodes;
  collect(json::json_pointer(), doc, nodes);
  if (nodes.size() < 2) return;                                            // everything was removed
  const json::json_pointer at = nodes[1 + selector % (nodes.size() - 1)];  // never the root
  json& node = doc[at];
  json& parent = doc[at.parent_pointer()];
  switch (op % 6) {
    case 0:  // small integers: indices, counts, offsets, -1
      node = static_cast<std::int16_t>(value);
      break;
    case 1:
      node = kBigValues[value % kBigValues.size()];
      break;
    case 2:  // fractions and magnitudes beyond float range
      node = value & 0x8000u ? (value & 1u ? -1e39 : 1e39) * (value & 0x7ffeu) : (value - 16384) / 256.0;
      break;
    case 3:
      node = kStrings[value % kStrings.size()];
      break;
    case 4:  // remove it
      if (parent.is_object()) {
        parent.erase(at.back());
      } else {
        parent.erase(std::stoul(at.back()));
      }
      break;
    default:  // duplicate it within its array, or wrap it into one (a type the reader does not expect)
      if (parent.is_array() && parent.size() < 64) {
        parent.push_back(node);
      } else {
        node = json::array({node});
      }
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kEditBytes = 5, kMaxEdits = 32;
  json doc = myriad::fuzz::seed_gltf();
  for (std::size_t i = 0; i + kEditBytes <= size && i < kMaxEdits * kEditBytes; i += kEditBytes) {
    apply(doc, data[i], static_cast<std::uint16_t>(data[i + 1] | data[i + 2] << 8),
          static_cast<std::uint16_t>(data[i + 3] | data[i + 4] << 8));
  }
  const std::string text = doc.dump();
  // MYRIAD_FUZZ_VERBOSE prints the edited model, to read what a crashing edit script did.
  if (std::getenv("MYRIAD_FUZZ_VERBOSE")) std::fprintf(stderr, "%s\n", text.c_str());
  myriad::fuzz::import_like_the_tools(std::as_bytes(std::span(text)), /*binary=*/false);
  return 0;
}
