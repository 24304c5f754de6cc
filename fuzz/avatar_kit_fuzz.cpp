// Fuzzes the avatar kit import (`myriad avatars info`, `myriad render --avatar-kit`): arbitrary bytes, as
// GLB when they start with the GLB magic and as JSON glTF otherwise, must either import into a kit whose
// parts are consistent (indices inside the part, one joint and weight per vertex, palette slots inside
// the part's skin, skin joints inside the skeleton, materials and textures that exist, clips that
// validate) or fail with a myriad::Error; crashes, hangs and other exceptions are bugs. The seed
// (corpus/avatar_kit) has two skins on one armature, an item by name and a rigid item under a joint.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "myriad/anim/import/kit_import.hpp"
#include "myriad/anim/kit/kit_info.hpp"
#include "myriad/core/io/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool binary = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
  const auto bytes = std::as_bytes(std::span(data, size));
  myriad::anim::KitImport in;
  try {
    in = myriad::anim::import_kit_bytes(bytes, binary, "fuzz-input", "/nonexistent/myriad-fuzz");
  } catch (const myriad::Error&) {
    return 0;
  }
  // What the import returned must hold together: any error from here on is a bug.
  try {
    const myriad::anim::Avatar& kit = in.kit;
    kit.skeleton.validate();
    for (const myriad::anim::AvatarPart& p : kit.parts) {
      const myriad::anim::SkinnedMesh& m = p.mesh;
      if (m.indices.size() % 3 != 0 || m.joints.size() != m.positions.size() ||
          m.weights.size() != m.positions.size() || p.skin.joints.size() != p.skin.inverse_binds.size() ||
          p.skin.joints.empty())
        std::abort();
      for (const std::uint32_t i : m.indices)
        if (i >= m.positions.size()) std::abort();
      for (const auto& j : m.joints)
        for (int k = 0; k < 4; ++k)
          if (j[k] >= p.skin.joints.size()) std::abort();
      for (const std::uint16_t j : p.skin.joints)
        if (j >= kit.skeleton.size()) std::abort();
      if (m.material >= 0 && static_cast<std::size_t>(m.material) >= kit.materials.size()) std::abort();
    }
    for (const myriad::anim::Material& mat : kit.materials)
      if (mat.base_color_texture >= 0 &&
          static_cast<std::size_t>(mat.base_color_texture) >= kit.textures.size())
        std::abort();
    for (const myriad::anim::Clip& c : kit.clips) c.validate(kit.skeleton.size());
    (void)myriad::anim::measure_dedup(kit);
  } catch (const myriad::Error&) {
    std::abort();
  }
  return 0;
}
