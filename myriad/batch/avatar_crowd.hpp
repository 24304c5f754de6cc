// A crowd of skinned avatars on the batch renderer (SPEC B4-B9): one Animator over all avatars
// (one deduplicated palette each, in one global palette array), one renderer per avatar part, mesh
// id = part index so equal parts of all avatars batch together, and per-avatar property values
// (skin tone; clothing tint and pattern). frame() runs sample -> pose -> palettes -> cull -> draws.
#pragma once

#include "myriad/anim/animator.hpp"
#include "myriad/anim/avatar.hpp"
#include "myriad/anim/throttle.hpp"
#include "myriad/batch/draw_commands.hpp"

#include <memory>

namespace myriad::batch {

struct AvatarCrowdOptions {
  std::size_t avatars = 1000;
  float spacing = 2.0f;    // grid spacing in metres
  glm::vec3 origin{0.0f};  // position of avatar 0; rows run along +X, then -Z
  std::uint32_t seed = 1;  // per-avatar property values and animation phases
  bool throttle = false;   // use `throttle` to skip far avatars' updates
  anim::UpdateThrottle throttle_rules;
  std::vector<float> importance;  // per avatar (empty = all 0); >= throttle_rules.important: every frame
};

struct CrowdFrameStats {
  std::size_t avatars_updated = 0;
  std::size_t matrices = 0;                // palette matrices computed this frame (deduplicated)
  std::size_t matrices_without_dedup = 0;  // what per-renderer palettes would have computed
  std::size_t visible_renderers = 0;
  std::size_t draws_unbatched = 0;  // visible draw instances
  std::size_t draws = 0;            // instanced draws after merging
};

class AvatarCrowd {
 public:
  AvatarCrowd(const anim::Avatar& avatar, const AvatarCrowdOptions& options);
  // The scene and animator refer to members (property sets, renderer skeleton): not movable.
  AvatarCrowd(const AvatarCrowd&) = delete;
  AvatarCrowd& operator=(const AvatarCrowd&) = delete;

  CrowdFrameStats frame(const CullCamera& camera, float dt);

  const BatchScene& scene() const { return *scene_; }
  BatchScene& scene() { return *scene_; }  // e.g. to collect dirty ranges for the GPU copy
  const anim::Dedup& dedup() const { return dedup_; }
  const anim::Animator& animator() const { return *animator_; }
  std::span<const anim::Mat3x4> palettes() const { return palettes_; }
  const DrawList& draw_list() const { return draws_; }
  const CullResult& cull_result() const { return cull_; }
  glm::vec3 position(std::size_t a) const { return positions_[a]; }
  BatchType body_type() const { return body_type_; }
  BatchType clothing_type() const { return clothing_type_; }

 private:
  const anim::Avatar& avatar_;
  AvatarCrowdOptions options_;
  PropertySetRegistry sets_;
  BatchType body_type_ = 0;
  BatchType clothing_type_ = 0;
  std::unique_ptr<BatchScene> scene_;
  anim::Dedup dedup_;
  std::vector<anim::Clip> clips_;
  std::unique_ptr<anim::Animator> animator_;
  std::vector<anim::Mat3x4> palettes_;
  std::vector<glm::vec3> positions_;
  std::vector<float> distance_;
  std::vector<std::uint8_t> update_mask_;
  std::size_t per_renderer_matrices_ = 0;  // sum of part bone counts for one avatar
  std::uint64_t frame_ = 0;
  CullResult cull_;
  DrawList draws_;
};

}  // namespace myriad::batch
