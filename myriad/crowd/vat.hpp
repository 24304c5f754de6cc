// Vertex animation textures (SPEC C1, C4): one column per vertex some LOD uses, one row per sampled
// frame, every clip sampled at a fixed rate with anim's sampler, its morph weights applied and skinned
// on the CPU.
//
// Columns come in two kinds: skinned columns (LOD0's welded vertices; LOD1 uses a subset of them) and
// attached columns (LOD2 vertices), which are, per frame, w.x·VAT[a] + w.y·VAT[b] + w.z·VAT[c] of
// skinned columns (normals: the same sum, normalised). Positions are in the model's root space
// (root_transform applied), so a renderer needs no skeleton.
//
// Stored texel (8 bytes, RGBA16_UINT): x, y, z as unorm16 inside the clip's position bounds, w = the
// normal octahedral-encoded as two snorm8 (x in the low byte). Errors (tested): position <= half a
// quantisation step per axis = (clip extent / 65535) / 2; normal <= kVatNormalMaxErrorDegrees.
#pragma once

#include "myriad/crowd/bake_mesh.hpp"

#include <span>
#include <string>
#include <vector>

namespace myriad::crowd {

inline constexpr float kVatNormalMaxErrorDegrees = 1.0f;

struct VatOptions {
  float fps = 30.0f;  // (0, 240]

  // Throws myriad::Error naming the first invalid field (bake_vat calls it).
  void validate() const;
};

struct VatClip {
  std::string name;
  float duration = 0.0f;  // seconds
  std::uint32_t first_row = 0;
  std::uint32_t frames = 0;                      // frame f samples time min(f / fps, duration)
  glm::vec3 bounds_min{0.0f}, bounds_max{0.0f};  // positions of every column over the clip
};

struct Vat {
  float fps = 30.0f;
  std::uint32_t columns = 0;
  std::uint32_t rows = 0;  // sum of the clips' frames
  std::vector<VatClip> clips;
  std::vector<glm::vec3> positions;  // float reference, rows × columns (row-major)
  std::vector<glm::vec3> normals;
  std::vector<glm::u16vec4> texels;  // what is stored: rows × columns

  std::size_t texel_bytes() const { return texels.size() * sizeof(glm::u16vec4); }
};

// Samples every clip of `model`; `skinned` holds the skinned columns' bind-pose data (positions,
// normals, joints, weights; indices are not read) and `attached` the attached columns, whose a, b, c
// index skinned columns. `morphs` (empty, or per skinned column): each frame a column is first moved
// by its morph offsets at the clip's morph weights for the frame (a target no channel of the clip
// drives stays at its bind weight), then skinned, as glTF orders them.
Vat bake_vat(const anim::ImportedModel& model, const BakeMesh& skinned, std::span<const Attachment> attached,
             const VatOptions& options = {}, const VertexMorphs& morphs = {});

// Normal skinning as the VAT does it: sum_i w_i * (linear part of palette[j_i]) * n, normalised.
glm::vec3 skin_normal(std::span<const anim::Mat3x4> palette, glm::u16vec4 joints, glm::vec4 weights,
                      glm::vec3 n);

// The texel codec (the runtime shader decodes the same way).
std::uint16_t encode_normal_oct8(glm::vec3 n);
glm::vec3 decode_normal_oct8(std::uint16_t packed);
glm::vec3 decode_position(glm::u16vec4 texel, const VatClip& clip);

}  // namespace myriad::crowd
