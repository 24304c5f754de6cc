#include "myriad/batch/avatar_crowd.hpp"

#include <cmath>

#include "myriad/core/error.hpp"

namespace myriad::batch {
namespace {

// Small deterministic hash for per-avatar values (no global RNG state).
float hash01(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return static_cast<float>(x >> 8) / 16777216.0f;
}

}  // namespace

AvatarCrowd::AvatarCrowd(const anim::Avatar& avatar, const AvatarCrowdOptions& options)
    : avatar_(avatar), options_(options) {
  body_type_ = sets_.add({"avatar_body", {{"skin_tone", 4}}, {0.8f, 0.6f, 0.5f, 1.0f}});
  clothing_type_ =
      sets_.add({"avatar_clothing", {{"tint", 4}, {"pattern", 1}}, {1.0f, 1.0f, 1.0f, 1.0f, 0.0f}});
  scene_ = std::make_unique<BatchScene>(sets_);

  std::vector<anim::PartSkin> skins;
  for (const anim::AvatarPart& p : avatar.parts) {
    skins.push_back(p.skin);
    per_renderer_matrices_ += p.skin.joints.size();
  }
  dedup_ = anim::dedup_skeletons(skins);
  clips_ = {anim::make_walk_clip(avatar.skeleton, 1.0f), anim::make_walk_clip(avatar.skeleton, 0.8f)};
  const std::size_t n = options.avatars;
  if (!options.importance.empty() && options.importance.size() != n) {
    throw Error("importance needs one value per avatar", "AvatarCrowdOptions.importance");
  }
  animator_ = std::make_unique<anim::Animator>(avatar.skeleton, clips_, dedup_.renderer_skeleton, n);
  palettes_.resize(n * animator_->palette_size());
  positions_.resize(n);
  distance_.resize(n);
  update_mask_.resize(n);

  const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  std::vector<DrawDesc> draw(1);
  for (std::size_t a = 0; a < n; ++a) {
    const auto seed = static_cast<std::uint32_t>(a) * 7919u + options.seed;
    positions_[a] = options.origin + glm::vec3(static_cast<float>(a % side) * options.spacing, 0.0f,
                                               -static_cast<float>(a / side) * options.spacing);
    animator_->set_clip(a, static_cast<std::uint32_t>(a % clips_.size()), hash01(seed) * clips_[0].duration);
    const glm::mat4 world = glm::translate(glm::mat4(1.0f), positions_[a]);
    const float tone = 0.3f + 0.6f * hash01(seed + 1);
    const float body[4] = {tone, tone * 0.8f, tone * 0.7f, 1.0f};
    for (std::size_t p = 0; p < avatar.parts.size(); ++p) {
      const bool cloth = avatar.parts[p].clothing;
      const float clothing[5] = {
          hash01(seed + 2 + static_cast<std::uint32_t>(p)), hash01(seed + 40 + static_cast<std::uint32_t>(p)),
          hash01(seed + 80 + static_cast<std::uint32_t>(p)), 1.0f, std::floor(hash01(seed + 3) * 4.0f)};
      draw[0] = {static_cast<std::uint32_t>(p), cloth ? 1u : 0u, cloth ? clothing_type_ : body_type_,
                 cloth ? std::span<const float>(clothing) : std::span<const float>(body)};
      RendererDesc r;
      // The whole avatar's reach (arms out in T-pose, 1.9 m tall) bounds every part: parts move.
      r.bounds = {positions_[a] + glm::vec3(0.0f, 0.95f, 0.0f), 1.2f};
      r.object_to_world = world;
      r.palette_offset = animator_->palette_offset(a);
      r.draws = draw;
      scene_->add_renderer(r);
    }
  }
}

CrowdFrameStats AvatarCrowd::frame(const CullCamera& camera, float dt) {
  CrowdFrameStats s;
  const std::size_t n = options_.avatars;
  for (std::size_t a = 0; a < n; ++a) animator_->advance(a, dt);
  std::span<const std::uint8_t> mask;
  if (options_.throttle) {
    for (std::size_t a = 0; a < n; ++a) distance_[a] = glm::length(positions_[a] - camera.position);
    options_.throttle_rules.build_mask(frame_, distance_, options_.importance, update_mask_);
    mask = update_mask_;
  }
  s.matrices = animator_->update(palettes_, mask);
  s.avatars_updated = s.matrices / animator_->palette_size();
  s.matrices_without_dedup = s.avatars_updated * per_renderer_matrices_;
  cull(*scene_, camera, cull_);
  generate_draws(*scene_, cull_, draws_);
  for (std::uint8_t v : cull_.visible) s.visible_renderers += v;
  s.draws_unbatched = draws_.visible_draw_instances;
  s.draws = draws_.draws.size();
  ++frame_;
  return s;
}

}  // namespace myriad::batch
