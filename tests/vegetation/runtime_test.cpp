// Runtime pools and expansion: matrices place instances where the tile says with the decoder's exact
// values, 10 km from the origin lands on the same pixel as at the origin, types merge across tiles,
// pages are reused and logged, a rebase touches only page tables, memory returns to zero.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>

#include "myriad/core/layout/packing.hpp"
#include "myriad/core/thread/worker_pool.hpp"
#include "myriad/vegetation/runtime/runtime.hpp"
#include "test_util.hpp"

namespace myriad::vegetation {
namespace {

Tile one_instance_tile(std::int32_t x, std::int32_t z, glm::vec3 local, float yaw, float scale) {
  BakeOptions o;
  o.types.resize(1);
  std::vector<WorldInstance> in{
      {0, glm::dvec3(x * 200.0, 0.0, z * 200.0) + glm::dvec3(local), yaw, scale, {10, 20, 30}}};
  auto tiles = bake_tiles(o, &in);
  return tiles.at(0);
}

glm::vec3 apply(const RuntimeInstance& r, glm::vec3 p) {
  const glm::vec4 h(p, 1.0f);
  return {glm::dot(r.row0, h), glm::dot(r.row1, h), glm::dot(r.row2, h)};
}

// One tile's instances in a fresh pool relative to `origin`: type 0, slot 0 is instance 0.
RuntimeWorld pooled(const Tile& t, glm::dvec3 origin) {
  RuntimeWorld w(origin);
  auto shared = std::make_shared<const Tile>(t);
  for (std::uint32_t g = 0; g < shared->groups.size(); ++g)
    w.append(shared, g, 0, static_cast<std::uint32_t>(shared->groups[g].instances.size()));
  return w;
}

TEST(Runtime, ExpansionPlacesRotatesScalesAndPacksTint) {
  const Tile t = one_instance_tile(2, -1, {12.5f, 3.0f, 7.25f}, 1.0f, 2.0f);
  const PlantInstance p = decode_instance(t.groups[0], t.groups[0].instances[0]);
  const glm::dvec3 origin(300.0, 1.0, -150.0);
  const RuntimeWorld w = pooled(t, origin);
  const ExpandedPlant e = w.types()[0].expand(0);
  const RuntimeInstance& r = e.instance;
  const glm::dvec3 expect = t.origin() + glm::dvec3(p.position) - origin;
  const glm::vec3 at = apply(r, {0, 0, 0});
  EXPECT_NEAR(at.x, expect.x, 1e-5);
  EXPECT_NEAR(at.y, expect.y, 1e-5);
  EXPECT_NEAR(at.z, expect.z, 1e-5);
  // +X of the plant rotates about +Y by yaw (right-handed: +X towards -Z) and scales: exactly the
  // decoded yaw's cosine and sine (the decode table holds what decode_instance computes).
  EXPECT_EQ(r.row0.x, std::cos(p.yaw) * p.scale);
  EXPECT_EQ(r.row2.x, -(std::sin(p.yaw) * p.scale));
  EXPECT_EQ(r.row1.y, p.scale);
  // The translation is the float tile offset plus the decoded tile-local position.
  const glm::vec3 offset(t.origin() - origin);
  EXPECT_EQ(r.row0.w, offset.x + p.position.x);
  EXPECT_EQ(r.row2.w, offset.z + p.position.z);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(r.spare.x), pack_rgba8_bytes(10, 20, 30, 0));
  EXPECT_EQ(r.spare.y, lod_hash({2, -1}, 0, 0));
  EXPECT_EQ(r.spare.z, e.sphere.radius);
  // The sphere is instance_sphere's, moved by the offset.
  const Sphere local = instance_sphere(p.position, p.scale, cull_shape(t.prefabs[0].bounds));
  EXPECT_EQ(e.sphere.radius, local.radius);
  EXPECT_EQ(e.sphere.center.y, offset.y + local.center.y);
  EXPECT_GT(e.sphere.radius, 0.0f);
}

TEST(Runtime, DecodeTableHoldsTheDecodersValues) {
  const std::span<const float> table = decode_table();
  ASSERT_EQ(table.size(), 3u * kDecodeSteps);
  Group g;
  g.pos_min = glm::vec3(0.0f);
  g.pos_extent = glm::vec3(1.0f);
  for (std::uint32_t q : {0u, 1u, 777u, 32768u, 65534u, 65535u}) {
    InstanceRecord r{};
    r.pos[0] = static_cast<std::uint16_t>(q);
    r.yaw = static_cast<std::uint16_t>(q);
    r.scale = pack_half(1.0f);
    EXPECT_EQ(table[q], decode_position(g, r).x) << q;
    const PlantInstance p = decode_instance(g, r);
    EXPECT_EQ(table[kDecodeSteps + q], std::cos(p.yaw)) << q;
    EXPECT_EQ(table[2 * kDecodeSteps + q], std::sin(p.yaw)) << q;
  }
}

TEST(Runtime, LodShapesEncloseTheirLodsAndFadesEncloseBoth) {
  const Aabb tall{{-1.0f, 0.0f, -1.0f}, {1.0f, 10.0f, 1.0f}};
  const Aabb low{{-3.0f, 0.0f, -3.0f}, {3.0f, 1.0f, 3.0f}};
  const PlantSphereShape all = plant_sphere_shape(tall);
  const std::array<Aabb, 2> bounds{tall, low};
  const PlantLodShapes s = make_lod_shapes(bounds, all);
  EXPECT_EQ(s.lod[0].mid, all.mid);
  EXPECT_EQ(s.lod[0].radius, all.radius);
  EXPECT_EQ(s.lod[1].mid, plant_sphere_shape(low).mid);
  EXPECT_EQ(s.lod[3].radius, s.lod[1].radius);  // past the span: the last LOD's bounds
  // The fade sphere holds both LODs' spheres.
  for (const PlantSphereShape& inner : {s.lod[0], s.lod[1]}) {
    EXPECT_LE(s.fade[0].mid + s.fade[0].radius,
              1e-5f + std::max(inner.mid + inner.radius, s.fade[0].mid + s.fade[0].radius));
    EXPECT_GE(s.fade[0].radius + 1e-5f, std::abs(inner.mid - s.fade[0].mid) + inner.radius);
  }
  const PlantLodShapes none = make_lod_shapes({}, all);
  for (std::uint32_t l = 0; l < kLodShapes; ++l) EXPECT_EQ(none.fade[l].radius, all.radius);
}

TEST(Runtime, TenKilometresFromTheOriginLandsOnTheSamePixel) {
  const glm::vec3 local(12.3f, 3.7f, 7.9f);
  const glm::dvec3 camera_offset(-3.1, 1.7, 30.3);
  const Tile near_tile = one_instance_tile(0, 0, local, 0.5f, 1.0f);
  const Tile far_tile = one_instance_tile(50, 50, local, 0.5f, 1.0f);  // 10 km away on both axes
  ASSERT_EQ(std::memcmp(&near_tile.groups[0].instances[0], &far_tile.groups[0].instances[0], 14), 0);
  const RuntimeInstance a =
      pooled(near_tile, near_tile.origin() + camera_offset).types()[0].expand(0).instance;
  const RuntimeInstance b = pooled(far_tile, far_tile.origin() + camera_offset).types()[0].expand(0).instance;
  EXPECT_EQ(std::memcmp(&a, &b, sizeof(glm::vec4) * 3), 0);  // the matrices are bit-identical
  const glm::mat4 vp = perspective(1.0f, 1.0f, 0.1f, 500.0f) *
                       glm::lookAt(glm::vec3(0.0f), glm::vec3(apply(a, {0, 0, 0})), glm::vec3(0, 1, 0));
  auto pixel = [&](const RuntimeInstance& r, glm::vec3 p) {
    const glm::vec4 c = vp * glm::vec4(apply(r, p), 1.0f);
    return glm::ivec2(glm::floor((glm::vec2(c) / c.w * 0.5f + 0.5f) * 1920.0f));
  };
  for (glm::vec3 p : {glm::vec3(0.0f), glm::vec3(1.0f, 5.0f, -0.5f), glm::vec3(-2.0f, 7.0f, 1.0f)})
    EXPECT_EQ(pixel(a, p), pixel(b, p));
  // The naive path (float world position minus float camera) is off by up to ~0.5 mm at 10 km.
  const glm::vec3 naive = glm::vec3(far_tile.origin()) +
                          decode_position(far_tile.groups[0], far_tile.groups[0].instances[0]) -
                          glm::vec3(far_tile.origin() + camera_offset);
  EXPECT_GT(glm::length(naive - apply(b, {0, 0, 0})), 1e-5f);
}

// Every live slot of `w`, expanded, keyed by (tile, group, group index).
std::map<std::tuple<std::int32_t, std::int32_t, std::uint32_t, std::uint32_t>, std::vector<float>> live_slots(
    const RuntimeWorld& w) {
  std::map<std::tuple<std::int32_t, std::int32_t, std::uint32_t, std::uint32_t>, std::vector<float>> out;
  for (const auto& type : w.types())
    for (const auto& seg : type.segments) {
      std::uint32_t k = seg.group_first;
      for_each_slot(type, seg, [&](std::uint32_t slot) {
        const ExpandedPlant p = type.expand(slot);
        const float* f = &p.instance.row0.x;
        std::vector<float> v(f, f + 16);
        v.insert(v.end(), {p.sphere.center.x, p.sphere.center.y, p.sphere.center.z, p.sphere.radius});
        out[{seg.tile.x, seg.tile.z, seg.group, k++}] = v;
      });
    }
  return out;
}

// A tile at (x, z) holding only `first`'s group 0 with `count` instances (repeated as needed).
std::shared_ptr<const Tile> resized_group_tile(const Tile& first, std::int32_t x, std::int32_t z,
                                               std::size_t count) {
  Tile t = first;
  t.x = x;
  t.z = z;
  t.groups.resize(1);
  const std::vector<InstanceRecord> base = t.groups[0].instances;
  t.groups[0].instances.clear();
  for (std::size_t i = 0; i < count; ++i) t.groups[0].instances.push_back(base[i % base.size()]);
  return std::make_shared<const Tile>(std::move(t));
}

TEST(Runtime, NewRecordBlocksComeReadyFromTheWorkerAndBlocksGivenBackAreKept) {
  const auto tiles = bake_tiles(test::small_world(400.0));
  ASSERT_FALSE(tiles.empty());
  const std::size_t block_slots = std::size_t(RuntimeWorld::kBlockPages) * kPageSlots;
  const std::size_t block_bytes = block_slots * sizeof(PlantRecord);
  const auto big = resized_group_tile(tiles[0], 0, 0, 3 * block_slots);
  auto pool = std::make_shared<WorkerPool>(1);
  RuntimeWorld w;
  w.keep_spare_block(pool);
  auto spare_ready = [&w, block_bytes] {
    for (int i = 0; i < 10000; ++i) {
      if (w.kept_block_bytes() >= block_bytes) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  };
  // A block's worth at a time, each once the worker's block is ready: every block comes from it.
  for (std::uint32_t b = 0; b < 3; ++b) {
    ASSERT_TRUE(spare_ready());
    w.append(big, 0, static_cast<std::uint32_t>(b * block_slots), static_cast<std::uint32_t>(block_slots));
  }
  EXPECT_EQ(w.block_stats().made_ahead, 3u);
  EXPECT_EQ(w.block_stats().made_here, 0u);
  RuntimeWorld fresh;  // no worker: it makes its own
  fresh.append(big, 0, 0, static_cast<std::uint32_t>(3 * block_slots));
  EXPECT_EQ(fresh.block_stats().made_here, 3u);
  EXPECT_EQ(live_slots(w), live_slots(fresh));  // the records are the same
  EXPECT_EQ(w.resident_bytes(), fresh.resident_bytes());

  // Removed, its blocks are kept for the next pool that grows (any type), and taken again before the
  // worker's.
  ASSERT_TRUE(spare_ready());
  w.remove_tile({big->x, big->z});
  EXPECT_EQ(w.kept_block_bytes(), 4 * block_bytes);  // three given back and the worker's
  const auto other = resized_group_tile(tiles[0], 1, 0, 2 * block_slots + 1);
  w.append(other, 0, 0, static_cast<std::uint32_t>(2 * block_slots + 1));
  EXPECT_EQ(w.block_stats().kept, 3u);
  EXPECT_EQ(w.block_stats().made_ahead, 3u);
  EXPECT_EQ(w.block_stats().made_here, 0u);
  RuntimeWorld other_fresh;
  other_fresh.append(other, 0, 0, static_cast<std::uint32_t>(2 * block_slots + 1));
  EXPECT_EQ(live_slots(w), live_slots(other_fresh));
  EXPECT_EQ(w.kept_block_bytes(), block_bytes);  // the worker's, still ready
}

TEST(Runtime, PagesTakenAgainAreZeroPastTheirCountAndAPoolCrossingABlockEdgeKeepsItsRecords) {
  const auto tiles = bake_tiles(test::small_world(400.0));
  ASSERT_FALSE(tiles.empty());
  // One type: a big group spanning more than a block of pages, a small one after it.
  const std::size_t big_count = std::size_t(RuntimeWorld::kBlockPages + 7) * kPageSlots + 5;
  const auto big = resized_group_tile(tiles[0], 0, 0, big_count);
  const auto small = resized_group_tile(tiles[0], 1, 0, kPageSlots / 2);
  const auto odd = resized_group_tile(tiles[0], 2, 0, kPageSlots + 3);
  RuntimeWorld w;
  auto append_all = [&w](const std::shared_ptr<const Tile>& t) {
    w.append(t, 0, 0, static_cast<std::uint32_t>(t->groups[0].instances.size() / 2));
    w.append(t, 0, static_cast<std::uint32_t>(t->groups[0].instances.size() / 2),
             static_cast<std::uint32_t>(t->groups[0].instances.size() - t->groups[0].instances.size() / 2));
  };
  append_all(small);
  append_all(big);
  ASSERT_EQ(w.types().size(), 1u);
  ASSERT_GT(w.types()[0].page_count(), RuntimeWorld::kBlockPages);

  // The pool shrinks below the block edge and grows past it again, twice (the spare block is reused):
  // every record is where a fresh pool holding the same tiles has it.
  for (int round = 0; round < 2; ++round) {
    w.remove_tile({big->x, big->z});
    EXPECT_LT(w.types()[0].page_count(), RuntimeWorld::kBlockPages);
    append_all(big);
  }
  RuntimeWorld fresh;
  fresh.append(small, 0, 0, static_cast<std::uint32_t>(small->groups[0].instances.size()));
  fresh.append(big, 0, 0, static_cast<std::uint32_t>(big_count));
  EXPECT_EQ(live_slots(w).size(), live_slots(fresh).size());
  EXPECT_EQ(live_slots(w), live_slots(fresh));
  EXPECT_EQ(w.resident_bytes(), fresh.resident_bytes());  // the same blocks: the spare was taken again

  // Pages the big tile held (full of its records) are taken by a group that fills a page and a bit:
  // the slots past its count are zero, as on a fresh page, not the former tile's records.
  // A tile at the pool's end: the big tile's pages go free instead of being released.
  w.append(resized_group_tile(tiles[0], 3, 0, 1), 0, 0, 1);
  w.remove_tile({big->x, big->z});
  append_all(odd);
  const RuntimeWorld::Type& type = w.types()[0];
  std::size_t checked = 0;
  for (const RuntimeWorld::Segment& seg : type.segments) {
    if (seg.tile != TileKey{odd->x, odd->z}) continue;
    const std::uint32_t last = seg.pages.back();
    const std::uint32_t used = type.pages[last].count;
    ASSERT_LT(used, kPageSlots);
    const PlantRecord* records = type.page_records(last);
    for (std::uint32_t k = used; k < kPageSlots; ++k, ++checked) {
      const std::array<std::byte, sizeof(PlantRecord)> zero{};
      EXPECT_EQ(std::memcmp(&records[k], zero.data(), sizeof(PlantRecord)), 0) << "slot " << k;
    }
  }
  EXPECT_EQ(checked, kPageSlots - 3u);
}

// Each tile's segment ids lie in its range (every type's segments of the tile, and no other tile's when
// tiles are appended one after another); a removed tile has none, and appended again gets new ones.
TEST(Runtime, EachTilesSegmentIdsLieInItsRange) {
  auto tiles = bake_tiles(test::small_world(400.0));
  ASSERT_EQ(tiles.size(), 4u);
  std::vector<std::shared_ptr<const Tile>> shared;
  for (Tile& t : tiles) shared.push_back(std::make_shared<const Tile>(std::move(t)));
  RuntimeWorld w;
  auto append = [&w](const std::shared_ptr<const Tile>& tile) {
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g) {
      const auto n = static_cast<std::uint32_t>(tile->groups[g].instances.size());
      w.append(tile, g, 0, n / 2);
      w.append(tile, g, n / 2, n - n / 2);
    }
  };
  for (const auto& t : shared) append(t);
  auto check = [&w](const std::vector<std::shared_ptr<const Tile>>& present) {
    for (const auto& t : present) {
      const TileKey key{t->x, t->z};
      const std::optional<RuntimeWorld::SegmentIds> ids = w.segment_ids(key);
      ASSERT_TRUE(ids.has_value()) << key.x << "," << key.z;
      std::size_t inside = 0, own = 0;
      for (const RuntimeWorld::Type& type : w.types())
        for (const RuntimeWorld::Segment& s : type.segments) {
          own += s.tile == key;
          if (s.id < ids->first || s.id > ids->last) {
            EXPECT_NE(s.tile, key) << "segment " << s.id << " outside its tile's range";
          } else {
            ++inside;
            EXPECT_EQ(s.tile, key) << "segment " << s.id << " of another tile inside the range";
          }
        }
      EXPECT_EQ(inside, own);
      EXPECT_GT(own, 0u);
    }
  };
  check(shared);
  const TileKey first{shared[0]->x, shared[0]->z};
  const std::uint64_t old_first = w.segment_ids(first)->first;
  w.remove_tile(first);
  EXPECT_FALSE(w.segment_ids(first).has_value());
  check({shared[1], shared[2], shared[3]});
  append(shared[0]);
  check(shared);
  EXPECT_GT(w.segment_ids(first)->first, old_first);
  EXPECT_GT(w.segment_ids(first)->first, w.segment_ids({shared[3]->x, shared[3]->z})->last);
}

// Tiles copied in parts that interleave (each tile's first part, then each one's rest): a part continues its
// own group's segment wherever it lies in its type, and a removal takes exactly its tile's segments though
// their ids are interleaved with the others' and several are of one type (the pools then match a pool that
// never held the tile).
TEST(Runtime, InterleavedTilesKeepOneSegmentPerGroupAndRemoveOnlyTheirOwn) {
  auto tiles = bake_tiles(test::small_world(400.0));
  ASSERT_EQ(tiles.size(), 4u);
  std::vector<std::shared_ptr<const Tile>> shared;
  for (Tile& t : tiles) {
    // Each group twice: a tile then has two segments of every type, so its ids span several per type.
    const std::size_t n = t.groups.size();
    for (std::size_t g = 0; g < n; ++g) t.groups.push_back(t.groups[g]);
    shared.push_back(std::make_shared<const Tile>(std::move(t)));
  }
  RuntimeWorld w;
  for (const int part : {0, 1, 2})
    for (const auto& tile : shared)
      for (std::uint32_t g = 0; g < tile->groups.size(); ++g) {
        const auto n = static_cast<std::uint32_t>(tile->groups[g].instances.size());
        const std::uint32_t from = n * std::uint32_t(part) / 3, to = n * std::uint32_t(part + 1) / 3;
        w.append(tile, g, from, to - from);
      }
  std::size_t groups = 0;
  for (const auto& tile : shared) groups += tile->groups.size();
  std::size_t segments = 0;
  for (const RuntimeWorld::Type& type : w.types()) segments += type.segments.size();
  EXPECT_EQ(segments, groups);  // one per group: every part found the segment its group began

  RuntimeWorld fresh;  // the same tiles one after another, whole
  for (const auto& tile : shared)
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      fresh.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  EXPECT_EQ(live_slots(w), live_slots(fresh));
  for (const std::size_t gone : {2u, 0u, 3u}) {
    const TileKey key{shared[gone]->x, shared[gone]->z};
    w.remove_tile(key);
    fresh.remove_tile(key);
    EXPECT_EQ(live_slots(w), live_slots(fresh)) << "after removing tile " << gone;
    for (const RuntimeWorld::Type& type : w.types())
      for (const RuntimeWorld::Segment& s : type.segments) EXPECT_NE(s.tile, key);
  }
  EXPECT_EQ(w.instance_count(), shared[1]->instance_count());
}

TEST(Runtime, PoolsMergeTypesReusePagesAndFreeEverything) {
  auto tiles = bake_tiles(test::small_world(400.0));
  ASSERT_EQ(tiles.size(), 4u);
  RuntimeWorld w({150.0, 0.0, 150.0});
  EXPECT_EQ(w.resident_bytes(), 0u);
  std::size_t total = 0;
  std::vector<std::shared_ptr<const Tile>> shared;
  for (Tile& t : tiles) {
    total += t.instance_count();
    shared.push_back(std::make_shared<const Tile>(std::move(t)));
    const auto& tile = shared.back();
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g) {
      const auto n = static_cast<std::uint32_t>(tile->groups[g].instances.size());
      w.append(tile, g, 0, n / 3);  // in parts, as the streamer does under its budget
      w.append(tile, g, n / 3, n - n / 3);
    }
  }
  EXPECT_EQ(w.types().size(), 3u);  // one runtime type per plant type, not per tile
  EXPECT_EQ(w.instance_count(), total);
  std::size_t pages = 0;
  for (const auto& type : w.types()) {
    EXPECT_EQ(type.segments.size(), 4u);  // parts of one group coalesce
    for (const auto& seg : type.segments) {
      // Full pages but the last: a group split over appends still wastes at most one partial page.
      EXPECT_EQ(seg.pages.size(), (seg.count + kPageSlots - 1) / kPageSlots);
      std::uint32_t k = 0;
      for_each_slot(type, seg, [&](std::uint32_t slot) {
        ++k;
        EXPECT_LT(slot, type.slot_count());
      });
      EXPECT_EQ(k, seg.count);
    }
    pages += type.page_count();
  }
  EXPECT_GE(w.resident_bytes(), total * kRuntimeBytesPerInstance);
  // Every page changed once, with its records.
  std::vector<RuntimeWorld::PageChange> changes;
  w.take_changes(changes);
  EXPECT_EQ(changes.size(), pages);
  for (const auto& c : changes) EXPECT_TRUE(c.records);
  w.take_changes(changes);
  EXPECT_TRUE(changes.empty());

  // Rebase equals a fresh pool at the new origin, and rewrites the page tables only.
  RuntimeWorld fresh({-5000.0, 10.0, 9000.0});
  for (const auto& tile : shared)
    for (std::uint32_t g = 0; g < tile->groups.size(); ++g)
      fresh.append(tile, g, 0, static_cast<std::uint32_t>(tile->groups[g].instances.size()));
  w.rebase({-5000.0, 10.0, 9000.0});
  EXPECT_EQ(live_slots(w), live_slots(fresh));
  w.take_changes(changes);
  EXPECT_EQ(changes.size(), pages);
  for (const auto& c : changes) EXPECT_FALSE(c.records);

  // Unloading frees pages; the next tile takes them instead of growing the pool.
  std::vector<std::uint32_t> page_counts;
  for (const auto& type : w.types()) page_counts.push_back(type.page_count());
  w.remove_tile({shared[1]->x, shared[1]->z});
  EXPECT_EQ(w.instance_count(), total - shared[1]->instance_count());
  auto without = live_slots(fresh);
  std::erase_if(without, [&](const auto& kv) {
    return std::get<0>(kv.first) == shared[1]->x && std::get<1>(kv.first) == shared[1]->z;
  });
  EXPECT_EQ(live_slots(w), without);
  for (std::uint32_t g = 0; g < shared[1]->groups.size(); ++g)
    w.append(shared[1], g, 0, static_cast<std::uint32_t>(shared[1]->groups[g].instances.size()));
  EXPECT_EQ(live_slots(w), live_slots(fresh));
  for (std::size_t t = 0; t < w.types().size(); ++t) EXPECT_EQ(w.types()[t].page_count(), page_counts[t]);

  for (const auto& t : shared) w.remove_tile({t->x, t->z});
  EXPECT_EQ(w.instance_count(), 0u);
  EXPECT_EQ(w.types().size(), 3u);  // types keep their index
  for (const auto& type : w.types()) EXPECT_EQ(type.page_count(), 0u);
  EXPECT_EQ(w.resident_bytes(), 0u);
}

}  // namespace
}  // namespace myriad::vegetation
