// `myriad voxel import MODEL.vox --at X,Y,Z` places a MagicaVoxel model into the generated voxel world
// (palette mapped to the world's materials, light redone around it) and renders the world from the
// presets plus a view looking at the model, writing <out>/voxel_import_<view>.png and a JSON summary.
// With --world-size N --save DIR the model goes into a streamed world's save directory instead
// (voxel_import_streamed.hpp).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "myriad/voxel/files/vox_file.hpp"
#include "myriad/voxel/files/vox_place.hpp"
#include "output_path.hpp"
#include "render_streamed_voxel.hpp"
#include "voxel_edit.hpp"
#include "voxel_import_streamed.hpp"

namespace myriad::app {
namespace {

struct VoxelImportOptions {
  std::string model;
  std::string at;
  std::string out = "out";
  std::uint64_t seed = 1;
  std::vector<int> size{256, 64, 256};
  std::uint32_t world_size = 0;  // streamed: N x 128 x N (0: the fixed world of --size)
  std::string save_dir;
  std::uint32_t width = 1280, height = 720;
};

glm::ivec3 parse_at(const std::string& text) {
  glm::ivec3 p(0);
  char c1 = 0, c2 = 0;
  std::istringstream in(text);
  if (!(in >> p.x >> c1 >> p.y >> c2 >> p.z) || c1 != ',' || c2 != ',' || !in.eof())
    throw Error("'" + text + "' is not X,Y,Z (three integers)", "--at", "e.g. --at 100,30,120");
  return p;
}

int run_voxel_import(const VoxelImportOptions& o) {
  const glm::ivec3 at = parse_at(o.at);
  const bool streamed = o.world_size > 0;
  if (streamed && o.save_dir.empty())
    throw Error("a streamed import writes the model into a save directory", "--world-size",
                "add --save DIR (the folder to render it from later with --save DIR)");
  if (!streamed && !o.save_dir.empty())
    throw Error("only a streamed world has a save directory", "--save", "add --world-size N");
  if (o.size.size() != 3) throw Error("--size takes X Y Z", "--size");
  const glm::ivec3 size = streamed ? glm::ivec3(int(o.world_size), kStreamedWorldHeight, int(o.world_size))
                                   : glm::ivec3(o.size[0], o.size[1], o.size[2]);
  for (int k = 0; k < 3 && !streamed; ++k) {
    if (size[k] < 16 || size[k] > 4096 || size[k] % 16 != 0)
      throw Error("world size " + std::to_string(size[k]) + " is not a multiple of 16 in 16..4096", "--size");
  }
  // Everything about the file and the placement is checked before the GPU starts.
  const voxel::VoxScene scene = voxel::read_vox(o.model);
  const std::array<std::uint8_t, 256> materials_of = voxel::map_vox_palette(scene);
  const glm::ivec3 extent = voxel::vox_extent(scene);
  const glm::ivec3 top = at + extent - glm::ivec3(1);
  if (glm::any(glm::lessThan(at, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(top, size))) {
    throw Error("the model (" + std::to_string(extent.x) + " x " + std::to_string(extent.y) + " x " +
                    std::to_string(extent.z) + " voxels) placed at " + o.at + " leaves the " +
                    std::to_string(size.x) + " x " + std::to_string(size.y) + " x " + std::to_string(size.z) +
                    " world",
                "--at", "choose a corner so that corner + model size stays inside the world");
  }
  std::size_t voxels = 0;
  for (const voxel::VoxModel& m : scene.models) voxels += m.voxels.size();
  std::printf("%s: MagicaVoxel %u, %zu models, %zu instances, %zu voxels, %s palette\n", o.model.c_str(),
              scene.version, scene.models.size(), scene.instances.size(), voxels,
              scene.default_palette ? "default" : "own");
  if (streamed) {
    StreamedImportOptions s;
    s.model = o.model;
    s.at = at;
    s.world_size = int(o.world_size);
    s.seed = o.seed;
    s.save_dir = o.save_dir;
    s.out = o.out;
    s.width = o.width;
    s.height = o.height;
    prepare_output_folder(s.save_dir, "--save");
    prepare_output_folder(s.out, "--out");
    return import_vox_streamed(scene, materials_of, s);
  }

  voxel::VoxPlacement placed;
  render::VoxelSceneOptions options;
  options.width = o.width;
  options.height = o.height;
  options.seed = o.seed;
  options.size = size;
  options.edit_world = [&](voxel::World& world) {
    placed = voxel::place_vox(world, scene, at, materials_of);
  };
  // A view from above and in front of the model, far enough to see all of it and its surroundings.
  const glm::vec3 centre = glm::vec3(at) + glm::vec3(extent) * 0.5f;
  const float reach = std::max(24.0f, 1.6f * float(std::max({extent.x, extent.y, extent.z})));
  render::VoxelView model_view{
      "model", render::SceneCamera::look_at(centre + glm::vec3(-0.6f, 0.55f, 0.8f) * reach, centre,
                                            glm::radians(55.0f))};
  options.extra_views = {model_view};

  gpu::Context ctx;
  const render::VoxelSceneResult result = render::render_voxel_scene(ctx, options);
  std::filesystem::create_directories(o.out);
  nlohmann::ordered_json summary;
  summary["model"] = o.model;
  summary["models"] = scene.models.size();
  summary["instances"] = scene.instances.size();
  summary["placed_min"] = {placed.min.x, placed.min.y, placed.min.z};
  summary["placed_max"] = {placed.max.x, placed.max.y, placed.max.z};
  summary["voxels_set"] = placed.voxels;
  summary["sections_remeshed"] = placed.dirty_sections.size();
  std::printf("placed %zu voxels in (%d,%d,%d)..(%d,%d,%d); %zu sections affected\n", placed.voxels,
              placed.min.x, placed.min.y, placed.min.z, placed.max.x - 1, placed.max.y - 1, placed.max.z - 1,
              placed.dirty_sections.size());
  for (std::size_t m = 1; m < voxel::kMaterialCount; ++m) {
    if (placed.per_material[m] == 0) continue;
    summary["voxels_per_material"][voxel::materials()[m].name] = placed.per_material[m];
    std::printf("  %-10s %zu voxels\n", voxel::materials()[m].name, placed.per_material[m]);
  }
  for (const render::VoxelFrame& f : result.frames) {
    const std::filesystem::path png = std::filesystem::path(o.out) / ("voxel_import_" + f.name + ".png");
    write_png_rgba8(png, o.width, o.height, f.rgba);
    std::printf("wrote %s\n", png.string().c_str());
  }
  const std::string text = summary.dump(1);
  write_file_atomic(std::filesystem::path(o.out) / "voxel_import.json",
                    std::as_bytes(std::span(text.data(), text.size())));
  if (ctx.validation_message_count() > 0) {
    std::fprintf(stderr, "myriad: %u validation messages\n", ctx.validation_message_count());
    return 1;
  }
  return 0;
}

}  // namespace

Command add_voxel_command(CLI::App& app) {
  auto o = std::make_shared<VoxelImportOptions>();
  CLI::App* sub = app.add_subcommand("voxel", "Voxel world tools");
  sub->require_subcommand(1);
  CLI::App* import = sub->add_subcommand(
      "import",
      "Place a MagicaVoxel .vox model (every model of its scene, palette mapped to the world's materials) "
      "into the generated world and render it: <out>/voxel_import_<view>.png and voxel_import.json");
  import->add_option("model", o->model, "The .vox file")->required();
  import->add_option("--at", o->at, "World voxel X,Y,Z of the model's low corner (y up)")->required();
  import->add_option("--out", o->out, "Output folder");
  import->add_option("--seed", o->seed, "World seed");
  CLI::Option* size =
      import->add_option("--size", o->size, "World size in voxels: X Y Z, multiples of 16")->expected(3);
  CLI::Option* world_size = import->add_option(
      "--world-size", o->world_size,
      "Write the model into a streamed world of N x 128 x N cells (N a multiple of 16, 64-4096): its edited "
      "columns are saved to --save, then rendered from there");
  world_size->check(CLI::Range(64u, 4096u));
  world_size->check(CLI::Validator(
      [](std::string& v) { return std::stoul(v) % 16 == 0 ? std::string() : "must be a multiple of 16"; },
      "MULTIPLE OF 16"));
  world_size->excludes(size);
  import->add_option("--save", o->save_dir,
                     "With --world-size: the streamed world's save directory (column_X_Z.mvxc files)");
  import->add_option("--width", o->width, "Image width")->check(CLI::Range(16u, 8192u));
  import->add_option("--height", o->height, "Image height")->check(CLI::Range(16u, 8192u));
  auto e = std::make_shared<VoxelEditCommand>();
  CLI::App* edit = sub->add_subcommand(
      "edit",
      "Apply an edit script (one edit per line: dig X Y Z, place X Y Z [MATERIAL [SHAPE [DEGREES]]] or place "
      "X Y Z MODEL [DEGREES]) to the "
      "fixed or streamed world, one edit per frame, and write <out>/voxel_edit_before.png, "
      "voxel_edit_after.png and voxel_edit.json (sections re-meshed and uploaded, frame-thread ms, frames to "
      "visible)");
  edit->add_option("--script", e->script, "The edit script (docs/FORMATS.md)")->required();
  edit->add_option("--out", e->out, "Output folder");
  edit->add_option("--seed", e->seed, "World seed");
  CLI::Option* edit_size =
      edit->add_option("--size", e->size, "Fixed world size in voxels: X Y Z, multiples of 16")->expected(3);
  CLI::Option* edit_world_size =
      edit->add_option("--world-size", e->world_size,
                       "Edit a streamed world of N x 128 x N cells instead (N a multiple of 16)");
  edit_world_size->check(CLI::Range(64u, 4096u));
  edit_world_size->excludes(edit_size);
  edit->add_option("--stream-radius", e->stream_radius, "Streamed: columns meshed around the camera (2-64)")
      ->check(CLI::Range(2, 64));
  edit->add_option("--save", e->save_dir, "Streamed: folder the edited columns are saved to");
  edit->add_option("--width", e->width, "Image width")->check(CLI::Range(16u, 8192u));
  edit->add_option("--height", e->height, "Image height")->check(CLI::Range(16u, 8192u));
  return {sub, [o, import, e, edit]() -> int {
            if (import->parsed()) return run_voxel_import(*o);
            return edit->parsed() ? run_voxel_edit(*e) : 1;
          }};
}

}  // namespace myriad::app
