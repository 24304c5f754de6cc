// `myriad render`: renders a scene headless to PNG and writes its stats as JSON in --out.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/frame/culling_choice.hpp"
#include "myriad/render/smoke/smoke_scene.hpp"
#include "myriad/render/voxel/voxel_scene.hpp"
#include "image_output.hpp"
#include "render_streamed_voxel.hpp"
#include "option_checks.hpp"
#include "output_path.hpp"
#include "tiles_option.hpp"
#ifdef MYRIAD_HAS_VEGETATION
#include "myriad/render/vegetation/vegetation_scene.hpp"
#include "prefab_option.hpp"
#endif
#ifdef MYRIAD_HAS_CROWD
#include "myriad/crowd_bake/enemy/enemy_roster.hpp"
#include "myriad/render/crowd/crowd_scene.hpp"
#endif
#ifdef MYRIAD_HAS_WORLD
#include "myriad/render/world/world_scene.hpp"
#include "render_world.hpp"
#include "world_options.hpp"
#endif

namespace myriad::app {
namespace {

namespace fs = std::filesystem;

struct RenderOptions {
#ifdef MYRIAD_HAS_WORLD
  std::string scene = "world";
#else
  std::string scene = "voxel";
#endif
  ImageOutput image;  // --out, --width, --height, --view: every scene's images
  // Options several scenes read, each bound once.
  std::uint64_t seed = 1;                // every scene but smoke
  std::uint32_t entities = 3000;         // crowd and world: VAT enemies
  bool lod_colors = false;               // crowd and world
  bool forced_lods = false;              // crowd: also draw every view with each LOD forced
  std::optional<double> time;            // world and crowd: simulated seconds (each scene has its default)
  std::vector<std::string> crowd_files;  // crowd and world: the enemy types
#ifdef MYRIAD_HAS_WORLD
  // The world scene's own options, bound directly (--no-coverage, --occlusion-pairs and the scene's);
  // share_with_world() reads the shared ones above into it.
  WorldRenderOptions world;
  std::string cache_dir;  // empty: the scene's default cache folder
#endif
  // Voxel.
  bool no_merge = false;
  bool light_only = false;
  bool no_vegetation = false;
  std::uint32_t world_size = 0;  // the streamed world's edge in cells (0 = the fixed reference world)
  int stream_radius = 12;
  std::string save_dir;
  std::string tiles_dir;                        // world and voxel: a block texture pack
  std::shared_ptr<const voxel::TileSet> tiles;  // read from it by check_render_options
  // Every scene: auto, gpu or cpu (render::choose_culling); the CPU path's LOD rule (leaf or instance).
  std::string cull = "auto";
  std::string cpu_lod = "leaf";
  // Vegetation.
  std::vector<std::string> prefabs;  // NAME=plant.glb
  bool ids = false;
  bool no_occlusion = false;
};

#ifdef MYRIAD_HAS_WORLD
// The world scene reads the options it shares with other scenes into its own, once, before they are
// checked.
void share_with_world(RenderOptions& options) {
  WorldRenderOptions& w = options.world;
  w.scene.seed = options.seed;
  w.scene.crowd_entities = options.entities;
  if (!options.cache_dir.empty()) w.scene.cache_dir = options.cache_dir;
  w.lod_colors = options.lod_colors;
  w.time = options.time.value_or(kDefaultRenderTime);
}
#endif

void write_text(const fs::path& path, const std::string& text) {
  write_file_atomic(path, std::as_bytes(std::span(text.data(), text.size())));
}

// Writes the stats, prints them, and turns validation messages into a failing exit code.
// The scene's culling path and why: an explicit request names its option, auto the device's answer.
nlohmann::ordered_json culling_json(const RenderOptions& options, const render::CullChoice& choice) {
  const std::string reason =
      options.cull == "auto" ? choice.reason : choice.reason + " (--cull " + options.cull + ")";
  return {{"requested", options.cull}, {"path", render::cull_path_name(choice.path)}, {"reason", reason}};
}

int finish(const gpu::Context& ctx, const RenderOptions& options, nlohmann::ordered_json& stats) {
  stats["validation_messages"] = ctx.validation_message_count();
  const fs::path json = fs::path(options.image.out) / (options.scene + "_stats.json");
  write_text(json, stats.dump(2) + "\n");
  std::printf("%s\nwrote %s\n", stats.dump(2).c_str(), json.c_str());
  return validation_exit_code(ctx);
}

#ifdef MYRIAD_HAS_VEGETATION
// The plant field alone: GPU culling (two-phase Hi-Z unless --no-occlusion) or, on the CPU path, the
// offline quadtrees on the CPU and batched instanced draws (G7).
int render_vegetation(gpu::Context& ctx, const RenderOptions& options, const render::CullChoice& cull,
                      const PlantPrefabs& prefabs, nlohmann::ordered_json& stats) {
  render::VegetationSceneOptions scene;
  scene.prefabs = prefabs;
  scene.width = options.image.width;
  scene.height = options.image.height;
  scene.seed = options.seed;
  scene.culling = cull.path;
  scene.cpu_lod = render::parse_vegetation_cpu_lod(options.cpu_lod, "--cpu-lod");
  scene.occlusion = !options.no_occlusion;
  scene.instance_ids = options.ids;
  const render::VegetationSceneResult r = render::render_vegetation_scene(ctx, scene);
  const fs::path png = fs::path(options.image.out) / "vegetation.png";
  write_png_rgba8(png, scene.width, scene.height, r.rgba);
  std::printf("      wrote %s\n", png.c_str());
  stats["culling"] = culling_json(options, cull);
  stats["culling"]["path"] = render::cull_path_name(scene.culling);  // what ran
  if (scene.culling == render::VegetationCulling::kCpu)
    stats["culling"]["cpu_lod"] = render::vegetation_cpu_lod_name(scene.cpu_lod);
  stats["occlusion"] = scene.culling == render::VegetationCulling::kGpu && scene.occlusion;
  stats["instances"] = r.instances;
  stats["types"] = r.types;
  stats["drawn"] = r.drawn;
  stats["draw_calls"] = r.draws;
  stats["list_overflow"] = r.overflow;
  stats["bake_ms"] = r.bake_ms;
  stats["frame_ms"] = r.frame_ms;
  for (const auto& [name, model] : prefabs) stats["prefabs"][name] = model->file;
  if (scene.culling == render::VegetationCulling::kCpu) {
    stats["cpu_cull"] = {{"nodes_tested", r.cpu_cull.nodes_tested},
                         {"nodes_skipped", r.cpu_cull.nodes_skipped},
                         {"instances_tested", r.cpu_cull.instances_tested},
                         {"instances_accepted", r.cpu_cull.instances_accepted}};
  }
  return 0;
}
#endif

int render_smoke(gpu::Context& ctx, const RenderOptions& options, nlohmann::ordered_json& stats) {
  render::SmokeSceneOptions scene;
  scene.width = options.image.width;
  scene.height = options.image.height;
  const render::SmokeSceneResult r = render::render_smoke_scene(ctx, scene);
  const fs::path png = fs::path(options.image.out) / "smoke.png";
  write_png_rgba8(png, r.width, r.height, r.rgba);
  std::printf("      wrote %s\n", png.c_str());
  stats["instances"] = r.instances;
  stats["visible"] = r.visible;
  stats["culled"] = r.instances - r.visible;
  stats["visible_cpu_reference"] = r.visible_cpu;
  stats["draw_calls"] = r.draw_calls;
  stats["pipeline_binds"] = r.pipeline_binds;
  stats["triangles"] = r.triangles;
  stats["depth_pyramid_levels"] = r.pyramid_levels;
  stats["cpu_record_ms"] = r.record_ms;
  stats["frame_ms"] = r.frame_ms;
  stats["gpu_timing"] = gpu::timing_source_name(r.timing);
  for (const auto& interval : r.gpu_intervals) stats["gpu_ms"][interval.name] = interval.ms;
  if (r.visible != r.visible_cpu) {
    std::fprintf(stderr, "myriad: GPU culling kept %u instances, the CPU reference %u\n", r.visible,
                 r.visible_cpu);
    return 4;
  }
  return 0;
}

int render_voxel(gpu::Context& ctx, const RenderOptions& options, nlohmann::ordered_json& stats) {
  render::VoxelSceneOptions scene;
  scene.width = options.image.width;
  scene.height = options.image.height;
  scene.views = options.image.views;
  scene.seed = options.seed;
  scene.merge = !options.no_merge;
  scene.debug_mode = options.light_only ? 1u : 0u;
  scene.vegetation = !options.no_vegetation;
  scene.tiles = options.tiles;
  const render::VoxelSceneResult r = render::render_voxel_scene(ctx, scene);
  if (r.frames.empty())
    throw Error("no camera preset matched --view", "myriad render",
                "use overview, ground, sliced, close_up, zoomed_out or game");
  stats["sections"] = r.build.sections;
  stats["cpu_ms"] = {{"generate", r.build.generate_ms},
                     {"light", r.build.light_ms},
                     {"mesh", r.build.mesh_ms},
                     {"upload", r.build.upload_ms}};
  stats["terrain"] = {{"vertices", r.memory.vertices},
                      {"indices", r.memory.indices},
                      {"atlas_records", r.memory.atlas_records}};
  stats["voxel_vegetation"] = {{"grass_instances", r.build.grass}, {"trees", r.build.trees}};
  stats["gpu_memory_bytes"] = {{"voxel_vegetation", r.vegetation_gpu_bytes},
                               {"terrain_vertex_arenas", r.memory.vertex_bytes},
                               {"terrain_index_arenas", r.memory.index_bytes},
                               {"terrain_page_tables", r.memory.page_bytes}};
  stats["cpu_memory_bytes"] = {{"terrain_renderer", r.memory.cpu_bytes}};
  for (const render::VoxelFrame& f : r.frames) {
    const fs::path png = fs::path(options.image.out) / ("voxel_" + f.name + ".png");
    write_png_rgba8(png, scene.width, scene.height, f.rgba);
    std::printf("      wrote %s\n", png.c_str());
    stats["views"][f.name] = {{"pages", f.stats.pages},
                              {"arenas", f.stats.arenas},
                              {"draws", f.stats.arenas_drawn},
                              {"pipeline_binds", f.stats.pipeline_binds},
                              {"coarse_chunk_tests", f.stats.chunk_tests},
                              {"culled_on_gpu", f.stats.culled},
                              {"uploaded_bytes", f.stats.uploaded_bytes},
                              {"grass_near", f.vegetation_counts.grass_near},
                              {"grass_far", f.vegetation_counts.grass_far},
                              {"trees", f.vegetation_counts.trees},
                              {"vegetation_skipped", f.vegetation.skipped},
                              {"vegetation_draws", f.vegetation.draws},
                              {"cpu_record_ms", f.record_ms},
                              {"frame_ms", f.frame_ms}};
  }
  return 0;
}

#ifdef MYRIAD_HAS_CROWD
const char* lod_mode_name(int mode) {
  static const char* names[4] = {"per_entity_lod", "forced_lod0", "forced_lod1", "forced_lod2"};
  return names[mode + 1];
}

// The VAT crowd: baked .crowd files (--crowd) or the built-in enemy types baked here, rendered from
// the whole-map and close-up views with per-entity LOD; with --forced-lods the stats add each view
// drawn with every LOD forced (the comparison `bench crowd` makes).
int render_crowd(gpu::Context& ctx, const RenderOptions& options, std::vector<crowd::CrowdFile> types,
                 nlohmann::ordered_json& stats) {
  if (types.empty()) {
    std::printf("      baking the built-in enemy types\n");
    types = crowd::bake_builtin_enemy_types();
  }
  render::CrowdSceneOptions scene;
  scene.width = options.image.width;
  scene.height = options.image.height;
  scene.entities = options.entities;
  scene.seed = options.seed;
  scene.views = options.image.views;
  scene.lod_colors = options.lod_colors;
  if (!options.forced_lods) scene.frames = {{-1}};
  if (options.time) scene.time = static_cast<float>(*options.time);
  const render::CrowdSceneResult r = render::render_crowd_scene(ctx, types, scene);
  if (r.frames.empty())
    throw Error("no camera preset matched --view", "myriad render", "use whole_map or close_up");
  stats["entities"] = options.entities;
  stats["types"] = types.size();
  stats["gpu_memory_bytes"] = {{"crowd", r.gpu_bytes}};
  for (const render::CrowdSceneFrame& f : r.frames) {
    const int mode = f.spec.mode;
    if (mode < 0) {
      const fs::path png = fs::path(options.image.out) / ("crowd_" + f.view + ".png");
      write_png_rgba8(png, scene.width, scene.height, f.rgba);
      std::printf("      wrote %s\n", png.c_str());
    }
    nlohmann::ordered_json& v = stats["views"][f.view][lod_mode_name(mode)];
    v["visible"] = f.stats.total_entities();
    v["culled"] = options.entities - f.stats.total_entities();
    v["fading"] = f.stats.fading;  // in a cross-fade band: drawn in two LODs
    v["entities_per_lod"] = f.stats.entities;
    v["vertices_per_lod"] = f.stats.vertices;
    v["triangles_per_lod"] = f.stats.triangles;
    v["triangles"] = f.stats.total_triangles();
    v["draws"] = 3 * types.size();
    v["shadow_casters"] = f.shadow_stats.total_entities();
    v["shadow_triangles"] = f.shadow_stats.total_triangles();
    v["frame_ms"] = f.frame_ms;
  }
  return 0;
}
#endif

// The camera presets each scene offers (--view names a subset).
std::vector<std::string> view_names(const std::string& scene, bool streamed) {
  std::vector<std::string> names;
#ifdef MYRIAD_HAS_WORLD
  if (scene == "world") {
    for (const auto& preset : render::world_camera_presets()) names.push_back(preset.first);
    return names;
  }
#endif
  if (scene == "crowd") return {"whole_map", "close_up"};
  if (scene == "smoke" || scene == "vegetation") return {};
  if (streamed) {
    for (const auto& preset : render::streamed_voxel_presets(glm::ivec3(1))) names.push_back(preset.first);
    return names;
  }
  for (const render::VoxelView& v : render::voxel_camera_presets(glm::ivec3(1))) names.push_back(v.name);
  return names;
}

// Every option is checked before Vulkan starts or anything is built: a typo costs one line, not a bake.
// Reads --tiles' pack into options.tiles. Returns the streamed voxel world's options (built and checked
// here, once) when --world-size asks for it.
std::optional<render::StreamedVoxelSceneOptions> check_render_options(RenderOptions& options) {
  options.image.validate();
  const bool streamed = options.scene == "voxel" && options.world_size > 0;
  if (options.image.draw_distance > 0.0f && options.scene != "world" && !streamed)
    throw Error("only the world scene and the streamed voxel world take a draw distance", "--draw-distance",
                "add --scene world, or --scene voxel --world-size N");
  if (options.world_size > 0 && options.scene != "voxel")
    throw Error("only the voxel scene streams a world", "--world-size", "add --scene voxel");
  if (!options.save_dir.empty() && !streamed)
    throw Error("edits are saved by the streamed voxel world", "--save", "add --scene voxel --world-size N");
  if (!options.tiles_dir.empty() && options.scene != "world" && options.scene != "voxel")
    throw Error("only the world and voxel scenes draw block textures", "--tiles",
                "add --scene world or --scene voxel");
  std::optional<render::StreamedVoxelSceneOptions> streamed_options;
  if (streamed)
    streamed_options = streamed_scene_options(options.world_size, options.seed, options.stream_radius,
                                              options.save_dir, !options.no_merge);
  const std::vector<std::string> names = view_names(options.scene, streamed);
  for (const std::string& view : options.image.views) {
    if (std::find(names.begin(), names.end(), view) != names.end()) continue;
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    throw Error("scene '" + options.scene + "' has no camera preset '" + view + "'", "--view",
                known.empty() ? std::string("this scene has one fixed view") : "use " + known);
  }
#ifdef MYRIAD_HAS_WORLD
  if (options.scene == "world")
    options.world.scene.validate();  // the scene's own limits, before anything is built
#endif
  if (!options.prefabs.empty() && options.scene != "vegetation")
    throw Error("plant models are drawn by the vegetation scene", "--prefab", "add --scene vegetation");
  options.tiles = load_tiles_option(options.tiles_dir);  // every tile checked before Vulkan starts
#ifdef MYRIAD_HAS_WORLD
  options.world.scene.tiles = options.tiles;
#endif
  if (streamed_options) streamed_options->tiles = options.tiles;
  prepare_output_folder(options.image.out, "--out");
#ifdef MYRIAD_HAS_WORLD
  if (!options.cache_dir.empty()) prepare_output_folder(options.cache_dir, "--cache");
#endif
  if (!options.save_dir.empty()) prepare_output_folder(options.save_dir, "--save");
  return streamed_options;
}

int run_render(RenderOptions& options) {
#ifdef MYRIAD_HAS_WORLD
  share_with_world(options);
#endif
  const std::optional<render::StreamedVoxelSceneOptions> streamed = check_render_options(options);
#ifdef MYRIAD_HAS_CROWD
  // Baked crowd files are read before Vulkan starts: a corrupt file fails at once.
  std::vector<crowd::CrowdFile> crowd_types;
  if (options.scene == "crowd" || options.scene == "world") {
    bool builtin = false;
    for (const std::string& file : options.crowd_files) {
      if (file == "builtin") {
        builtin = true;
      } else {
        crowd_types.push_back(crowd::read_crowd(file));
      }
    }
    // `--crowd builtin` keeps the built-in types beside the files (first, as without --crowd).
    if (builtin) {
      std::printf("      baking the built-in enemy types\n");
      std::vector<crowd::CrowdFile> types = crowd::bake_builtin_enemy_types();
      crowd_types.insert(crowd_types.begin(), std::make_move_iterator(types.begin()),
                         std::make_move_iterator(types.end()));
    }
    if (!options.crowd_files.empty())
      std::printf("      enemy types: %zu (%s)\n", crowd_types.size(),
                  builtin ? "built-in and from files" : "from files");
  }
#endif
#ifdef MYRIAD_HAS_VEGETATION
  // Plant models are imported before Vulkan starts: a bad model fails at once.
  const PlantPrefabs prefabs = load_prefabs(options.prefabs);
#endif
  std::printf("[1/3] starting Vulkan\n");
  gpu::Context ctx;
  std::printf("      device: %s%s\n", ctx.device_name().c_str(),
              ctx.validation_enabled() ? " (validation on)" : "");
  const render::CullChoice cull =
      render::choose_culling(ctx, render::parse_cull_request(options.cull, "--cull"));
  std::printf("[2/3] rendering scene '%s' at %ux%u\n", options.scene.c_str(), options.image.width,
              options.image.height);
  nlohmann::ordered_json stats;
  stats["scene"] = options.scene;
  stats["device"] = ctx.device_name();
  stats["width"] = options.image.width;
  stats["height"] = options.image.height;
  stats["frame_ms_source"] = ctx.is_cpu_device() ? "wall-clock (CPU emulation)" : "wall-clock";
  if (options.tiles) stats["tiles"] = tiles_stats(*options.tiles);
  int rc = 0;
  if (options.scene == "smoke") {
    rc = render_smoke(ctx, options, stats);
#ifdef MYRIAD_HAS_VEGETATION
  } else if (options.scene == "vegetation") {
    rc = render_vegetation(ctx, options, cull, prefabs, stats);
#endif
#ifdef MYRIAD_HAS_CROWD
  } else if (options.scene == "crowd") {
    rc = render_crowd(ctx, options, std::move(crowd_types), stats);
#endif
#ifdef MYRIAD_HAS_WORLD
  } else if (options.scene == "world") {
    options.world.enemy_types = std::move(crowd_types);
    options.world.scene.culling = cull.path;
    options.world.scene.vegetation_cpu_lod = render::parse_vegetation_cpu_lod(options.cpu_lod, "--cpu-lod");
    stats["culling"] = culling_json(options, cull);
    rc = render_world(ctx, options.image, options.world, stats);
#endif
  } else if (streamed) {
    rc = render_streamed_voxel(ctx, options.image, *streamed, stats);
  } else {
    rc = render_voxel(ctx, options, stats);
  }
  // The scenes without a CPU path say so instead of claiming the chosen path.
  if (!stats.contains("culling")) {
    stats["culling"] = culling_json(options, cull);
    stats["culling"]["path"] = "gpu";
    if (cull.path == render::CullPath::kCpu)
      stats["culling"]["reason"] =
          stats["culling"]["reason"].get<std::string>() + "; the " + options.scene + " scene has no CPU path";
  }
  std::printf("[3/3] writing stats to %s/\n", options.image.out.c_str());
  const int finish_rc = finish(ctx, options, stats);
  return rc != 0 ? rc : finish_rc;
}

}  // namespace

Command add_render_command(CLI::App& app) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* sub = app.add_subcommand("render", "Render a scene headless to PNG + stats JSON");
  std::vector<std::string> scenes{"voxel", "smoke"};
#ifdef MYRIAD_HAS_WORLD
  scenes.insert(scenes.begin(), "world");
  add_world_scene_options(*sub, options->world.scene, "World: ");
  sub->add_option("--cache", options->cache_dir, "World: folder for the baked vegetation tiles");
  sub->add_flag_callback(
      "--no-coverage", [options] { options->world.coverage = false; },
      "World: skip the per-system coverage (ID/mask) pass");
  sub->add_option(
         "--time", options->time,
         "World and crowd: simulated seconds since the start (the crowd walks, enemies and avatars "
         "animate, grass and trees sway; default 1.5, crowd 2.5); the same time gives the same images")
      ->check(finite_number)
      ->check(CLI::Range(0.0, kMaxRenderTime));
  sub->add_option(
         "--occlusion-pairs", options->world.occlusion_pairs,
         "World: also time N frames with and N without Hi-Z occlusion, alternating (medians and ratio)")
      ->check(CLI::Range(0u, 100u));
  sub->add_option_function<std::string>(
         "--shading",
         [options](const std::string& v) {
           options->world.shading = v == "flat" ? render::Shading::kFlat : render::Shading::kFull;
         },
         "World: full (the shading model: sky, fog, filmic tone map; default) or flat (sRGB albedo times "
         "ambient and a Lambert sun: the look before the model, and its cost baseline)")
      ->check(CLI::IsMember({"full", "flat"}));
  sub->add_option(
         "--shading-pairs", options->world.shading_pairs,
         "World: also time N frames in full and N in flat shading, alternating (medians and the model's "
         "cost ratio)")
      ->check(CLI::Range(0u, 100u));
#endif
  sub->add_option(
         "--cull", options->cull,
         "Every scene: auto (default: gpu where the device has what compute culling needs, else cpu), gpu "
         "(compute culling) or cpu (the plants' offline quadtrees on the CPU, draws of at most 1023 "
         "instances; systems without a CPU path keep theirs); the stats say which path ran and why")
      ->check(CLI::IsMember({"auto", "gpu", "cpu"}));
#ifdef MYRIAD_HAS_VEGETATION
  sub->add_option(
         "--cpu-lod", options->cpu_lod,
         "Vegetation and world, CPU culling: leaf (default: every plant of a visible quadtree leaf at "
         "the LOD of the leaf's centre) or instance (per plant, the GPU's hashed LOD and cross-fades)")
      ->check(CLI::IsMember({"leaf", "instance"}));
  scenes.push_back("vegetation");
  sub->add_flag("--ids", options->ids, "Vegetation: colour plants by instance id (LOD in alpha), unlit");
  sub->add_flag("--no-occlusion", options->no_occlusion, "Vegetation: GPU culling without Hi-Z occlusion");
  sub->add_option("--prefab", options->prefabs,
                  "Vegetation: NAME=plant.glb draws plant type NAME (tree, bush, grass or a new one) with a "
                  "glTF model (LODs by _LOD0.._LOD3 node suffixes or MSFT_lod); repeatable");
#endif
#ifdef MYRIAD_HAS_CROWD
  scenes.push_back("crowd");
  sub->add_option("--crowd", options->crowd_files,
                  "Crowd and world: baked .crowd files as the enemy types, replacing the built-in ones; "
                  "'builtin' adds those back (e.g. --crowd builtin --crowd mine.crowd)")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            return value == "builtin" ? std::string() : CLI::ExistingFile(value);
          },
          "FILE|builtin"));
  sub->add_option("--entities", options->entities, "Crowd and world: number of VAT enemies")
      ->check(CLI::Range(1u, 1000000u));
  sub->add_flag("--lod-colors", options->lod_colors, "Crowd and world: colour enemies by LOD level");
  sub->add_flag(
      "--forced-lods", options->forced_lods,
      "Crowd: also draw each view with LOD 0, 1 and 2 forced, adding their counts and frame times to "
      "crowd_stats.json (a high-poly model's forced LOD0 frames are slow on a CPU device)");
#endif
  sub->add_option(
         "--scene", options->scene,
         "Scene: world (the default scene: every system), voxel (the voxel world alone), vegetation (a "
         "plant field alone), crowd (VAT enemies) or smoke (GPU pattern test)")
      ->check(CLI::IsMember(scenes));
  sub->add_option("--view", options->image.views,
                  "Camera presets to render (world: overview, ground, crowd_close_up, sliced, "
                  "avatars_close_up, meadow; voxel: overview, ground, sliced, close_up, zoomed_out, "
                  "game; crowd: whole_map, close_up; default all)");
  sub->add_option("--seed", options->seed, "World seed")->check(not_negative);
  sub->add_flag("--no-merge", options->no_merge, "Voxel: mesh every cell face as its own quad (no atlas)");
  sub->add_flag("--light-only", options->light_only, "Voxel: shade light only, without textures");
  sub->add_flag("--no-vegetation", options->no_vegetation, "Voxel: leave out grass and trees");
  sub->add_option(
         "--world-size", options->world_size,
         "Voxel: stream a world of N x 128 x N cells around the camera (N a multiple of 16, 64-4096) "
         "instead of the fixed 256 x 64 x 256 reference world; views horizon, overview, ground")
      ->check(CLI::Range(64u, 4096u))
      ->check(CLI::Validator(
          [](std::string& v) { return std::stoul(v) % 16 == 0 ? std::string() : "must be a multiple of 16"; },
          "MULTIPLE OF 16"));
  sub->add_option("--stream-radius", options->stream_radius,
                  "Voxel with --world-size: columns of 16 x 16 cells meshed around the camera (2-64)")
      ->check(CLI::Range(2, 64));
  sub->add_option("--save", options->save_dir,
                  "Voxel with --world-size: folder where edited columns are saved on eviction and read back");
  sub->add_option(
      "--tiles", options->tiles_dir,
      "World and voxel: block texture pack folder (PNG tiles with tiles.json, or named as Luanti's "
      "default textures; docs/FORMATS.md); default: the built-in tiles");
  sub->add_option("--out", options->image.out, "Output folder");
  sub->add_option("--draw-distance", options->image.draw_distance,
                  "World and voxel with --world-size: metres from the eye beyond which nothing is drawn; the "
                  "fog is complete there (0: the scene's own reach)")
      ->check(finite_number)
      ->check(CLI::Range(0.0f, render::kMaxDrawDistance));
  sub->add_option("--width", options->image.width, "Image width in pixels (1-16384)")->check(not_negative);
  sub->add_option("--height", options->image.height, "Image height in pixels (1-16384)")->check(not_negative);
  return {sub, [options] { return run_render(*options); }};
}

}  // namespace myriad::app
