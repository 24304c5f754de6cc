#include "myriad/batch/draw_commands.hpp"

#include "myriad/core/thread/parallel.hpp"

#include <tbb/parallel_sort.h>

namespace myriad::batch {

void generate_draws(const BatchScene& scene, const CullResult& cull, DrawList& out) {
  const DrawLayer& d = scene.draws();
  const std::size_t n = d.size();
  constexpr std::size_t kGrain = 4096;
  const std::size_t chunks = (n + kGrain - 1) / kGrain;
  out.chunk_counts.assign(chunks + 1, 0);
  // Pass 1: count visible draw instances per fixed chunk; pass 2 writes them at prefix offsets, so
  // the item order (before sorting) is independent of scheduling.
  parallel_for(0, chunks, 1, [&](std::size_t cb, std::size_t ce) {
    for (std::size_t c = cb; c < ce; ++c) {
      std::uint32_t count = 0;
      for (std::size_t i = c * kGrain; i < std::min(n, (c + 1) * kGrain); ++i) {
        const std::uint32_t r = d.renderer[i];  // kNoRenderer: a free entry of a removed renderer
        count += r != kNoRenderer ? cull.visible[r] : 0;
      }
      out.chunk_counts[c + 1] = count;
    }
  });
  for (std::size_t c = 0; c < chunks; ++c) out.chunk_counts[c + 1] += out.chunk_counts[c];
  const std::size_t visible = out.chunk_counts[chunks];
  out.items.resize(visible);
  parallel_for(0, chunks, 1, [&](std::size_t cb, std::size_t ce) {
    for (std::size_t c = cb; c < ce; ++c) {
      std::size_t w = out.chunk_counts[c];
      for (std::size_t i = c * kGrain; i < std::min(n, (c + 1) * kGrain); ++i) {
        const std::uint32_t r = d.renderer[i];
        if (r == kNoRenderer || cull.visible[r] == 0) continue;
        out.items[w++] = {draw_key(d.type[i], d.mesh[i], d.material[i]), d.slot[i], r};
      }
    }
  });
  // (key, slot) is unique per draw instance, so the sorted order is a total order: deterministic.
  tbb::parallel_sort(out.items.begin(), out.items.end(),
                     [](const DrawList::Item& a, const DrawList::Item& b) {
                       return a.key != b.key ? a.key < b.key : a.slot < b.slot;
                     });
  out.visible_draw_instances = visible;
  out.instances.resize(visible);
  out.renderers.resize(visible);
  out.draws.clear();
  for (std::size_t i = 0; i < visible; ++i) {
    const DrawList::Item& it = out.items[i];
    out.instances[i] = it.slot;
    out.renderers[i] = it.renderer;
    if (out.draws.empty() ||
        draw_key(out.draws.back().type, out.draws.back().mesh, out.draws.back().material) != it.key) {
      out.draws.push_back({static_cast<BatchType>(it.key >> 48),
                           static_cast<std::uint32_t>((it.key >> 24) & 0xFFFFFFu),
                           static_cast<std::uint32_t>(it.key & 0xFFFFFFu), static_cast<std::uint32_t>(i), 0});
    }
    ++out.draws.back().instance_count;
  }
}

}  // namespace myriad::batch
