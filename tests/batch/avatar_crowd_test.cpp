// Avatars on the batch renderer: equal parts of all avatars share one draw (all right upper arms
// together), body and clothing never share a draw, B8 matrix ratios, throttling saves updates;
// outfits differ between avatars yet batch by part and property set; walking avatars (the procedural
// kit and CesiumMan's kit read back from glTF) swing their arms below the shoulder: no T-pose.
#include "myriad/anim/kit/kit_build.hpp"
#include "myriad/anim/pose/pose.hpp"
#include "myriad/batch/avatar_crowd.hpp"
#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>

#include <unistd.h>
#include "error_where.hpp"

namespace myriad::batch {
namespace {

CullCamera overview(glm::vec3 eye, glm::vec3 target) {
  CullCamera c;
  const float fov = glm::radians(60.0f);
  c.frustum = Frustum::from_view_proj(perspective(fov, 1.5f, 0.1f, 500.0f) *
                                      glm::lookAt(eye, target, glm::vec3(0, 1, 0)));
  c.position = eye;
  c.lod_scale = 1.0f / (2.0f * std::tan(fov / 2.0f));
  return c;
}

TEST(AvatarCrowd, OneDrawPerPartAcrossAvatars) {
  const anim::Avatar av = anim::make_avatar({.clothed = true});
  AvatarCrowd crowd(av, {.avatars = 64, .outfit = {.everything = true}});
  // Camera far back over the 8x8 grid sees everyone.
  const CrowdFrameStats s = crowd.frame(overview({7, 30, 30}, {7, 0, -7}), 1.0f / 60.0f);
  EXPECT_EQ(s.visible_renderers, 64 * av.parts.size());
  EXPECT_EQ(s.draws_unbatched, 64 * av.parts.size());
  EXPECT_EQ(s.draws, av.parts.size());  // one instanced draw per part (mesh)
  for (const DrawCommand& d : crowd.draw_list().draws) {
    EXPECT_EQ(d.instance_count, 64u);
    EXPECT_EQ(d.type, av.parts[d.mesh].clothing ? crowd.clothing_type() : crowd.body_type());
    // Each instance's palette offset points at a distinct avatar's palette.
    std::vector<int> seen(64, 0);
    for (std::uint32_t j = d.first_instance; j < d.first_instance + d.instance_count; ++j) {
      const std::uint32_t off = crowd.scene().batch(d.type).palette_offset[crowd.draw_list().instances[j]];
      ASSERT_EQ(off % crowd.animator().palette_size(), 0u);
      ++seen[off / crowd.animator().palette_size()];
    }
    for (int v : seen) EXPECT_EQ(v, 1);
  }
  EXPECT_EQ(s.matrices, 64 * crowd.dedup().renderer_skeleton.joints.size());
}

TEST(AvatarCrowd, DedupMeetsTheB8Ratios) {
  for (bool clothed : {false, true}) {
    const anim::Avatar av = anim::make_avatar({.clothed = clothed});
    AvatarCrowd crowd(av, {.avatars = 10, .outfit = {.everything = true}});
    const CrowdFrameStats s = crowd.frame(overview({0, 5, 20}, {0, 0, 0}), 0.01f);
    const double ratio = static_cast<double>(s.matrices_without_dedup) / static_cast<double>(s.matrices);
    EXPECT_GE(ratio, clothed ? 4.0 : 2.0) << (clothed ? "clothed" : "bare");
  }
}

TEST(AvatarCrowd, ThrottlingSkipsFarAvatars) {
  const anim::Avatar av = anim::make_avatar({});
  AvatarCrowdOptions o{.avatars = 400, .spacing = 3.0f};
  AvatarCrowd full(av, o);
  o.throttle = true;
  AvatarCrowd throttled(av, o);
  const CullCamera cam = overview({0, 2, 5}, {0, 0, -20});
  std::size_t a = 0, b = 0;
  for (int f = 0; f < 8; ++f) {
    a += full.frame(cam, 0.016f).matrices;
    b += throttled.frame(cam, 0.016f).matrices;
  }
  EXPECT_LT(b * 2, a);
  // Near avatars (distance < 15) still update every frame: avatar 0 is 5 m away.
  EXPECT_EQ(std::memcmp(full.palettes().data(), throttled.palettes().data(),
                        full.animator().palette_size() * sizeof(anim::Mat3x4)),
            0);
}

TEST(AvatarCrowd, ImportantAvatarsUpdateEveryFrame) {
  const anim::Avatar av = anim::make_avatar({});
  AvatarCrowdOptions o{.avatars = 400, .spacing = 3.0f, .throttle = true};
  o.importance.assign(400, 0.0f);
  o.importance[399] = 1.0f;  // the far corner of the grid, > 80 m away: would update every 8 frames
  AvatarCrowd crowd(av, o);
  const CullCamera cam = overview({0, 2, 5}, {0, 0, -20});
  const std::size_t ps = crowd.animator().palette_size();
  std::vector<anim::Mat3x4> last(crowd.palettes().begin() + 398 * ps, crowd.palettes().begin() + 400 * ps);
  int changed_important = 0, changed_far = 0;
  for (int f = 0; f < 8; ++f) {
    crowd.frame(cam, 0.016f);
    changed_far +=
        std::memcmp(last.data(), crowd.palettes().data() + 398 * ps, ps * sizeof(anim::Mat3x4)) != 0;
    changed_important +=
        std::memcmp(last.data() + ps, crowd.palettes().data() + 399 * ps, ps * sizeof(anim::Mat3x4)) != 0;
    std::copy(crowd.palettes().begin() + 398 * ps, crowd.palettes().begin() + 400 * ps, last.begin());
  }
  EXPECT_EQ(changed_important, 8);
  // The far one: posed in frame 0 (everyone is: no palette yet), then once in its 8-frame turn.
  EXPECT_EQ(changed_far, 2);
  AvatarCrowdOptions bad = o;
  bad.importance.resize(3);
  EXPECT_THROW(AvatarCrowd(av, bad), Error);
}

TEST(AvatarCrowd, OutfitsDifferYetBatchByPartAndPropertySet) {
  const anim::Avatar kit = anim::make_avatar({.clothed = true});
  AvatarCrowd crowd(kit, {.avatars = 64});
  const CrowdFrameStats s = crowd.frame(overview({7, 30, 30}, {7, 0, -7}), 1.0f / 60.0f);
  std::set<std::vector<std::uint32_t>> outfits;
  std::set<float> patterns;
  std::set<std::uint32_t> worn;
  for (std::size_t a = 0; a < 64; ++a) {
    const anim::Outfit& o = crowd.outfit(a);
    outfits.insert(o.parts);
    for (std::size_t w = 0; w < o.parts.size(); ++w) {
      worn.insert(o.parts[w]);
      if (kit.parts[o.parts[w]].clothing) patterns.insert(o.pattern[w]);
    }
    // Every avatar has its whole body; at most one item per slot.
    ASSERT_GE(o.parts.size(), crowd.body_parts());
    for (std::size_t b = 0; b < crowd.body_parts(); ++b) EXPECT_EQ(o.parts[b], b);
    std::set<std::string> slots;
    std::set<std::string> items;
    for (const std::uint32_t p : o.parts) {
      if (kit.parts[p].clothing) items.insert(kit.parts[p].item), slots.insert(kit.parts[p].slot);
    }
    EXPECT_EQ(slots.size(), items.size()) << "avatar " << a << " wears two items of one slot";
  }
  EXPECT_GE(outfits.size(), 10u);
  EXPECT_EQ(patterns, (std::set<float>{0.0f, 1.0f, 2.0f, 3.0f}));
  // One draw per worn part mesh, whatever the outfits: batching follows part and property set.
  EXPECT_EQ(s.draws, worn.size());
  EXPECT_EQ(s.draws_unbatched, crowd.worn_parts());
}

TEST(AvatarCrowd, AvatarsCrossFadeBetweenClipsWhenAsked) {
  const anim::Avatar kit = anim::make_avatar({.clothed = false});  // clips: walk and walk_fast
  AvatarCrowd crowd(kit, {.avatars = 8, .clip_change_period = 1.0f, .clip_fade = 0.4f});
  const CullCamera cam = overview({0, 5, 20}, {0, 0, 0});
  std::vector<std::uint32_t> first(8);
  for (std::size_t a = 0; a < 8; ++a) first[a] = crowd.animator().clip(a);
  bool saw_fade = false;
  for (int f = 0; f < 40; ++f) {  // 2 s: every avatar changes at least once
    crowd.frame(cam, 0.05f);
    for (std::size_t a = 0; a < 8; ++a) saw_fade = saw_fade || crowd.animator().fading(a);
  }
  EXPECT_TRUE(saw_fade);
  std::size_t changed = 0;
  for (std::size_t a = 0; a < 8; ++a) changed += crowd.animator().clip(a) != first[a] ? 1 : 0;
  EXPECT_GT(changed, 0u);
  // Without the option nobody changes clip.
  AvatarCrowd still(kit, {.avatars = 8});
  for (int f = 0; f < 40; ++f) still.frame(cam, 0.05f);
  for (std::size_t a = 0; a < 8; ++a) EXPECT_EQ(still.animator().clip(a), first[a]);
}

// The two joints that reach furthest to each side in the rest pose (the hands of a humanoid), with
// their grandparents (the upper arms).
struct Arms {
  std::size_t tip[2], shoulder[2];
  float length[2];
};

Arms find_arms(const anim::Avatar& kit) {
  std::vector<glm::mat4> model(kit.skeleton.size());
  anim::local_to_model(kit.skeleton.parents, kit.skeleton.rest, model);
  Arms arms{};
  float best[2] = {-1e9f, 1e9f};
  for (std::size_t j = 0; j < model.size(); ++j) {
    const float x = (kit.root_transform * model[j][3]).x;
    if (x > best[0]) best[0] = x, arms.tip[0] = j;
    if (x < best[1]) best[1] = x, arms.tip[1] = j;
  }
  for (int side = 0; side < 2; ++side) {
    std::size_t s = arms.tip[side];
    for (int up = 0; up < 2 && kit.skeleton.parents[s] >= 0; ++up)
      s = static_cast<std::size_t>(kit.skeleton.parents[s]);
    arms.shoulder[side] = s;
    arms.length[side] = glm::length(glm::vec3(model[arms.tip[side]][3] - model[s][3]));
  }
  return arms;
}

void expect_walking_without_t_pose(const anim::Avatar& kit, const std::string& what) {
  const Arms arms = find_arms(kit);
  std::vector<glm::mat4> rest(kit.skeleton.size());
  anim::local_to_model(kit.skeleton.parents, kit.skeleton.rest, rest);
  AvatarCrowd crowd(kit, {.avatars = 16});
  const CullCamera cam = overview({0, 5, 20}, {0, 0, 0});
  std::vector<float> moved(16, 0.0f);
  for (int f = 0; f < 40; ++f) {
    crowd.frame(cam, 0.05f);
    for (std::size_t a = 0; a < 16; ++a) {
      const std::span<const glm::mat4> model = crowd.animator().model(a);
      for (int side = 0; side < 2; ++side) {
        const glm::vec3 tip(kit.root_transform * model[arms.tip[side]][3]);
        const glm::vec3 shoulder(kit.root_transform * model[arms.shoulder[side]][3]);
        // T-pose arms are level with the shoulder; hanging or swinging arms are well below it.
        EXPECT_LT(tip.y, shoulder.y - 0.3f * arms.length[side])
            << what << ": avatar " << a << " frame " << f << " side " << side << " holds its arm up";
        const glm::vec3 bind(kit.root_transform * rest[arms.tip[side]][3]);
        moved[a] = std::max(moved[a], glm::length(tip - bind));
      }
    }
  }
  for (std::size_t a = 0; a < 16; ++a)
    EXPECT_GT(moved[a], 0.05f * arms.length[0])
        << what << ": avatar " << a << "'s hands never leave the bind pose";
}

std::filesystem::path kit_dir(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("myriad_crowd_kit_" + name + "_" + std::to_string(::getpid()));
}

// Avatar a's body vertices as drawn (CPU skinning with the crowd's palettes and the body batch's
// object-to-world rows), in world space, in a fixed order (draw layer, then vertex).
std::vector<glm::vec3> drawn_points(const AvatarCrowd& crowd, const anim::Avatar& kit, std::size_t avatar) {
  std::vector<glm::vec3> out;
  const DrawLayer& draws = crowd.scene().draws();
  const Batch& body = crowd.scene().batch(crowd.body_type());
  const std::size_t palette_size = crowd.animator().palette_size();
  for (std::size_t d = 0; d < draws.size(); ++d) {
    if (draws.renderer[d] == kNoRenderer || draws.type[d] != crowd.body_type()) continue;
    const std::uint32_t slot = draws.slot[d];
    if (body.palette_offset[slot] != avatar * palette_size) continue;
    const anim::AvatarPart& part = kit.parts[draws.mesh[d] / crowd.lod_levels()];
    if (draws.mesh[d] % crowd.lod_levels() != 0) continue;  // level 0 only
    std::vector<glm::u16vec4> joints = part.mesh.joints;
    anim::remap_joints(joints, crowd.dedup().remap[draws.mesh[d] / crowd.lod_levels()]);
    const auto palette = crowd.palettes().subspan(body.palette_offset[slot], palette_size);
    const Mat3x4& m = body.object_to_world[slot];
    for (std::size_t v = 0; v < part.mesh.positions.size(); ++v) {
      const glm::vec4 p(anim::skin_position(palette, joints[v], part.mesh.weights[v], part.mesh.positions[v]),
                        1.0f);
      out.emplace_back(glm::dot(m.rows[0], p), glm::dot(m.rows[1], p), glm::dot(m.rows[2], p));
    }
  }
  return out;
}

std::size_t lowest_index(const std::vector<glm::vec3>& points) {
  std::size_t low = 0;
  for (std::size_t i = 1; i < points.size(); ++i) low = points[i].y < points[low].y ? i : low;
  return low;
}

glm::vec3 lowest_drawn_point(const AvatarCrowd& crowd, const anim::Avatar& kit, std::size_t avatar) {
  const std::vector<glm::vec3> points = drawn_points(crowd, kit, avatar);
  return points.empty() ? glm::vec3(0.0f, INFINITY, 0.0f) : points[lowest_index(points)];
}

// A kit whose armature origin is at the pelvis (feet 0.95 m below it) and which is 2.4 x too big
// stands at --avatar-height 1.8 on sloped ground: its lowest point within 1 cm of the ground under it,
// in every frame (rest pose), and the figure is 1.8 m tall.
TEST(AvatarCrowd, APelvisOriginKitStandsOnSlopedGroundAtTheAskedHeight) {
  anim::Avatar kit = anim::make_avatar({.clothed = false});
  kit.clips.clear();  // the rest pose: the lowest point is the same in every frame
  kit.root_transform = glm::scale(glm::mat4(1.0f), glm::vec3(2.4f)) *
                       glm::translate(glm::mat4(1.0f), glm::vec3(0.3f, -0.95f, -0.2f));
  const auto ground = [](float x, float z) { return 5.0f + 0.2f * x - 0.1f * z; };
  AvatarCrowd crowd(
      kit, {.avatars = 4, .spacing = 3.0f, .origin = {10.0f, 0.0f, 4.0f}, .height = 1.8f, .ground = ground});
  EXPECT_NEAR(crowd.standing_height(), 1.8f, 1e-4f);
  const CullCamera cam = overview({10, 20, 30}, {10, 0, 0});
  for (int f = 0; f < 5; ++f) {
    crowd.frame(cam, 0.1f);
    for (std::size_t a = 0; a < 4; ++a) {
      const glm::vec3 low = lowest_drawn_point(crowd, kit, a);
      ASSERT_TRUE(std::isfinite(low.y));
      EXPECT_NEAR(low.y, ground(low.x, low.z), 0.01f) << "avatar " << a << " frame " << f;
      // Centred over its grid point, whatever the armature's origin.
      EXPECT_NEAR(low.x, crowd.position(a).x, 0.5f);
      EXPECT_NEAR(crowd.position(a).y, ground(crowd.position(a).x, crowd.position(a).z), 1e-4f);
    }
  }
  EXPECT_THROW(AvatarCrowd(kit, {.avatars = 1, .height = -1.0f}), Error);
}

// A kit far wider than the grid asked for (a figure stretched 4 x along X, in its rest pose with arms
// spread) gets a grid as wide as its footprint: no two avatars' drawn bodies overlap, and the spacing
// is known before the crowd is built (a scene clears the ground for it).
TEST(AvatarCrowd, AKitOfAnyShapeNeverOverlapsItsNeighbours) {
  anim::Avatar kit = anim::make_avatar({.clothed = false});
  kit.clips.clear();
  kit.root_transform = glm::scale(glm::mat4(1.0f), glm::vec3(4.0f, 1.0f, 1.0f));
  const AvatarCrowdOptions options{.avatars = 9, .spacing = 1.6f};
  AvatarCrowd crowd(kit, options);
  EXPECT_GT(crowd.spacing(), options.spacing);
  EXPECT_EQ(avatar_grid_spacing(kit, options), crowd.spacing());
  crowd.frame(overview({0, 30, 30}, {0, 0, 0}), 0.1f);
  std::vector<glm::vec2> lo(9, glm::vec2(INFINITY)), hi(9, glm::vec2(-INFINITY));
  for (std::size_t a = 0; a < 9; ++a) {
    for (const glm::vec3& p : drawn_points(crowd, kit, a)) {
      lo[a] = glm::min(lo[a], glm::vec2(p.x, p.z));
      hi[a] = glm::max(hi[a], glm::vec2(p.x, p.z));
    }
    ASSERT_LT(lo[a].x, hi[a].x) << "avatar " << a << " drew nothing";
  }
  for (std::size_t a = 0; a < 9; ++a) {
    for (std::size_t b = a + 1; b < 9; ++b) {
      const bool apart = hi[a].x < lo[b].x || hi[b].x < lo[a].x || hi[a].y < lo[b].y || hi[b].y < lo[a].y;
      EXPECT_TRUE(apart) << "avatars " << a << " and " << b << " overlap: x " << lo[a].x << ".." << hi[a].x
                         << " and " << lo[b].x << ".." << hi[b].x;
    }
  }
  // A kit narrower than the grid keeps the spacing asked for.
  const anim::Avatar slim = anim::make_avatar({.clothed = false});
  EXPECT_EQ(AvatarCrowd(slim, {.avatars = 4, .spacing = 3.0f}).spacing(), 3.0f);
}

// The crowd's options check themselves in one place (the constructor calls it), naming the field.
TEST(AvatarCrowd, OptionsNameTheInvalidField) {
  const auto where = [](const AvatarCrowdOptions& o) {
    return myriad::test::where_of([&] { o.validate(); });
  };
  AvatarCrowdOptions o{.avatars = 4};
  EXPECT_EQ(where(o), "");
  o.height = -1.0f;
  EXPECT_EQ(where(o), "AvatarCrowdOptions::height");
  o = {.avatars = 4};
  o.speed_spread = 1.0f;  // playback speeds would reach 0
  EXPECT_EQ(where(o), "AvatarCrowdOptions::speed_spread");
  o = {.avatars = 4};
  o.layer_masks = {1u, 1u};
  EXPECT_EQ(where(o), "AvatarCrowdOptions::layer_masks");
  o = {.avatars = 4};
  o.lod_levels = 3;
  o.lod_screen_heights[1] = 0.5f;  // above level 1's switch: not descending
  EXPECT_EQ(where(o), "AvatarCrowdOptions::lod_screen_heights");
  const anim::Avatar kit = anim::make_avatar({});
  o = {.avatars = 4};
  o.clip_fade = -0.5f;
  EXPECT_EQ(myriad::test::where_of([&] { AvatarCrowd crowd(kit, o); }), "AvatarCrowdOptions::clip_fade");
}

// LOD groups on the CPU: each avatar's level is the LOD rule's for its screen-relative height (the
// CPU reference computed here), importance raises it, the draws use that level's meshes (vertex
// counts add up), and a camera without the avatars' layer draws none of them.
TEST(AvatarCrowd, LodGroupsPickOneLevelPerAvatarAndImportanceRaisesIt) {
  const anim::Avatar kit = anim::make_avatar({.clothed = true});
  constexpr std::size_t kAvatars = 25;
  std::vector<float> importance(kAvatars, 0.0f);
  importance[24] = 3.0f;  // the farthest row's last avatar: a friend
  AvatarCrowdOptions o{.avatars = kAvatars, .spacing = 8.0f, .lod_levels = 3};
  AvatarCrowd plain(kit, o);
  o.importance = importance;
  AvatarCrowd friends(kit, o);
  const CullCamera cam = overview({16, 2, 4}, {16, 0, -40});
  const CrowdFrameStats s = plain.frame(cam, 0.0f);
  friends.frame(cam, 0.0f);
  std::size_t per_level[3] = {0, 0, 0};
  for (std::size_t a = 0; a < kAvatars; ++a) {
    LodGroup g;
    g.center = plain.position(a) + glm::vec3(0.0f, 0.5f * plain.standing_height(), 0.0f);
    g.level_count = 3;
    g.transitions[0] = o.lod_screen_heights[0];
    g.transitions[1] = o.lod_screen_heights[1];
    g.size = plain.standing_height();
    g.fade_band = o.lod_fade_band;
    std::uint8_t fade = 0;
    const std::uint8_t want = select_lod(g, cam.position, cam.lod_scale, fade);
    EXPECT_EQ(plain.cull_result().group_level[a], want) << "avatar " << a;
    EXPECT_EQ(plain.cull_result().group_fade[a], fade) << "avatar " << a;
    if (want < 3) ++per_level[want];
  }
  EXPECT_GT(per_level[0], 0u);
  EXPECT_GT(per_level[2], 0u);
  EXPECT_LT(friends.cull_result().group_level[24], plain.cull_result().group_level[24]);
  std::size_t vertices = 0;
  const std::size_t palette_size = plain.animator().palette_size();
  for (const DrawCommand& d : plain.draw_list().draws) {
    // Every instance of a level's draw is an avatar whose group chose that level.
    for (std::uint32_t i = d.first_instance; i < d.first_instance + d.instance_count; ++i) {
      const std::uint32_t slot = plain.draw_list().instances[i];
      const std::size_t a = plain.scene().batch(d.type).palette_offset[slot] / palette_size;
      // ... or the next level when the avatar is in a cross-fade band (its incoming level).
      const std::uint32_t level = plain.cull_result().group_level[a];
      const bool incoming = (plain.scene().batch(d.type).fade[slot] & 0x100u) != 0;
      EXPECT_EQ(d.mesh % 3, incoming ? level + 1 : level) << "avatar " << a;
      if (incoming) {
        EXPECT_NE(plain.cull_result().group_fade[a], 0u);
      }
    }
    vertices += plain.mesh(d.mesh).positions.size() * d.instance_count;
  }
  EXPECT_EQ(s.vertices, vertices);
  std::size_t levels_drawn[3] = {0, 0, 0};
  for (const DrawCommand& d : plain.draw_list().draws) levels_drawn[d.mesh % 3] += d.instance_count;
  EXPECT_GT(levels_drawn[0], 0u);
  EXPECT_GT(levels_drawn[2], 0u);
  // Lower levels have fewer vertices (meshoptimizer halves them where borders allow).
  std::size_t lod0 = 0, lod2 = 0;
  for (std::size_t p = 0; p < kit.parts.size(); ++p) {
    lod0 += plain.mesh(static_cast<std::uint32_t>(p * 3)).positions.size();
    lod2 += plain.mesh(static_cast<std::uint32_t>(p * 3 + 2)).positions.size();
  }
  EXPECT_LT(lod2, lod0);
  // Layer masks: a view of another layer draws none of them.
  CullCamera shadow_view = cam;
  shadow_view.layer_mask = kAvatarLayerShadowCaster;
  EXPECT_EQ(plain.frame(shadow_view, 0.0f).draws, 0u);
}

// Walking avatars move at their clip's stride: step by step (1/60 s), the vertex lowest at the start
// of the step (on the planted foot) moves much less than the avatar does, in most steps; at twice the
// speed it would slide as far as the avatar goes. They stay within their span of their grid point, on
// the ground.
// A real walk cycle, its armature origin moved up to the hips (0.9 m above the feet), scaled to 1.8 m on
// a gentle slope: in every frame of the walk, in place and walking about, each avatar's lowest point is
// within 1 cm of the ground under it (the hips bob and the feet lift: each posed frame is lifted).
TEST(AvatarCrowd, AWalkingKitKeepsItsFeetOnTheGroundInEveryFrame) {
  const std::filesystem::path p = std::filesystem::path(MYRIAD_SHARED_DIR) / "assets" / "cesium_man.gltf";
  ASSERT_TRUE(std::filesystem::exists(p)) << "missing test asset " << p << " (see shared/assets/README.md)";
  const anim::ImportedModel model = anim::import_gltf(p);
  anim::Avatar kit = anim::kit_from_model(model, anim::kAvatarBodyParts);
  kit.root_transform = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -0.9f, 0.0f)) * kit.root_transform;
  const auto ground = [](float x, float z) { return 2.0f + 0.02f * x - 0.01f * z; };
  for (const float span : {0.0f, 6.0f}) {
    SCOPED_TRACE(span == 0.0f ? "walking in place" : "walking about");
    AvatarCrowd crowd(kit,
                      {.avatars = 4, .spacing = 3.0f, .height = 1.8f, .ground = ground, .walk_span = span});
    const CullCamera cam = overview({0, 10, 30}, {0, 0, 0});
    for (int f = 0; f < 60; ++f) {
      crowd.frame(cam, 1.0f / 30.0f);
      for (std::size_t a = 0; a < 4; ++a) {
        const glm::vec3 low = lowest_drawn_point(crowd, kit, a);
        ASSERT_NEAR(low.y, ground(low.x, low.z), 0.01f) << "avatar " << a << " frame " << f;
      }
    }
  }
}

TEST(AvatarCrowd, WalkingAvatarsMoveWithoutSlidingFeet) {
  // A real walk cycle (the procedural humanoid's legs swing like pendulums and never plant).
  const std::filesystem::path p = std::filesystem::path(MYRIAD_SHARED_DIR) / "assets" / "cesium_man.gltf";
  ASSERT_TRUE(std::filesystem::exists(p)) << "missing test asset " << p << " (see shared/assets/README.md)";
  const anim::ImportedModel model = anim::import_gltf(p);
  const anim::Avatar kit = anim::kit_from_model(model, anim::kAvatarBodyParts);
  const auto ground = [](float x, float z) { return 0.05f * x + 0.02f * z; };
  AvatarCrowd crowd(
      kit, {.avatars = 4, .spacing = 3.0f, .speed_spread = 0.0f, .ground = ground, .walk_span = 8.0f});
  ASSERT_TRUE(crowd.walking());
  EXPECT_GT(crowd.stride().speed, 0.3f);
  EXPECT_LT(crowd.stride().speed, 3.0f);
  const CullCamera cam = overview({0, 10, 30}, {0, 0, 0});
  crowd.frame(cam, 0.0f);
  std::vector<glm::vec3> points = drawn_points(crowd, kit, 0);
  glm::vec3 at = crowd.position(0);
  std::vector<float> slide_ratio;
  for (int f = 0; f < 90; ++f) {
    // The vertex lowest now (on the planted foot), followed to the next step.
    const std::size_t planted = lowest_index(points);
    crowd.frame(cam, 1.0f / 60.0f);
    const std::vector<glm::vec3> points2 = drawn_points(crowd, kit, 0);
    const glm::vec3 low = points[planted], low2 = points2[planted], at2 = crowd.position(0);
    const float moved = glm::length(glm::vec2(at2.x - at.x, at2.z - at.z));
    if (moved > 1e-4f && moved < 0.5f)  // not the turn at the end of the span
      slide_ratio.push_back(glm::length(glm::vec2(low2.x - low.x, low2.z - low.z)) / moved);
    EXPECT_NEAR(at2.y, ground(at2.x, at2.z), 1e-4f);
    EXPECT_LE(glm::length(glm::vec2(at2.x, at2.z)), 4.0f + 1e-3f);  // grid point (0, 0), span 8
    points = points2;
    at = at2;
  }
  ASSERT_GT(slide_ratio.size(), 60u) << "the avatar does not walk";
  std::sort(slide_ratio.begin(), slide_ratio.end());
  EXPECT_LT(slide_ratio[slide_ratio.size() / 2], 0.35f) << "the feet slide";
}

TEST(AvatarCrowd, WalkingProceduralAvatarsAreNotInTPose) {
  const anim::KitImport in =
      anim::write_and_import_kit(anim::make_sample_kit(nullptr), kit_dir("procedural"), "kit");
  expect_walking_without_t_pose(in.kit, "procedural kit");
}

TEST(AvatarCrowd, WalkingCesiumManAvatarsAreNotInTPose) {
  const std::filesystem::path p = std::filesystem::path(MYRIAD_SHARED_DIR) / "assets" / "cesium_man.gltf";
  ASSERT_TRUE(std::filesystem::exists(p)) << "missing test asset " << p << " (see shared/assets/README.md)";
  const anim::ImportedModel model = anim::import_gltf(p);
  const anim::KitImport in =
      anim::write_and_import_kit(anim::make_sample_kit(&model), kit_dir("cesium"), "kit");
  expect_walking_without_t_pose(in.kit, "CesiumMan kit");
}

}  // namespace
}  // namespace myriad::batch
