// Google Benchmark programs for vegetation: the stages behind the "vegetation" suite of `myriad bench`
// on a 2 km x 2 km world held in memory, one at a time for profiling (--benchmark_filter): tile parse,
// pooling and expansion, flat sphere culling, quadtree culling and the memory floor they are compared with.
#include <benchmark/benchmark.h>

#include <bit>
#include <memory>
#include <vector>

#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/cull/cpu_cull.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"

namespace {

using namespace myriad;
using namespace myriad::vegetation;

struct Scene {
  std::vector<std::shared_ptr<const Tile>> tiles;
  std::vector<std::vector<std::byte>> files;
  RuntimeWorld world;
  std::vector<SphereArrays> spheres;  // per type, every slot expanded
  glm::dvec3 camera{1037.0, 0.0, 1011.0};
  Frustum rel;
};

const Scene& scene() {
  static const Scene s = [] {
    Scene sc;
    BakeOptions o;
    o.world_max = {2000.0, 2000.0};
    sc.camera.y = double(o.terrain.height(sc.camera.x, sc.camera.z)) + 2.0;
    sc.world = RuntimeWorld(sc.camera);
    for (Tile& t : bake_tiles(o)) {
      sc.files.push_back(serialize_tile(t));
      sc.tiles.push_back(std::make_shared<const Tile>(std::move(t)));
      for (std::uint32_t g = 0; g < sc.tiles.back()->groups.size(); ++g)
        sc.world.append(sc.tiles.back(), g, 0,
                        static_cast<std::uint32_t>(sc.tiles.back()->groups[g].instances.size()));
    }
    for (const auto& type : sc.world.types()) sc.spheres.push_back(expand_type(type).spheres);
    const glm::mat4 view = glm::lookAt(glm::vec3(0.0f), glm::vec3(0.3f, -0.05f, -1.0f), glm::vec3(0, 1, 0));
    sc.rel = Frustum::from_view_proj(perspective(1.0f, 16.0f / 9.0f, 0.1f, 1500.0f) * view);
    return sc;
  }();
  return s;
}

void per_instance(benchmark::State& state) {
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(scene().world.instance_count()));
}

void BM_ParseTiles(benchmark::State& state) {
  std::size_t n = 0;
  for (auto _ : state)
    for (const auto& f : scene().files) n += parse_tile(f, "memory").instance_count();
  benchmark::DoNotOptimize(n);
  per_instance(state);
}
BENCHMARK(BM_ParseTiles)->Unit(benchmark::kMillisecond);

void BM_Pool(benchmark::State& state) {
  for (auto _ : state) {
    RuntimeWorld world(scene().camera);
    for (const auto& t : scene().tiles)
      for (std::uint32_t g = 0; g < t->groups.size(); ++g)
        world.append(t, g, 0, static_cast<std::uint32_t>(t->groups[g].instances.size()));
    benchmark::DoNotOptimize(world.instance_count());
  }
  per_instance(state);
}
BENCHMARK(BM_Pool)->Unit(benchmark::kMillisecond);

void BM_Expand(benchmark::State& state) {
  for (auto _ : state)
    for (const auto& type : scene().world.types())
      for (std::uint32_t slot = 0; slot < type.slot_count(); ++slot)
        if (slot % kPageSlots < type.pages[slot / kPageSlots].count) {
          const ExpandedPlant p = type.expand(slot);
          benchmark::DoNotOptimize(p);
        }
  per_instance(state);
}
BENCHMARK(BM_Expand)->Unit(benchmark::kMillisecond);

void BM_MemoryFloor(benchmark::State& state) {
  for (auto _ : state)
    for (const SphereArrays& s : scene().spheres) {
      std::uint32_t acc = 0;  // integer XOR vectorizes: memory-bound, not latency-bound
      for (std::size_t i = 0; i < s.size(); ++i)
        acc ^= std::bit_cast<std::uint32_t>(s.x[i]) ^ std::bit_cast<std::uint32_t>(s.y[i]) ^
               std::bit_cast<std::uint32_t>(s.z[i]) ^ std::bit_cast<std::uint32_t>(s.r[i]);
      benchmark::DoNotOptimize(acc);
    }
  per_instance(state);
}
BENCHMARK(BM_MemoryFloor)->Unit(benchmark::kMicrosecond);

void BM_CullFlat(benchmark::State& state) {
  const auto path = static_cast<FlatCullPath>(state.range(0));
  std::size_t slots = 0;
  for (const SphereArrays& s : scene().spheres) slots += s.size();
  std::vector<std::uint32_t> out(slots);
  for (auto _ : state)
    for (const SphereArrays& s : scene().spheres)
      benchmark::DoNotOptimize(cull_spheres_flat(scene().rel, s.x.data(), s.y.data(), s.z.data(), s.r.data(),
                                                 s.size(), out.data(), path));
  state.SetLabel(path == FlatCullPath::kPortable ? "portable" : (flat_cull_has_avx2() ? "avx2" : "portable"));
  per_instance(state);
}
BENCHMARK(BM_CullFlat)
    ->Arg(int(FlatCullPath::kPortable))
    ->Arg(int(FlatCullPath::kAvx2))
    ->Unit(benchmark::kMicrosecond);

void BM_CullTree(benchmark::State& state) {
  std::vector<VisibleRange> ranges;
  std::vector<std::uint32_t> stack;
  for (auto _ : state)
    for (const auto& t : scene().tiles) {
      const Frustum local = local_frustum(scene().rel, t->origin(), scene().camera);
      const glm::vec3 cam(scene().camera - t->origin());
      for (const Group& g : t->groups) {
        ranges.clear();
        benchmark::DoNotOptimize(cull_group_tree(g, t->prefabs[g.prefab], local, cam, ranges, stack));
      }
    }
  per_instance(state);
}
BENCHMARK(BM_CullTree)->Unit(benchmark::kMicrosecond);

}  // namespace
