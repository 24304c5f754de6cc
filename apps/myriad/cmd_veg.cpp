// `myriad veg bake`: bakes a vegetation world into tile files (procedural scatter or a CSV instance
// list), with a progress bar and a summary of tiles, instances and bytes per instance on disk.
// `myriad veg render`: bakes a small field in memory and renders it headless through the GPU path
// (culling with hashed LOD and cross-fades, instanced indirect draws, two-phase Hi-Z) to a PNG.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "commands.hpp"
#include "myriad/core/error.hpp"
#include "myriad/core/image_io.hpp"
#include "myriad/core/stopwatch.hpp"
#include "myriad/render/vegetation_frame.hpp"
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

struct VegRenderOptions {
  std::string out = "out";
  std::uint32_t width = 1280;
  std::uint32_t height = 720;
  std::uint64_t seed = 1;
  double size = 600.0;
  bool no_occlusion = false;
};

// The baker's heightfield as a grid mesh (world coordinates relative to `origin`), `step` metres apart.
vegetation::PlantMesh terrain_mesh(const vegetation::Heightfield& hf, double size, double step,
                                   glm::dvec3 origin) {
  vegetation::PlantMesh m;
  const auto n = static_cast<std::uint32_t>(size / step) + 1;
  for (std::uint32_t j = 0; j < n; ++j)
    for (std::uint32_t i = 0; i < n; ++i) {
      const double x = double(i) * step, z = double(j) * step;
      const double hx = double(hf.height(x + 0.5, z)) - double(hf.height(x - 0.5, z));
      const double hz = double(hf.height(x, z + 0.5)) - double(hf.height(x, z - 0.5));
      m.positions.push_back(glm::vec3(glm::dvec3(x, double(hf.height(x, z)), z) - origin));
      m.normals.push_back(glm::normalize(glm::vec3(float(-hx), 1.0f, float(-hz))));
    }
  for (std::uint32_t j = 0; j + 1 < n; ++j)
    for (std::uint32_t i = 0; i + 1 < n; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      m.indices.insert(m.indices.end(), {a, c, d, a, d, b});  // counter-clockwise seen from above
    }
  return m;
}

int run_veg_render(const VegRenderOptions& o) {
  if (o.width == 0 || o.height == 0) throw Error("image size must be positive", "--width/--height");
  if (!(o.size >= 100.0) || o.size > 4000.0) throw Error("field size must be in [100, 4000] m", "--size");
  vegetation::BakeOptions bake;
  bake.seed = o.seed;
  bake.world_max = {o.size, o.size};
  bake.terrain.amplitude = 25.0f;
  bake.terrain.wavelength = 600.0f;
  Stopwatch clock;
  std::vector<vegetation::Tile> tiles = vegetation::bake_tiles(bake);
  const double bake_ms = clock.elapsed_ms();

  // Camera at one edge, looking across the field; the render origin sits under it.
  const double mid = o.size * 0.5;
  const glm::dvec3 eye(mid, double(bake.terrain.height(mid, o.size - 20.0)) + 14.0, o.size - 20.0);
  const glm::dvec3 look(mid + 40.0, double(bake.terrain.height(mid, mid)), mid);
  const glm::dvec3 origin(std::floor(eye.x), 0.0, std::floor(eye.z));
  vegetation::RuntimeWorld world(origin);
  for (vegetation::Tile& t : tiles) {
    auto tile = std::make_shared<const vegetation::Tile>(std::move(t));
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      world.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  }

  gpu::Context ctx;
  std::vector<vegetation::PlantMesh> meshes = render::default_plant_meshes();
  meshes.push_back(terrain_mesh(bake.terrain, o.size, 4.0, origin));
  const auto terrain_id = static_cast<std::uint32_t>(meshes.size() - 1);
  render::OffscreenTarget target(ctx, o.width, o.height);
  const render::VegetationCull cull(ctx);
  const render::VegetationRenderer renderer(ctx, meshes, render::OffscreenTarget::kColorFormat,
                                            render::OffscreenTarget::kDepthFormat);
  std::vector<render::VegetationGpuType> gpu_types;
  std::vector<render::VegetationFrameType> frame_types;
  for (const auto& type : world.types())
    gpu_types.push_back(cull.upload(type, renderer.lod_meshes(type.prefab), 0.2f, 0.1f));
  for (std::size_t i = 0; i < gpu_types.size(); ++i)
    frame_types.push_back({&world.types()[i], &gpu_types[i], 0});
  const std::array ground{render::static_instance(glm::vec3(0.0f), glm::vec3(1.0f), {96, 84, 60})};
  gpu::Buffer ground_buffer(ctx, sizeof(ground), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx, ground_buffer, std::span<const vegetation::RuntimeInstance>(ground));

  const glm::vec3 cam(eye - origin);
  render::VegetationDrawSettings settings;
  settings.view_proj = perspective_infinite_reverse_z(1.0f, float(o.width) / float(o.height), 0.1f) *
                       glm::lookAt(cam, glm::vec3(look - origin), kWorldUp);
  render::VegetationFrame frame(ctx, cull, renderer, target);
  auto opaque = [&](VkCommandBuffer cmd, const render::VegetationDrawSettings& s) {
    renderer.draw_direct(cmd, s, terrain_id, ground_buffer, 1);
  };
  // Two frames: the second one's phase 1 draws what the first found visible (steady state).
  render::VegetationFrameCounts counts;
  double frame_ms = 0.0;
  for (int f = 0; f < 2; ++f) {
    clock.restart();
    ctx.submit_and_wait(
        [&](VkCommandBuffer cmd) { frame.record(cmd, settings, cam, frame_types, opaque, !o.no_occlusion); });
    frame_ms = clock.elapsed_ms();
    counts = frame.read_counts();
  }
  std::filesystem::create_directories(o.out);
  const std::filesystem::path png = std::filesystem::path(o.out) / "vegetation.png";
  write_png_rgba8(png, o.width, o.height, target.read_color());
  std::printf(
      "%zu instances in %zu types (baked in %.0f ms); drawn: %llu in phase 1, %llu in phase 2 "
      "(cross-fading instances count twice); frame %.1f ms\nwrote %s\n",
      world.instance_count(), world.types().size(), bake_ms,
      static_cast<unsigned long long>(counts.early[0] + counts.early[1] + counts.early[2] + counts.early[3]),
      static_cast<unsigned long long>(counts.late[0] + counts.late[1] + counts.late[2] + counts.late[3]),
      frame_ms, png.c_str());
  if (ctx.validation_message_count() > 0) {
    std::fprintf(stderr, "myriad: %u validation messages\n", ctx.validation_message_count());
    return 3;
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
  bake->add_option("--seed", o->seed, "Scatter seed");
  bake->add_option("--tile-size", o->tile_size, "Tile edge in metres");
  bake->add_option("--world-size", o->world_size, "Square world edge in metres (procedural scatter)");
  bake->add_option("--extent", o->extent, "x0,z0,x1,z1 in metres instead of --world-size")->delimiter(',');
  bake->add_option("--csv", o->csv, "Instance list: type,x,y,z,yaw,scale,r,g,b per line");
  bake->add_option("--merge-below", o->merge_below, "Merge groups smaller than this into a neighbour tile");
  bake->add_option("--leaf", o->leaf, "Quadtree leaf capacity");
  auto r = std::make_shared<VegRenderOptions>();
  CLI::App* rend = veg->add_subcommand("render", "Render a small procedural plant field to a PNG");
  rend->add_option("--out", r->out, "Output folder (vegetation.png)");
  rend->add_option("--width", r->width, "Image width");
  rend->add_option("--height", r->height, "Image height");
  rend->add_option("--seed", r->seed, "Scatter seed");
  rend->add_option("--size", r->size, "Field edge in metres");
  rend->add_flag("--no-occlusion", r->no_occlusion, "Frustum and LOD culling only (no Hi-Z)");
  return {veg, [o, bake, r] { return bake->parsed() ? run_veg_bake(*o) : run_veg_render(*r); }};
}

}  // namespace myriad::app
