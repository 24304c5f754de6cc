// The two implementations behind local_to_model and build_palette (pose.hpp): a portable one in
// 4-wide vector lanes, and one in 256-bit AVX lanes used when the CPU has AVX. Both evaluate the same
// IEEE expressions in the same order (no fused multiply-add), so they give the same bits; tests
// compare them. Internal to the anim module.
#pragma once

#include "myriad/anim/pose/skeleton.hpp"

#include <span>

namespace myriad::anim::kernels {

void local_to_model_portable(std::span<const std::int16_t> parents, const LocalPose& local,
                             std::span<glm::mat4> model);
void build_palette_portable(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                            std::span<const Mat3x4> inverse_binds, std::span<Mat3x4> palette);

// True on x86-64 CPUs (and operating systems) with AVX; the *_avx functions may only run then.
bool avx_available();
void local_to_model_avx(std::span<const std::int16_t> parents, const LocalPose& local,
                        std::span<glm::mat4> model);
void build_palette_avx(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                       std::span<const Mat3x4> inverse_binds, std::span<Mat3x4> palette);

}  // namespace myriad::anim::kernels
