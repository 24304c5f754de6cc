#include "voxel_import_streamed.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/streamed_voxel_scene.hpp"
#include "myriad/voxel/data/shape.hpp"
#include "myriad/voxel/stream/stream_world.hpp"
#include "myriad/voxel/files/vox_place.hpp"
#include "render_streamed_voxel.hpp"

namespace myriad::app {
namespace {

// The most columns a stream (import or image) keeps meshed around its camera: as `render --stream-radius`.
constexpr int kMaxRadius = 64;

// Chebyshev distance in columns from `camera` to the farthest column of the box [lo, hi) (voxels, x and z).
int columns_to_reach(glm::vec3 camera, glm::ivec3 lo, glm::ivec3 hi) {
  const glm::ivec2 c(int(std::floor(camera.x / 16.0f)), int(std::floor(camera.z / 16.0f)));
  const glm::ivec2 a(lo.x >> 4, lo.z >> 4), b((hi.x - 1) >> 4, (hi.z - 1) >> 4);
  return std::max({std::abs(a.x - c.x), std::abs(b.x - c.x), std::abs(a.y - c.y), std::abs(b.y - c.y)});
}

// The height above the highest solid cell at (x, z), 0 when its column is not resident.
float ground_top(const voxel::StreamWorld& world, glm::vec3 p) {
  const glm::ivec3 size = world.options().world_size;
  const int x = std::clamp(int(std::floor(p.x)), 0, size.x - 1),
            z = std::clamp(int(std::floor(p.z)), 0, size.z - 1);
  const std::span<const std::uint8_t> materials = world.column_materials({x >> 4, z >> 4});
  if (materials.empty()) return 0.0f;
  for (int y = size.y - 1; y >= 0; --y) {
    const std::size_t i =
        std::size_t(y >> 4) * voxel::kSectionCells + std::size_t(voxel::cell_index(x & 15, y & 15, z & 15));
    if (materials[i] != voxel::kAir) return float(y + 1);
  }
  return 0.0f;
}

// Updates until nothing is left to do; returns the sections meshed meanwhile.
int settle(voxel::StreamWorld& world, glm::dvec3 camera) {
  int sections = 0;
  for (;;) {
    sections += world.update(camera).sections_meshed;
    if (world.idle()) return sections;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace

int import_vox_streamed(const voxel::VoxScene& scene, const std::array<std::uint8_t, 256>& materials_of,
                        const StreamedImportOptions& o) {
  const glm::ivec3 world_size(o.world_size, kStreamedWorldHeight, o.world_size);
  const glm::ivec3 extent = voxel::vox_extent(scene);
  const glm::ivec3 lo = o.at, hi = o.at + extent;
  const glm::vec3 centre = glm::vec3(lo) + glm::vec3(extent) * 0.5f;
  // Every column of the footprint is meshed (so generated, and editable) around the centre's column.
  const int radius = std::max(2, columns_to_reach(centre, lo, hi));
  if (radius > kMaxRadius)
    throw Error("the model is " + std::to_string(extent.x) + " x " + std::to_string(extent.z) +
                    " voxels across; a streamed import takes at most " + std::to_string(kMaxRadius) +
                    " columns either side of its centre (" + std::to_string((2 * kMaxRadius + 1) * 16) +
                    " voxels)",
                o.model, "import its parts separately, each with its own --at");
  const std::vector<voxel::VoxCell> cells = voxel::vox_cells(scene, o.at, materials_of);

  voxel::StreamOptions so;
  so.world_size = world_size;
  so.generator = voxel::GeneratorParams{o.seed};
  so.radius = radius;
  so.save_directory = o.save_dir;
  // The image's camera: the fixed import's "model" view, lifted above the ground where that is higher.
  const float reach = std::max(24.0f, 1.6f * float(std::max({extent.x, extent.y, extent.z})));
  glm::vec3 eye = centre + glm::vec3(-0.6f, 0.55f, 0.8f) * reach;
  int columns_saved = 0, sections_remeshed = 0;
  std::array<std::size_t, voxel::kMaterialCount> per_material{};
  {
    voxel::StreamWorld world(so);
    const Stopwatch clock;
    settle(world, glm::dvec3(centre));
    for (const voxel::VoxCell& c : cells) {
      world.edit(c.p, c.material, voxel::kFormFull);
      ++per_material[c.material];
    }
    sections_remeshed = settle(world, glm::dvec3(centre));
    columns_saved = world.save_all();
    eye.y = std::max(eye.y, ground_top(world, eye) + 6.0f);
    std::printf("placed %zu voxels in (%d,%d,%d)..(%d,%d,%d); %d sections affected\n", cells.size(), lo.x,
                lo.y, lo.z, hi.x - 1, hi.y - 1, hi.z - 1, sections_remeshed);
    std::printf("saved %d columns to %s (stream radius %d, %.2f s)\n", columns_saved, o.save_dir.c_str(),
                radius, clock.elapsed_ms() / 1000.0);
  }
  nlohmann::ordered_json summary;
  summary["model"] = o.model;
  summary["models"] = scene.models.size();
  summary["instances"] = scene.instances.size();
  summary["placed_min"] = {lo.x, lo.y, lo.z};
  summary["placed_max"] = {hi.x, hi.y, hi.z};
  summary["voxels_set"] = cells.size();
  summary["sections_remeshed"] = sections_remeshed;
  for (std::size_t m = 1; m < voxel::kMaterialCount; ++m) {
    if (per_material[m] == 0) continue;
    summary["voxels_per_material"][voxel::materials()[m].name] = per_material[m];
    std::printf("  %-10s %zu voxels\n", voxel::materials()[m].name, per_material[m]);
  }
  summary["columns_saved"] = columns_saved;

  // The image, streamed in (the saved columns read back) until settled.
  const render::SceneCamera camera = render::SceneCamera::look_at(eye, centre, glm::radians(55.0f));
  render::StreamedVoxelSceneOptions options;
  options.world_size = world_size;
  options.seed = o.seed;
  options.save_directory = o.save_dir;
  // The model is drawn by the fine level (the far levels read the saves too, but merge cells).
  options.radius = std::clamp(columns_to_reach(eye, lo, hi) + 1, 4, kMaxRadius);
  gpu::Context ctx;
  {
    render::StreamedVoxelScene streamed(ctx, options);
    render::OffscreenTarget target(ctx, o.width, o.height);
    render::OffscreenTarget loading(ctx, 64, 36);  // frames while streaming carry the uploads
    const StreamInResult in = stream_in(ctx, streamed, camera, target, loading);
    const std::filesystem::path png = o.out / "voxel_import_model.png";
    write_png_rgba8(png, o.width, o.height, target.read_color());
    std::printf("wrote %s (streamed in %.2f s)\n", png.c_str(), in.seconds);
  }
  const std::string text = summary.dump(1);
  write_file_atomic(o.out / "voxel_import.json", std::as_bytes(std::span(text.data(), text.size())));
  if (ctx.validation_message_count() > 0) {
    std::fprintf(stderr, "myriad: %u validation messages\n", ctx.validation_message_count());
    return 1;
  }
  return 0;
}

}  // namespace myriad::app
