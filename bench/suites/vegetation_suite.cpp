// `myriad bench vegetation`: a 10 km x 10 km world with >= 10 M plants (1 km and ~100 k in quick mode):
// bake time, disk bytes per instance, load + pooling throughput, resident CPU and GPU bytes per instance,
// and CPU
// culling per instance (flat sphere loop, AVX2 and portable, quadtree) next to the memory floor measured in
// the same run, and GPU culling throughput on the device at hand (lavapipe: CPU emulation).
#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "myriad/core/thread/parallel.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/vegetation/vegetation_cull.hpp"
#include "myriad/vegetation/bake/baker.hpp"
#include "myriad/vegetation/cull/cpu_cull.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"
#include "myriad/vegetation/cull/sphere_blocks.hpp"
#include "suite.hpp"

namespace myriad::bench {

using namespace myriad::vegetation;

namespace {

// Reads 16 bytes per instance (four float arrays) with the cheapest work that cannot be skipped: an
// integer XOR (associative, so it vectorizes; a float sum would be latency-bound, not memory-bound).
__attribute__((noinline)) std::uint32_t read_arrays(const SphereArrays& s) {
  std::uint32_t acc = 0;
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n; ++i)
    acc ^= std::bit_cast<std::uint32_t>(s.x[i]) ^ std::bit_cast<std::uint32_t>(s.y[i]) ^
           std::bit_cast<std::uint32_t>(s.z[i]) ^ std::bit_cast<std::uint32_t>(s.r[i]);
  return acc;
}

}  // namespace

void run_vegetation_suite(Report& report, const SuiteOptions& options) {
  const int reps = std::max(1, options.repetitions);
  const double world = options.quick ? 1000.0 : 10000.0;
  BakeOptions bake;
  bake.seed = 1;
  bake.world_max = {world, world};
  const auto dir =
      std::filesystem::temp_directory_path() / ("myriad_veg_bench_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);

  // 1. Bake (once: it writes the world to disk).
  Stopwatch sw;
  const BakeSummary baked = bake_to_directory(bake, dir);
  const double bake_ms = sw.elapsed_ms();
  report.add("instances", double(baked.instances), "", ">= 10,000,000 over 10 km x 10 km");
  report.add("tiles", double(baked.tiles), "", "200 m x 200 m");
  report.add("bake_ms", bake_ms, "ms", "procedural scatter + quadtrees + atomic writes, all threads");
  report.add("disk_bytes_per_instance", double(baked.bytes) / double(baked.instances), "bytes",
             "target <= 16 (14-byte record + tree + headers)");

  // 2. Load (read + validate) every tile and copy it into runtime pools, all threads.
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<double> load_s;
  for (int r = 0; r < std::min(reps, 3); ++r) {
    sw.restart();
    parallel_for(0, files.size(), 4, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        RuntimeWorld pools;
        const auto t = std::make_shared<const Tile>(read_tile(files[i]));
        for (std::uint32_t g = 0; g < t->groups.size(); ++g)
          pools.append(t, g, 0, static_cast<std::uint32_t>(t->groups[g].instances.size()));
      }
    });
    load_s.push_back(sw.elapsed_ms() / 1000.0);
  }
  report.add(
      "load_pool_instances_per_s", double(baked.instances) / median(load_s), "instances/s",
      "read + validate + copy into runtime pools, all threads (" + std::to_string(hardware_threads()) + ")");

  // 3. A typical view: camera in the middle, 2 m above the terrain, tiles within 2 km resident.
  const glm::dvec3 camera(world * 0.5 + 37.0,
                          double(bake.terrain.height(world * 0.5 + 37.0, world * 0.5 + 11.0)) + 2.0,
                          world * 0.5 + 11.0);
  const double radius = options.quick ? 600.0 : 2000.0;
  RuntimeWorld runtime(camera);
  std::vector<std::shared_ptr<const Tile>> tiles;
  for (const auto& f : files) {
    auto t = std::make_shared<const Tile>(read_tile(f));
    const double cx = (double(t->x) + 0.5) * double(t->size) - camera.x;
    const double cz = (double(t->z) + 0.5) * double(t->size) - camera.z;
    if (std::sqrt(cx * cx + cz * cz) > radius) continue;
    for (std::uint32_t g = 0; g < t->groups.size(); ++g)
      runtime.append(t, g, 0, static_cast<std::uint32_t>(t->groups[g].instances.size()));
    tiles.push_back(std::move(t));
  }
  std::filesystem::remove_all(dir);
  const double resident = double(runtime.instance_count());
  report.add("resident_instances", resident, "", "tiles within " + std::to_string(int(radius)) + " m");
  report.add("resident_bytes_per_instance", double(runtime.resident_bytes()) / resident, "bytes",
             "16-byte pooled record + page tables + retained 14-byte record and quadtrees");
  // The flat loops cull SoA spheres: each type's pool expanded once (what a CPU fallback would keep).
  std::vector<SphereArrays> spheres;
  for (const auto& type : runtime.types()) spheres.push_back(expand_type(type).spheres);

  const glm::mat4 view = glm::lookAt(glm::vec3(0.0f), glm::vec3(0.3f, -0.05f, -1.0f), glm::vec3(0, 1, 0));
  const Frustum rel = Frustum::from_view_proj(perspective(1.0f, 16.0f / 9.0f, 0.1f, 1500.0f) * view);

  std::vector<double> flat_ns, portable_ns, blocked_ns, tree_ns, floor_ns;
  std::vector<SphereBlocks> blocks;
  for (const SphereArrays& s : spheres) blocks.push_back(build_sphere_blocks(s));
  std::size_t slots = 0;
  for (const SphereArrays& s : spheres) slots += s.size();
  std::vector<std::uint32_t> out(slots);
  std::size_t flat_visible = 0, tree_visible = 0;
  std::vector<VisibleRange> ranges;
  std::vector<std::uint32_t> stack;
  std::uint32_t sink = 0;
  for (int r = 0; r < reps; ++r) {
    sw.restart();
    for (const SphereArrays& s : spheres) sink ^= read_arrays(s);
    floor_ns.push_back(sw.elapsed_ns() / resident);

    sw.restart();
    flat_visible = 0;
    for (const SphereArrays& s : spheres)
      flat_visible +=
          cull_spheres_flat(rel, s.x.data(), s.y.data(), s.z.data(), s.r.data(), s.size(), out.data());
    flat_ns.push_back(sw.elapsed_ns() / resident);

    sw.restart();
    for (const SphereArrays& s : spheres)
      sink ^=
          static_cast<std::uint32_t>(cull_spheres_flat(rel, s.x.data(), s.y.data(), s.z.data(), s.r.data(),
                                                       s.size(), out.data(), FlatCullPath::kPortable));
    portable_ns.push_back(sw.elapsed_ns() / resident);

    sw.restart();
    for (std::size_t t = 0; t < runtime.types().size(); ++t)
      sink ^= static_cast<std::uint32_t>(cull_spheres_blocked(rel, spheres[t], blocks[t], out.data()));
    blocked_ns.push_back(sw.elapsed_ns() / resident);

    sw.restart();
    tree_visible = 0;
    for (const auto& t : tiles) {
      const Frustum local = local_frustum(rel, t->origin(), camera);
      const glm::vec3 cam_local(camera - t->origin());
      for (const Group& g : t->groups) {
        ranges.clear();
        (void)cull_group_tree(g, t->prefabs[g.prefab], local, cam_local, ranges, stack);
        for (const VisibleRange& v : ranges) tree_visible += v.count;
      }
    }
    tree_ns.push_back(sw.elapsed_ns() / resident);
  }
  if (sink == 0x12345678u) report.add("unused", 0.0, "");  // keeps the floor loop from being optimised away
  report.add("memory_floor_ns", median(floor_ns), "ns",
             "16 bytes of bounds per instance from RAM, one core (~0.52)");
  report.add("cull_flat_ns", median(flat_ns), "ns",
             std::string("target <= 1.0; frustum only, SoA spheres, one core, ") +
                 (flat_cull_has_avx2() ? "AVX2 loop" : "portable loop (no AVX2 here)"));
  report.add("cull_flat_portable_ns", median(portable_ns), "ns",
             "the portable (auto-vectorized) loop, same data");
  report.add(
      "cull_flat_blocked_ns", median(blocked_ns), "ns",
      "same output; 64-sphere block bounds skip or accept whole blocks, cut blocks take the flat loop");
  report.add("cull_tree_ns", median(tree_ns), "ns",
             "target below the floor; quadtree + LOD + draw distance, one core");
  report.add("cull_flat_visible", double(flat_visible), "", "frustum only");
  report.add("cull_tree_visible", double(tree_visible), "", "frustum + per-type draw distance per leaf");

  // 4. GPU culling of the same resident view: group test, then per instance hashed LOD with a 10 %
  // cross-fade band and frustum, appended to per-LOD lists (record + submit + wait, wall clock).
  gpu::Context ctx;
  const render::VegetationCull cull(ctx);
  const std::array<render::MeshRange, kGpuMaxLods> meshes{{{36, 0, 0}, {24, 36, 0}, {12, 60, 0}, {6, 72, 0}}};
  std::vector<render::VegetationGpuType> gpu_types;
  std::uint64_t pool_bytes = 0;
  for (const auto& type : runtime.types()) {
    gpu_types.push_back(cull.upload(type, meshes, 0.2f, 0.1f));
    pool_bytes += gpu_types.back().bytes();
  }
  report.add("gpu_bytes_per_instance", double(pool_bytes) / resident, "bytes",
             "target <= 32; device pools: 16-byte records, page tables, visibility words, list regions");
  std::vector<double> gpu_ms;
  for (int r = 0; r < reps; ++r) {
    sw.restart();
    ctx.submit_and_wait([&](VkCommandBuffer cmd) {
      for (std::size_t t = 0; t < gpu_types.size(); ++t)
        (void)cull.record(cmd, rel, glm::vec3(0.0f), gpu_types[t]);
    });
    gpu_ms.push_back(sw.elapsed_ms());
  }
  report.add("gpu_cull_instances_per_ms", resident / median(gpu_ms), "instances/ms",
             (ctx.is_cpu_device() ? "CPU emulation (" : "GPU (") + ctx.device_name() +
                 "); resident instances / wall time of one cull submission");
}

}  // namespace myriad::bench
