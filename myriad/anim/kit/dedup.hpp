// Skeleton dedup (SPEC B6): the renderers (parts) of one character each carry their own bone list and
// inverse binds; merging them into one renderer skeleton of unique (joint, inverse bind) pairs means
// one palette per character instead of one per renderer, and consistent bone indices across parts.
#pragma once

#include "myriad/anim/import/gltf_import.hpp"
#include "myriad/anim/pose/skeleton.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace myriad::anim {

// A renderer's own skin: palette entry i is skeleton joint joints[i] with inverse_binds[i].
struct PartSkin {
  std::vector<std::uint16_t> joints;
  std::vector<glm::mat4> inverse_binds;
};

struct Dedup {
  PartSkin renderer_skeleton;                     // unique (joint, inverse bind) pairs, sorted by joint
  std::vector<std::vector<std::uint16_t>> remap;  // per part: local palette index -> renderer skeleton index
};

// Two entries merge only when joint and all 16 inverse-bind floats are bit-identical, so skinning
// through the renderer skeleton gives bit-identical vertices to per-part skinning.
Dedup dedup_skeletons(std::span<const PartSkin> parts);

// Rewrites vertex joint indices through a remap table (part-local -> renderer skeleton).
void remap_joints(std::span<glm::u16vec4> joints, std::span<const std::uint16_t> remap);

// A real model split into parts the way an avatar pipeline sees them: triangles grouped by the
// dominant joint of their first vertex, at most `max_parts` groups (the rest join the last), each part
// with its own local bone list in order of first use. Lets dedup be tested on real data.
struct SplitPart {
  SkinnedMesh mesh;  // joints are part-local palette indices
  PartSkin skin;
};
std::vector<SplitPart> split_into_parts(const SkinnedMesh& mesh, std::span<const std::uint16_t> joints,
                                        std::span<const glm::mat4> inverse_binds, std::size_t max_parts);

}  // namespace myriad::anim
