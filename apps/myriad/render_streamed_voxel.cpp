#include "render_streamed_voxel.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/render/passes/offscreen_target.hpp"

namespace myriad::app {
namespace {

// What may wait in the terrain renderers' upload queues between two recorded frames (they hold 64 MiB).
constexpr std::uint64_t kMaxQueuedBytes = 48ull << 20;

}  // namespace

StreamInResult stream_in(gpu::Context& ctx, render::StreamedVoxelScene& scene,
                         const render::SceneCamera& camera, render::OffscreenTarget& target,
                         render::OffscreenTarget& loading, const render::FrameOptions& settings) {
  // Frames carry the uploads, but a frame nobody sees only takes time from the workers: updates run every
  // few milliseconds and a (small) frame is recorded when a quarter second passed or the queued bytes near
  // what the arenas' upload queues hold. The image is the frame after which nothing is left to stream or
  // upload.
  const std::uint64_t budget = scene.options().upload_budget;
  const Stopwatch clock;
  Stopwatch since_frame;
  StreamInResult r;
  std::uint64_t queued = 0;
  for (;;) {
    scene.update(1.0 / 60.0, camera, loading.width(), loading.height(), settings);
    ++r.updates;
    const render::StreamedVoxelStats& st = scene.stats();
    queued += st.uploads.uploaded_bytes;
    const bool settled = scene.settled();
    if (settled || queued + budget > kMaxQueuedBytes || since_frame.elapsed_ms() > 250.0) {
      render::OffscreenTarget& into = settled ? target : loading;
      // The image is drawn at its own size: that frame's view is built for it.
      if (settled) scene.update(0.0, camera, target.width(), target.height(), settings);
      ctx.submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, into); });
      scene.finish_frame();
      ++r.frames;
      queued = 0;
      since_frame.restart();
    }
    if (settled && scene.settled()) break;
    if (st.uploads.uploaded_bytes < budget / 2) std::this_thread::sleep_for(std::chrono::milliseconds(4));
  }
  r.seconds = clock.elapsed_ms() / 1000.0;
  return r;
}

int render_streamed_voxel(gpu::Context& ctx, const ImageOutput& image,
                          const render::StreamedVoxelSceneOptions& options, nlohmann::ordered_json& stats) {
  render::StreamedVoxelScene scene(ctx, options);
  render::OffscreenTarget target(ctx, image.width, image.height);
  // Frames while streaming carry the uploads; drawn small, they leave the cores to the workers.
  render::OffscreenTarget loading(ctx, 64, 36);
  render::FrameOptions settings;
  settings.draw_distance = image.draw_distance;
  int images = 0;
  for (const auto& [name, camera] : render::streamed_voxel_presets(options.world_size)) {
    if (!image.wants(name)) continue;
    const StreamInResult in = stream_in(ctx, scene, camera, target, loading, settings);
    const render::StreamedVoxelStats& st = scene.stats();
    const std::filesystem::path png = std::filesystem::path(image.out) / ("voxel_" + name + ".png");
    write_png_rgba8(png, image.width, image.height, target.read_color());
    std::printf("      wrote %s (streamed in %.2f s, %u frames, %u updates)\n", png.c_str(), in.seconds,
                in.frames, in.updates);
    stats["views"][name] = {{"stream_seconds", in.seconds},
                            {"frames", in.frames},
                            {"updates", in.updates},
                            {"resident_columns", st.stream.resident_columns},
                            {"resident_bytes", st.stream.resident_bytes},
                            {"pages", st.terrain.pages},
                            {"arenas", st.terrain.arenas},
                            {"draws", st.terrain.arenas_drawn},
                            {"hole_columns", st.hole_columns}};
    ++images;
  }
  if (images == 0)
    throw Error("no camera preset matched --view", "myriad render", "use horizon, overview or ground");
  const render::TerrainMemory m = scene.terrain().renderer().memory();
  stats["world_size"] = {options.world_size.x, options.world_size.y, options.world_size.z};
  stats["gpu_memory_bytes"] = {{"terrain_vertex_arenas", m.vertex_bytes},
                               {"terrain_index_arenas", m.index_bytes},
                               {"terrain_page_tables", m.page_bytes}};
  if (!options.save_directory.empty()) {
    const int written = scene.world().save_all();
    std::printf("      saved %d edited columns to %s\n", written, options.save_directory.c_str());
  }
  return 0;
}

}  // namespace myriad::app
