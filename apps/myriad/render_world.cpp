#include "render_world.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "myriad/core/io/error.hpp"
#include "myriad/core/image/image_io.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/memory/upload_queue.hpp"
#include "myriad/crowd_bake/enemy/enemy_roster.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/world/world_coverage.hpp"
#include "myriad/render/world/world_scene.hpp"

namespace myriad::app {
namespace {

namespace fs = std::filesystem;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

// N frames of the prepared view in each shading mode, alternating (flat first): median wall-clock frame
// times and the model's cost as the ratio full / flat; on a device with timestamps, the same for the GPU
// time of the whole frame (the sum of its passes).
nlohmann::ordered_json shading_timing(gpu::Context& ctx, render::WorldScene& scene,
                                      const render::FrameOptions& settings, render::OffscreenTarget& target,
                                      std::uint32_t pairs) {
  std::vector<double> wall[2], gpu[2];
  for (std::uint32_t pair = 0; pair < pairs; ++pair) {
    for (const render::Shading mode : {render::Shading::kFlat, render::Shading::kFull}) {
      render::FrameOptions s = settings;
      s.shading = mode;
      Stopwatch clock;
      ctx.submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, s, target); });
      wall[std::size_t(mode)].push_back(clock.elapsed_ms());
      scene.finish_frame();
      double frame_gpu = 0.0;
      for (const auto& pass : scene.frame_stats().gpu_ms) frame_gpu += pass.second;
      if (!scene.frame_stats().gpu_ms.empty()) gpu[std::size_t(mode)].push_back(frame_gpu);
    }
  }
  const std::size_t full = std::size_t(render::Shading::kFull), flat = std::size_t(render::Shading::kFlat);
  const auto ratio = [](double a, double b) { return b > 0.0 ? a / b : 0.0; };
  nlohmann::ordered_json j = {{"pairs", pairs},
                              {"frame_ms_median_full", median(wall[full])},
                              {"frame_ms_median_flat", median(wall[flat])},
                              {"full_over_flat", ratio(median(wall[full]), median(wall[flat]))}};
  if (!gpu[full].empty()) {
    j["gpu_ms_median_full"] = median(gpu[full]);
    j["gpu_ms_median_flat"] = median(gpu[flat]);
    j["gpu_full_over_flat"] = ratio(median(gpu[full]), median(gpu[flat]));
  }
  return j;
}

nlohmann::ordered_json system_json(const render::SystemFrameStats& s) {
  return {{"objects", s.objects},
          {"visible", s.visible},
          {"culled", s.objects - std::min(s.visible, s.objects)},
          {"frustum_culled", s.frustum_culled},
          {"occlusion_culled", s.occlusion_culled},
          {"draws", s.draws},
          {"pipeline_binds", s.pipeline_binds},
          {"vertices", s.vertices},
          {"triangles", s.triangles},
          {"list_overflow", s.overflow}};
}

nlohmann::ordered_json frame_json(const render::WorldFrameStats& st, const char* timing) {
  nlohmann::ordered_json j;
  for (std::uint32_t i = 0; i < render::kWorldSystemCount; ++i)
    j["systems"][render::world_system_name(i)] = system_json(st.systems[i]);
  nlohmann::ordered_json& avatars = j["systems"]["avatars"];
  avatars["descriptor_binds"] = st.avatars.descriptor_binds;
  avatars["batch_types"] = st.avatars.batch_types;
  avatars["skeletons_updated"] = st.avatars.skeletons_updated;
  avatars["avatars_per_lod"] = {st.avatars.lod_avatars[0], st.avatars.lod_avatars[1],
                                st.avatars.lod_avatars[2], st.avatars.lod_avatars[3]};
  avatars["palette_bytes_uploaded"] = st.avatars.palette_bytes_uploaded;
  j["voxel_vegetation"] = {{"threads_per_frame", st.voxel_vegetation_threads},
                           {"reused_lists", st.voxel_vegetation_reused},
                           {"buffer_bytes", st.systems[1].gpu_bytes}};
  j["shadow_draws"] = st.shadow_draws;
  j["uploaded_bytes"] = st.uploaded_bytes;
  j["vegetation_resident"] = st.vegetation_resident;
  j["vegetation_pools"] = {{"pages_staged", st.vegetation_pages_staged},
                           {"tiles_waiting", st.vegetation_tiles_waiting},
                           {"gpu_bytes_per_instance", st.vegetation_gpu_bytes_per_instance}};
  j["cpu_ms"] = {{"update", st.cpu_update_ms},    {"streaming", st.cpu_streaming_ms},
                 {"crowd", st.cpu_crowd_ms},      {"avatars", st.cpu_avatars_ms},
                 {"voxel_edits", st.cpu_edit_ms}, {"record", st.cpu_record_ms}};
  j["gpu_ms_source"] = timing;
  for (const auto& [name, ms] : st.gpu_ms) j["gpu_ms"][name] = ms;
  return j;
}

// Bytes per system per frame against its share of the budget (upload_queue.hpp), over the frames so far:
// read when the stats are written, not every frame.
nlohmann::ordered_json upload_budget_json(gpu::UploadQueue& uploads) {
  nlohmann::ordered_json budget;
  budget["frame_budget_bytes"] = uploads.ring().frame_budget();
  for (const gpu::UploadShareStats& u : uploads.stats())
    budget["shares"][u.name] = {{"budget_bytes", u.budget},
                                {"frame_bytes", u.frame_bytes},
                                {"max_frame_bytes", u.max_frame_bytes},
                                {"p99_frame_bytes", u.p99_frame_bytes},
                                {"frames", u.frames},
                                {"frames_over_budget", u.frames_over_budget},
                                {"queued_bytes", u.queued_bytes}};
  return budget;
}

}  // namespace

int render_world(gpu::Context& ctx, const ImageOutput& image, const WorldRenderOptions& o,
                 nlohmann::ordered_json& stats) {
  std::vector<std::pair<std::string, render::SceneCamera>> presets;
  for (const auto& p : render::world_camera_presets()) {
    if (image.wants(p.first)) presets.push_back(p);
  }
  if (presets.empty())
    throw Error("no camera preset matched --view", "myriad render",
                "use overview, ground, crowd_close_up, sliced, avatars_close_up or meadow");
  Stopwatch clock;
  std::vector<crowd::CrowdFile> enemy_types = o.enemy_types;
  if (enemy_types.empty()) {
    std::printf("      baking the built-in enemy types\n");
    enemy_types = crowd::bake_builtin_enemy_types();
  }
  const double crowd_bake_ms = clock.elapsed_ms();
  render::WorldScene scene(ctx, o.scene, std::move(enemy_types), [](const std::string& step, int i, int n) {
    std::printf("      [scene %d/%d] %s\n", i, n, step.c_str());
    std::fflush(stdout);
  });
  const render::WorldBuildStats& b = scene.build_stats();
  stats["build_ms"] = {{"voxel_generate", b.voxel.generate_ms},
                       {"voxel_light", b.voxel.light_ms},
                       {"voxel_mesh", b.voxel.mesh_ms},
                       {"voxel_upload", b.voxel.upload_ms},
                       {"vegetation", b.vegetation_ms},
                       {"crowd_bake", crowd_bake_ms},
                       {"crowd_upload", b.crowd_upload_ms},
                       {"avatars", b.avatars_ms},
                       {"total", clock.elapsed_ms()}};
  stats["build_gpu_submits"] = b.setup_submits;
  stats["voxel_world"] = {{"sections_with_geometry", b.voxel.sections_with_geometry},
                          {"grass_instances", b.voxel.grass},
                          {"trees", b.voxel.trees}};
  stats["vegetation_planted"] = scene.frame_stats().vegetation_planted;
  stats["vegetation_field_m"] = o.scene.vegetation_size;
  stats["crowd_entities"] = o.scene.crowd_entities;
  stats["avatars"] = o.scene.avatars;
  // Which path each system culls on and why (the caller wrote the scene's choice into "culling").
  const std::array<render::SystemCulling, render::kWorldSystemCount> culling = scene.culling();
  for (std::uint32_t i = 0; i < render::kWorldSystemCount; ++i)
    stats["culling"]["systems"][render::world_system_name(i)] = {
        {"path", render::cull_path_name(culling[i].path)}, {"reason", culling[i].reason}};
  const bool vegetation_on_cpu = o.scene.culling == render::CullPath::kCpu;
  if (vegetation_on_cpu)
    stats["culling"]["systems"]["vegetation"]["cpu_lod"] =
        render::vegetation_cpu_lod_name(o.scene.vegetation_cpu_lod);

  render::OffscreenTarget target(ctx, image.width, image.height);
  render::FrameOptions settings;
  settings.lod_colors = o.lod_colors;
  settings.draw_distance = image.draw_distance;
  settings.shading = o.shading;
  const char* timing = ctx.has_timestamps() && !ctx.is_cpu_device() ? "gpu-timestamps" : "none (CPU device)";
  // The clock runs to the requested time once, before the first view (streaming follows that view's
  // camera meanwhile): every view shows the same instant.
  constexpr double kStep = 1.0 / 30.0;
  const auto steps = static_cast<long>(std::floor(o.time / kStep));
  for (long i = 0; i < steps; ++i)
    scene.update(kStep, presets.front().second, image.width, image.height, settings);
  if (const double rest = o.time - double(steps) * kStep; rest > 0.0)
    scene.update(rest, presets.front().second, image.width, image.height, settings);
  stats["time_s"] = o.time;
  std::size_t done = 0;
  for (const auto& [name, camera] : presets) {
    std::printf("      [view %zu/%zu] %s: streaming", ++done, presets.size(), name.c_str());
    std::fflush(stdout);
    clock.restart();
    scene.settle(camera);
    const double settle_ms = clock.elapsed_ms();
    scene.update(0.0, camera, image.width, image.height, settings);
    // Two frames: the second one's occlusion phase 1 starts from what the first found visible.
    double frame_ms = 0.0;
    for (int f = 0; f < 2; ++f) {
      clock.restart();
      ctx.submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, settings, target); });
      frame_ms = clock.elapsed_ms();
      scene.finish_frame();
    }
    const fs::path png = fs::path(image.out) / ("world_" + name + ".png");
    write_png_rgba8(png, image.width, image.height, target.read_color());
    std::printf(", frame %.0f ms, wrote %s\n", frame_ms, png.c_str());
    nlohmann::ordered_json v = frame_json(scene.frame_stats(), timing);
    v["upload_budget"] = upload_budget_json(ctx.uploads());
    if (vegetation_on_cpu) {
      const vegetation::PoolCullStats& c = scene.frame_stats().vegetation_cpu_cull;
      v["vegetation_cpu_cull"] = {{"nodes_tested", c.nodes_tested},
                                  {"nodes_skipped", c.nodes_skipped},
                                  {"instances_tested", c.instances_tested},
                                  {"instances_accepted", c.instances_accepted}};
    }
    v["frame_ms_wall_clock"] = frame_ms;
    if (o.occlusion_pairs > 0) {
      std::vector<double> with, without;
      for (std::uint32_t pair = 0; pair < o.occlusion_pairs; ++pair) {
        for (const bool occlusion : {false, true}) {
          render::FrameOptions s = settings;
          s.occlusion = occlusion;
          clock.restart();
          ctx.submit_and_wait([&](VkCommandBuffer cmd) { scene.record(cmd, s, target); });
          (occlusion ? with : without).push_back(clock.elapsed_ms());
          scene.finish_frame();
        }
      }
      const double med_with = median(with), med_without = median(without);
      v["occlusion_timing"] = {{"pairs", o.occlusion_pairs},
                               {"frame_ms_median_with", med_with},
                               {"frame_ms_median_without", med_without},
                               {"speedup", med_with > 0.0 ? med_without / med_with : 0.0}};
    }
    if (o.shading_pairs > 0)
      v["shading_timing"] = shading_timing(ctx, scene, settings, target, o.shading_pairs);
    v["streaming_settle_ms"] = settle_ms;
    v["image"] = png.filename().string();
    if (o.coverage) {
      const render::WorldCoverage c = render::measure_world_coverage(ctx, scene, camera, settings, target);
      for (std::uint32_t i = 0; i < render::kWorldSystemCount; ++i)
        v["coverage_pixels"][render::world_system_name(i)] = c.pixels[i];
      v["coverage_pixels"]["sky"] = c.sky;
      v["coverage_pixels"]["unassigned"] = c.unassigned;
    }
    stats["views"][name] = v;
  }
  const render::WorldFrameStats& st = scene.frame_stats();
  nlohmann::ordered_json memory;
  for (std::uint32_t i = 0; i < render::kWorldSystemCount; ++i)
    memory[render::world_system_name(i)] = st.systems[i].gpu_bytes;
  memory["shadow_map"] = st.shadow_map_bytes;
  memory["render_target"] = std::uint64_t(image.width) * image.height * 8;
  stats["gpu_memory_bytes"] = memory;
  return 0;
}

}  // namespace myriad::app
