// Google Benchmark programs for anim + batch: the same operations as the "batch" suite of
// `myriad bench`, one at a time for profiling (--benchmark_filter).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/anim/pose/pose_kernels.hpp"
#include "myriad/batch/avatar_crowd.hpp"

namespace {

struct Skel {
  std::vector<std::int16_t> parents;
  myriad::anim::LocalPose local;
  std::vector<glm::mat4> model, inverse_binds;
  std::vector<std::uint16_t> joints;
  std::vector<myriad::anim::Mat3x4> ibm_rows;  // inverse binds as rows: build_palette's fast path
  std::vector<myriad::anim::Mat3x4> palette;
};

Skel make_skeleton(std::size_t n) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Skel s;
  s.local.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    s.parents.push_back(i == 0 ? myriad::anim::kNoParent : static_cast<std::int16_t>(rng() % i));
    s.local.translation[i] = {u(rng), u(rng), u(rng)};
    s.local.rotation[i] = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    s.local.scale[i] = glm::vec3(1.0f);
    s.joints.push_back(static_cast<std::uint16_t>(i));
  }
  s.model.resize(n);
  s.palette.resize(n);
  myriad::anim::local_to_model(s.parents, s.local, s.model);
  for (const glm::mat4& m : s.model) {
    s.inverse_binds.push_back(glm::inverse(m));
    s.ibm_rows.push_back(myriad::anim::to_mat3x4(s.inverse_binds.back()));
  }
  return s;
}

// Times `step(skeleton)` on a 67-joint skeleton and reports ns per joint.
template <class Step>
void per_joint(benchmark::State& state, Step step) {
  Skel s = make_skeleton(67);
  for (auto _ : state) {
    step(s);
    benchmark::ClobberMemory();
  }
  state.counters["ns_per_joint"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 67.0,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_LocalToModel67(benchmark::State& state) {
  per_joint(state, [](Skel& s) { myriad::anim::local_to_model(s.parents, s.local, s.model); });
}
BENCHMARK(BM_LocalToModel67);

void BM_Palette67(benchmark::State& state) {
  per_joint(state, [](Skel& s) { myriad::anim::build_palette(s.model, s.joints, s.ibm_rows, s.palette); });
}
BENCHMARK(BM_Palette67);

// The portable 4-wide kernels, for the ratio to the AVX ones that the calls above pick on this CPU.
void BM_LocalToModel67Portable(benchmark::State& state) {
  per_joint(state,
            [](Skel& s) { myriad::anim::kernels::local_to_model_portable(s.parents, s.local, s.model); });
}
BENCHMARK(BM_LocalToModel67Portable);

void BM_Palette67Portable(benchmark::State& state) {
  per_joint(state, [](Skel& s) {
    myriad::anim::kernels::build_palette_portable(s.model, s.joints, s.ibm_rows, s.palette);
  });
}
BENCHMARK(BM_Palette67Portable);

void BM_CrowdFrame(benchmark::State& state) {
  const myriad::anim::Avatar av = myriad::anim::make_avatar({.clothed = true});
  myriad::batch::AvatarCrowd crowd(av, {.avatars = static_cast<std::size_t>(state.range(0))});
  myriad::batch::CullCamera cam;
  const float fov = glm::radians(60.0f);
  cam.position = {31.0f, 6.0f, 12.0f};
  cam.frustum =
      myriad::Frustum::from_view_proj(myriad::perspective(fov, 16.0f / 9.0f, 0.1f, 300.0f) *
                                      glm::lookAt(cam.position, glm::vec3(31, 0, -40), glm::vec3(0, 1, 0)));
  cam.lod_scale = 1.0f / (2.0f * std::tan(fov / 2.0f));
  myriad::batch::CrowdFrameStats st;
  for (auto _ : state) st = crowd.frame(cam, 1.0f / 60.0f);
  state.counters["draws"] = static_cast<double>(st.draws);
  state.counters["draws_unbatched"] = static_cast<double>(st.draws_unbatched);
  state.counters["matrices"] = static_cast<double>(st.matrices);
}
BENCHMARK(BM_CrowdFrame)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
