// `myriad bench voxel-stream`: the streamed 4096 x 128 x 4096 world (256 x 8 x 256 sections; 1024 x 128 x
// 1024 in quick mode) flown around a loop of radius 128 m at 20 and 60 m/s for a fixed number of frames of
// 1/60 s of flight each (a 60 Hz game's steps; a frame that takes longer leaves the workers more time, so
// holes are counted as a 60 Hz frame rate would show them only where frames are that fast), each the whole
// frame of the streamed voxel scene (StreamedVoxelScene): columns generated, lit and meshed on the worker
// threads within radius 12 (6 quick), far LOD blocks beyond, changed sections uploaded into the arenas within
// the frame's byte budget, culled and drawn into a small image. The start is settled first (a loading
// screen). Per speed: sections generated, lit, meshed and uploaded per second, CPU ms per frame (the scene's
// update and recording, without waiting for the GPU: p50, p99, max), frames with a visible hole (a column
// within the view distance in the frustum drawn by no level), resident columns, pool slots and bytes after
// the first lap and at the end (flat: the pool stops growing). CPU time is reported twice: on the wall clock
// and as the frame thread's own CPU time (ThreadStopwatch: without the time it waited for a core), each
// with its parts, beside fixed workloads of four sizes timed in every frame of the same run (NoiseProbe:
// this machine's own p99 / p50 for work as long as the frame's median). With --frames-csv, every flown
// frame is one row (kFrameColumns): a tail read frame by frame, beside the work each frame did, what the
// kernel did to the frame thread meanwhile (ThreadUsage) and the same frame's probe.
#ifdef MYRIAD_HAS_VOXEL
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "myriad/core/io/binary_io.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/gpu/memory/command_memory.hpp"
#include "myriad/render/passes/offscreen_target.hpp"
#include "myriad/render/voxel/streamed_voxel_scene.hpp"
#include "noise_probe.hpp"
#include "suite.hpp"
#include "thread_usage.hpp"

namespace myriad::bench {

namespace {

constexpr double kLoopRadius = 128.0;
constexpr std::uint32_t kWidth = 320, kHeight = 180;

glm::dvec3 loop_position(glm::dvec3 centre, double distance) {
  const double a = distance / kLoopRadius;
  return centre + glm::dvec3(kLoopRadius * std::cos(a), 0.0, kLoopRadius * std::sin(a));
}

// Looking along the flight, a little down.
render::SceneCamera flight_camera(glm::dvec3 centre, double distance) {
  const glm::dvec3 eye = loop_position(centre, distance);
  const double a = distance / kLoopRadius;
  const glm::vec3 dir(float(-std::sin(a)), -0.25f, float(std::cos(a)));
  render::SceneCamera c;
  c.eye = glm::vec3(eye);
  c.forward = glm::normalize(dir);
  c.fov_y = glm::radians(60.0f);
  return c;
}

constexpr const char* kFrameColumns =
    "speed_mps,frame,thread_ms,stream_ms,vegetation_ms,far_ms,apply_ms,levels_ms,record_ms,"
    "sections_meshed,sections_evicted,far_sections_meshed,sections_uploaded,sections_removed,"
    "uploaded_bytes,vegetation_placed,level_blocks_chosen,arenas_drawn,columns_generated,"
    "preemptions,page_faults,probe_hash_300us_ms,probe_copy_1024k_ms\n";

// The probe rungs the CSV shows: the 0.3 ms hash and the 1 MiB copy, near the frame's own size.
constexpr std::size_t kCsvHashRung = 2, kCsvCopyRung = 2;
static_assert(NoiseProbe::kRungMs[kCsvHashRung] == 0.3 && NoiseProbe::kCopyKiB[kCsvCopyRung] == 1024);

// The frame thread's CPU ms of update + recording, and what the kernel counted against it meanwhile.
struct FrameCost {
  double thread_ms = 0.0;
  ThreadUsage usage;
};

// One CSV row of kFrameColumns.
void add_frame_row(std::string& csv, double speed, int frame, const FrameCost& cost,
                   const render::StreamedVoxelStats& st, const NoiseProbe& probe) {
  char row[480];
  const int n = std::snprintf(
      row, sizeof row,
      "%g,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%u,%u,%u,%u,%u,%llu,%u,%u,%u,%u,%llu,%llu,%.4f,%.4f\n", speed,
      frame, cost.thread_ms, st.cpu_stream_ms, st.cpu_vegetation_ms, st.cpu_far_ms, st.cpu_apply_ms,
      st.cpu_levels_ms, st.cpu_record_ms, st.sections_meshed, st.sections_evicted, st.far_sections_meshed,
      st.uploads.uploaded_sections, st.uploads.removed_sections,
      static_cast<unsigned long long>(st.uploads.uploaded_bytes), st.vegetation_placed,
      st.level_blocks_chosen, st.terrain.arenas_drawn, st.columns_generated,
      static_cast<unsigned long long>(cost.usage.preemptions),
      static_cast<unsigned long long>(cost.usage.page_faults), probe.last_rung_ms(kCsvHashRung),
      probe.last_copy_ms(kCsvCopyRung));
  csv.append(row, std::size_t(std::clamp(n, 0, int(sizeof row) - 1)));
}

struct Flight {
  std::string frames_csv;  // rows of kFrameColumns, when asked for
  std::vector<double> cpu_ms, thread_ms, update_ms, wall_ms;
  std::vector<double> far_ms, vegetation_ms, apply_ms, levels_ms, record_ms;  // parts of cpu_ms
  long long generated = 0, lit = 0, sections_meshed = 0, sections_uploaded = 0, hole_frames = 0;
  std::uint64_t uploaded_bytes = 0, max_frame_upload = 0;
  double seconds = 0.0;
  voxel::StreamStats after_lap, end;
  std::size_t max_pool_after_lap = 0, max_bytes_after_lap = 0;
  std::uint64_t arenas_after_lap = 0, max_arenas_after_lap = 0;
};

// One frame; returns the frame thread's CPU ms of update + recording, and its usage meanwhile. The probe,
// when given, runs after the recording, before the submit.
FrameCost frame(gpu::Context& ctx, render::StreamedVoxelScene& scene, const render::SceneCamera& camera,
                render::OffscreenTarget& target, NoiseProbe* probe = nullptr) {
  const render::FrameOptions settings;
  const ThreadUsage before = ThreadUsage::now();
  ThreadStopwatch cpu;
  scene.update(1.0 / 60.0, camera, target.width(), target.height(), settings);
  FrameCost cost;
  ctx.submit_and_wait([&](VkCommandBuffer cmd) {
    scene.record(cmd, settings, target);
    cost.thread_ms = cpu.elapsed_ms();
    cost.usage = ThreadUsage::now().since(before);
    if (probe) probe->run();
  });
  scene.finish_frame();
  return cost;
}

Flight fly(gpu::Context& ctx, const render::StreamedVoxelSceneOptions& so, double speed, int frames,
           NoiseProbe& probe, bool frame_rows) {
  render::StreamedVoxelScene scene(ctx, so);
  render::OffscreenTarget target(ctx, kWidth, kHeight);
  const glm::dvec3 centre(double(so.world_size.x) * 0.5, 100.0, double(so.world_size.z) * 0.5);
  for (int i = 0; i < 1000000; ++i) {  // settled at the start (a loading screen), then the clock starts
    frame(ctx, scene, flight_camera(centre, 0.0), target);
    if (scene.settled()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  Flight out;
  const double lap = 2.0 * std::numbers::pi * kLoopRadius;
  bool lapped = false;
  const auto begin = std::chrono::steady_clock::now();
  for (int f = 0; f < frames; ++f) {
    const double distance = speed * double(f) / 60.0;
    Stopwatch wall;
    const FrameCost cost = frame(ctx, scene, flight_camera(centre, distance), target, &probe);
    out.thread_ms.push_back(cost.thread_ms);
    out.wall_ms.push_back(wall.elapsed_ms());
    const render::StreamedVoxelStats& st = scene.stats();
    out.update_ms.push_back(st.cpu_stream_ms);
    out.cpu_ms.push_back(st.cpu_stream_ms + st.cpu_upload_ms + st.cpu_record_ms);
    out.far_ms.push_back(st.cpu_far_ms);
    out.vegetation_ms.push_back(st.cpu_vegetation_ms);
    out.apply_ms.push_back(st.cpu_apply_ms);
    out.levels_ms.push_back(st.cpu_levels_ms);
    out.record_ms.push_back(st.cpu_record_ms);
    if (frame_rows) add_frame_row(out.frames_csv, speed, f, cost, st, probe);
    out.generated += st.columns_generated;
    out.lit += st.columns_lit;
    out.sections_meshed += st.sections_meshed;
    out.sections_uploaded += st.uploads.uploaded_sections;
    out.uploaded_bytes += st.uploads.uploaded_bytes;
    out.max_frame_upload = std::max(out.max_frame_upload, st.uploads.uploaded_bytes);
    out.hole_frames += st.hole_columns > 0 ? 1 : 0;
    const std::uint64_t arenas = scene.terrain().renderer().arenas().arenas().size();
    if (!lapped && distance >= lap) {
      lapped = true;
      out.after_lap = st.stream;
      out.arenas_after_lap = arenas;
    }
    if (lapped) {
      out.max_pool_after_lap = std::max(out.max_pool_after_lap, st.stream.pool_columns);
      out.max_bytes_after_lap = std::max(out.max_bytes_after_lap, st.stream.resident_bytes);
      out.max_arenas_after_lap = std::max(out.max_arenas_after_lap, arenas);
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  out.end = scene.stats().stream;
  return out;
}

}  // namespace

void run_voxel_stream_suite(Report& report, const SuiteOptions& options) {
  gpu::Context ctx;
  render::StreamedVoxelSceneOptions so;
  so.world_size = options.quick ? glm::ivec3(1024, 128, 1024) : glm::ivec3(4096, 128, 4096);
  so.seed = 1;
  so.radius = options.quick ? 6 : 12;
  // 60 m/s runs a whole lap (804 m) and more, for the memory after the first lap.
  const int frames_20 = options.quick ? 150 : 600, frames_60 = options.quick ? 150 : 900;
  report.add("sections", double(so.world_size.x / 16 * so.world_size.y / 16 * so.world_size.z / 16), "",
             "issue: at least 256 x 8 x 256 sections");
  report.add("radius_columns", double(so.radius), "", "meshed within this many columns (Chebyshev)");
  report.add("frames_20", double(frames_20), "", "at 20 m/s, 1/60 s of flight each");
  report.add("frames_60", double(frames_60), "", "at 60 m/s, 1/60 s of flight each");
  report.add("upload_budget_bytes", double(so.upload_budget), "bytes", "geometry per frame");
  std::string frames_csv = kFrameColumns;
  for (const double speed : {20.0, 60.0}) {
    NoiseProbe probe;
    const Flight f =
        fly(ctx, so, speed, speed < 30.0 ? frames_20 : frames_60, probe, !options.frames_csv.empty());
    frames_csv += f.frames_csv;
    const std::string at = "speed" + std::to_string(int(speed)) + ".";
    const double p50 = percentile(f.cpu_ms, 0.5), p99 = percentile(f.cpu_ms, 0.99);
    report.add(at + "cpu_p50_ms", p50, "ms", "scene update + recording per frame (wall clock)");
    report.add(at + "cpu_p99_ms", p99, "ms", "issue: p99 <= 1.5 x p50 at 20 m/s");
    report.add(at + "cpu_max_ms", *std::max_element(f.cpu_ms.begin(), f.cpu_ms.end()), "ms");
    report.add(at + "cpu_p99_over_p50", p99 / p50, "", "the wall clock's spread");
    const double t50 = percentile(f.thread_ms, 0.5), t99 = percentile(f.thread_ms, 0.99);
    report.add(at + "cpu_thread_p50_ms", t50, "ms", "the frame thread's own CPU time (also the hole count)");
    report.add(at + "cpu_thread_p99_ms", t99, "ms", "issue: p99 <= 1.5 x p50 at 20 m/s");
    report.add(at + "cpu_thread_p99_over_p50", t99 / t50, "", "read against noise_thread_p99_over_p50");
    probe.report(
        report, at, t50, t99,
        speed < 30.0 ? "target: the thread's p99 / p50 <= 1.15 x the probe's at its p50, same frames" : "");
    report.add(at + "stream_update_p50_ms", percentile(f.update_ms, 0.5), "ms", "StreamWorld::update alone");
    report.add(at + "stream_update_p99_ms", percentile(f.update_ms, 0.99), "ms");
    const std::pair<const char*, const std::vector<double>*> parts[] = {{"far_update", &f.far_ms},
                                                                        {"vegetation", &f.vegetation_ms},
                                                                        {"apply", &f.apply_ms},
                                                                        {"levels", &f.levels_ms},
                                                                        {"record", &f.record_ms}};
    for (const auto& [name, ms] : parts) {
      report.add(at + name + "_p50_ms", percentile(*ms, 0.5), "ms");
      report.add(at + name + "_p99_ms", percentile(*ms, 0.99), "ms");
    }
    const double sections_y = double(so.world_size.y / 16);
    report.add(at + "sections_generated_per_s", double(f.generated) * sections_y / f.seconds, "");
    report.add(at + "sections_lit_per_s", double(f.lit) * sections_y / f.seconds, "");
    report.add(at + "sections_meshed_per_s", double(f.sections_meshed) / f.seconds, "");
    report.add(at + "sections_uploaded_per_s", double(f.sections_uploaded) / f.seconds, "");
    report.add(at + "uploaded_bytes_per_s", double(f.uploaded_bytes) / f.seconds, "bytes");
    report.add(at + "max_frame_upload_bytes", double(f.max_frame_upload), "bytes", "within the budget");
    report.add(at + "seconds", f.seconds, "s", "wall clock of the frames");
    report.add(at + "frame_wall_p50_ms", percentile(f.wall_ms, 0.5), "ms",
               ctx.is_cpu_device() ? "update, record, submit, wait: GPU emulated on the CPU"
                                   : "update, record, submit, wait");
    report.add(at + "hole_frames", double(f.hole_frames), "", "a column in view within the radius not drawn");
    report.add(at + "resident_columns", double(f.end.resident_columns), "");
    report.add(at + "pool_columns", double(f.end.pool_columns), "", "column slots ever made");
    report.add(at + "resident_bytes", double(f.end.resident_bytes), "bytes");
    if (f.max_pool_after_lap > 0) {
      // Largest pool (bytes) after the first lap over the pool (bytes) at its end: 1 = flat.
      report.add(at + "pool_after_first_lap_ratio",
                 double(f.max_pool_after_lap) / double(f.after_lap.pool_columns), "",
                 "issue: resident memory flat after the first lap");
      report.add(at + "bytes_after_first_lap_ratio",
                 double(f.max_bytes_after_lap) / double(f.after_lap.resident_bytes), "");
      report.add(at + "arenas_after_first_lap_ratio",
                 double(f.max_arenas_after_lap) / double(f.arenas_after_lap), "",
                 "GPU arenas: evicted slots reused");
    }
  }
  if (const gpu::CommandMemory* memory = ctx.command_memory()) {
    const gpu::CommandMemoryStats m = memory->stats();
    report.add("command_arena_bytes", double(m.arena_bytes), "bytes",
               "host memory of the recorded commands (command_memory.hpp), kept from frame to frame");
    report.add("command_arena_heap_fallbacks", double(m.heap_fallbacks), "",
               "commands past the arena's limit");
  }
  if (!options.frames_csv.empty())
    write_file_atomic(options.frames_csv, std::as_bytes(std::span(frames_csv.data(), frames_csv.size())));
}

}  // namespace myriad::bench
#endif  // MYRIAD_HAS_VOXEL
