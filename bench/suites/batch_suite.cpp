// The "batch" suite of `myriad bench`: skeleton math per joint (local-to-model, palette) next to
// ozz-animation's figures, the B8 matrix ratios from skeleton dedup, and one frame of 1,000 clothed
// avatars (sampling + pose + palettes + culling + draw generation) with draw and matrix counts, and
// the palette upload of those avatars into the global buffer by staging copy and by compute pass.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <unistd.h>
#include <random>
#include <vector>

#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/kit/kit_build.hpp"
#include "myriad/anim/kit/kit_info.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/core/io/assets.hpp"
#include "myriad/core/cull/frustum.hpp"
#include "myriad/core/thread/parallel.hpp"
#include "myriad/core/thread/stopwatch.hpp"
#include "myriad/gpu/device/context.hpp"
#include "myriad/render/avatars/skin_renderer.hpp"
#include "suite.hpp"
#include "wall_clock_label.hpp"

namespace myriad::bench {
namespace {

volatile float g_sink = 0.0f;

// B6/B8 measured on a kit read back through the glTF import path: palette matrices per avatar with one
// palette per part (each part's own bone list) and after dedup, bare and with every item worn.
void add_kit_dedup(Report& report, const std::string& key, const anim::Avatar& kit, const std::string& what) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("myriad-bench-kit-" + key + "-" + std::to_string(::getpid()));
  const anim::KitImport in = anim::write_and_import_kit(kit, dir, key);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  const anim::KitDedup d = anim::measure_dedup(in.kit);
  const std::string k = "kit_" + key + "_matrices_";
  report.add(k + "bare_before", static_cast<double>(d.bare_before), "", what + ", body parts only");
  report.add(k + "bare_after", static_cast<double>(d.bare_after), "");
  report.add(k + "clothed_before", static_cast<double>(d.clothed_before), "", what + ", every item worn");
  report.add(k + "clothed_after", static_cast<double>(d.clothed_after), "");
  report.add("kit_" + key + "_bare_ratio",
             static_cast<double>(d.bare_before) / static_cast<double>(d.bare_after), "",
             "article: 2x fewer for a bare avatar");
  report.add("kit_" + key + "_clothed_ratio",
             static_cast<double>(d.clothed_before) / static_cast<double>(d.clothed_after), "",
             "article: over 4x fewer with clothes");
}

// A 67-joint skeleton (the size ozz-animation's figures were measured on) with random local TRS.
struct BigSkeleton {
  std::vector<std::int16_t> parents;
  anim::LocalPose local;
  std::vector<glm::mat4> inverse_binds;
  std::vector<std::uint16_t> joints;
  std::vector<anim::Mat3x4> ibm_rows;  // inverse binds as rows: build_palette's fast path
};

BigSkeleton big_skeleton(std::size_t n = 67) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  BigSkeleton s;
  s.local.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    s.parents.push_back(i == 0 ? anim::kNoParent : static_cast<std::int16_t>(rng() % i));
    s.local.translation[i] = {u(rng), u(rng), u(rng)};
    s.local.rotation[i] = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    s.local.scale[i] = glm::vec3(1.0f);
    s.joints.push_back(static_cast<std::uint16_t>(i));
  }
  std::vector<glm::mat4> model(n);
  anim::local_to_model(s.parents, s.local, model);
  for (const glm::mat4& m : model) {
    s.inverse_binds.push_back(glm::inverse(m));
    s.ibm_rows.push_back(anim::to_mat3x4(s.inverse_binds.back()));
  }
  return s;
}

template <class Fn>
double median_ns(int reps, Fn&& fn) {
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    Stopwatch w;
    fn();
    samples.push_back(w.elapsed_ns());
  }
  return median(samples);
}

batch::CullCamera crowd_camera() {
  // Looking over a 32 x 32 grid of avatars (2 m apart) from behind its near edge.
  const float fov = glm::radians(60.0f);
  const glm::vec3 eye(31.0f, 6.0f, 12.0f);
  batch::CullCamera c;
  c.frustum = Frustum::from_view_proj(perspective(fov, 16.0f / 9.0f, 0.1f, 300.0f) *
                                      glm::lookAt(eye, glm::vec3(31.0f, 0.0f, -40.0f), glm::vec3(0, 1, 0)));
  c.position = eye;
  c.lod_scale = 1.0f / (2.0f * std::tan(fov / 2.0f));
  return c;
}

}  // namespace

void run_batch_suite(Report& report, const SuiteOptions& options) {
  const int reps = options.repetitions > 0 ? options.repetitions : 1;
  // Skeleton math, one thread, on 16 characters' worth of matrices (about 70 KB: in L2, as in
  // ozz-animation's measurement), repeated so each sample covers many joints.
  {
    ThreadLimit one(1);
    const BigSkeleton s = big_skeleton();
    const std::size_t chars = 16;
    const std::size_t rounds = options.quick ? 10 : 200;
    const std::size_t n = s.parents.size();
    std::vector<glm::mat4> model(chars * n);
    const double l2m = median_ns(reps, [&] {
      for (std::size_t r = 0; r < rounds; ++r) {
        for (std::size_t c = 0; c < chars; ++c)
          anim::local_to_model(s.parents, s.local, {model.data() + c * n, n});
      }
      g_sink = g_sink + model.back()[3][0];
    });
    report.add("local_to_model_ns_per_joint", l2m / static_cast<double>(rounds * chars * n), "ns",
               "ozz-animation ~6.5 ns/joint (67 joints), this machine");
    std::vector<anim::Mat3x4> palette(chars * n);
    const double pal = median_ns(reps, [&] {
      for (std::size_t r = 0; r < rounds; ++r) {
        for (std::size_t c = 0; c < chars; ++c) {
          anim::build_palette({model.data() + c * n, n}, s.joints, s.ibm_rows, {palette.data() + c * n, n});
        }
      }
      g_sink = g_sink + palette.back().rows[0].x;
    });
    report.add("palette_ns_per_joint", pal / static_cast<double>(rounds * chars * n), "ns",
               "ozz-animation 3.6-5.7 ns/joint (model x inverse bind), this machine");
  }
  // B8: palette matrices per avatar without and with dedup.
  for (bool clothed : {false, true}) {
    const anim::Avatar av = anim::make_avatar({.clothed = clothed});
    std::vector<anim::PartSkin> skins;
    std::size_t per_part = 0;
    for (const anim::AvatarPart& p : av.parts) {
      skins.push_back(p.skin);
      per_part += p.skin.joints.size();
    }
    const std::size_t unique = anim::dedup_skeletons(skins).renderer_skeleton.joints.size();
    report.add(clothed ? "matrices_clothed_ratio" : "matrices_bare_ratio",
               static_cast<double>(per_part) / static_cast<double>(unique), "",
               clothed ? "article: over 4x fewer with clothes" : "article: 2x fewer for a bare avatar");
  }
  // The same on kits through the import path: the procedural humanoid (the default scene's kit when
  // the shared models are missing) and CesiumMan split into 17 parts by dominant joint with the sample
  // items (the default scene's kit).
  add_kit_dedup(report, "procedural", anim::make_sample_kit(nullptr), "procedural humanoid, 17 parts");
  if (const std::optional<std::filesystem::path> cesium = find_shared_asset("cesium_man.gltf")) {
    const anim::ImportedModel model = anim::import_gltf(*cesium);
    add_kit_dedup(report, "cesium17", anim::make_sample_kit(&model),
                  "cesium_man.gltf split into 17 parts + 6 sample items (the default scene's kit)");
  } else {
    std::fprintf(stderr, "batch: cesium_man.gltf not found in %s (set MYRIAD_ASSETS); kit_cesium17 skipped\n",
                 shared_assets_dir().string().c_str());
  }
  // One frame of 1,000 clothed avatars (all threads).
  const anim::Avatar av = anim::make_avatar({.clothed = true});
  const std::size_t count = options.quick ? 100 : 1000;
  batch::AvatarCrowd crowd(av, {.avatars = count});
  batch::AvatarCrowdOptions throttled_options{.avatars = count, .throttle = true};
  batch::AvatarCrowd throttled(av, throttled_options);
  const batch::CullCamera cam = crowd_camera();
  batch::CrowdFrameStats stats;
  std::vector<double> frame_ms;
  for (int r = 0; r < reps + 1; ++r) {  // the first frame warms caches and the TBB pool
    Stopwatch w;
    stats = crowd.frame(cam, 1.0f / 60.0f);
    if (r > 0) frame_ms.push_back(w.elapsed_ms());
  }
  const std::string n = std::to_string(count);
  report.add("avatars" + n + "_frame_ms", median(frame_ms), "ms",
             "sampling + pose + palettes + culling + draw generation");
  report.add("avatars" + n + "_draws_before_batching", static_cast<double>(stats.draws_unbatched), "");
  report.add("avatars" + n + "_draws_after_batching", static_cast<double>(stats.draws), "");
  report.add("avatars" + n + "_matrices_before_dedup", static_cast<double>(stats.matrices_without_dedup), "");
  report.add("avatars" + n + "_matrices_after_dedup", static_cast<double>(stats.matrices), "");
  // B7: the frame's palettes into the global palette buffer, both ways (the staging write is shared
  // and left out; submit to completion is timed).
  {
    gpu::Context ctx;
    const std::string device = wall_clock_label(ctx);
    render::SkinPalette palette(ctx, crowd.palettes().size());
    for (const render::PaletteUpload how :
         {render::PaletteUpload::kStagingCopy, render::PaletteUpload::kCompute}) {
      std::vector<double> upload_ms;
      for (int r = 0; r < reps + 1; ++r) {  // the first upload warms the pipeline and caches
        palette.write(crowd.palettes(), 0, crowd.palettes().size());
        Stopwatch w;
        ctx.submit_and_wait([&](VkCommandBuffer cmd) { palette.record_upload(cmd, how); });
        if (r > 0) upload_ms.push_back(w.elapsed_ms());
      }
      const bool copy = how == render::PaletteUpload::kStagingCopy;
      report.add(copy ? "palette_upload_copy_ms" : "palette_upload_compute_ms", median(upload_ms), "ms",
                 device + ", " + std::to_string(crowd.palettes().size()) + " matrices");
    }
  }
  std::size_t throttled_matrices = 0;
  constexpr int kFrames = 8;           // the longest default throttle interval
  throttled.frame(cam, 1.0f / 60.0f);  // the first frame poses everyone (no palettes yet): not counted
  for (int f = 0; f < kFrames; ++f) throttled_matrices += throttled.frame(cam, 1.0f / 60.0f).matrices;
  report.add("avatars" + n + "_matrices_throttled", static_cast<double>(throttled_matrices) / kFrames, "",
             "mean per frame over 8 frames, default distance bands 15/40/80 m -> every 1/2/4/8 frames");
  // SPEC B9 at scale: one CPU frame of 10,000 clothed avatars on 2 worker threads, and the palette bytes
  // a frame uploads (only the posed avatars' palettes travel) without and with throttling.
  {
    ThreadLimit two(2);
    const std::size_t many = options.quick ? 2000 : 10000;
    const std::string m = std::to_string(many);
    batch::AvatarCrowd all(av, {.avatars = many});
    std::vector<double> many_ms;
    for (int r = 0; r < reps + 1; ++r) {  // the first frame warms caches and the TBB pool
      Stopwatch w;
      all.frame(cam, 1.0f / 60.0f);
      if (r > 0) many_ms.push_back(w.elapsed_ms());
    }
    report.add("avatars" + m + "_frame_ms", median(many_ms), "ms",
               "2 worker threads: sampling + pose + palettes + culling + draw generation");
    // The same crowd with three LOD levels per part (the default scene's setting): the frame time
    // and what a frame skins, with and without LOD groups.
    batch::AvatarCrowd lods(av, {.avatars = many, .lod_levels = 3});
    std::vector<double> lod_ms;
    batch::CrowdFrameStats with{}, without{};
    for (int r = 0; r < reps + 1; ++r) {
      Stopwatch w;
      with = lods.frame(cam, 1.0f / 60.0f);
      if (r > 0) lod_ms.push_back(w.elapsed_ms());
    }
    without = all.frame(cam, 1.0f / 60.0f);
    report.add("avatars" + m + "_lod_frame_ms", median(lod_ms), "ms",
               "2 worker threads, 3 LOD levels per part (LOD groups culled on the CPU)");
    report.add("avatars" + m + "_vertices_skinned", static_cast<double>(without.vertices), "",
               "vertices the frame's draws skin, no LOD groups");
    report.add("avatars" + m + "_lod_vertices_skinned", static_cast<double>(with.vertices), "",
               "the same with 3 LOD levels (levels " + std::to_string(with.avatars_per_lod[0]) + " / " +
                   std::to_string(with.avatars_per_lod[1]) + " / " + std::to_string(with.avatars_per_lod[2]) +
                   " avatars)");
    report.add("avatars" + m + "_matrices_per_frame", static_cast<double>(without.matrices), "",
               "palette matrices posed, no LOD groups");
    report.add("avatars" + m + "_lod_matrices_per_frame", static_cast<double>(with.matrices), "",
               "the same with LOD groups (LODs change vertices, not bones)");
    batch::AvatarCrowd far_ones_wait(av, {.avatars = many, .throttle = true});
    far_ones_wait.frame(cam, 1.0f / 60.0f);  // poses everyone: not counted, as above
    double bytes = 0.0, throttled_bytes = 0.0;
    for (int f = 0; f < kFrames; ++f) {
      bytes += static_cast<double>(all.frame(cam, 1.0f / 60.0f).palette_bytes_uploaded);
      throttled_bytes += static_cast<double>(far_ones_wait.frame(cam, 1.0f / 60.0f).palette_bytes_uploaded);
    }
    report.add("palette_bytes_per_frame", bytes / kFrames, "bytes", m + " avatars, mean of 8 frames");
    report.add("palette_bytes_per_frame_throttled", throttled_bytes / kFrames, "bytes",
               m + " avatars, mean of 8 frames, default distance bands (crowd_camera)");
  }
}

}  // namespace myriad::bench
