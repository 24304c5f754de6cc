// Google Benchmark programs for core: the same operations as the "core" suite of `myriad bench`,
// for profiling one at a time (--benchmark_filter).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/layout/packing.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/core/layout/range_allocator.hpp"

namespace {

std::vector<glm::vec3> random_normals(std::size_t count) {
  std::mt19937 rng(12345);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::vector<glm::vec3> out(count);
  for (glm::vec3& n : out) n = glm::normalize(glm::vec3(gauss(rng), gauss(rng), gauss(rng)) + 1e-6f);
  return out;
}

constexpr std::size_t kBatch = 4096;  // index mask below relies on a power of two

void BM_OctaPack(benchmark::State& state) {
  const auto normals = random_normals(kBatch);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(myriad::pack_octahedral(normals[i++ & (kBatch - 1)]));
  }
}
BENCHMARK(BM_OctaPack);

void BM_OctaUnpack(benchmark::State& state) {
  const auto normals = random_normals(kBatch);
  std::vector<std::uint32_t> packed;
  for (const auto& n : normals) packed.push_back(myriad::pack_octahedral(n));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(myriad::unpack_octahedral(packed[i++ & (kBatch - 1)]));
  }
}
BENCHMARK(BM_OctaUnpack);

void BM_HalfPack(benchmark::State& state) {
  std::vector<float> values(kBatch);
  for (std::size_t i = 0; i < kBatch; ++i) values[i] = static_cast<float>(i) * 0.37f - 700.0f;
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(myriad::pack_half(values[i++ & (kBatch - 1)]));
  }
}
BENCHMARK(BM_HalfPack);

void BM_HalfUnpack(benchmark::State& state) {
  std::uint16_t h = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(myriad::unpack_half(h));
    h = static_cast<std::uint16_t>(h + 7u);
  }
}
BENCHMARK(BM_HalfUnpack);

// Allocate + free in an allocator fragmented into ~4000 free ranges.
void BM_RangeAllocFree(benchmark::State& state) {
  myriad::RangeAllocator alloc(1u << 24, 50);
  std::vector<myriad::Range> live;
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> size(1, 2000);
  for (int i = 0; i < 8000; ++i) {
    if (auto r = alloc.allocate(size(rng))) live.push_back(*r);
  }
  for (std::size_t i = 0; i < live.size(); i += 2) alloc.free(live[i]);
  std::vector<std::uint32_t> requests(kBatch);
  for (auto& r : requests) r = size(rng);
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = alloc.allocate(requests[i++ & (kBatch - 1)]);
    benchmark::DoNotOptimize(r);
    if (r) alloc.free(*r);
  }
}
BENCHMARK(BM_RangeAllocFree);

// The fixed cost of a parallel_for whose body does nothing: 1024 items, grain 16.
void BM_ParallelForOverhead(benchmark::State& state) {
  std::size_t touched = 0;
  for (auto _ : state) {
    myriad::parallel_for(0, 1024, 16, [&](std::size_t b, std::size_t e) {
      benchmark::DoNotOptimize(b);
      benchmark::DoNotOptimize(e);
    });
    benchmark::DoNotOptimize(++touched);
  }
}
BENCHMARK(BM_ParallelForOverhead)->Unit(benchmark::kMicrosecond);

void BM_FrustumAabb(benchmark::State& state) {
  const glm::mat4 view =
      glm::lookAt(glm::vec3(0.0f, 20.0f, 0.0f), glm::vec3(100.0f, 0.0f, 100.0f), myriad::kWorldUp);
  const auto frustum =
      myriad::Frustum::from_view_proj(myriad::perspective(1.0f, 16.0f / 9.0f, 0.1f, 500.0f) * view);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> pos(-400.0f, 400.0f);
  std::vector<myriad::Aabb> boxes(kBatch);
  for (auto& b : boxes)
    b = myriad::Aabb::from_center_extent({pos(rng), pos(rng) * 0.1f, pos(rng)}, glm::vec3(8.0f));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(frustum.intersects(boxes[i++ & (kBatch - 1)]));
  }
}
BENCHMARK(BM_FrustumAabb);

}  // namespace
