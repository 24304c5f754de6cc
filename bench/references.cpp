#include "references.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace myriad::bench {
namespace {

constexpr Comparison kMax = Comparison::kAtMost;
constexpr Comparison kMin = Comparison::kAtLeast;

// Only numbers the articles or SPEC.md state as something to reach; article figures measured on other
// content or hardware (vertex counts of the article's world, its FPS) stay free-text references.
const std::array<Target, 43> kTargets{{
    // article 000 / SPEC V: the reference world on 2 cores.
    {"voxel.mesh_cold_ms", kMax, 25.0, "", "voxel target: cold meshing of 1024 sections on 2 cores", true},
    {"voxel.cube_section_us", kMax, 6.0, "", "voxel target: all-cube section, culling + greedy", false},
    // article 000: the surface atlas against conventional greedy meshing, 485,856 / 762,504 vertices.
    {"voxel.atlas_over_conventional_vertices", kMax, 0.637, "",
     "article 000: the atlas keeps 485,856 of conventional greedy's 762,504 vertices", false},
    {"voxel-gpu.pipeline_binds_overview", kMax, 18.0, "", "article 000: ~18 binds for the whole world",
     false},
    // article 000's two views (maximum zoom-out, normal game scale): binds counted in the recorded frame.
    {"voxel-gpu.zoomed_out.pipeline_binds", kMax, 18.0, "",
     "article 000: ~18 binds (SetPass calls) for the whole world at maximum zoom-out", false},
    {"voxel-gpu.game.pipeline_binds", kMax, 18.0, "",
     "article 000: ~18 binds (SetPass calls) for the whole world at the normal game scale", false},
    // SPEC V13/V15 and the voxel vegetation issue: buffers by content, culling by live instances.
    {"voxel-gpu.vegetation_buffer_bytes", kMax, 4e6, "",
     "voxel vegetation issue: grass + tree buffers <= 4 MB on the reference world", true},
    {"voxel-gpu.vegetation_threads_per_frame", kMax, 1.25, "voxel-gpu.vegetation_live_instances",
     "voxel vegetation issue: one culling thread per live instance (+ wind per tree)", false},
    // SPEC V10/V11 and the terrain memory issue: arenas sized to their content, grouped by place.
    {"voxel-gpu.vertex_arena_fill", kMin, 0.75, "", "terrain issue: vertex arenas >= 75 % full", false},
    {"voxel-gpu.index_arena_fill", kMin, 0.75, "", "terrain issue: index arenas >= 75 % full", false},
    {"voxel-gpu.draws_ground", kMax, 1.0, "voxel-gpu.arenas",
     "terrain issue: a ground-level view skips the arenas of the regions behind it", true},
    // The streamed voxel world issue.
    {"voxel-stream.speed20.cpu_p99_ms", kMax, 1.5, "voxel-stream.speed20.cpu_p50_ms",
     "voxel streaming issue: p99 <= 1.5 x p50 at 20 m/s", false},
    {"voxel-stream.speed20.cpu_thread_p99_ms", kMax, 1.5, "voxel-stream.speed20.cpu_thread_p50_ms",
     "voxel streaming issue: p99 <= 1.5 x p50 at 20 m/s (the frame thread's CPU time)", false},
    // The residency issue: the tail against the machine's floor measured in the same frames.
    {"voxel-stream.speed20.cpu_thread_ratio_over_noise", kMax, 1.15, "",
     "residency issue: thread p99 / p50 <= 1.15 x the noise probe's (read at the frame's p50) at 20 m/s",
     false},
    {"voxel-stream.speed60.pool_after_first_lap_ratio", kMax, 1.0, "",
     "voxel streaming issue: resident memory flat after the first lap", true},
    // article 003 / SPEC B8.
    {"batch.local_to_model_ns_per_joint", kMax, 6.5, "", "article 003: ozz-animation ~6.5 ns/joint", false},
    {"batch.palette_ns_per_joint", kMax, 5.7, "", "article 003: ozz-animation 3.6-5.7 ns/joint", false},
    {"batch.matrices_bare_ratio", kMin, 2.0, "", "SPEC B8: 2x fewer skinning matrices, bare avatar", false},
    {"batch.matrices_clothed_ratio", kMin, 4.0, "", "SPEC B8: over 4x fewer with clothes", false},
    // article 002 / SPEC G and the vegetation issue.
    {"vegetation.instances", kMin, 10e6, "", "SPEC G: tens of millions of instances over 10 km", true},
    {"vegetation.disk_bytes_per_instance", kMax, 16.0, "", "vegetation target: compact tiles (G2)", false},
    {"vegetation.cull_flat_ns", kMax, 1.0, "", "vegetation target: flat CPU culling", false},
    {"vegetation.cull_flat_blocked_ns", kMax, 1.0, "", "vegetation target: flat CPU culling", false},
    {"vegetation.cull_tree_ns", kMax, 1.0, "vegetation.memory_floor_ns",
     "vegetation target: quadtree culling below the memory floor", false},
    // The vegetation streaming issue.
    {"vegetation-stream.speed200.cpu_frame_ms_p99", kMax, 1.5, "vegetation-stream.speed200.cpu_frame_ms_p50",
     "vegetation streaming issue: p99 <= 1.5 x p50 at 200 m/s", false},
    {"vegetation-stream.speed200.cpu_thread_ms_p99", kMax, 1.5,
     "vegetation-stream.speed200.cpu_thread_ms_p50",
     "vegetation streaming issue: p99 <= 1.5 x p50 at 200 m/s (the frame thread's CPU time)", false},
    {"vegetation-stream.speed200.cpu_thread_ratio_over_noise", kMax, 1.15, "",
     "residency issue: thread p99 / p50 <= 1.15 x the noise probe's (read at the frame's p50) at 200 m/s",
     false},
    {"vegetation-stream.gpu_bytes_per_instance", kMax, 32.0, "",
     "vegetation streaming issue: compact GPU records", true},
    // article 004 / SPEC C.
    {"crowd-bake.*_lod1_holes_pct", kMax, 1.0, "", "SPEC C7: holes <= 1 %", false},
    {"crowd-bake.*_lod2_holes_pct", kMax, 1.0, "", "SPEC C7: holes <= 1 %", false},
    {"crowd-bake.*_lod1_loss_pct", kMax, 6.0, "", "SPEC C7: loss 4-6 %", false},
    {"crowd-bake.*_lod2_loss_pct", kMax, 6.0, "", "SPEC C7: loss 4-6 %", false},
    {"crowd-bake.*_lod2_triangles", kMax, 460.0, "", "SPEC C6: 200-460 triangles", false},
    {"crowd-bake.*_vat_saved_pct", kMin, 40.0, "", "SPEC C4: 40-60 % less animation memory", false},
    {"crowd-bake.*_lod1_silhouette_pct", kMax, 5.0, "", "crowd issue: silhouette loss <= 5 %", false},
    {"crowd-bake.*_lod2_silhouette_pct", kMax, 5.0, "", "crowd issue: silhouette loss <= 5 %", false},
    {"crowd-bake.*_lod0_over_bound_vertices", kMax, 1.0, "",
     "crowd issue: LOD0 never above the welded mesh with its original UV seams", false},
    {"crowd-bake.*_lod0_over_welded_vertices", kMax, 1.10, "",
     "crowd issue: the re-unwrap keeps the weld's gain", false},
    {"crowd-bake.*_lod1_over_lod0_triangles", kMax, 0.60, "", "crowd issue: LOD1 <= 0.60 x LOD0 triangles",
     false},
    {"crowd.frame_ratio_per_entity_vs_lod0", kMax, 0.69, "", "article 004: 90 -> 130 FPS (whole map)", false},
    {"crowd.closeup_frame_ratio_per_entity_vs_lod0", kMax, 0.52, "", "article 004: 62 -> 120 FPS (close-up)",
     false},
    // article 004 at its own settings: 2560 x 1440, fov 30°, 3,000 enemies, shadows on.
    {"crowd-article.whole_map.lod_over_forced_lod0_ratio", kMax, 0.69, "",
     "article 004: 90 -> 130 FPS (whole map)", false},
    {"crowd-article.close_up.lod_over_forced_lod0_ratio", kMax, 0.52, "",
     "article 004: 62 -> 120 FPS (close-up)", false},
}};

}  // namespace

std::span<const Target> reference_targets() { return kTargets; }

std::string format_value(double value) {
  char buffer[48];
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0.0 ? "inf" : "-inf";
  const bool whole = value == std::floor(value) && std::abs(value) < 1e12;
  std::snprintf(buffer, sizeof(buffer), whole ? "%.0f" : "%.4g", value);
  return buffer;
}

bool key_matches(std::string_view pattern, std::string_view key) {
  // Classic wildcard matching with one backtrack point: '*' is the only special character.
  std::size_t p = 0, k = 0, star = std::string_view::npos, resume = 0;
  while (k < key.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = k;
    } else if (p < pattern.size() && pattern[p] == key[k]) {
      ++p;
      ++k;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      k = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

const Target* find_target(std::span<const Target> targets, std::string_view key) {
  for (const Target& t : targets) {
    if (key_matches(t.key, key)) return &t;
  }
  return nullptr;
}

Verdict judge(const Target& target, double value, const FigureLookup& lookup, bool quick) {
  Verdict verdict;
  double threshold = target.value;
  if (!target.relative_to.empty()) {
    const std::optional<double> base = lookup ? lookup(target.relative_to) : std::nullopt;
    if (!base || !std::isfinite(*base)) return verdict;
    threshold *= *base;
  }
  verdict.threshold = threshold;
  if (!std::isfinite(value) || (quick && target.full_run_only)) return verdict;
  verdict.met = target.comparison == Comparison::kAtMost ? value <= threshold : value >= threshold;
  return verdict;
}

const char* comparison_symbol(Comparison comparison, bool ascii) {
  if (comparison == Comparison::kAtMost) return ascii ? "<=" : "\xE2\x89\xA4";
  return ascii ? ">=" : "\xE2\x89\xA5";
}

std::string describe_target(const Target& target, std::string_view unit, bool ascii) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict) on "literal" + std::string temporaries.
  std::string text = comparison_symbol(target.comparison, ascii);
  text += ' ';
  text += format_value(target.value);
  if (!target.relative_to.empty()) {
    text += ascii ? " x " : " \xC3\x97 ";
    text += target.relative_to;
  } else if (!unit.empty()) {
    text += ' ';
    text += unit;
  }
  return text;
}

}  // namespace myriad::bench
