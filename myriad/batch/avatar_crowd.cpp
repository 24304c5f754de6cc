#include "myriad/batch/avatar_crowd.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "myriad/anim/kit/kit_info.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/core/io/error.hpp"

namespace myriad::batch {

void AvatarCrowdOptions::validate() const {
  const auto finite = [](glm::vec3 v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
  };
  if (!(spacing >= 0.0f) || !std::isfinite(spacing))
    throw Error("the grid spacing must be a finite number of metres >= 0", "AvatarCrowdOptions::spacing");
  if (!finite(origin)) throw Error("the crowd's origin must be finite", "AvatarCrowdOptions::origin");
  if (!importance.empty() && importance.size() != avatars)
    throw Error("importance needs one value per avatar", "AvatarCrowdOptions::importance");
  if (!(speed_spread >= 0.0f && speed_spread < 1.0f))
    throw Error("the speed spread must be within [0, 1) (playback speeds stay positive)",
                "AvatarCrowdOptions::speed_spread");
  if (!(clip_change_period >= 0.0f) || !std::isfinite(clip_change_period))
    throw Error("the clip change period must be a finite number of seconds >= 0 (0: never)",
                "AvatarCrowdOptions::clip_change_period");
  if (!(clip_fade >= 0.0f) || !std::isfinite(clip_fade))
    throw Error("the clip fade must be a finite number of seconds >= 0", "AvatarCrowdOptions::clip_fade");
  if (!(height >= 0.0f) || !std::isfinite(height))
    throw Error("the avatar height must be a finite number of metres > 0 (or 0: the kit's own size)",
                "AvatarCrowdOptions::height");
  if (!(idle_share >= 0.0f && idle_share <= 1.0f))
    throw Error("the idle share must be within 0..1", "AvatarCrowdOptions::idle_share");
  if (lod_levels < 1 || lod_levels > anim::kMaxPartLods)
    throw Error("avatars have 1 to " + std::to_string(anim::kMaxPartLods) + " LOD levels",
                "AvatarCrowdOptions::lod_levels");
  for (std::uint32_t l = 0; l + 1 < lod_levels; ++l)
    if (!(lod_screen_heights[l] > 0.0f) || (l > 0 && !(lod_screen_heights[l] < lod_screen_heights[l - 1])))
      throw Error("LOD screen heights must be positive and descending",
                  "AvatarCrowdOptions::lod_screen_heights");
  if (!(lod_fade_band >= 0.0f && lod_fade_band < 1.0f))
    throw Error("the LOD fade band must be within 0..1", "AvatarCrowdOptions::lod_fade_band");
  if (!layer_masks.empty() && layer_masks.size() != avatars)
    throw Error("layer_masks needs one mask per avatar", "AvatarCrowdOptions::layer_masks");
  if (!(walk_span >= 0.0f) || !std::isfinite(walk_span))
    throw Error("the walk span must be a finite number of metres >= 0", "AvatarCrowdOptions::walk_span");
}

namespace {

// The stance avatars start in: the first frame of the walk clip, else the idle clip, else the rest pose.
anim::KitStance starting_stance(const anim::Avatar& kit, const anim::ClipRoles& roles) {
  const int clip = roles.walk >= 0 ? roles.walk : roles.idle;
  return anim::kit_stance(kit, clip >= 0 ? &kit.clips[static_cast<std::size_t>(clip)] : nullptr);
}

float scale_for(const anim::KitStance& stance, const AvatarCrowdOptions& options) {
  return options.height > 0.0f ? options.height / stance.height : 1.0f;
}

// Neighbours never overlap, whatever the kit's shape or the way an avatar turns: the grid is at least
// the diameter of the circle round the stance's footprint, plus a tenth.
float spacing_for(const anim::KitStance& stance, float scale, float asked) {
  const float dx = std::max(stance.hi.x - stance.centre.x, stance.centre.x - stance.lo.x);
  const float dz = std::max(stance.hi.z - stance.centre.z, stance.centre.z - stance.lo.z);
  return std::max(asked, 1.1f * 2.0f * scale * std::sqrt(dx * dx + dz * dz));
}

}  // namespace

float avatar_grid_spacing(const anim::Avatar& kit, const AvatarCrowdOptions& options) {
  options.validate();
  const anim::KitStance stance = starting_stance(kit, anim::find_clip_roles(kit.clips, options.clip_roles));
  if (!(stance.height > 0.0f)) return options.spacing;  // the crowd's constructor names the problem
  return spacing_for(stance, scale_for(stance, options), options.spacing);
}

AvatarCrowd::AvatarCrowd(const anim::Avatar& kit, const AvatarCrowdOptions& options) : options_(options) {
  options.validate();
  body_type_ = sets_.add({"avatar_body", {{"skin_tone", 4}}, {0.8f, 0.6f, 0.5f, 1.0f}});
  clothing_type_ =
      sets_.add({"avatar_clothing", {{"tint", 4}, {"pattern", 1}}, {1.0f, 1.0f, 1.0f, 1.0f, 0.0f}});
  scene_ = std::make_unique<BatchScene>(sets_);

  // One renderer skeleton for the whole kit (every item's bones included), so every avatar's palette
  // has the same size and offset rule whatever it wears.
  std::vector<anim::PartSkin> skins;
  for (const anim::AvatarPart& p : kit.parts) skins.push_back(p.skin);
  dedup_ = anim::dedup_skeletons(skins);
  slots_ = anim::kit_slots(kit);
  bounds_ = anim::kit_bounds(kit);
  root_transform_ = kit.root_transform;
  clips_ = kit.clips;
  roles_ = anim::find_clip_roles(clips_, options.clip_roles);
  if (clips_.empty()) clips_.push_back({"rest", 1.0f, {}, {}, {}});
  stance_ = starting_stance(kit, roles_);
  if (!(stance_.height > 0.0f))
    throw Error("the kit has no height: its body's vertices all lie at one height", "avatar kit");
  scale_ = scale_for(stance_, options);
  spacing_ = spacing_for(stance_, scale_, options.spacing);
  for (const anim::AvatarPart& part : kit.parts) {
    std::vector<anim::SkinnedMesh> levels = anim::make_part_lods(part.mesh, options.lod_levels);
    for (anim::SkinnedMesh& m : levels) lod_meshes_.push_back(std::move(m));
  }
  LodGroup lod;
  lod.level_count = options.lod_levels;
  lod.fade_band = options.lod_fade_band;
  for (std::uint32_t l = 0; l + 1 < options.lod_levels; ++l)
    lod.transitions[l] = options.lod_screen_heights[l];
  if (options.walk_span > 0.0f && roles_.walk >= 0) {
    // Avatars walk at the walk clip's stride: a clip that moves its root forward walks in place
    // instead, and the crowd moves the avatars.
    anim::Clip& walk = clips_[static_cast<std::size_t>(roles_.walk)];
    stride_ = anim::clip_stride(kit, walk);
    if (stride_.root_motion)
      anim::remove_root_drift(walk, kit.skeleton,
                              glm::inverse(glm::mat3(kit.root_transform)) * glm::vec3(0.0f, 1.0f, 0.0f));
  }
  const std::size_t n = options.avatars;
  animator_ = std::make_unique<anim::Animator>(kit.skeleton, clips_, dedup_.renderer_skeleton, n);
  measure_lift(kit);
  palettes_.resize(n * animator_->palette_size());
  positions_.resize(n);
  grid_.resize(n);
  placing_.resize(n);
  walked_.resize(n);
  speed_.resize(n);
  first_renderer_.resize(n);
  distance_.resize(n);
  update_mask_.resize(n);
  outfits_.resize(n);
  next_change_.resize(n);
  per_renderer_matrices_.assign(n, 0);

  const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  std::vector<DrawDesc> draw(1);
  for (std::size_t a = 0; a < n; ++a) {
    const auto seed = static_cast<std::uint32_t>(a) * 7919u + options.seed;
    const glm::vec3 grid = options.origin + glm::vec3(static_cast<float>(a % side) * spacing_, 0.0f,
                                                      -static_cast<float>(a / side) * spacing_);
    const auto ground = [&](float x, float z) {
      return options.ground ? options.ground(x, z) : options.origin.y;
    };
    grid_[a] = grid;
    // Walkers share their lane (the grid line along the walking direction) with its phase and speed,
    // so they keep their spacing instead of walking through each other.
    const glm::vec3 across = glm::cross(glm::vec3(0.0f, 1.0f, 0.0f), stride_.forward);
    const auto lane = static_cast<std::int32_t>(
        std::lround(glm::dot(grid - options.origin, across) / std::max(spacing_, 1e-3f)));
    const std::uint32_t motion_seed =
        walking() ? static_cast<std::uint32_t>(lane) * 104729u + options.seed : seed;
    walked_[a] = options.walk_span * 2.0f * anim::hash01(motion_seed + 4);
    const glm::mat4 placing = placement(grid, 0.0f);
    placing_[a] = placing;
    positions_[a] = {grid.x, ground(grid.x, grid.z), grid.z};
    const bool idle = roles_.idle >= 0 && anim::hash01(seed + 3) < options.idle_share;
    const auto clip = roles_.walk < 0 ? 0u : static_cast<std::uint32_t>(idle ? roles_.idle : roles_.walk);
    animator_->set_clip(a, clip, anim::hash01(seed) * clips_[clip].duration);
    speed_[a] = 1.0f + options.speed_spread * (2.0f * anim::hash01(motion_seed + 1) - 1.0f);
    animator_->set_speed(a, speed_[a]);
    next_change_[a] = options.clip_change_period * (0.5f + anim::hash01(seed + 2));
    const glm::mat4 world = placing * kit.root_transform;
    const glm::vec3 centre(placing * glm::vec4(bounds_.center, 1.0f));
    outfits_[a] = anim::draw_outfit(slots_, seed, options.outfit);
    const anim::Outfit& outfit = outfits_[a];
    std::uint32_t group = kNoLodGroup;
    if (options.lod_levels > 1) {
      // Important avatars (the player's friends) count as larger: finer levels from further away.
      const float importance = options.importance.empty() ? 0.0f : std::max(options.importance[a], 0.0f);
      lod.center = positions_[a] + glm::vec3(0.0f, 0.5f * standing_height(), 0.0f);
      lod.size = standing_height() * (1.0f + importance);
      group = scene_->add_lod_group(lod);
      lod_group_.push_back(group);
    }
    for (std::size_t w = 0; w < outfit.parts.size(); ++w) {
      const std::uint32_t p = outfit.parts[w];
      const bool item = kit.parts[p].clothing;
      const glm::vec4& t = outfit.tint[w];
      const float body[4] = {t.x, t.y, t.z, t.w};
      const float clothing[5] = {t.x, t.y, t.z, t.w, outfit.pattern[w]};
      if (w == 0) first_renderer_[a] = static_cast<std::uint32_t>(scene_->culling().size());
      for (std::uint32_t level = 0; level < options.lod_levels; ++level) {
        draw[0] = {p * options.lod_levels + level, item ? 1u : 0u, item ? clothing_type_ : body_type_,
                   item ? std::span<const float>(clothing) : std::span<const float>(body)};
        RendererDesc r;
        // The whole kit's reach bounds every part: parts move with the pose.
        r.bounds = {centre, scale_ * bounds_.radius};
        r.layer_mask = options.layer_masks.empty() ? kAvatarLayerCamera : options.layer_masks[a];
        r.lod_group = group;
        r.lod_level = static_cast<std::uint8_t>(level);
        r.object_to_world = world;
        r.palette_offset = animator_->palette_offset(a);
        r.draws = draw;
        scene_->add_renderer(r);
      }
      per_renderer_matrices_[a] += static_cast<std::uint32_t>(kit.parts[p].skin.joints.size());
    }
    worn_parts_ += outfit.parts.size();
  }
}

CrowdFrameStats AvatarCrowd::frame(const CullCamera& camera, float dt) {
  CrowdFrameStats s;
  const std::size_t n = options_.avatars;
  for (std::size_t a = 0; a < n; ++a) animator_->advance(a, dt);
  if (options_.clip_change_period > 0.0f && clips_.size() > 1) {
    for (std::size_t a = 0; a < n; ++a) {
      next_change_[a] -= dt;
      if (next_change_[a] > 0.0f) continue;
      next_change_[a] += options_.clip_change_period;
      const auto next = static_cast<std::uint32_t>((animator_->clip(a) + 1) % clips_.size());
      animator_->cross_fade(a, next, options_.clip_fade);
    }
  }
  if (options_.walk_span > 0.0f && stride_.speed > 0.0f) walk(dt);
  std::span<const std::uint8_t> mask;  // empty: every avatar
  // The first frame poses everyone, throttled or not: until then no avatar has a palette to keep.
  if (options_.throttle && frame_ > 0) {
    // Importance also raises the skinning rate below the "always" threshold: an avatar counts as
    // (1 + importance) times nearer.
    for (std::size_t a = 0; a < n; ++a) {
      const float importance = options_.importance.empty() ? 0.0f : std::max(options_.importance[a], 0.0f);
      distance_[a] = glm::length(positions_[a] - camera.position) / (1.0f + importance);
    }
    s.skeletons_updated =
        options_.throttle_rules.build_mask(frame_, distance_, options_.importance, update_mask_);
    mask = update_mask_;
  } else {
    std::fill(update_mask_.begin(), update_mask_.end(), std::uint8_t{1});
    s.skeletons_updated = n;
  }
  s.matrices = animator_->update(palettes_, mask);
  lift_palettes(mask);
  s.avatars_updated = s.matrices / animator_->palette_size();
  s.palette_bytes_uploaded = s.skeletons_updated * animator_->palette_size() * sizeof(anim::Mat3x4);
  for (std::size_t a = 0; a < n; ++a)
    s.matrices_without_dedup += update_mask_[a] ? per_renderer_matrices_[a] : 0;
  cull(*scene_, camera, cull_);
  if (options_.lod_levels > 1) update_fades();
  generate_draws(*scene_, cull_, draws_);
  for (std::uint8_t v : cull_.visible) s.visible_renderers += v;
  s.draws_unbatched = draws_.visible_draw_instances;
  s.draws = draws_.draws.size();
  const Batch& body = scene_->batch(body_type_);
  for (const DrawCommand& d : draws_.draws) {
    s.vertices += lod_meshes_[d.mesh].positions.size() * d.instance_count;
    if (d.type != body_type_) continue;
    for (std::uint32_t i = d.first_instance; i < d.first_instance + d.instance_count; ++i)
      s.incoming_body_instances += (body.fade[draws_.instances[i]] & 0x100u) != 0 ? 1 : 0;
  }
  // An avatar is drawn at its group's level when any of its parts passed the frustum (they share its
  // bounds); its renderers are consecutive (worn part by worn part, level by level).
  std::size_t r = 0;
  for (std::size_t a = 0; a < n; ++a) {
    const std::uint8_t level = options_.lod_levels > 1 ? cull_.group_level[lod_group_[a]] : 0;
    const std::size_t renderers = outfits_[a].parts.size() * options_.lod_levels;
    bool seen = false;
    for (std::size_t k = 0; k < renderers && !seen; ++k) seen = cull_.visible[r + k] != 0;
    r += renderers;
    if (seen && level < anim::kMaxPartLods) ++s.avatars_per_lod[level];
  }
  ++frame_;
  return s;
}

void AvatarCrowd::measure_lift(const anim::Avatar& kit) {
  // Per clip, over its cycle: the body's lowest point in the avatar's frame (hips bob, feet lift and
  // change over), so each posed frame can be set down with that point on the ground under it.
  root_linear_ = glm::mat3(kit.root_transform);
  lowest_.assign(clips_.size(), std::vector<glm::vec3>(kLiftSamples + 1, stance_.lowest));
  anim::LocalPose pose;
  pose.resize(kit.skeleton.size());
  std::vector<glm::mat4> model(kit.skeleton.size());
  std::vector<glm::vec3> body;
  for (std::size_t c = 0; c < clips_.size(); ++c) {
    anim::SamplingCache cache;
    cache.reset(clips_[c]);
    for (std::size_t i = 0; i <= kLiftSamples; ++i) {
      anim::sample(kit.skeleton, clips_[c], clips_[c].duration * float(i) / float(kLiftSamples), cache, pose);
      anim::local_to_model(kit.skeleton.parents, pose, model);
      anim::skin_body(kit, model, body);
      if (body.empty()) continue;  // keeps the stance's lowest point
      glm::vec3 low = body.front();
      for (const glm::vec3& v : body) low = v.y < low.y ? v : low;
      lowest_[c][i] = low;
    }
  }
}

void AvatarCrowd::lift_palettes(std::span<const std::uint8_t> posed) {
  const std::size_t size = animator_->palette_size();
  for (std::size_t a = 0; a < options_.avatars; ++a) {
    if (!posed.empty() && posed[a] == 0) continue;
    const std::uint32_t c = animator_->clip(a);
    const float duration = clips_[c].duration;
    const float phase = duration > 0.0f ? std::fmod(animator_->time(a), duration) / duration : 0.0f;
    const float x = std::clamp(phase, 0.0f, 1.0f) * float(kLiftSamples);
    const auto i = std::min(static_cast<std::size_t>(x), kLiftSamples - 1);
    // Height interpolated; the place from the nearer sample (between two samples the lowest point
    // may pass from one foot to the other).
    const float f = x - float(i);
    glm::vec3 lowest = lowest_[c][f < 0.5f ? i : i + 1];
    lowest.y = glm::mix(lowest_[c][i].y, lowest_[c][i + 1].y, f);
    // Where that point is now and where the ground is under it, in the world.
    const glm::vec3 now(placing_[a] * glm::vec4(lowest, 1.0f));
    const float ground = options_.ground ? options_.ground(now.x, now.z) : options_.origin.y;
    const float lift = ground - now.y;
    if (lift == 0.0f) continue;
    // The same displacement in the model frame of the palettes (before root_transform and placement).
    const glm::vec3 offset =
        glm::inverse(glm::mat3(placing_[a]) * root_linear_) * glm::vec3(0.0f, lift, 0.0f);
    for (anim::Mat3x4& m : std::span(palettes_).subspan(a * size, size)) {
      m.rows[0].w += offset.x;
      m.rows[1].w += offset.y;
      m.rows[2].w += offset.z;
    }
  }
}

void AvatarCrowd::update_fades() {
  // Only avatars whose level or fade changed touch their instances (and so the GPU upload).
  fade_state_.resize(options_.avatars, 0);
  for (std::size_t a = 0; a < options_.avatars; ++a) {
    const std::uint8_t level = cull_.group_level[lod_group_[a]], q = cull_.group_fade[lod_group_[a]];
    const auto state = static_cast<std::uint16_t>(q == 0 ? 0 : (level << 8) | q);
    if (state == fade_state_[a]) continue;
    fade_state_[a] = state;
    const std::uint32_t renderers =
        static_cast<std::uint32_t>(outfits_[a].parts.size() * options_.lod_levels);
    for (std::uint32_t k = 0; k < renderers; ++k) {
      const std::uint32_t r = first_renderer_[a] + k, renderer_level = k % options_.lod_levels;
      const std::uint32_t fade = q == 0                         ? 0u
                                 : renderer_level == level      ? q
                                 : renderer_level == level + 1u ? (q | 0x100u)
                                                                : 0u;
      scene_->set_fade(r, fade);
    }
  }
}

glm::mat4 AvatarCrowd::placement(glm::vec3 at, float yaw) const {
  // Centred over `at`, turned by `yaw` about the vertical through its centre, its lowest point on the
  // ground under that point (on a slope: where that foot is).
  const glm::mat4 turn = glm::rotate(glm::mat4(1.0f), yaw, glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::vec3 foot = at + glm::vec3(turn * glm::vec4(scale_ * (stance_.lowest - stance_.centre), 0.0f));
  const float ground = options_.ground ? options_.ground(foot.x, foot.z) : options_.origin.y;
  return glm::translate(glm::mat4(1.0f), glm::vec3(at.x, ground, at.z)) * turn *
         glm::translate(glm::mat4(1.0f),
                        -scale_ * glm::vec3(stance_.centre.x, stance_.lowest.y, stance_.centre.z)) *
         glm::scale(glm::mat4(1.0f), glm::vec3(scale_));
}

void AvatarCrowd::walk(float dt) {
  const float span = options_.walk_span;
  const glm::vec3 forward = stride_.forward;
  const float yaw_forward = 0.0f, yaw_back = glm::pi<float>();
  for (std::size_t a = 0; a < options_.avatars; ++a) {
    // Only while it plays the walk clip (not idle, not fading to another clip).
    if (animator_->clip(a) != static_cast<std::uint32_t>(roles_.walk) || animator_->fading(a)) continue;
    walked_[a] = std::fmod(walked_[a] + scale_ * stride_.speed * speed_[a] * dt, 2.0f * span);
    // Back and forth over the span, centred on the grid point, turning at either end.
    const bool out = walked_[a] < span;
    const float along = (out ? walked_[a] : 2.0f * span - walked_[a]) - 0.5f * span;
    const glm::vec3 at = grid_[a] + forward * along;
    const glm::mat4 placing = placement(at, out ? yaw_forward : yaw_back);
    placing_[a] = placing;
    const glm::mat4 world = placing * root_transform_;
    const Sphere bounds{glm::vec3(placing * glm::vec4(bounds_.center, 1.0f)), scale_ * bounds_.radius};
    positions_[a] = {at.x, options_.ground ? options_.ground(at.x, at.z) : options_.origin.y, at.z};
    const std::uint32_t renderers =
        static_cast<std::uint32_t>(outfits_[a].parts.size() * options_.lod_levels);
    for (std::uint32_t r = first_renderer_[a]; r < first_renderer_[a] + renderers; ++r)
      scene_->set_transform(r, world, bounds);
    if (options_.lod_levels > 1)
      scene_->set_lod_group_center(lod_group_[a],
                                   positions_[a] + glm::vec3(0.0f, 0.5f * standing_height(), 0.0f));
  }
}

}  // namespace myriad::batch
