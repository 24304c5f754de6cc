// `myriad veg bake`: bakes a vegetation world into tile files (procedural scatter or a CSV instance
// list), with a progress bar and a summary of tiles, instances and bytes per instance on disk.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "myriad/core/error.hpp"
#include "myriad/core/stopwatch.hpp"
#include "myriad/vegetation/baker.hpp"

namespace myriad::app {
namespace {

struct VegBakeOptions {
  std::string out;
  std::uint64_t seed = 1;
  float tile_size = 200.0f;
  double world_size = 4000.0;
  std::vector<double> extent;  // x0, z0, x1, z1
  std::string csv;
  std::uint32_t merge_below = 8;
  std::uint32_t leaf = 128;
};

void progress_bar(std::size_t done, std::size_t total) {
  const int width = 40;
  const int filled = total ? int(double(done) / double(total) * width) : width;
  std::fprintf(stderr, "\r  [%.*s%*s] %zu/%zu tiles", filled, "########################################",
               width - filled, "", done, total);
  if (done == total) std::fprintf(stderr, "\n");
}

int run_veg_bake(const VegBakeOptions& o) {
  if (o.tile_size <= 0.0f) throw Error("tile size must be positive", "--tile-size");
  if (o.leaf == 0) throw Error("leaf capacity must be positive", "--leaf");
  vegetation::BakeOptions options;
  options.seed = o.seed;
  options.tile_size = o.tile_size;
  options.merge_below = o.merge_below;
  options.tree.leaf_capacity = o.leaf;
  if (!o.extent.empty()) {
    if (o.extent.size() != 4 || !(o.extent[2] > o.extent[0]) || !(o.extent[3] > o.extent[1])) {
      throw Error("--extent needs x0,z0,x1,z1 with x1 > x0 and z1 > z0", "--extent");
    }
    options.world_min = {o.extent[0], o.extent[1]};
    options.world_max = {o.extent[2], o.extent[3]};
  } else {
    if (!(o.world_size > 0.0) || o.world_size > 100000.0)
      throw Error("world size must be in (0, 100 km]", "--world-size");
    options.world_min = {0.0, 0.0};
    options.world_max = {o.world_size, o.world_size};
  }
  std::vector<vegetation::WorldInstance> instances;
  if (!o.csv.empty()) instances = vegetation::read_instance_csv(o.csv, options.types);
  std::printf("baking vegetation into %s (seed %llu, tiles of %.0f m)\n", o.out.c_str(),
              static_cast<unsigned long long>(o.seed), double(o.tile_size));
  Stopwatch clock;
  const vegetation::BakeSummary s =
      vegetation::bake_to_directory(options, o.out, o.csv.empty() ? nullptr : &instances, &progress_bar);
  std::printf("%zu tiles, %zu instances, %zu bytes (%.2f bytes per instance) in %.1f s\n", s.tiles,
              s.instances, s.bytes, s.instances ? double(s.bytes) / double(s.instances) : 0.0,
              clock.elapsed_ms() / 1000.0);
  return 0;
}

}  // namespace

Command add_veg_command(CLI::App& app) {
  auto o = std::make_shared<VegBakeOptions>();
  CLI::App* veg = app.add_subcommand("veg", "Vegetation tools");
  veg->require_subcommand(1);
  CLI::App* bake = veg->add_subcommand("bake", "Bake a vegetation world into tile files");
  bake->add_option("--out", o->out, "Output folder for tile_<x>_<z>.mveg files")->required();
  bake->add_option("--seed", o->seed, "Scatter seed");
  bake->add_option("--tile-size", o->tile_size, "Tile edge in metres");
  bake->add_option("--world-size", o->world_size, "Square world edge in metres (procedural scatter)");
  bake->add_option("--extent", o->extent, "x0,z0,x1,z1 in metres instead of --world-size")->delimiter(',');
  bake->add_option("--csv", o->csv, "Instance list: type,x,y,z,yaw,scale,r,g,b per line");
  bake->add_option("--merge-below", o->merge_below, "Merge groups smaller than this into a neighbour tile");
  bake->add_option("--leaf", o->leaf, "Quadtree leaf capacity");
  return {veg, [o] { return run_veg_bake(*o); }};
}

}  // namespace myriad::app
