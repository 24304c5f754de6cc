// From local transforms to skinning palettes: local-to-model (one forward walk over the depth-first
// joint order) and palette = model x inverse bind, stored as GPU-ready 3x4 rows. Plus the CPU
// reference of linear-blend vertex skinning that the GPU shader must reproduce. Both hot loops run
// in 256-bit AVX lanes when the CPU has AVX and in portable 4-wide lanes otherwise, with the same bits
// (pose_kernels.hpp).
#pragma once

#include "myriad/anim/pose/skeleton.hpp"

#include <span>

namespace myriad::anim {

// Affine product a * b that ignores (and writes) the implied last row 0 0 0 1; the form used for
// every joint, so CPU palettes round the same way everywhere.
glm::mat4 affine_mul(const glm::mat4& a, const glm::mat4& b);

// Local TRS -> matrix (translation * rotation * scale).
glm::mat4 compose(glm::vec3 t, glm::quat r, glm::vec3 s);

// model[i] = model[parent[i]] * local[i] (roots: local[i]). `model` has skeleton.size() entries.
void local_to_model(std::span<const std::int16_t> parents, const LocalPose& local,
                    std::span<glm::mat4> model);

// palette[i] = model[joints[i]] * inverse_binds[i] for a renderer skeleton whose entry i drives
// skeleton joint joints[i]. joints, inverse_binds and palette have the same size. The Mat3x4 form
// (inverse binds as rows, converted once) is the fast path; both give the same bits.
void build_palette(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                   std::span<const Mat3x4> inverse_binds, std::span<Mat3x4> palette);
void build_palette(std::span<const glm::mat4> model, std::span<const std::uint16_t> joints,
                   std::span<const glm::mat4> inverse_binds, std::span<Mat3x4> palette);

// Linear-blend skinning of one position: sum_i w_i * (palette[j_i] * (p, 1)), rows dotted as
// r.x*p.x + r.y*p.y + r.z*p.z + r.w and terms added in order i = 0..3 (the shader's order).
glm::vec3 skin_position(std::span<const Mat3x4> palette, glm::u16vec4 joints, glm::vec4 weights, glm::vec3 p);

}  // namespace myriad::anim
