// The "core" suite of `myriad bench`: per-operation costs of the building blocks every module leans
// on (packing, range allocation, parallel_for overhead, the frustum test). Each figure is the median
// over repetitions of a timed loop, divided by the loop's operation count.
#include <cstdint>
#include <random>
#include <vector>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/core/layout/range_allocator.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "suite.hpp"

namespace myriad::bench {
namespace {

// Results flow into this so the optimizer cannot drop the measured work.
volatile std::uint64_t g_sink = 0;

template <class Fn>
double median_per_op_ns(int repetitions, std::size_t ops, Fn&& run_once) {
  std::vector<double> samples;
  for (int r = 0; r < repetitions; ++r) {
    Stopwatch watch;
    run_once();
    samples.push_back(watch.elapsed_ns() / static_cast<double>(ops));
  }
  return median(samples);
}

std::vector<glm::vec3> random_normals(std::size_t count) {
  std::mt19937 rng(12345);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::vector<glm::vec3> out(count);
  for (glm::vec3& n : out) n = glm::normalize(glm::vec3(gauss(rng), gauss(rng), gauss(rng)) + 1e-6f);
  return out;
}

}  // namespace

void run_core_suite(Report& report, const SuiteOptions& options) {
  const int reps = options.repetitions > 0 ? options.repetitions : 1;
  const std::size_t n = options.quick ? 20'000 : 400'000;

  const std::vector<glm::vec3> normals = random_normals(n);
  std::vector<std::uint32_t> packed(n);
  report.add("octa_pack_ns",
             median_per_op_ns(reps, n,
                              [&] {
                                std::uint64_t acc = 0;
                                for (std::size_t i = 0; i < n; ++i)
                                  acc += packed[i] = pack_octahedral(normals[i]);
                                g_sink = g_sink + acc;
                              }),
             "ns", "best of the 4 surrounding grid points, scored in double");
  report.add("octa_unpack_ns",
             median_per_op_ns(reps, n,
                              [&] {
                                float acc = 0.0f;
                                for (std::size_t i = 0; i < n; ++i) acc += unpack_octahedral(packed[i]).z;
                                g_sink = g_sink + static_cast<std::uint64_t>(acc);
                              }),
             "ns");

  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i) * 0.37f - 1000.0f;
  report.add("half_pack_ns",
             median_per_op_ns(reps, n,
                              [&] {
                                std::uint64_t acc = 0;
                                for (std::size_t i = 0; i < n; ++i) acc += pack_half(values[i]);
                                g_sink = g_sink + acc;
                              }),
             "ns");

  {
    // A fragmented arena: every other small block stays allocated, then many alloc+free pairs.
    RangeAllocator alloc(1u << 24, 50);
    std::vector<Range> live;
    std::mt19937 rng(7);
    std::uniform_int_distribution<std::uint32_t> size(1, 2000);
    for (int i = 0; i < 8000; ++i) {
      if (auto r = alloc.allocate(size(rng))) live.push_back(*r);
    }
    for (std::size_t i = 0; i < live.size(); i += 2) alloc.free(live[i]);
    std::vector<std::uint32_t> requests(options.quick ? 5'000 : 100'000);
    for (auto& r : requests) r = size(rng);
    report.add("range_alloc_free_ns",
               median_per_op_ns(reps, requests.size(),
                                [&] {
                                  std::uint64_t acc = 0;
                                  for (std::uint32_t count : requests) {
                                    if (auto r = alloc.allocate(count)) {
                                      acc += r->offset;
                                      alloc.free(*r);
                                    }
                                  }
                                  g_sink = g_sink + acc;
                                }),
               "ns", "one allocate + one free, ~4000 free ranges");
  }

  {
    const std::size_t loops = options.quick ? 200 : 5'000;
    const double ns = median_per_op_ns(reps, loops, [&] {
      for (std::size_t i = 0; i < loops; ++i) {
        parallel_for(0, 1024, 16, [](std::size_t b, std::size_t e) { g_sink = g_sink + (e - b); });
      }
    });
    report.add("parallel_for_overhead_us", ns / 1000.0, "us", "empty body, 1024 items, grain 16 (64 chunks)");
  }

  {
    const glm::mat4 view =
        glm::lookAt(glm::vec3(0.0f, 20.0f, 0.0f), glm::vec3(100.0f, 0.0f, 100.0f), kWorldUp);
    const Frustum frustum = Frustum::from_view_proj(perspective(1.0f, 16.0f / 9.0f, 0.1f, 500.0f) * view,
                                                    DepthConvention::kZeroToOne);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> pos(-400.0f, 400.0f);
    std::vector<Aabb> boxes(options.quick ? 10'000 : 200'000);
    for (Aabb& b : boxes)
      b = Aabb::from_center_extent({pos(rng), pos(rng) * 0.1f, pos(rng)}, glm::vec3(8.0f));
    report.add("frustum_aabb_ns",
               median_per_op_ns(reps, boxes.size(),
                                [&] {
                                  std::uint64_t visible = 0;
                                  for (const Aabb& b : boxes) visible += frustum.intersects(b) ? 1u : 0u;
                                  g_sink = g_sink + visible;
                                }),
               "ns", "6 planes, positive-vertex test, mixed visible/culled boxes");
  }
}

}  // namespace myriad::bench
