// `myriad bench voxel-stream`: the streamed 4096 x 128 x 4096 world (256 x 8 x 256 sections; 1024 x 128 x
// 1024 in quick mode) flown around a loop of radius 128 m at 20 and 60 m/s for a fixed number of frames paced
// at 60 Hz, columns generated, lit and meshed on the worker threads (all cores) within radius 12 (6 quick).
// The start is settled first (a loading screen). Per speed: columns / sections generated, lit and meshed per
// second, CPU ms per frame of StreamWorld::update (p50, p99, max), frames with a visible hole (a column
// within the view distance, radius - 1 columns, ahead of the camera in a 90-degree view or next to it, not
// meshed yet),
// resident columns, pool slots and bytes after the first lap and at the end (flat: the pool stops growing).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

#include "myriad/core/stopwatch.hpp"
#include "myriad/voxel/stream_world.hpp"
#include "suite.hpp"

namespace myriad::bench {

using namespace myriad::voxel;

namespace {

constexpr double kLoopRadius = 128.0;

glm::dvec3 loop_position(glm::dvec3 centre, double distance) {
  const double a = distance / kLoopRadius;
  return centre + glm::dvec3(kLoopRadius * std::cos(a), 0.0, kLoopRadius * std::sin(a));
}

// Any column within the view distance (the meshed radius less the outermost ring, which streams in while the
// camera crosses a column) that the camera (at `eye`, flying along `dir`) sees is not meshed.
bool has_hole(const StreamWorld& s, glm::dvec3 eye, glm::dvec2 dir) {
  const int r = s.options().radius - 1;
  const glm::ivec2 cam{int(std::floor(eye.x / 16.0)), int(std::floor(eye.z / 16.0))};
  for (int dz = -r; dz <= r; ++dz)
    for (int dx = -r; dx <= r; ++dx) {
      const glm::ivec2 c = cam + glm::ivec2(dx, dz);
      if (c.x < 0 || c.y < 0 || c.x >= s.columns().x || c.y >= s.columns().y) continue;
      const bool near = std::abs(dx) <= 1 && std::abs(dz) <= 1;
      // The column's nearest corner inside the 90-degree wedge around the flight direction.
      const glm::dvec2 to((double(c.x) + 0.5) * 16.0 - eye.x, (double(c.y) + 0.5) * 16.0 - eye.z);
      const double ahead = to.x * dir.x + to.y * dir.y, side = std::abs(to.x * dir.y - to.y * dir.x);
      if (!near && ahead + 11.4 < side - 11.4) continue;
      if (s.column_state(c) != ColumnState::kMeshed) return true;
    }
  return false;
}

struct Flight {
  std::vector<double> cpu_ms;
  long long generated = 0, lit = 0, meshed_columns = 0, sections_meshed = 0, hole_frames = 0;
  double seconds = 0.0;
  StreamStats after_lap, end;
  std::size_t max_pool_after_lap = 0, max_bytes_after_lap = 0;
};

Flight fly(const StreamOptions& so, double speed, int frames) {
  StreamWorld s(so);
  const glm::dvec3 centre(double(so.world_size.x) * 0.5, 100.0, double(so.world_size.z) * 0.5);
  const glm::dvec3 start = loop_position(centre, 0.0);
  for (int i = 0; i < 1000000; ++i) {  // settled at the start (a loading screen), then the clock starts
    (void)s.update(start);
    if (s.idle()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  Flight out;
  const double lap = 2.0 * std::numbers::pi * kLoopRadius;
  bool lapped = false;
  const auto period = std::chrono::microseconds(16667);
  const auto begin = std::chrono::steady_clock::now();
  auto next = begin;
  for (int f = 0; f < frames; ++f) {
    std::this_thread::sleep_until(next);
    next += period;
    const double distance = speed * double(f) / 60.0;
    const glm::dvec3 eye = loop_position(centre, distance);
    const double a = distance / kLoopRadius;
    const glm::dvec2 dir(-std::sin(a), std::cos(a));
    Stopwatch sw;
    const StreamUpdate& u = s.update(eye);
    out.cpu_ms.push_back(sw.elapsed_ms());
    out.generated += u.columns_generated + u.columns_loaded;
    out.lit += u.columns_lit;
    out.meshed_columns += u.columns_meshed;
    out.sections_meshed += u.sections_meshed;
    out.hole_frames += has_hole(s, eye, dir) ? 1 : 0;
    if (!lapped && distance >= lap) {
      lapped = true;
      out.after_lap = s.stats();
    }
    if (lapped) {
      const StreamStats st = s.stats();
      out.max_pool_after_lap = std::max(out.max_pool_after_lap, st.pool_columns);
      out.max_bytes_after_lap = std::max(out.max_bytes_after_lap, st.resident_bytes);
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  out.end = s.stats();
  return out;
}

}  // namespace

void run_voxel_stream_suite(Report& report, const SuiteOptions& options) {
  StreamOptions so;
  so.world_size = options.quick ? glm::ivec3(1024, 128, 1024) : glm::ivec3(4096, 128, 4096);
  so.generator.seed = 1;
  so.radius = options.quick ? 6 : 12;
  const int frames = options.quick ? 300 : 1800;
  report.add("sections", double(so.world_size.x / 16 * so.world_size.y / 16 * so.world_size.z / 16), "",
             "issue: at least 256 x 8 x 256 sections");
  report.add("radius_columns", double(so.radius), "", "meshed within this many columns (Chebyshev)");
  report.add("frames", double(frames), "", "per speed, paced at 60 Hz");
  for (const double speed : {20.0, 60.0}) {
    const Flight f = fly(so, speed, frames);
    const std::string at = "speed" + std::to_string(int(speed)) + ".";
    const double p50 = percentile(f.cpu_ms, 0.5), p99 = percentile(f.cpu_ms, 0.99);
    report.add(at + "cpu_p50_ms", p50, "ms", "StreamWorld::update per frame");
    report.add(at + "cpu_p99_ms", p99, "ms", "issue: p99 <= 1.5 x p50 at 20 m/s");
    report.add(at + "cpu_max_ms", *std::max_element(f.cpu_ms.begin(), f.cpu_ms.end()), "ms");
    const double sections_y = double(so.world_size.y / 16);
    report.add(at + "sections_generated_per_s", double(f.generated) * sections_y / f.seconds, "");
    report.add(at + "sections_lit_per_s", double(f.lit) * sections_y / f.seconds, "");
    report.add(at + "sections_meshed_per_s", double(f.sections_meshed) / f.seconds, "");
    report.add(at + "columns_generated", double(f.generated), "");
    report.add(at + "hole_frames", double(f.hole_frames), "", "a seen column within the radius not meshed");
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
    }
  }
}

}  // namespace myriad::bench
