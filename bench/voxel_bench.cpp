// Google Benchmark programs for voxel: the stages behind the "voxel" suite of `myriad bench`, one at a
// time for profiling (--benchmark_filter): generation, light, cold meshing, cube cull+greedy, one section.
#include <benchmark/benchmark.h>

#include <vector>

#include "myriad/voxel/data/generator.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/light/light.hpp"
#include "myriad/voxel/mesh/mesh_models.hpp"
#include "myriad/voxel/mesh/world_mesher.hpp"

namespace {

using namespace myriad::voxel;

const World& lit_world() {
  static const World w = [] {
    World world = generate_world(kReferenceWorldSize, {});
    compute_light(world);
    return world;
  }();
  return w;
}

void BM_Generate(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(generate_world(kReferenceWorldSize, {}));
}
BENCHMARK(BM_Generate)->Unit(benchmark::kMillisecond);

void BM_Light(benchmark::State& state) {
  const World base = generate_world(kReferenceWorldSize, {});
  for (auto _ : state) {
    state.PauseTiming();
    World w = base;
    state.ResumeTiming();
    compute_light(w);
  }
}
BENCHMARK(BM_Light)->Unit(benchmark::kMillisecond);

void BM_MeshAll(benchmark::State& state) {
  const World& w = lit_world();
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  const MeshOptions options{state.range(0) != 0 ? MeshMode::kAtlas : MeshMode::kUnmerged};
  for (auto _ : state) mesher.mesh_all(w, options, meshes);
  std::size_t vertices = 0;
  for (const SectionMesh& m : meshes) vertices += m.vertices.size();
  state.counters["vertices"] = double(vertices);
}
BENCHMARK(BM_MeshAll)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

// The lit world with baked models on one surface cell in 4 (fences in rows along x, a lamp or stairs
// every 8th): the atlas mesher's cost with models, against BM_MeshAll/1 in the same run.
void BM_MeshAllWithModels(benchmark::State& state) {
  static const World w = [] {
    World world = lit_world();
    const glm::ivec3 size = world.size();
    for (int z = 0; z < size.z; z += 4)
      for (int x = 0; x < size.x; ++x) {
        int y = size.y - 1;
        while (y > 0 && world.material({x, y, z}) == kAir) --y;
        if (y + 1 >= size.y) continue;
        const std::uint8_t m = x % 16 == 0 ? (z % 8 == 0 ? kLamp : kStairs) : kFence;
        world.set_voxel({x, y + 1, z}, m, std::uint8_t(x / 16 % 4));
      }
    compute_light(world);
    return world;
  }();
  WorldMesher mesher;
  std::vector<SectionMesh> meshes;
  for (auto _ : state) mesher.mesh_all(w, {MeshMode::kAtlas}, meshes);
  std::size_t vertices = 0;
  for (const SectionMesh& m : meshes) vertices += m.vertices.size();
  state.counters["vertices"] = double(vertices);
}
BENCHMARK(BM_MeshAllWithModels)->Unit(benchmark::kMillisecond)->UseRealTime();

// All-cube world, cull + greedy over pre-gathered blocks (they do not fit in cache, so this is slower than
// the suite's cube_section_us, which times each block right after its gather as the mesher does).
void BM_CubeCullGreedy(benchmark::State& state) {
  GeneratorParams p;
  p.round_edges = false;
  const World w = generate_world(kReferenceWorldSize, p);
  std::vector<PaddedBlock> blocks;
  for (int s = 0; s < w.section_count(); ++s)
    if (!section_is_air(w, w.section_coord(s))) {
      blocks.emplace_back();
      gather_padded(w, w.section_coord(s), blocks.back(), true);
    }
  MeshScratch scratch;
  for (auto _ : state)
    for (const PaddedBlock& b : blocks) {
      cull_and_merge(b, scratch, MeshMode::kAtlas);
      benchmark::DoNotOptimize(scratch.quads.data());
    }
  state.SetItemsProcessed(state.iterations() * std::int64_t(blocks.size()));
}
BENCHMARK(BM_CubeCullGreedy)->Unit(benchmark::kMillisecond);

// The baked-model scan cull_and_merge runs first, on the same blocks (none holds a model): what a world
// without models pays for them, against BM_CubeCullGreedy in the same run.
void BM_ModelScan(benchmark::State& state) {
  const World w = generate_world(kReferenceWorldSize, {});
  std::vector<PaddedBlock> blocks;
  for (int s = 0; s < w.section_count(); ++s)
    if (!section_is_air(w, w.section_coord(s))) {
      blocks.emplace_back();
      gather_padded(w, w.section_coord(s), blocks.back(), true);
    }
  std::vector<ModelFaceRef> faces;
  for (auto _ : state)
    for (const PaddedBlock& b : blocks) {
      collect_model_faces(b, faces);
      benchmark::DoNotOptimize(faces.data());
    }
  state.SetItemsProcessed(state.iterations() * std::int64_t(blocks.size()));
}
BENCHMARK(BM_ModelScan)->Unit(benchmark::kMillisecond);

void BM_GatherSection(benchmark::State& state) {
  const World& w = lit_world();
  PaddedBlock block;
  int s = 0;
  for (auto _ : state) {
    gather_padded(w, w.section_coord(s), block);
    benchmark::DoNotOptimize(block.form.data());
    s = (s + 1) % w.section_count();
  }
}
BENCHMARK(BM_GatherSection);

}  // namespace
