#include "myriad/anim/import/whole_model.hpp"

#include "myriad/anim/kit/dedup.hpp"
#include "myriad/anim/kit/kit_info.hpp"

namespace myriad::anim {

WholeModel flatten_kit(const KitImport& in) {
  const Avatar& kit = in.kit;
  WholeModel out;
  out.ignored = in.ignored;
  out.animated_morphs = in.animated_morphs;
  ImportedModel& m = out.model;
  m.skeleton = kit.skeleton;
  m.root_transform = kit.root_transform;
  m.joint_nodes.assign(kit.skeleton.size(), -1);
  m.clips = kit.clips;
  m.materials = kit.materials;
  m.textures = kit.textures;
  std::vector<PartSkin> skins;
  for (const AvatarPart& p : kit.parts) skins.push_back(p.skin);
  const Dedup d = dedup_skeletons(skins);
  m.joints = d.renderer_skeleton.joints;
  m.inverse_binds = d.renderer_skeleton.inverse_binds;
  for (std::size_t p = 0; p < kit.parts.size(); ++p) {
    SkinnedMesh mesh = kit.parts[p].mesh;
    remap_joints(mesh.joints, d.remap[p]);
    const std::vector<std::uint16_t> used = joints_used(kit.parts[p]);
    std::string line =
        mesh.name + ": " + (kit.parts[p].rigid ? "rigid on " : "skinned, ") +
        (kit.parts[p].rigid && !used.empty() ? "joint '" + kit.skeleton.names[used[0]] + "'"
                                             : std::to_string(kit.parts[p].skin.joints.size()) + " bones") +
        ", " + std::to_string(mesh.indices.size() / 3) + " triangles";
    out.parts.push_back(std::move(line));
    m.meshes.push_back(std::move(mesh));
  }
  return out;
}

WholeModel import_whole_model(const std::filesystem::path& path) { return flatten_kit(import_kit(path)); }

WholeModel import_whole_model_bytes(std::span<const std::byte> bytes, bool binary, const std::string& name,
                                    const std::filesystem::path& base_dir) {
  return flatten_kit(import_kit_bytes(bytes, binary, name, base_dir));
}

}  // namespace myriad::anim
