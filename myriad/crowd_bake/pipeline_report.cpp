// The bake report as text (what `myriad crowd bake` prints).
#include "myriad/crowd_bake/pipeline.hpp"

#include <cstdio>

namespace myriad::crowd {

std::string format_report(const BakeReport& r, const HoleCheckOptions& limits) {
  std::string s;
  char buf[320];
  auto line = [&](const char* fmt, auto... args) {
    std::snprintf(buf, sizeof buf, fmt, args...);
    s += buf;
  };
  line("crowd bake of %s: %s\n", r.name.c_str(),
       r.passed ? "every level within the limits" : "some level OUTSIDE the limits");
  line("  original   %6zu vertices %6zu triangles (%zu non-manifold edges, %zu zero-area triangles)\n",
       r.original_vertices, r.original_triangles, r.non_manifold_edges, r.degenerate_triangles);
  line("  welded     %6zu vertices (%.1f %% fewer), %zu charts after unwrapping\n", r.welded_vertices,
       r.original_vertices ? 100.0 * (1.0 - double(r.welded_vertices) / double(r.original_vertices)) : 0.0,
       r.charts);
  line("  LOD0 bound  %6zu vertices (welded, original UV seams kept); %zu charts kept their original UVs\n",
       r.lod0_vertex_bound, r.charts_kept_original);
  const char* names[3] = {"LOD0", "LOD1", "LOD2"};
  for (int i = 0; i < 3; ++i) {
    const LodReport& l = r.lods[i];
    line("  %s       %6zu vertices %6zu triangles  %s", names[i], l.vertices, l.triangles,
         lod_method_name(l.method));
    if (!l.checked) {
      line(", %s\n", l.budget.c_str());
      continue;
    }
    line(" (%s), %s: holes %.2f %% loss %.2f %% silhouette %.2f %% (limits %.2f / %.2f / %.2f %%)\n",
         l.budget.c_str(), l.within_limits ? "within the limits" : "OUTSIDE the limits",
         double(l.holes.worst_holes) * 100.0, double(l.holes.worst_loss) * 100.0,
         double(l.holes.worst_silhouette) * 100.0, double(limits.hole_limit) * 100.0,
         double(limits.loss_limit) * 100.0, double(limits.silhouette_limit) * 100.0);
    for (const LodAttempt& a : l.tried) {
      line("    tried %-24s %-34s", lod_method_name(a.method), a.budget.c_str());
      if (!a.note.empty()) {
        s += " " + a.note + "\n";
      } else {
        line(" %5zu vertices %5zu triangles: holes %.2f %% loss %.2f %% silhouette %.2f %%%s\n", a.vertices,
             a.triangles, double(a.holes.worst_holes) * 100.0, double(a.holes.worst_loss) * 100.0,
             double(a.holes.worst_silhouette) * 100.0, a.holes.passed ? " (passed)" : "");
      }
    }
  }
  line("  LOD1 pieces: %zu, %zu stopped above their target by shared borders or the error limit\n",
       r.lod1_pieces.size(), r.lod1_pieces_stopped);
  if (r.lod1_pass1_triangles > r.lods[1].triangles) {
    line("  LOD1 across bone borders: %zu -> %zu triangles (%.1f %% of LOD0), error %.4f\n",
         r.lod1_pass1_triangles, r.lods[1].triangles,
         r.lods[0].triangles ? 100.0 * double(r.lods[1].triangles) / double(r.lods[0].triangles) : 0.0,
         double(r.lod1_pass2_error));
  }
  for (const Lod1Piece& p : r.lod1_pieces) {
    if (!p.stopped_above_target) continue;
    line("    piece bone %u material %u%s: %zu -> %zu triangles (target %zu, error %.4f)\n", unsigned(p.bone),
         unsigned(p.material), p.head ? " (head)" : "", p.triangles_before, p.triangles_after, p.target,
         double(p.error));
  }
  line("  VAT: %zu columns (naive %zu) x %zu rows; %zu bytes before, %zu after (%.1f %% saved)\n",
       r.vat_columns, r.vat_columns_naive, r.vat_rows, r.vat_bytes_before, r.vat_bytes_after,
       r.vat_bytes_before ? 100.0 * (1.0 - double(r.vat_bytes_after) / double(r.vat_bytes_before)) : 0.0);
  s += "  time per stage:";
  double total = 0.0;
  for (const StageTime& t : r.times) {
    line(" %s %.1f ms,", t.stage.c_str(), t.ms);
    total += t.ms;
  }
  line(" total %.1f ms\n", total);
  for (const std::string& w : r.warnings) s += "  warning: " + w + "\n";
  if (!r.passed) s += "  outside the limits: " + r.failure + "\n";
  return s;
}

}  // namespace myriad::crowd
