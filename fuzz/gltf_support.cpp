#include "gltf_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/import/whole_model.hpp"
#include "myriad/core/io/error.hpp"
#ifdef MYRIAD_FUZZ_HAS_CROWD
#include "myriad/crowd_bake/import/import.hpp"
#endif

namespace myriad::fuzz {

void import_like_the_tools(std::span<const std::byte> bytes, bool binary) {
  // A folder that never exists: a relative external URI must fail the same way on every machine
  // rather than read whatever lies beside the fuzzer.
  static const std::filesystem::path kNoBaseDir = "/nonexistent/myriad-fuzz";
  try {
    const anim::ImportedModel model = anim::import_gltf_bytes(bytes, binary, "fuzz-input", kNoBaseDir);
#ifdef MYRIAD_FUZZ_HAS_CROWD
    (void)crowd::import_for_bake(model, "fuzz-input");
#endif
  } catch (const Error& e) {
    // Expected for malformed input; MYRIAD_FUZZ_VERBOSE shows why an input (a seed, say) was rejected.
    if (std::getenv("MYRIAD_FUZZ_VERBOSE")) std::fprintf(stderr, "rejected: %s\n", e.what());
  }
  // `myriad crowd bake` reads the whole model (every skin, rigid meshes): the same bytes that way.
  try {
    const anim::WholeModel whole = anim::import_whole_model_bytes(bytes, binary, "fuzz-input", kNoBaseDir);
#ifdef MYRIAD_FUZZ_HAS_CROWD
    (void)crowd::import_for_bake(whole.model, "fuzz-input");
#endif
  } catch (const Error& e) {
    if (std::getenv("MYRIAD_FUZZ_VERBOSE")) std::fprintf(stderr, "rejected (whole model): %s\n", e.what());
  }
}

const nlohmann::json& seed_gltf() {
  static const nlohmann::json seed = [] {
    std::ifstream in(MYRIAD_FUZZ_SEED_GLTF);
    if (!in) {
      std::fprintf(stderr, "cannot read the seed model %s\n", MYRIAD_FUZZ_SEED_GLTF);
      std::abort();
    }
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
  }();
  return seed;
}

std::string base64(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = std::uint32_t{bytes[i]} << 16;
    if (n > 1) v |= std::uint32_t{bytes[i + 1]} << 8;
    if (n > 2) v |= bytes[i + 2];
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

}  // namespace myriad::fuzz
