// The three layers and property sets: layout, initial property values, upload-on-change ranges.
#include "myriad/batch/scene.hpp"
#include "myriad/core/io/error.hpp"
#include "test_scene.hpp"

#include <gtest/gtest.h>

#include <type_traits>

namespace myriad::batch {
namespace {

static_assert(std::is_trivially_copyable_v<Mat3x4> && std::is_trivially_copyable_v<Sphere> &&
              std::is_trivially_copyable_v<LodGroup>);

TEST(PropertySets, DefineBatchTypesAndRejectBadSets) {
  PropertySetRegistry sets;
  EXPECT_EQ(sets.size(), 1u);  // the empty set
  const BatchType t = sets.add({"tint_pattern", {{"tint", 4}, {"pattern", 1}}, {}});
  EXPECT_EQ(t, 1);
  EXPECT_EQ(sets.get(t).floats_per_instance(), 5u);
  EXPECT_EQ(sets.offset_of(t, "pattern"), 4u);
  EXPECT_THROW(sets.offset_of(t, "nope"), Error);
  EXPECT_THROW(sets.add({"tint_pattern", {}, {}}), Error);
  EXPECT_THROW(sets.add({"bad", {{"x", 5}}, {}}), Error);
  EXPECT_THROW(sets.add({"bad2", {{"x", 2}}, {1.0f}}), Error);
}

TEST(BatchScene, LayersAndInitialValues) {
  PropertySetRegistry sets;
  const BatchType tint = sets.add({"tint", {{"tint", 4}}, {1, 1, 1, 1}});
  BatchScene s(sets);
  const float red[4] = {1, 0, 0, 1};
  const DrawDesc draws[2] = {{3, 1, tint, red}, {4, 2, tint, {}}};
  RendererDesc r;
  r.object_to_world = glm::translate(glm::mat4(1.0f), {5, 6, 7});
  r.palette_offset = 42;
  r.draws = draws;
  EXPECT_EQ(s.add_renderer(r), 0u);
  EXPECT_EQ(s.culling().size(), 1u);
  EXPECT_EQ(s.draws().size(), 2u);
  const Batch& b = s.batch(tint);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b.object_to_world[1].rows[0], glm::vec4(1, 0, 0, 5));
  EXPECT_EQ(b.object_to_world[1].rows[2], glm::vec4(0, 0, 1, 7));
  EXPECT_EQ(b.palette_offset[0], 42u);
  EXPECT_EQ(b.properties, (std::vector<float>{1, 0, 0, 1, 1, 1, 1, 1}));
  const float wrong[3] = {1, 2, 3};
  const DrawDesc bad[1] = {{0, 0, tint, wrong}};
  r.draws = bad;
  EXPECT_THROW(s.add_renderer(r), Error);
  const DrawDesc unknown[1] = {{0, 0, 9, {}}};
  r.draws = unknown;
  EXPECT_THROW(s.add_renderer(r), Error);
  r.draws = draws;
  r.lod_group = 3;
  EXPECT_THROW(s.add_renderer(r), Error);
}

TEST(BatchScene, UploadsOnlyWhatChanged) {
  test::RandomScene rs(500);
  BatchScene& s = *rs.scene;
  std::vector<DirtyRange> dirty;
  s.collect_dirty(dirty);
  std::size_t total = 0;
  for (const DirtyRange& d : dirty) total += d.end - d.begin;
  EXPECT_EQ(total, s.draws().size());  // first upload: everything
  dirty.clear();
  s.collect_dirty(dirty);
  EXPECT_TRUE(dirty.empty());  // nothing changed: nothing to upload
  const std::uint32_t r = 123;
  s.set_transform(r, glm::translate(glm::mat4(1.0f), {1, 2, 3}), {{1, 2, 3}, 1.0f});
  s.collect_dirty(dirty);
  const std::uint32_t first = s.culling().first_draw[r];
  std::size_t covered = 0;
  for (const DirtyRange& d : dirty) covered += d.end - d.begin;
  // A renderer's draws of one type get consecutive slots, so the ranges are exactly its draws.
  EXPECT_EQ(covered, s.culling().draw_count[r]);
  for (std::uint32_t i = first; i < first + s.culling().draw_count[r]; ++i) {
    bool found = false;
    for (const DirtyRange& d : dirty)
      found |= d.type == s.draws().type[i] && d.begin <= s.draws().slot[i] && s.draws().slot[i] < d.end;
    EXPECT_TRUE(found) << "draw instance " << i;
    EXPECT_EQ(s.batch(s.draws().type[i]).object_to_world[s.draws().slot[i]].rows[1].w, 2.0f);
  }
  dirty.clear();
  s.collect_dirty(dirty);
  EXPECT_TRUE(dirty.empty());
}

}  // namespace
}  // namespace myriad::batch
