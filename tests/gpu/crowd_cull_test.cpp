// VAT crowd culling on the GPU (SPEC C8): per-entity LOD choice and frustum visibility equal the CPU
// reference crowd::cull_entities for every entity — including entities placed right at the LOD switch
// distances and at the edges of their cross-fade bands — for several cameras and for the forced-LOD
// modes; over frames of a moving camera the kept LOD state (level with hysteresis, band, fade) and the
// draw list entries equal the CPU's bit for bit.
#include <algorithm>
#include <random>
#include <vector>

#include "gpu_fixture.hpp"
#include "occlusion_depth.hpp"
#include "myriad/crowd/entity_cull.hpp"
#include "myriad/gpu/memory/buffer.hpp"
#include "myriad/render/crowd/crowd_cull.hpp"
#include "myriad/render/shaders/crowd_layout.h"

namespace myriad::test {
namespace {

using render::shader::DrawIndexedCommand;

constexpr std::uint32_t kTypes = 3;

// Draw list entries in entity order (the CPU reference's order; the GPU appends in any order).
void sort_by_entity(std::vector<std::uint32_t>& entries) {
  std::sort(entries.begin(), entries.end(), [](std::uint32_t a, std::uint32_t b) {
    return (a & CROWD_ENTRY_ID_MASK) < (b & CROWD_ENTRY_ID_MASK);
  });
}

// The slots' entries after a cull of command set `set`, each slot in entity order.
std::vector<std::vector<std::uint32_t>> read_slots(gpu::Context& ctx, const render::CrowdCull& cull,
                                                   std::uint32_t set = 0) {
  const auto commands = gpu::read_buffer_as<DrawIndexedCommand>(ctx, cull.commands(set), cull.slot_count());
  const auto visible = gpu::read_buffer_as<std::uint32_t>(ctx, cull.visible(set), cull.list_capacity());
  std::vector<std::vector<std::uint32_t>> slots(cull.slot_count());
  for (std::uint32_t slot = 0; slot < cull.slot_count(); ++slot) {
    slots[slot].assign(visible.begin() + commands[slot].first_instance,
                       visible.begin() + commands[slot].first_instance + commands[slot].instance_count);
    sort_by_entity(slots[slot]);
  }
  return slots;
}

struct Crowd {
  std::vector<crowd::CrowdEntity> entities;
  std::vector<crowd::CrowdTypeBounds> types;
  std::vector<std::uint32_t> type_counts = std::vector<std::uint32_t>(kTypes, 0u);
};

// Random entities over a 600 m square, plus a ring of entities at the reference switch distances
// from `ring_centre` so boundary rounding is exercised.
Crowd make_crowd(const crowd::LodCurve& curve, glm::vec3 ring_centre) {
  Crowd c;
  const Aabb shapes[kTypes] = {{{-0.3f, 0.0f, -0.2f}, {0.3f, 1.8f, 0.2f}},
                               {{-0.8f, 0.0f, -1.2f}, {0.8f, 1.4f, 1.2f}},
                               {{-0.2f, 0.0f, -0.2f}, {0.2f, 2.6f, 0.4f}}};
  for (const Aabb& s : shapes) c.types.push_back(crowd::type_bounds(s));
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> pos(-300.0f, 300.0f);
  std::uniform_real_distribution<float> scale(0.5f, 3.0f);
  std::uniform_real_distribution<float> angle(0.0f, 6.2831853f);
  auto add = [&](glm::vec3 p, std::uint32_t type, float s) {
    crowd::CrowdEntity e;
    e.position = p;
    e.yaw_scale = crowd::pack_yaw_scale(angle(rng), s);
    e.type_clip = type | (std::uint32_t(rng() % 2) << 16);
    c.entities.push_back(e);
    ++c.type_counts[type];
  };
  for (int i = 0; i < 3000; ++i) add({pos(rng), 0.0f, pos(rng)}, std::uint32_t(rng() % kTypes), scale(rng));
  for (int i = 0; i < 400; ++i) {
    const std::uint32_t type = std::uint32_t(i) % kTypes;
    const float s = crowd::entity_scale(c.entities[std::size_t(i)]);
    const float switch_distance = c.types[type].diameter * s * curve.switch_ratio[std::size_t(i / 3) % 2];
    const float a = angle(rng);
    const float d = std::nextafter(switch_distance, (i % 2) ? 0.0f : 1e9f);
    add(ring_centre + glm::vec3(std::cos(a) * d, 0.0f, std::sin(a) * d), type, s);
  }
  // And at the near and far edges of the cross-fade bands, one float step either side.
  for (int i = 0; i < 400; ++i) {
    const std::uint32_t type = std::uint32_t(i) % kTypes;
    const float s = crowd::entity_scale(c.entities[std::size_t(i)]);
    const float switch_distance = c.types[type].diameter * s * curve.switch_ratio[std::size_t(i / 3) % 2];
    const float edge = crowd::band_boundary(switch_distance, curve.band_step, (i / 2) % 2 ? 0u : 256u);
    const float a = angle(rng);
    const float d = std::nextafter(edge, (i % 2) ? 0.0f : 1e9f);
    add(ring_centre + glm::vec3(std::cos(a) * d, 0.0f, std::sin(a) * d), type, s);
  }
  return c;
}

class CrowdCullTest : public GpuTest {};

TEST_F(CrowdCullTest, LodAndVisibilityMatchCpuReference) {
  crowd::LodCurveParams lod_params;
  lod_params.screen_height = 1080.0f;
  const crowd::LodCurve curve = crowd::LodCurve::solve(lod_params);
  const glm::vec3 eye_close{20.0f, 3.0f, 40.0f};
  Crowd c = make_crowd(curve, eye_close);

  std::vector<render::MeshRange> lods;
  for (std::uint32_t i = 0; i < kTypes * crowd::kCrowdLodCount; ++i)
    lods.push_back({300u - i * 10u, i * 400u, int(i)});
  render::CrowdCull cull(ctx(), c.types, lods, c.type_counts);
  gpu::Buffer entities(ctx(), c.entities.size() * sizeof(crowd::CrowdEntity),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), entities, std::span<const crowd::CrowdEntity>(c.entities));

  struct View {
    glm::vec3 eye, target;
    int forced;
  };
  const View views[] = {{{0.0f, 380.0f, -420.0f}, {0.0f, 0.0f, 0.0f}, -1},  // whole map
                        {eye_close, {60.0f, 0.0f, 90.0f}, -1},              // close-up into the crowd
                        {{0.0f, 380.0f, -420.0f}, {0.0f, 0.0f, 0.0f}, 0},
                        {{0.0f, 380.0f, -420.0f}, {0.0f, 0.0f, 0.0f}, 1},
                        {eye_close, {60.0f, 0.0f, 90.0f}, 2}};
  // The GPU keeps each entity's LOD state from view to view: so does the reference.
  std::vector<std::uint32_t> state(c.entities.size(), CROWD_LOD_NONE);
  for (const View& v : views) {
    crowd::CrowdCullParams params;
    params.frustum =
        Frustum::from_view_proj(perspective(glm::radians(50.0f), 16.0f / 9.0f, 0.5f, 2000.0f, true) *
                                    glm::lookAt(v.eye, v.target, kWorldUp),
                                DepthConvention::kReverseZ);
    params.camera = v.eye;
    params.curve = curve;
    params.forced_level = v.forced;
    crowd::CrowdCullResult expected;
    crowd::cull_entities(c.entities, c.types, params, state, expected);
    ASSERT_GT(expected.visible, 100u);
    ASSERT_GT(expected.culled, 100u);

    ctx().submit_and_wait(
        [&](VkCommandBuffer cmd) { cull.record(cmd, entities, std::uint32_t(c.entities.size()), params); });
    EXPECT_EQ(cull.overflow(), 0u);
    EXPECT_EQ(cull.fading(), expected.fading);
    if (v.forced < 0) {
      EXPECT_GT(expected.fading, 50u) << "the rings lie in the bands";
    }
    ASSERT_EQ(gpu::read_buffer_as<std::uint32_t>(ctx(), cull.lod_state(), c.entities.size()), state);
    const auto commands = gpu::read_buffer_as<DrawIndexedCommand>(ctx(), cull.commands(), cull.slot_count());
    const auto visible = gpu::read_buffer_as<std::uint32_t>(ctx(), cull.visible(), cull.list_capacity());
    std::uint32_t levels_used = 0;
    for (std::uint32_t slot = 0; slot < cull.slot_count(); ++slot) {
      const DrawIndexedCommand& cmd = commands[slot];
      EXPECT_EQ(cmd.index_count, lods[slot].index_count);
      EXPECT_EQ(cmd.first_index, lods[slot].first_index);
      EXPECT_EQ(cmd.vertex_offset, lods[slot].vertex_offset);
      std::vector<std::uint32_t> got(visible.begin() + cmd.first_instance,
                                     visible.begin() + cmd.first_instance + cmd.instance_count);
      sort_by_entity(got);
      ASSERT_EQ(got, expected.slots[slot]) << "slot " << slot << " forced " << v.forced;
      if (!got.empty()) levels_used |= 1u << (slot % crowd::kCrowdLodCount);
    }
    if (v.forced >= 0) {
      EXPECT_EQ(levels_used, 1u << v.forced);
    } else {
      EXPECT_EQ(levels_used, 7u) << "per-entity LOD uses every level in these views";
    }
  }
}

// Cross-fade bands and hysteresis over frames of a moving camera (forwards, then back, then wobbling):
// after every frame the GPU's LOD state word of every entity (level, band, fade q) equals the CPU
// reference's, and so do the draw list entries (complementary fade entries, secondary flags) and the
// fading count. Entities enter and leave bands both ways, and hysteresis visibly engages: some entities
// hold a level the first-frame rule would not give them.
TEST_F(CrowdCullTest, FadeBandsAndHysteresisOverAMovingCameraMatchCpuReference) {
  crowd::LodCurveParams lod_params;
  lod_params.screen_height = 1080.0f;
  const crowd::LodCurve curve = crowd::LodCurve::solve(lod_params);
  Crowd c = make_crowd(curve, {0.0f, 0.0f, -150.0f});
  std::vector<render::MeshRange> lods;
  for (std::uint32_t i = 0; i < kTypes * crowd::kCrowdLodCount; ++i) lods.push_back({36u, i * 36u, 0});
  render::CrowdCull cull(ctx(), c.types, lods, c.type_counts);
  gpu::Buffer entities(ctx(), c.entities.size() * sizeof(crowd::CrowdEntity),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), entities, std::span<const crowd::CrowdEntity>(c.entities));

  const std::size_t n = c.entities.size();
  std::vector<std::uint32_t> state(n, CROWD_LOD_NONE);
  std::vector<std::uint32_t> previous = state;
  std::size_t entered = 0, left = 0, level_up = 0, level_down = 0, held = 0, frames = 0;
  std::size_t fading_max = 0;
  // z of the eye per frame: 12 m forwards in steps of 2, back 16 m, then wobbling by a metre.
  const float path[] = {-150.0f, -148.0f, -146.0f, -144.0f, -142.0f, -140.0f, -138.0f,
                        -142.0f, -146.0f, -150.0f, -154.0f, -153.0f, -154.0f, -153.0f};
  for (float z : path) {
    const glm::vec3 eye{0.0f, 20.0f, z};
    crowd::CrowdCullParams params;
    params.frustum =
        Frustum::from_view_proj(perspective(glm::radians(70.0f), 16.0f / 9.0f, 0.5f, 2000.0f, true) *
                                    glm::lookAt(eye, eye + glm::vec3(0.0f, -0.1f, 1.0f), kWorldUp),
                                DepthConvention::kReverseZ);
    params.camera = eye;
    params.curve = curve;
    crowd::CrowdCullResult expected;
    crowd::cull_entities(c.entities, c.types, params, state, expected);
    ctx().submit_and_wait([&](VkCommandBuffer cmd) { cull.record(cmd, entities, std::uint32_t(n), params); });
    const auto gpu_state = gpu::read_buffer_as<std::uint32_t>(ctx(), cull.lod_state(), n);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(gpu_state[i], state[i])
          << "entity " << i << " frame " << frames << ": level " << crowd::lod_state_level(gpu_state[i])
          << " vs " << crowd::lod_state_level(state[i]);
    }
    const auto slots = read_slots(ctx(), cull);
    for (std::uint32_t slot = 0; slot < cull.slot_count(); ++slot)
      ASSERT_EQ(slots[slot], expected.slots[slot]) << "slot " << slot << " frame " << frames;
    EXPECT_EQ(cull.fading(), expected.fading) << "frame " << frames;
    EXPECT_EQ(cull.overflow(), 0u);
    fading_max = std::max<std::size_t>(fading_max, expected.fading);
    for (std::size_t i = 0; frames > 0 && i < n; ++i) {
      const bool was = crowd::lod_state_fading(previous[i]), is = crowd::lod_state_fading(state[i]);
      entered += !was && is;
      left += was && !is;
      level_up += crowd::lod_state_level(state[i]) > crowd::lod_state_level(previous[i]);
      level_down += crowd::lod_state_level(state[i]) < crowd::lod_state_level(previous[i]);
      const glm::vec3 d = c.entities[i].position - params.camera;
      const float diameter =
          c.types[crowd::entity_type(c.entities[i])].diameter * crowd::entity_scale(c.entities[i]);
      const std::uint32_t fresh =
          crowd::decide_lod(curve, d.x * d.x + d.y * d.y + d.z * d.z, diameter, CROWD_LOD_NONE);
      held += crowd::lod_state_level(fresh) != crowd::lod_state_level(state[i]);
    }
    previous = state;
    ++frames;
  }
  EXPECT_GT(fading_max, 100u);
  EXPECT_GT(entered, 20u);
  EXPECT_GT(left, 20u);
  EXPECT_GT(level_up, 10u);
  EXPECT_GT(level_down, 10u);
  EXPECT_GT(held, 10u) << "hysteresis: levels the first-frame rule would change";
  RecordProperty("band_entries", int(entered));
  RecordProperty("held_by_hysteresis", int(held));
  EXPECT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
}

// Two-phase Hi-Z occlusion: walls across the close-up view hide part of the crowd. The late pass's
// lists equal crowd::cull_entities with the same pyramid exactly, its counters agree, and the phases
// follow the rule: the next early pass draws exactly what the late pass found visible, and a late pass
// with nothing changed adds nothing.
TEST_F(CrowdCullTest, OcclusionMatchesCpuReferenceAndFollowsTheTwoPhaseRule) {
  crowd::LodCurveParams lod_params;
  lod_params.screen_height = 360.0f;
  const crowd::LodCurve curve = crowd::LodCurve::solve(lod_params);
  const glm::vec3 eye{20.0f, 3.0f, 40.0f};
  Crowd c = make_crowd(curve, eye);
  std::vector<render::MeshRange> lods;
  for (std::uint32_t i = 0; i < kTypes * crowd::kCrowdLodCount; ++i) lods.push_back({36u, i * 36u, 0});
  render::CrowdCull cull(ctx(), c.types, lods, c.type_counts);
  gpu::Buffer entities(ctx(), c.entities.size() * sizeof(crowd::CrowdEntity),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), entities, std::span<const crowd::CrowdEntity>(c.entities));

  const glm::mat4 proj = perspective(glm::radians(50.0f), 16.0f / 9.0f, 0.5f, 2000.0f, true);
  const glm::mat4 view_proj = proj * glm::lookAt(eye, glm::vec3(60.0f, 0.0f, 90.0f), kWorldUp);
  OcclusionDepth depth(640, 360);
  depth.wall(proj, {0.0f, 0.45f}, {0.55f, 1.0f}, 25.0f);  // a low wall on the left, near
  depth.wall(proj, {0.5f, 0.3f}, {1.0f, 1.0f}, 120.0f);   // a taller one on the right, farther
  depth.wall(proj, {0.3f, 0.0f}, {0.35f, 1.0f}, 8.0f);    // a post in front of everything
  const HizReference reference = depth.reference(view_proj);
  const auto pyramid = depth.gpu_pyramid(ctx());

  crowd::CrowdCullParams params;
  params.frustum = Frustum::from_view_proj(view_proj, DepthConvention::kReverseZ);
  params.view_proj = view_proj;
  params.camera = eye;
  params.curve = curve;
  params.occlusion = &reference;
  crowd::CrowdCullResult expected;
  crowd::cull_entities(c.entities, c.types, params, expected);
  ASSERT_GT(expected.visible, 100u);
  ASSERT_GT(expected.occluded, 100u);

  const auto count = std::uint32_t(c.entities.size());
  auto lists = [&](render::FramePhase phase) {
    ctx().submit_and_wait(
        [&](VkCommandBuffer cmd) { cull.record(cmd, entities, count, params, phase, pyramid.get()); });
    return read_slots(ctx(), cull, render::CrowdCull::command_set(phase));
  };
  const std::vector<std::vector<std::uint32_t>> none(cull.slot_count());
  // Nothing was drawn before: the early pass draws nothing, the late pass everything not hidden.
  EXPECT_EQ(lists(render::FramePhase::kEarly), none);
  EXPECT_EQ(lists(render::FramePhase::kLate), expected.slots);
  const render::shader::CullCounters counters = cull.counters();
  EXPECT_EQ(counters.frustum_passed, expected.visible + expected.occluded);
  EXPECT_EQ(counters.occluded, expected.occluded);
  EXPECT_EQ(cull.overflow(), 0u);
  EXPECT_EQ(cull.fading(), expected.fading);
  EXPECT_GT(expected.fading, 0u);
  // The next frame, same view: early draws exactly those, late adds nothing.
  EXPECT_EQ(lists(render::FramePhase::kEarly), expected.slots);
  EXPECT_EQ(lists(render::FramePhase::kLate), none);
  RecordProperty("visible", int(expected.visible));
  RecordProperty("occluded", int(expected.occluded));
}

// Entities that do not match the type counts the lists were sized for (every entity declared as
// type 0, while they are of three types): the pass must stay inside its list, clamp each slot's
// instance count to its capacity and count what it dropped; nothing is written past any buffer (the
// fixture's buffer guards would report it as a validation message).
TEST_F(CrowdCullTest, ListsSizedTooSmallOverflowInsideTheirBounds) {
  crowd::LodCurveParams lod_params;
  lod_params.screen_height = 1080.0f;
  const crowd::LodCurve curve = crowd::LodCurve::solve(lod_params);
  Crowd c = make_crowd(curve, {0.0f, 0.0f, 0.0f});
  std::vector<render::MeshRange> lods(kTypes * crowd::kCrowdLodCount, {36u, 0u, 0});
  const std::vector<std::uint32_t> too_few{std::uint32_t(c.entities.size()) / 40u, 0u, 1u};
  render::CrowdCull cull(ctx(), c.types, lods, too_few);
  gpu::Buffer entities(ctx(), c.entities.size() * sizeof(crowd::CrowdEntity),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryKind::kDeviceLocal);
  gpu::upload(ctx(), entities, std::span<const crowd::CrowdEntity>(c.entities));
  crowd::CrowdCullParams params;
  params.frustum =
      Frustum::from_view_proj(perspective(glm::radians(50.0f), 16.0f / 9.0f, 0.5f, 2000.0f, true) *
                                  glm::lookAt(glm::vec3(0.0f, 380.0f, -420.0f), glm::vec3(0.0f), kWorldUp),
                              DepthConvention::kReverseZ);
  params.camera = {0.0f, 380.0f, -420.0f};
  params.curve = curve;
  crowd::CrowdCullResult expected;
  crowd::cull_entities(c.entities, c.types, params, expected);

  ctx().submit_and_wait(
      [&](VkCommandBuffer cmd) { cull.record(cmd, entities, std::uint32_t(c.entities.size()), params); });
  const auto commands = gpu::read_buffer_as<DrawIndexedCommand>(ctx(), cull.commands(), cull.slot_count());
  std::uint64_t kept = 0;
  for (std::uint32_t slot = 0; slot < cull.slot_count(); ++slot) {
    const std::uint32_t capacity = too_few[slot / crowd::kCrowdLodCount];
    EXPECT_LE(commands[slot].instance_count, capacity) << "slot " << slot;
    EXPECT_EQ(commands[slot].instance_count, std::min<std::size_t>(capacity, expected.slots[slot].size()));
    kept += commands[slot].instance_count;
  }
  EXPECT_GT(cull.overflow(), 0u);
  EXPECT_EQ(kept + cull.overflow(), expected.visible + expected.fading);  // a fading entity has two entries
  EXPECT_EQ(ctx().validation_message_count(), 0u) << joined_messages();
}

}  // namespace
}  // namespace myriad::test
