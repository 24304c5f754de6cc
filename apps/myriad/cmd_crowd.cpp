// `myriad crowd bake` bakes a skinned, animated model (glTF, or the built-in procedural enemy) into a
// .crowd file: welded LOD0, LOD1, LOD2, the VAT of the used columns, with a progress bar, a report and
// hole-check contact sheets next to the output. `myriad crowd info` describes a .crowd file.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "commands.hpp"
#include "myriad/anim/import/whole_model.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/crowd/crowd_file.hpp"
#include "myriad/crowd_bake/enemy/enemy.hpp"
#include "myriad/crowd_bake/pipeline.hpp"
#include "option_checks.hpp"
#include "output_path.hpp"

namespace myriad::app {
namespace {

struct CrowdBakeOptions {
  std::string input;
  std::string out;
  // --fps, --weld-angle, --lod1-ratio, --lod2-triangles and the hole-check limits, bound straight into
  // the baker's options and checked by them (BakeOptions::validate, which also keeps room for every
  // LOD2 retry, so a target the command accepted is never refused after the first stages).
  crowd::BakeOptions bake;
  bool sheets = true;
  // Refuse instead of warning: a missing texture file, and a level outside the hole-check limits
  // (without it the file is written with the closest level found, and the report says so).
  bool strict = false;
};

void progress_bar(const std::string& stage, int done, int total) {
  const int width = 32;
  const int filled = total ? done * width / total : width;
  std::fprintf(stderr, "\r  [%.*s%*s] %d/%d %-20s", filled, "################################",
               width - filled, "", done, total, stage.c_str());
  if (done == total) std::fprintf(stderr, "\n");
}

int run_crowd_bake(const CrowdBakeOptions& o) {
  validate_options(o.bake, {{"VatOptions::fps", "--fps"},
                            {"WeldOptions::normal_angle_deg", "--weld-angle"},
                            {"Lod1Options::target_ratio", "--lod1-ratio"},
                            {"BakeOptions::lod2.target_triangles", "--lod2-triangles"},
                            {"HoleCheckOptions::hole_limit", "--hole-limit"},
                            {"HoleCheckOptions::loss_limit", "--loss-limit"},
                            {"HoleCheckOptions::silhouette_limit", "--silhouette-limit"}});
  const std::filesystem::path out(o.out);
  prepare_output_file(out, "--out");
  const bool procedural = o.input == "enemy";
  std::error_code ec;
  if (!procedural && std::filesystem::is_directory(o.input, ec))
    throw Error("'" + o.input + "' is a folder", "input model", "name a .glb or .gltf file, or 'enemy'");
  // The whole model: every skinned mesh (all skins), meshes parented to joints, every material.
  anim::WholeModel whole;
  if (procedural) {
    whole.model = crowd::make_enemy();
  } else {
    whole = anim::import_whole_model(o.input);
  }
  const anim::ImportedModel& model = whole.model;
  const std::string name = procedural ? "enemy" : std::filesystem::path(o.input).filename().string();
  if (!procedural) {
    std::printf("%s: %zu joints, %zu meshes, %zu materials, %zu clips\n", name.c_str(), model.skeleton.size(),
                model.meshes.size(), model.materials.size(), model.clips.size());
    for (const std::string& p : whole.parts) std::printf("  %s\n", p.c_str());
    for (const std::string& i : whole.ignored) std::printf("  ignored: %s\n", i.c_str());
    for (const std::string& m : whole.animated_morphs) std::printf("  %s: baked into the VAT\n", m.c_str());
    for (const anim::Material& m : model.materials) {
      if (m.texture_problem.empty()) continue;
      const std::string what = "material '" + m.name + "': " + m.texture_problem;
      if (o.strict)
        throw Error(what, name, "put the texture files beside the model, or bake without --strict");
      std::fprintf(stderr, "warning: %s: %s\n", name.c_str(), what.c_str());
    }
  }
  crowd::BakeOptions options = o.bake;
  if (o.sheets) options.contact_sheets = out.parent_path() / out.stem();
  std::printf("baking %s into %s\n", name.c_str(), o.out.c_str());
  std::fflush(stdout);  // before the progress bar on stderr
  const crowd::BakeOutput baked = crowd::bake_crowd(model, name, options, &progress_bar);
  std::printf("%s", crowd::format_report(baked.report, options.holes).c_str());
  if (o.sheets)
    std::printf("  contact sheets: %s_lod1.png, %s_lod2.png\n", options.contact_sheets.string().c_str(),
                options.contact_sheets.string().c_str());
  if (!baked.report.passed && o.strict) {
    std::fprintf(stderr, "myriad: error: %s was not written (--strict): %s\n", o.out.c_str(),
                 baked.report.failure.c_str());
    return 1;
  }
  crowd::write_crowd(out, baked.file);
  std::printf("wrote %s (%ju bytes)\n", o.out.c_str(),
              static_cast<std::uintmax_t>(std::filesystem::file_size(out)));
  if (!baked.report.passed) {
    std::fprintf(stderr, "warning: %s holds a level outside the hole-check limits (the closest found): %s\n",
                 o.out.c_str(), baked.report.failure.c_str());
  }
  return 0;
}

int run_crowd_info(const std::string& path) {
  const crowd::CrowdFile f = crowd::read_crowd(path);
  std::printf("%s: crowd file version %u, model '%s'\n", path.c_str(), crowd::kCrowdVersion, f.name.c_str());
  std::printf(
      "  bind bounds (%.3f %.3f %.3f) - (%.3f %.3f %.3f), animated (%.3f %.3f %.3f) - (%.3f %.3f %.3f)\n",
      double(f.bind_min.x), double(f.bind_min.y), double(f.bind_min.z), double(f.bind_max.x),
      double(f.bind_max.y), double(f.bind_max.z), double(f.animated_min.x), double(f.animated_min.y),
      double(f.animated_min.z), double(f.animated_max.x), double(f.animated_max.y), double(f.animated_max.z));
  for (std::size_t i = 0; i < f.lods.size(); ++i) {
    const crowd::CrowdLod& lod = f.lods[i];
    std::printf("  LOD%zu: %zu vertices, %zu triangles, texture %u, made by %s", i, lod.vertex_count(),
                lod.triangle_count(), lod.texture, lod.method.c_str());
    if (lod.checked) {
      std::printf("; holes %.2f %%, loss %.2f %%, silhouette %.2f %% (%s)\n", double(lod.holes) * 100.0,
                  double(lod.loss) * 100.0, double(lod.silhouette) * 100.0,
                  lod.within_limits ? "within the limits" : "OUTSIDE the limits");
    } else {
      std::printf(" (not hole-checked)\n");
    }
  }
  std::printf("  VAT: %u columns (%u skinned, %u attached) x %u rows at %.1f fps, %zu bytes\n", f.columns,
              f.skinned_columns, f.columns - f.skinned_columns, f.rows, double(f.fps),
              f.texels.size() * sizeof(glm::u16vec4));
  for (const crowd::VatClip& c : f.clips) {
    std::printf("    clip '%s': %.3f s, rows %u..%u\n", c.name.c_str(), double(c.duration), c.first_row,
                c.first_row + c.frames - 1);
  }
  for (const anim::Texture& t : f.textures)
    std::printf("  texture '%s': %u x %u\n", t.name.c_str(), t.width, t.height);
  for (const crowd::CrowdPart& part : f.parts) {
    const std::string kind = part.joint.empty() ? "skinned to " + std::to_string(part.joints) + " joints"
                                                : "follows joint '" + part.joint + "' alone";
    std::printf("  part '%s': %s, %u triangles, material '%s'\n", part.name.c_str(), kind.c_str(),
                part.triangles, part.material.c_str());
  }
  for (const crowd::CrowdMaterial& m : f.materials) {
    std::printf("  material '%s': %s\n", m.name.c_str(),
                m.double_sided ? "double-sided" : "back faces culled");
  }
  return 0;
}

}  // namespace

Command add_crowd_command(CLI::App& app) {
  auto o = std::make_shared<CrowdBakeOptions>();
  auto info_path = std::make_shared<std::string>();
  CLI::App* crowd = app.add_subcommand("crowd", "Crowd LOD baking (VAT, LOD1, LOD2, hole check)");
  crowd->require_subcommand(1);
  CLI::App* bake = crowd->add_subcommand("bake", "Bake a skinned glTF model (or 'enemy') into a .crowd file");
  bake->add_option("input", o->input, "model.glb / model.gltf, or 'enemy' for the procedural enemy")
      ->required();
  bake->add_option("-o,--out", o->out, "Output .crowd file")->required();
  bake->add_option("--fps", o->bake.vat.fps, "VAT sample rate");
  bake->add_option("--weld-angle", o->bake.weld.normal_angle_deg,
                   "Largest normal angle (degrees) that LOD0 welding merges");
  bake->add_option("--lod1-ratio", o->bake.lod1.target_ratio, "LOD1 triangles as a fraction of LOD0");
  bake->add_option("--lod2-triangles", o->bake.lod2.target_triangles,
                   "LOD2 triangle target (the article: 200-460)");
  bake->add_option("--hole-limit", o->bake.holes.hole_limit, "Largest fraction of hole pixels per view");
  bake->add_option("--loss-limit", o->bake.holes.loss_limit, "Largest fraction of loss pixels per view");
  bake->add_option("--silhouette-limit", o->bake.holes.silhouette_limit,
                   "Largest fraction of the original's pixels outside a level's outline per view");
  bake->add_flag("!--no-sheets", o->sheets, "Do not write the contact sheet PNGs");
  bake->add_flag(
      "--strict", o->strict,
      "Refuse a model whose texture files are missing, and write no file when a level stays outside "
      "the hole-check limits (default: warn; the file holds the closest level found)");
  CLI::App* info = crowd->add_subcommand("info", "Describe a .crowd file");
  info->add_option("file", *info_path, "The .crowd file")->required();
  return {crowd, [o, info_path, bake, info]() -> int {
            if (bake->parsed()) return run_crowd_bake(*o);
            if (info->parsed()) return run_crowd_info(*info_path);
            return 1;
          }};
}

}  // namespace myriad::app
