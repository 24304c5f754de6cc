// `myriad avatars info KIT [ITEM ...]` imports an avatar kit (and item files) the way the renderer
// does and prints its skeleton, clips, parts and items (the joints each uses), the outfit slots and
// the skeleton dedup figures (palette matrices per avatar before and after, bare and clothed).
// `myriad avatars make-kit MODEL --out DIR` turns a model (every skin's meshes, meshes on joints, or a
// skinless model's nodes; or 'procedural') into a dressed kit: the model split into body parts by
// dominant joint plus the sample items, written as <name>.glb and <name>_items.glb and read back
// through the import path.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "myriad/anim/clip/clip_roles.hpp"
#include "myriad/anim/kit/kit_build.hpp"
#include "myriad/anim/import/kit_import.hpp"
#include "myriad/anim/kit/kit_info.hpp"
#include "myriad/anim/kit/outfit.hpp"
#include "myriad/anim/kit/part_lods.hpp"
#include "myriad/anim/clip/stride.hpp"
#include "myriad/core/io/error.hpp"
#include "output_path.hpp"

namespace myriad::app {
namespace {

struct AvatarsInfoOptions {
  std::vector<std::string> files;  // kit, then item files
  std::vector<std::string> clips;
  std::vector<std::string> roles;  // ROLE=CLIP
};

struct MakeKitOptions {
  std::string input;
  std::string out;
  std::string name = "kit";
  int parts = static_cast<int>(anim::kAvatarBodyParts);
  bool items = true;
};

std::string joint_list(const anim::Avatar& kit, const std::vector<std::uint16_t>& joints) {
  std::string s;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (i == 6) return s + ", ... (" + std::to_string(joints.size()) + ")";
    s += (i ? ", " : "") + kit.skeleton.names[joints[i]];
  }
  return s;
}

void print_dedup(const anim::KitDedup& d) {
  const auto ratio = [](std::size_t a, std::size_t b) {
    return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
  };
  std::printf("skeleton dedup (palette matrices per avatar, one palette per part -> one per avatar):\n");
  std::printf("  bare:    %zu -> %zu (%.2fx fewer)\n", d.bare_before, d.bare_after,
              ratio(d.bare_before, d.bare_after));
  std::printf("  clothed: %zu -> %zu (%.2fx fewer, every item worn)\n", d.clothed_before, d.clothed_after,
              ratio(d.clothed_before, d.clothed_after));
}

void print_kit(const anim::KitImport& in, const std::vector<anim::ClipRoleOverride>& overrides = {}) {
  const anim::Avatar& kit = in.kit;
  std::printf("kit %s: %zu joints, %zu parts\n", kit.name.c_str(), kit.skeleton.size(), kit.parts.size());
  for (const anim::Clip& c : kit.clips)
    std::printf("  clip '%s': %.2f s, %zu channels\n", c.name.c_str(), double(c.duration), c.channels.size());
  std::printf("  %-3s %-22s %-24s %8s %9s %6s  %s\n", "#", "part", "kind", "vertices", "triangles", "bones",
              "joints used");
  for (std::size_t p = 0; p < kit.parts.size(); ++p) {
    const anim::AvatarPart& part = kit.parts[p];
    std::string kind =
        part.clothing ? "item " + part.item + (part.slot != part.item ? " (" + part.slot + ")" : "") : "body";
    if (part.rigid) kind += ", rigid";
    std::printf("  %-3zu %-22s %-24s %8zu %9zu %6zu  %s\n", p, part.mesh.name.c_str(), kind.c_str(),
                part.mesh.positions.size(), part.mesh.indices.size() / 3, part.skin.joints.size(),
                joint_list(kit, anim::joints_used(part)).c_str());
  }
  const anim::KitSlots slots = anim::kit_slots(kit);
  for (const anim::KitSlots::Slot& s : slots.slots) {
    std::string items;
    for (const std::string& i : s.items) items += (items.empty() ? "" : ", ") + i;
    std::printf("  slot %s: %s\n", s.name.c_str(), items.c_str());
  }
  for (const std::string& i : anim::avatar_ignored(in)) std::printf("  ignored: %s\n", i.c_str());
  for (const anim::Material& m : kit.materials) {
    const char* alpha = m.alpha_mode == anim::AlphaMode::kOpaque ? "opaque"
                        : m.alpha_mode == anim::AlphaMode::kMask ? "mask"
                                                                 : "blend (drawn as mask)";
    std::printf(
        "  material '%s': base colour %.2f %.2f %.2f %.2f, %s, %s%s\n", m.name.c_str(),
        double(m.base_color_factor.r), double(m.base_color_factor.g), double(m.base_color_factor.b),
        double(m.base_color_factor.a),
        m.base_color_texture >= 0
            ? ("texture '" + kit.textures[static_cast<std::size_t>(m.base_color_texture)].name + "'").c_str()
            : "no texture",
        alpha, m.double_sided ? ", double-sided" : "");
    if (!m.texture_problem.empty())
      std::fprintf(stderr, "warning: material '%s': %s\n", m.name.c_str(), m.texture_problem.c_str());
  }
  const anim::ClipRoles roles = anim::find_clip_roles(kit.clips, overrides);
  const auto role = [&](int clip) {
    return clip < 0 ? std::string("none") : "'" + kit.clips[std::size_t(clip)].name + "'";
  };
  std::printf("  clip roles: walk %s%s, idle %s\n", role(roles.walk).c_str(),
              roles.walk >= 0 && !roles.walk_named ? " (no clip named walk/run: the first clip)" : "",
              role(roles.idle).c_str());
  if (roles.walk >= 0) {
    const anim::ClipStride stride = anim::clip_stride(kit, kit.clips[static_cast<std::size_t>(roles.walk)]);
    std::printf("  walk stride: %.3f m/s forward (%.2f, %.2f)%s\n", double(stride.speed),
                double(stride.forward.x), double(stride.forward.z),
                stride.root_motion ? ", root motion (walked in place by the crowd)" : "");
  }
  const int stance_clip = roles.walk >= 0 ? roles.walk : roles.idle;
  const anim::KitStance st =
      anim::kit_stance(kit, stance_clip >= 0 ? &kit.clips[static_cast<std::size_t>(stance_clip)] : nullptr);
  std::printf(
      "  height %.3f m, foot offset %.3f m (lowest point below the armature origin, %s), centre %.3f %.3f\n",
      double(st.height), double(-st.lowest.y), st.from_clip ? "first frame of the walk clip" : "rest pose",
      double(st.centre.x), double(st.centre.z));
  std::size_t lod_vertices[3] = {0, 0, 0};
  for (const anim::AvatarPart& part : kit.parts) {
    const std::vector<anim::SkinnedMesh> levels = anim::make_part_lods(part.mesh, 3);
    for (std::size_t l = 0; l < 3; ++l) lod_vertices[l] += levels[l].positions.size();
  }
  std::printf("  LOD levels (every part, borders locked): %zu / %zu / %zu vertices\n", lod_vertices[0],
              lod_vertices[1], lod_vertices[2]);
  print_dedup(anim::measure_dedup(kit));
}

int run_info(const AvatarsInfoOptions& o) {
  const std::vector<std::filesystem::path> items(o.files.begin() + 1, o.files.end());
  anim::KitImport in = anim::import_kit(o.files[0], items);
  for (const std::string& c : o.clips) {
    for (const std::string& w : anim::add_kit_clips(in.kit, c)) std::printf("warning: %s\n", w.c_str());
  }
  std::vector<anim::ClipRoleOverride> overrides;
  for (const std::string& r : o.roles) overrides.push_back(anim::parse_clip_role(r, "--avatar-clip"));
  print_kit(in, overrides);
  return 0;
}

int run_make_kit(const MakeKitOptions& o) {
  if (o.parts < 1 || o.parts > 64)
    throw Error("body parts must be in [1, 64]", "--parts", "the article's avatars have 17");
  const std::filesystem::path out(o.out);
  prepare_output_folder(out, "--out");
  const bool procedural = o.input == "procedural";
  std::error_code ec;
  if (!procedural && std::filesystem::is_directory(o.input, ec))
    throw Error("'" + o.input + "' is a folder", "input model", "name a .glb or .gltf file, or 'procedural'");
  anim::Avatar kit;
  if (procedural) {
    kit = anim::make_avatar({.clothed = o.items});
  } else {
    std::vector<std::string> ignored;
    kit = anim::kit_from_file(o.input, static_cast<std::size_t>(o.parts), &ignored);
    for (const std::string& i : ignored) std::printf("  ignored: %s\n", i.c_str());
    if (o.items) anim::add_sample_items(kit);
  }
  const anim::KitImport in = anim::write_and_import_kit(kit, out, o.name);
  std::printf("wrote %s%s\n", (out / (o.name + ".glb")).c_str(),
              o.items ? (" and " + (out / (o.name + "_items.glb")).string()).c_str() : "");
  print_kit(in);
  return 0;
}

}  // namespace

Command add_avatars_command(CLI::App& app) {
  auto info_o = std::make_shared<AvatarsInfoOptions>();
  auto make_o = std::make_shared<MakeKitOptions>();
  CLI::App* avatars = app.add_subcommand("avatars", "Avatar kits from glTF: parts, items, clips, dedup");
  avatars->require_subcommand(1);
  CLI::App* info = avatars->add_subcommand("info", "Import a kit (and item files) and describe it");
  info->add_option("files", info_o->files, "kit.glb, then item files bound to its skeleton by joint name")
      ->required()
      ->check(CLI::ExistingFile);
  info->add_option("--clips", info_o->clips,
                   "Files whose animations are retargeted onto the kit by joint name")
      ->check(CLI::ExistingFile);
  info->add_option("--avatar-clip", info_o->roles, "ROLE=CLIP: the clip for walk or idle (default: by name)")
      ->type_name("ROLE=CLIP");
  CLI::App* make = avatars->add_subcommand(
      "make-kit", "Split a single-skin character into body parts, add sample items, write and re-import it");
  make->add_option("input", make_o->input, "model.glb / model.gltf, or 'procedural'")->required();
  make->add_option("-o,--out", make_o->out, "Output folder")->required();
  make->add_option("--name", make_o->name, "File stem of the kit (<name>.glb, <name>_items.glb)");
  make->add_option("--parts", make_o->parts, "Body parts to split the model into");
  make->add_flag("!--no-items", make_o->items, "Do not add the sample items");
  return {avatars, [info_o, make_o, info, make]() -> int {
            if (info->parsed()) return run_info(*info_o);
            if (make->parsed()) return run_make_kit(*make_o);
            return 1;
          }};
}

}  // namespace myriad::app
