// A crowd of customized skinned avatars from one kit on the batch renderer (SPEC B2-B9): one Animator
// over all avatars (one deduplicated palette each, in one global palette array; each avatar its own
// clip, phase and speed), per avatar an outfit drawn from the kit under the seed (which items, their
// tint and pattern; anim/kit/outfit.hpp), one renderer per worn part with mesh id = kit part index so equal
// parts of all avatars batch together, and two property sets (body: skin tone; items: tint and
// pattern) as the batch types. frame() runs sample -> pose -> palettes -> cull -> draws.
#pragma once

#include "myriad/anim/playback/animator.hpp"
#include "myriad/anim/kit/avatar.hpp"
#include "myriad/anim/clip/clip_roles.hpp"
#include "myriad/anim/kit/kit_info.hpp"
#include "myriad/anim/kit/outfit.hpp"
#include "myriad/anim/kit/part_lods.hpp"
#include "myriad/anim/clip/stride.hpp"
#include "myriad/anim/playback/throttle.hpp"
#include "myriad/batch/draw_commands.hpp"

#include <functional>
#include <memory>

namespace myriad::batch {

struct AvatarCrowdOptions {
  std::size_t avatars = 1000;
  // Grid spacing in metres, at least: the crowd widens it to the kit's footprint (AvatarCrowd::spacing,
  // avatar_grid_spacing), so a kit of any shape (a truck, arms spread) never overlaps its neighbours.
  float spacing = 2.0f;
  glm::vec3 origin{0.0f};  // position of avatar 0; rows run along +X, then -Z
  std::uint32_t seed = 1;  // per-avatar property values and animation phases
  bool throttle = false;   // use `throttle` to skip far avatars' updates
  anim::UpdateThrottle throttle_rules;
  std::vector<float> importance;  // per avatar (empty = all 0); >= throttle_rules.important: every frame
  anim::OutfitRules outfit;       // how outfits are drawn (outfit.everything: every avatar wears every item)
  float speed_spread = 0.15f;     // playback speeds drawn in [1 - spread, 1 + spread]
  // With several clips: every `clip_change_period` seconds (0 = never; each avatar at its own seeded
  // offset) an avatar cross-fades to the kit's next clip over `clip_fade` seconds.
  float clip_change_period = 0.0f;
  float clip_fade = 0.5f;
  // Size and footing: every avatar is scaled to `height` metres standing (0: the kit's own size, glTF
  // metres) and stands with the kit's lowest point (anim::kit_stance: the first frame of its walk
  // clip) on `ground` (height under x, z; empty: origin.y everywhere), centred over its grid point
  // whatever the armature's origin.
  float height = 0.0f;
  std::function<float(float x, float z)> ground;
  // Clips by role (anim/clip/clip_roles.hpp): avatars walk with the walk clip; `idle_share` of them (when
  // the kit has an idle clip) stand with it instead.
  std::vector<anim::ClipRoleOverride> clip_roles;
  float idle_share = 0.0f;
  // LOD groups (the article's culling layer, SPEC B3): with lod_levels > 1 every part gets lower levels
  // (anim::make_part_lods: about half the vertices each, borders locked) and each avatar is one LOD
  // group that picks one level for all its parts from its screen-relative height (standing height x
  // (1 + importance) x CullCamera::lod_scale / distance to the middle of its height above its ground
  // point): level i while it is >= lod_screen_heights[i], the last level below (never culled by LOD).
  std::uint32_t lod_levels = 1;
  float lod_screen_heights[anim::kMaxPartLods - 1] = {0.15f, 0.06f, 0.025f};
  // Width of the dithered cross-fade band around each switch, as a fraction of its screen height
  // (LodGroup::fade_band; 0: levels switch at once).
  float lod_fade_band = 0.2f;
  // Per avatar (empty: every avatar kAvatarLayerCamera): the views whose CullCamera::layer_mask shares a
  // bit draw it. Avatars have blob shadows and are on no shadow-casting layer.
  std::vector<std::uint32_t> layer_masks;
  // Walking (0: in place): avatars playing the walk clip go back and forth over this many metres
  // around their grid point, along the clip's forward direction, at the clip's stride speed times
  // their playback speed (anim::clip_stride), so their feet do not slide; root motion is taken out of
  // the clip and done by the crowd. Avatars turn round at either end.
  float walk_span = 0.0f;

  // Throws myriad::Error naming the first invalid field (the crowd's constructor calls it).
  void validate() const;
};

// The grid spacing a crowd of `kit` placed with `options` uses (AvatarCrowd::spacing), known before
// the crowd is built: e.g. to clear the ground it stands on.
float avatar_grid_spacing(const anim::Avatar& kit, const AvatarCrowdOptions& options);

inline constexpr std::uint32_t kAvatarLayerCamera = 1u;
inline constexpr std::uint32_t kAvatarLayerShadowCaster = 2u;

struct CrowdFrameStats {
  std::size_t avatars_updated = 0;
  // Avatars whose skeleton (one deduplicated palette each) was posed this frame, and the palette bytes
  // a renderer uploads for them: skeletons_updated x palette size x sizeof(Mat3x4). Throttled avatars
  // keep their last palette on the GPU.
  std::size_t skeletons_updated = 0;
  std::size_t palette_bytes_uploaded = 0;
  std::size_t matrices = 0;                // palette matrices computed this frame (deduplicated)
  std::size_t matrices_without_dedup = 0;  // what per-renderer palettes would have computed
  std::size_t visible_renderers = 0;
  std::size_t draws_unbatched = 0;  // visible draw instances
  std::size_t draws = 0;            // instanced draws after merging
  // Avatars drawn at each LOD level (visible in the frustum; one in a cross-fade band counts at its
  // finer level) and the vertices their draws skin.
  std::size_t avatars_per_lod[anim::kMaxPartLods] = {0, 0, 0, 0};
  std::size_t vertices = 0;
  // Draw instances of body parts at the incoming (lower) level of avatars in a cross-fade band.
  std::size_t incoming_body_instances = 0;
};

class AvatarCrowd {
 public:
  // `kit` must outlive the crowd. Its clips animate the avatars (a kit without clips stands in its
  // rest pose); avatar a plays clip a % clips at a seeded phase and speed.
  AvatarCrowd(const anim::Avatar& kit, const AvatarCrowdOptions& options);
  // The scene and animator refer to members (property sets, renderer skeleton): not movable.
  AvatarCrowd(const AvatarCrowd&) = delete;
  AvatarCrowd& operator=(const AvatarCrowd&) = delete;

  CrowdFrameStats frame(const CullCamera& camera, float dt);

  const BatchScene& scene() const { return *scene_; }
  BatchScene& scene() { return *scene_; }  // e.g. to collect dirty ranges for the GPU copy
  const anim::Dedup& dedup() const { return dedup_; }
  const anim::Animator& animator() const { return *animator_; }
  std::span<const anim::Mat3x4> palettes() const { return palettes_; }
  // Per avatar: 1 when the last frame() posed it (its palette changed), else 0. All ones without
  // throttling and on the first frame (no avatar has a palette before it).
  std::span<const std::uint8_t> updated() const { return update_mask_; }
  const DrawList& draw_list() const { return draws_; }
  const CullResult& cull_result() const { return cull_; }
  // Avatar a's ground point: its grid position at the ground's height (where its blob shadow lies).
  glm::vec3 position(std::size_t a) const { return positions_[a]; }
  // The kit as placed: its stance (in the kit's units), the scale every avatar has, and so its
  // standing height in metres; the clips found for each role.
  const anim::KitStance& stance() const { return stance_; }
  float scale() const { return scale_; }
  float standing_height() const { return scale_ * stance_.height; }
  // The grid spacing used: options.spacing, or the kit's footprint when wider.
  float spacing() const { return spacing_; }
  const anim::ClipRoles& clip_roles() const { return roles_; }
  // The walk clip's stride (speed 0 unless walk_span > 0 and the kit has a walk clip).
  const anim::ClipStride& stride() const { return stride_; }
  // Whether avatars move (walk_span > 0 and a walk clip with a stride): positions change every frame.
  bool walking() const { return options_.walk_span > 0.0f && stride_.speed > 0.0f; }
  std::size_t position_count() const { return positions_.size(); }
  // Draw mesh ids are part * lod_levels() + level; mesh(id) is that part's level (part-local joints).
  std::uint32_t lod_levels() const { return options_.lod_levels; }
  const anim::SkinnedMesh& mesh(std::uint32_t id) const { return lod_meshes_[id]; }
  std::size_t mesh_count() const { return lod_meshes_.size(); }
  BatchType body_type() const { return body_type_; }
  BatchType clothing_type() const { return clothing_type_; }
  const anim::Outfit& outfit(std::size_t a) const { return outfits_[a]; }
  std::size_t body_parts() const { return slots_.body.size(); }
  // Sum over avatars of their worn parts (= renderers).
  std::size_t worn_parts() const { return worn_parts_; }
  const Sphere& bounds_in_avatar() const { return bounds_; }

 private:
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
  std::vector<float> next_change_;  // per avatar: seconds until its next clip change
  anim::KitSlots slots_;
  std::vector<anim::Outfit> outfits_;
  std::vector<std::uint32_t> per_renderer_matrices_;  // per avatar: its worn parts' bone counts summed
  std::size_t worn_parts_ = 0;
  Sphere bounds_;  // the kit's bounds in the avatar's frame
  anim::KitStance stance_;
  float scale_ = 1.0f;
  float spacing_ = 0.0f;
  anim::ClipRoles roles_;
  std::vector<anim::SkinnedMesh> lod_meshes_;  // part * lod_levels + level
  // Walking: per avatar its grid point, the distance walked along its back-and-forth path (mod twice
  // the span), playback speed and first renderer (its renderers are consecutive).
  glm::mat4 placement(glm::vec3 at, float yaw) const;
  void walk(float dt);
  void update_fades();
  // Feet on the ground in every frame: per clip, the body's lowest point over the cycle (kLiftSamples,
  // interpolated); posed palettes are moved up or down so that it touches the ground under it.
  static constexpr std::size_t kLiftSamples = 64;
  void measure_lift(const anim::Avatar& kit);
  void lift_palettes(std::span<const std::uint8_t> posed);
  std::vector<std::vector<glm::vec3>> lowest_;  // per clip, per sample: the lowest body point
  glm::mat3 root_linear_{1.0f};
  std::vector<glm::mat4> placing_;  // per avatar: avatar frame -> world (placement())
  anim::ClipStride stride_;
  glm::mat4 root_transform_{1.0f};
  std::vector<glm::vec3> grid_;
  std::vector<float> walked_, speed_;
  std::vector<std::uint32_t> first_renderer_;
  std::vector<std::uint32_t> lod_group_;   // per avatar (lod_levels > 1)
  std::vector<std::uint16_t> fade_state_;  // per avatar: level << 8 | q of its renderers' fades
  std::uint64_t frame_ = 0;
  CullResult cull_;
  DrawList draws_;
};

}  // namespace myriad::batch
