// `myriad veg bake`: bakes a vegetation world into tile files (procedural scatter or a CSV instance
// list), with a progress bar and a summary of tiles, instances and bytes per instance on disk.
// `myriad veg render`: bakes a small field in memory and renders it headless through the GPU path
// (culling with hashed LOD and cross-fades, instanced indirect draws, two-phase Hi-Z) to a PNG.
// `myriad veg info`: describes one .mveg tile file. `myriad veg sample-plant`: writes a textured glTF
// plant to try `--prefab` with.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/render/vegetation/vegetation_scene.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/plant/plant_gltf_write.hpp"
#include "option_checks.hpp"
#include "prefab_option.hpp"
#include "output_path.hpp"

namespace myriad::app {
namespace {

// The baker keeps worlds within 1,000 km of the origin and edges within 100 km (vegetation::BakeOptions);
// the extent options and CSV positions are held to the same bounds, and the tile count to what a
// folder holds.
constexpr double kMaxCoordinate = vegetation::kMaxBakeCoordinate;
constexpr double kMaxWorldEdge = vegetation::kMaxBakeEdge;
constexpr double kMaxTiles = 1.0e6;

// Bytes reported by /proc/meminfo's MemAvailable; 0 when unknown (then no memory check is made).
double available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string name;
  double kib = 0.0;
  while (in >> name >> kib) {
    if (name == "MemAvailable:") return kib * 1024.0;
    in.ignore(256, '\n');
  }
  return 0.0;
}

// At most one candidate per spacing x spacing cell and type, kept with the type's density: an upper
// bound of the procedural scatter (its noise, slope and altitude rules only remove plants).
double instance_bound(const vegetation::BakeOptions& options) {
  const double area =
      (options.world_max.x - options.world_min.x) * (options.world_max.y - options.world_min.y);
  double per_square_metre = 0.0;
  for (const vegetation::PlantType& t : options.types)
    per_square_metre += double(t.density) / (double(t.spacing) * double(t.spacing));
  return area * per_square_metre;
}

// A count that may exceed every integer type (tiles of a nanometre): printed from the double.
std::string count_text(double count) {
  char text[32];
  std::snprintf(text, sizeof(text), count < 1e15 ? "%.0f" : "%.3g", count);
  return text;
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

// Refuses a bake that cannot fit: too many tiles, more instances than memory holds while baking (the
// baker keeps every scattered instance until its tile is written), more bytes than the disk has free.
void check_bake_fits(const vegetation::BakeOptions& options, const std::string& out, const char* option) {
  const double tile = double(options.tile_size);
  const double tiles = std::ceil((options.world_max.x - options.world_min.x) / tile + 1.0) *
                       std::ceil((options.world_max.y - options.world_min.y) / tile + 1.0);
  if (tiles > kMaxTiles) {
    throw Error("the world would be cut into " + count_text(tiles) + " tiles, more than 1,000,000",
                "--tile-size", "use larger tiles (e.g. 200 m) or a smaller world");
  }
  const double instances = instance_bound(options);
  const double memory = instances * double(sizeof(vegetation::PlantInstance)) * 1.5;
  const double available = available_memory_bytes();
  if (available > 0.0 && memory > available) {
    throw Error("the world holds up to " + count_text(instances) + " plants, about " + gib(memory) +
                    " while baking; " + gib(available) + " is available",
                option, "bake a smaller world, or bake it in parts with --extent");
  }
  std::error_code ec;
  const std::filesystem::space_info space = std::filesystem::space(out, ec);
  const double disk = instances * double(sizeof(vegetation::InstanceRecord) + 2);
  if (!ec && disk > double(space.available)) {
    throw Error(
        "the tiles may need up to " + gib(disk) + " on disk; " + gib(double(space.available)) + " is free",
        "--out " + out, "bake a smaller world or free some space");
  }
}

// CSV positions become 32-bit tile coordinates: refuse positions far outside any world.
void check_instances(const std::vector<vegetation::WorldInstance>& instances, const std::string& csv) {
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const glm::dvec3& p = instances[i].position;
    if (std::abs(p.x) > kMaxCoordinate || std::abs(p.y) > kMaxCoordinate || std::abs(p.z) > kMaxCoordinate) {
      throw Error("instance " + std::to_string(i + 1) + " lies more than 1,000 km from the origin", csv,
                  "positions are metres");
    }
  }
}

struct VegBakeOptions {
  std::string out;
  // --seed, --tile-size, --merge-below and --leaf bound straight into the baker's options; the extent
  // comes from --world-size or --extent.
  vegetation::BakeOptions bake;
  double world_size = 4000.0;
  std::vector<double> extent;  // x0, z0, x1, z1
  std::string csv;
  std::vector<std::string> prefabs;
};

// What each imported plant became: its levels' sizes and where they came from.
void print_prefabs(const PlantPrefabs& prefabs) {
  static constexpr const char* kLevel[] = {"LOD0", "LOD1", "LOD2", "billboard"};
  for (const auto& [name, model] : prefabs) {
    std::printf("plant type %s from %s (%zu textures)\n", name.c_str(), model->file.c_str(),
                model->textures.size());
    for (std::size_t l = 0; l < vegetation::kPlantLodCount; ++l)
      std::printf("  %-9s %6zu triangles %6zu vertices  %s\n", kLevel[l], model->lods[l].triangle_count(),
                  model->lods[l].positions.size(), model->from[l].c_str());
  }
}

void progress_bar(std::size_t done, std::size_t total) {
  const int width = 40;
  const int filled = total ? int(double(done) / double(total) * width) : width;
  std::fprintf(stderr, "\r  [%.*s%*s] %zu/%zu tiles", filled, "########################################",
               width - filled, "", done, total);
  if (done == total) std::fprintf(stderr, "\n");
}

int run_veg_bake(const VegBakeOptions& o) {
  vegetation::BakeOptions options = o.bake;
  // The extent's two forms are the command's own (their messages name the form); their limits are the
  // baker's, which checks them again with the rest of its options.
  if (!o.extent.empty()) {
    if (o.extent.size() != 4 || !(o.extent[2] > o.extent[0]) || !(o.extent[3] > o.extent[1])) {
      throw Error("--extent needs x0,z0,x1,z1 with x1 > x0 and z1 > z0", "--extent");
    }
    for (const double v : o.extent) {
      if (!(std::abs(v) <= kMaxCoordinate)) throw Error("coordinates must be within 1,000 km", "--extent");
    }
    if (o.extent[2] - o.extent[0] > kMaxWorldEdge || o.extent[3] - o.extent[1] > kMaxWorldEdge)
      throw Error("the extent's edges must be at most 100 km", "--extent");
    options.world_min = {o.extent[0], o.extent[1]};
    options.world_max = {o.extent[2], o.extent[3]};
  } else {
    if (!(o.world_size > 0.0) || o.world_size > kMaxWorldEdge)
      throw Error("world size must be in (0, 100000] metres", "--world-size");
    options.world_min = {0.0, 0.0};
    options.world_max = {o.world_size, o.world_size};
  }
  // The baker's own limits, reported under the option that set the value.
  validate_options(options,
                   {{"BakeOptions::tile_size", "--tile-size"}, {"QuadtreeOptions::leaf_capacity", "--leaf"}});
  // Models first: a plant that cannot be read fails the bake before anything is written.
  const PlantPrefabs prefabs = load_prefabs(o.prefabs);
  for (const auto& [name, model] : prefabs) vegetation::set_plant_model(options.types, name, model);
  print_prefabs(prefabs);
  prepare_output_folder(o.out, "--out");
  std::vector<vegetation::WorldInstance> instances;
  if (!o.csv.empty()) {
    instances = vegetation::read_instance_csv(o.csv, options.types);
    if (instances.empty())
      throw Error("the instance list holds no plants", o.csv,
                  "one line per plant: type,x,y,z,yaw,scale,r,g,b");
    check_instances(instances, o.csv);
  } else {
    check_bake_fits(options, o.out, o.extent.empty() ? "--world-size" : "--extent");
  }
  std::printf("baking vegetation into %s (seed %llu, tiles of %.0f m)\n", o.out.c_str(),
              static_cast<unsigned long long>(options.seed), double(options.tile_size));
  Stopwatch clock;
  const vegetation::BakeSummary s =
      vegetation::bake_to_directory(options, o.out, o.csv.empty() ? nullptr : &instances, &progress_bar);
  std::printf("%zu tiles, %zu instances, %zu bytes (%.2f bytes per instance) in %.1f s\n", s.tiles,
              s.instances, s.bytes, s.instances ? double(s.bytes) / double(s.instances) : 0.0,
              clock.elapsed_ms() / 1000.0);
  if (s.plant_files > 0)
    std::printf("%zu plant models beside the tiles (plant_<type>_<name>.glb)\n", s.plant_files);
  return 0;
}

struct VegRenderOptions {
  std::string out = "out";
  // --width, --height, --seed, --size and --no-occlusion bound straight into the scene's options.
  render::VegetationSceneOptions scene;
  std::vector<std::string> prefabs;
};

int run_veg_render(const VegRenderOptions& o) {
  validate_options(o.scene, {{"VegetationSceneOptions::width", "--width/--height"},
                             {"VegetationSceneOptions::height", "--width/--height"},
                             {"VegetationSceneOptions::size", "--size"}});
  const PlantPrefabs prefabs = load_prefabs(o.prefabs);
  print_prefabs(prefabs);
  prepare_output_folder(o.out, "--out");
  gpu::Context ctx;
  render::VegetationSceneOptions scene = o.scene;
  scene.prefabs = prefabs;
  const render::VegetationSceneResult r = render::render_vegetation_scene(ctx, scene);
  const std::filesystem::path png = std::filesystem::path(o.out) / "vegetation.png";
  write_png_rgba8(png, scene.width, scene.height, r.rgba);
  std::printf(
      "%zu instances in %zu types (baked in %.0f ms); drawn: %llu (cross-fading instances count twice) "
      "in %u draws; frame %.1f ms\nwrote %s\n",
      r.instances, r.types, r.bake_ms, static_cast<unsigned long long>(r.drawn), r.draws, r.frame_ms,
      png.c_str());
  return validation_exit_code(ctx);
}

int run_veg_sample_plant(const std::string& out) {
  const std::filesystem::path path(out);
  if (path.extension() != ".glb" && path.extension() != ".gltf")
    throw Error("the sample plant is written as .glb or .gltf", out);
  if (path.has_parent_path()) prepare_output_folder(path.parent_path().string(), "--out");
  vegetation::PlantGltfWriteOptions options;
  options.name = "Fern";
  options.geometric_levels = 2;  // LOD2 and the billboard are left to the importer
  options.billboard = false;
  vegetation::write_plant_gltf(path, vegetation::make_sample_fern(), options);
  std::printf("wrote %s (a tree fern of alpha-tested frond cards, nodes Fern_LOD0 and Fern_LOD1)\n",
              out.c_str());
  return 0;
}

int run_veg_info(const std::string& path) {
  const vegetation::Tile t = vegetation::read_tile(path);
  std::printf("%s: vegetation tile (%d, %d), %.0f m, %zu plant types, %zu groups, %zu instances\n",
              path.c_str(), t.x, t.z, double(t.size), t.prefabs.size(), t.groups.size(), t.instance_count());
  for (std::size_t i = 0; i < t.groups.size(); ++i) {
    const vegetation::Group& g = t.groups[i];
    std::printf("  group %zu: plant type %u, %zu instances, %zu quadtree nodes, height %.1f .. %.1f m\n", i,
                t.prefabs[g.prefab].type_id, g.instances.size(), g.nodes.size(), double(g.bounds.min.y),
                double(g.bounds.max.y));
  }
  return 0;
}

}  // namespace

Command add_veg_command(CLI::App& app) {
  auto o = std::make_shared<VegBakeOptions>();
  CLI::App* veg = app.add_subcommand("veg", "Vegetation tools");
  veg->require_subcommand(1);
  CLI::App* bake = veg->add_subcommand("bake", "Bake a vegetation world into tile files");
  bake->add_option("--out", o->out, "Output folder for tile_<x>_<z>.mveg files")->required();
  bake->add_option("--seed", o->bake.seed, "Scatter seed")->check(not_negative);
  bake->add_option("--tile-size", o->bake.tile_size, "Tile edge in metres");
  bake->add_option("--world-size", o->world_size, "Square world edge in metres (procedural scatter)");
  bake->add_option("--extent", o->extent, "x0,z0,x1,z1 in metres instead of --world-size")->delimiter(',');
  bake->add_option("--csv", o->csv, "Instance list: type,x,y,z,yaw,scale,r,g,b per line");
  bake->add_option("--merge-below", o->bake.merge_below,
                   "Merge groups smaller than this into a neighbour tile")
      ->check(not_negative);
  bake->add_option("--leaf", o->bake.tree.leaf_capacity, "Quadtree leaf capacity")->check(not_negative);
  bake->add_option("--prefab", o->prefabs,
                   "NAME=plant.glb: plant type NAME (tree, bush, grass or a new one) uses a glTF model "
                   "(LODs by _LOD0.._LOD3 node suffixes or MSFT_lod); repeatable");
  auto r = std::make_shared<VegRenderOptions>();
  CLI::App* rend = veg->add_subcommand("render", "Render a small procedural plant field to a PNG");
  rend->add_option("--out", r->out, "Output folder (vegetation.png)");
  rend->add_option("--width", r->scene.width, "Image width")->check(not_negative);
  rend->add_option("--height", r->scene.height, "Image height")->check(not_negative);
  rend->add_option("--seed", r->scene.seed, "Scatter seed")->check(not_negative);
  rend->add_option("--size", r->scene.size, "Field edge in metres");
  rend->add_flag_callback(
      "--no-occlusion", [r] { r->scene.occlusion = false; }, "Frustum and LOD culling only (no Hi-Z)");
  rend->add_option("--prefab", r->prefabs,
                   "NAME=plant.glb: draw plant type NAME with a glTF model; repeatable");
  auto sample_out = std::make_shared<std::string>();
  CLI::App* sample = veg->add_subcommand("sample-plant", "Write a sample textured glTF plant (a tree fern)");
  sample->add_option("--out", *sample_out, "The .glb or .gltf file to write")->required();
  auto info_path = std::make_shared<std::string>();
  CLI::App* info = veg->add_subcommand("info", "Describe a .mveg tile file");
  info->add_option("file", *info_path, "The tile_<x>_<z>.mveg file")->required();
  return {veg, [o, bake, r, rend, sample, sample_out, info_path] {
            if (bake->parsed()) return run_veg_bake(*o);
            if (rend->parsed()) return run_veg_render(*r);
            if (sample->parsed()) return run_veg_sample_plant(*sample_out);
            return run_veg_info(*info_path);
          }};
}

}  // namespace myriad::app
