// Removing renderers: after random add/remove sequences every visible live renderer is drawn exactly
// once, with its own transform, palette offset and property values at the slot drawn, and nothing of
// a removed renderer is drawn; indices, draw ranges and batch slots are reused. Compared against a
// brute-force model of the scene kept here (a map of live renderers and their descriptions).
#include "myriad/batch/draw_commands.hpp"
#include "myriad/core/io/error.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace myriad::batch {
namespace {

struct RefDraw {
  std::uint32_t mesh, material;
  BatchType type;
  std::vector<float> properties;
};

struct RefRenderer {
  Sphere bounds;
  std::uint32_t layer_mask;
  glm::vec3 position;
  std::uint32_t palette_offset;
  std::vector<RefDraw> draws;
};

class RemovalFixture {
 public:
  RemovalFixture() {
    tint_ = sets_.add({"tint", {{"tint", 4}}, {1, 1, 1, 1}});
    pattern_ = sets_.add({"pattern", {{"pattern", 1}, {"tone", 3}}, {}});
    scene_ = std::make_unique<BatchScene>(sets_);
  }

  void add(std::mt19937& rng) {
    std::uniform_real_distribution<float> pos(-40.0f, 40.0f), unit(0.0f, 1.0f);
    RefRenderer ref;
    ref.position = {pos(rng), 0.0f, pos(rng)};
    ref.bounds = {ref.position, 0.5f + unit(rng)};
    ref.layer_mask = 1u << (rng() % 2);
    ref.palette_offset = static_cast<std::uint32_t>(rng() % 100000);
    // Two shapes of renderer (1 or 2 draws) so freed draw ranges get reused.
    const std::size_t draws = 1 + rng() % 2;
    const BatchType types[3] = {0, tint_, pattern_};
    for (std::size_t k = 0; k < draws; ++k) {
      RefDraw d{
          static_cast<std::uint32_t>(rng() % 4), static_cast<std::uint32_t>(rng() % 2), types[rng() % 3], {}};
      d.properties.resize(sets_.get(d.type).floats_per_instance());
      for (float& f : d.properties) f = unit(rng);
      ref.draws.push_back(d);
    }
    std::vector<DrawDesc> descs;
    for (const RefDraw& d : ref.draws) descs.push_back({d.mesh, d.material, d.type, d.properties});
    RendererDesc r;
    r.bounds = ref.bounds;
    r.layer_mask = ref.layer_mask;
    r.object_to_world = glm::translate(glm::mat4(1.0f), ref.position);
    r.palette_offset = ref.palette_offset;
    r.draws = descs;
    const std::uint32_t id = scene_->add_renderer(r);
    ASSERT_EQ(live_.count(id), 0u) << "index " << id << " handed out twice";
    live_[id] = ref;
  }

  void remove(std::mt19937& rng) {
    if (live_.empty()) return;
    auto it = live_.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(rng() % live_.size()));
    scene_->remove_renderer(it->first);
    live_.erase(it);
  }

  // Culls and generates draws, then checks them against the reference.
  void check(const CullCamera& cam) {
    ASSERT_EQ(scene_->live_renderers(), live_.size());
    CullResult cr;
    cull(*scene_, cam, cr);
    DrawList dl;
    generate_draws(*scene_, cr, dl);
    // (type, slot) -> how often drawn, with the draw's mesh and material.
    std::map<std::pair<BatchType, std::uint32_t>, int> drawn;
    for (const DrawCommand& d : dl.draws) {
      for (std::uint32_t j = d.first_instance; j < d.first_instance + d.instance_count; ++j) {
        ++drawn[{d.type, dl.instances[j]}];
        mesh_material_[{d.type, dl.instances[j]}] = {d.mesh, d.material};
      }
    }
    std::size_t expected = 0;
    for (const auto& [id, ref] : live_) {
      bool visible = (ref.layer_mask & cam.layer_mask) != 0;
      for (const Plane& p : cam.frustum.planes)
        visible = visible && p.distance(ref.bounds.center) >= -ref.bounds.radius;
      const std::uint32_t first = scene_->culling().first_draw[id];
      ASSERT_EQ(scene_->culling().draw_count[id], ref.draws.size());
      for (std::size_t k = 0; k < ref.draws.size(); ++k) {
        const RefDraw& rd = ref.draws[k];
        const std::uint32_t slot = scene_->draws().slot[first + k];
        ASSERT_EQ(scene_->draws().type[first + k], rd.type);
        const auto key = std::make_pair(rd.type, slot);
        const auto found = drawn.find(key);
        const int times = found == drawn.end() ? 0 : found->second;
        ASSERT_EQ(times, visible ? 1 : 0) << "renderer " << id << " draw " << k;
        if (!visible) continue;
        ++expected;
        EXPECT_EQ(mesh_material_[key], std::make_pair(rd.mesh, rd.material));
        const Batch& b = scene_->batch(rd.type);
        EXPECT_EQ(b.object_to_world[slot].rows[0].w, ref.position.x);
        EXPECT_EQ(b.object_to_world[slot].rows[2].w, ref.position.z);
        EXPECT_EQ(b.palette_offset[slot], ref.palette_offset);
        const std::vector<float> props(
            b.properties.begin() + std::ptrdiff_t{slot} * b.floats_per_instance,
            b.properties.begin() + std::ptrdiff_t{slot + 1} * b.floats_per_instance);
        EXPECT_EQ(props, rd.properties);
      }
    }
    // Nothing else (no removed renderer's slot) is drawn.
    EXPECT_EQ(dl.visible_draw_instances, expected);
    EXPECT_EQ(dl.instances.size(), expected);
  }

  BatchScene& scene() { return *scene_; }
  std::size_t live() const { return live_.size(); }

 private:
  PropertySetRegistry sets_;
  BatchType tint_ = 0, pattern_ = 0;
  std::unique_ptr<BatchScene> scene_;
  std::map<std::uint32_t, RefRenderer> live_;
  std::map<std::pair<BatchType, std::uint32_t>, std::pair<std::uint32_t, std::uint32_t>> mesh_material_;
};

CullCamera overview(std::uint32_t mask) {
  CullCamera c;
  const glm::vec3 eye(0.0f, 25.0f, 45.0f);
  c.frustum = Frustum::from_view_proj(perspective(glm::radians(60.0f), 1.5f, 0.1f, 200.0f) *
                                      glm::lookAt(eye, glm::vec3(0.0f), glm::vec3(0, 1, 0)));
  c.position = eye;
  c.layer_mask = mask;
  return c;
}

TEST(Removal, RandomAddRemoveSequencesDrawEveryLiveRendererOnce) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    RemovalFixture f;
    std::size_t peak = 0;
    for (int round = 0; round < 30; ++round) {
      // Phases of growth and shrinkage; many removals hit renderers added in the same round.
      const int adds = static_cast<int>(rng() % 60), removes = static_cast<int>(rng() % 60);
      for (int k = 0; k < adds; ++k) f.add(rng);
      peak = std::max(peak, f.live());
      for (int k = 0; k < removes; ++k) f.remove(rng);
      f.check(overview(round % 3 == 0 ? 0x1u : 0x3u));
      if (::testing::Test::HasFatalFailure()) return;
    }
    // Reuse keeps the layers at the peak population, not at the number of renderers ever added.
    EXPECT_LE(f.scene().culling().size(), peak) << "seed " << seed;
    EXPECT_LE(f.scene().draws().size(), 2 * peak) << "seed " << seed;
  }
}

TEST(Removal, ReusesSlotsAndRejectsDeadIndices) {
  PropertySetRegistry sets;
  const BatchType tint = sets.add({"tint", {{"tint", 4}}, {1, 1, 1, 1}});
  BatchScene s(sets);
  const DrawDesc draw[1] = {{2, 0, tint, {}}};
  RendererDesc r;
  r.draws = draw;
  const std::uint32_t a = s.add_renderer(r), b = s.add_renderer(r);
  const std::uint32_t slot_a = s.draws().slot[s.culling().first_draw[a]];
  s.remove_renderer(a);
  EXPECT_FALSE(s.alive(a));
  EXPECT_THROW(s.remove_renderer(a), Error);
  EXPECT_THROW(s.set_palette_offset(a, 1), Error);
  std::vector<DirtyRange> dirty;
  s.collect_dirty(dirty);
  dirty.clear();
  const float red[4] = {1, 0, 0, 1};
  const DrawDesc red_draw[1] = {{2, 0, tint, red}};
  r.draws = red_draw;
  const std::uint32_t c = s.add_renderer(r);
  EXPECT_EQ(c, a);  // index reused
  EXPECT_TRUE(s.alive(b) && s.alive(c));
  EXPECT_EQ(s.batch(tint).size(), 2u);  // slot reused
  EXPECT_EQ(s.draws().slot[s.culling().first_draw[c]], slot_a);
  EXPECT_EQ(s.batch(tint).properties[slot_a * 4], 1.0f);
  EXPECT_EQ(s.batch(tint).properties[slot_a * 4 + 1], 0.0f);
  s.collect_dirty(dirty);  // the reused slot is uploaded again
  ASSERT_EQ(dirty.size(), 1u);
  EXPECT_EQ(dirty[0].begin, slot_a);
  EXPECT_EQ(dirty[0].end, slot_a + 1);
}

}  // namespace
}  // namespace myriad::batch
