// Streaming along a scripted camera path: the resident set always obeys the radius + hysteresis rule,
// per-update uploads never exceed the budget, memory returns to zero, and a bad tile is skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/vegetation/runtime/streaming.hpp"
#include "test_util.hpp"

namespace myriad::vegetation {
namespace {

constexpr float kTile = 50.0f;

class Streaming : public ::testing::Test {
 protected:
  void SetUp() override {
    BakeOptions o = test::small_world(600.0);
    o.tile_size = kTile;
    for (PlantType& t : o.types) t.spacing *= 2.0f;
    baked_ = bake_to_directory(o, dir_.path);
  }
  StreamingOptions options() const {
    StreamingOptions s;
    s.directory = dir_.path;
    s.tile_size = kTile;
    s.load_radius = 120.0f;
    s.hysteresis = 40.0f;
    s.copy_budget_bytes = 300 * kRuntimeBytesPerInstance;
    s.worker_threads = 2;
    s.render_origin = {300.0, 0.0, 300.0};
    return s;
  }
  // Runs updates until idle, checking the invariants on every frame; returns the frames taken.
  int settle(TileStreamer& s, glm::dvec3 cam, std::size_t budget) {
    for (int frames = 1; frames < 100000; ++frames) {
      const StreamingFrame f = s.update(cam);
      EXPECT_LE(f.copied_bytes, budget);
      max_upload_ = std::max(max_upload_, f.copied_bytes);
      for (TileKey k : s.resident_tiles()) EXPECT_LE(s.tile_distance(k, cam), 160.0);
      if (s.idle()) return frames;
      if (f.copied_bytes == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    ADD_FAILURE() << "streamer never became idle";
    return 0;
  }
  test::TempDir dir_{"stream"};
  BakeSummary baked_;
  std::size_t max_upload_ = 0;
};

TEST_F(Streaming, ScriptedPathObeysRadiusRuleBudgetAndMemory) {
  TileStreamer s(options());
  ASSERT_EQ(s.available().size(), baked_.tiles);
  const std::size_t baseline = s.world().resident_bytes();
  EXPECT_EQ(baseline, 0u);
  std::set<TileKey> model;
  std::size_t multi_frame_uploads = 0;
  for (int step = 0; step <= 60; ++step) {
    // Out along a diagonal, then back along a curve: crosses tile borders both ways.
    const double t = step / 60.0;
    const glm::dvec3 cam =
        t < 0.5 ? glm::dvec3(50.0 + 900.0 * t, 2.0, 80.0 + 700.0 * t)
                : glm::dvec3(500.0 - 600.0 * (t - 0.5), 2.0, 430.0 - 200.0 * std::sin(6.0 * (t - 0.5)));
    const int frames = settle(s, cam, options().copy_budget_bytes);
    multi_frame_uploads += frames > 2;
    std::set<TileKey> next;
    for (TileKey k : s.available()) {
      const double d = s.tile_distance(k, cam);
      if (d <= 120.0 || (model.count(k) && d <= 160.0)) next.insert(k);
    }
    model = next;
    const auto resident = s.resident_tiles();
    ASSERT_EQ(std::set<TileKey>(resident.begin(), resident.end()), model) << "step " << step;
    std::size_t expect = 0;
    for (TileKey k : resident) expect += read_tile(dir_.path / tile_file_name(k.x, k.z)).instance_count();
    ASSERT_EQ(s.world().instance_count(), expect);
  }
  EXPECT_GT(multi_frame_uploads, 0u);  // the budget really spread arrivals over frames
  EXPECT_EQ(max_upload_, options().copy_budget_bytes / kRuntimeBytesPerInstance * kRuntimeBytesPerInstance);
  settle(s, {50000.0, 0.0, 50000.0}, options().copy_budget_bytes);
  EXPECT_TRUE(s.resident_tiles().empty());
  EXPECT_EQ(s.world().resident_bytes(), baseline);
  EXPECT_EQ(s.world().instance_count(), 0u);
  EXPECT_TRUE(s.failures().empty());
}

// The reads in flight are bounded: with one read at a time every update starts at most one, says how many
// wanted tiles wait, nearest first, and the circle still ends whole.
TEST_F(Streaming, BoundedReadsStartNearestFirstAndTheCircleEndsWhole) {
  StreamingOptions o = options();
  o.max_reads_in_flight = 1;
  TileStreamer s(o);
  const glm::dvec3 cam(300.0, 0.0, 300.0);
  std::vector<double> started;  // distance of each tile as it became resident
  std::set<TileKey> seen;
  std::size_t first_deferred = 0;
  for (int frame = 0; frame < 100000; ++frame) {
    const StreamingFrame f = s.update(cam);
    EXPECT_LE(f.requested, 1u);
    if (frame == 0) first_deferred = f.deferred;
    std::vector<double> now;  // tiles that became resident this update
    for (TileKey k : s.resident_tiles())
      if (seen.insert(k).second) now.push_back(s.tile_distance(k, cam));
    std::sort(now.begin(), now.end());
    started.insert(started.end(), now.begin(), now.end());
    if (s.idle()) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ASSERT_TRUE(s.idle());
  std::size_t within = 0;
  for (TileKey k : s.available()) within += s.tile_distance(k, cam) <= 120.0 ? 1 : 0;
  EXPECT_GT(within, 4u);
  EXPECT_EQ(first_deferred, within - 1);  // all but the one read started
  EXPECT_EQ(s.resident_count(), within);
  EXPECT_TRUE(std::is_sorted(started.begin(), started.end()));  // nearest tiles became resident first
}

// A camera that walks, steps back and forth across tile borders and jumps, one update each: after every
// update each available tile within the load radius is held (requested, copying or resident), as a scan
// of the whole ring would find, though the streamer measures only the ring's candidates it keeps.
TEST_F(Streaming, EveryTileWithinTheRadiusIsRequestedOnTheUpdateItComesWithin) {
  StreamingOptions o = options();
  o.max_reads_in_flight = 100000;  // nothing deferred: every wanted tile starts on its update
  o.hysteresis = 10.0f;            // tiles leave and come back within the ring
  TileStreamer s(o);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> step(-70.0, 70.0), anywhere(-200.0, 800.0);
  glm::dvec3 cam(300.0, 2.0, 300.0);
  std::size_t checked = 0, unloaded = 0;
  for (int f = 0; f < 400; ++f) {
    if (f % 50 == 49)
      cam = {anywhere(rng), 2.0, anywhere(rng)};  // a jump
    else
      cam += glm::dvec3(step(rng), 0.0, step(rng) * (f % 2 ? 1.0 : 0.2));
    const StreamingFrame sf = s.update(cam);
    ASSERT_EQ(sf.deferred, 0u);
    unloaded += sf.unloaded;
    for (const TileKey& k : s.available()) {
      if (s.tile_distance(k, cam) > double(o.load_radius)) continue;
      ASSERT_TRUE(s.held(k)) << "update " << f << " tile " << k.x << "," << k.z;
      ++checked;
    }
  }
  EXPECT_GT(checked, 2000u);
  EXPECT_GT(unloaded, 50u);
}

// Paced unloads: after a jump, the tiles left behind go farthest first, about a quarter of the rest per
// update and at least one, and the streamer is not idle until the last has gone; then the same tiles are
// resident as with unloads all at once.
TEST_F(Streaming, PacedUnloadsGoFarthestFirstOverAFewUpdates) {
  StreamingOptions o = options();
  o.unload_spread_frames = 4;
  TileStreamer paced(o);
  TileStreamer at_once(options());
  const glm::dvec3 start(125.0, 2.0, 125.0), jump(480.0, 2.0, 480.0);
  settle(paced, start, o.copy_budget_bytes);
  settle(at_once, start, o.copy_budget_bytes);
  const std::vector<TileKey> before = paced.resident_tiles();
  ASSERT_GT(before.size(), 8u);
  std::size_t far = 0;
  for (const TileKey k : before) far += paced.tile_distance(k, jump) > 160.0 ? 1 : 0;
  ASSERT_EQ(far, before.size());  // every one of them is left behind
  std::size_t left = far, updates = 0;
  double last_distance = std::numeric_limits<double>::infinity();
  while (left > 0) {
    const std::vector<TileKey> held_before = paced.resident_tiles();
    const StreamingFrame f = paced.update(jump);
    ++updates;
    ASSERT_EQ(f.unloaded, std::max<std::size_t>(1, (left + 3) / 4)) << "update " << updates;
    left -= f.unloaded;
    ASSERT_EQ(f.unloads_waiting, left);
    if (left > 0) {
      EXPECT_FALSE(paced.idle());
    }
    // The ones that went were the farthest of those still held.
    double nearest_gone = std::numeric_limits<double>::infinity(), farthest_kept = 0.0;
    for (const TileKey k : before) {
      if (!std::binary_search(held_before.begin(), held_before.end(), k)) continue;
      const double d = paced.tile_distance(k, jump);
      if (paced.held(k)) {
        farthest_kept = std::max(farthest_kept, d);
      } else {
        nearest_gone = std::min(nearest_gone, d);
      }
    }
    EXPECT_GE(nearest_gone, farthest_kept) << "update " << updates;
    EXPECT_LE(nearest_gone, last_distance);
    last_distance = nearest_gone;
  }
  EXPECT_GT(updates, 3u);
  settle(paced, jump, o.copy_budget_bytes);
  settle(at_once, jump, o.copy_budget_bytes);
  EXPECT_EQ(paced.resident_tiles(), at_once.resident_tiles());
  EXPECT_EQ(paced.world().instance_count(), at_once.world().instance_count());
}

TEST_F(Streaming, BadTileIsReportedSkippedAndStreamingContinues) {
  const auto bad = dir_.path / tile_file_name(2, 2);
  std::filesystem::resize_file(bad, std::filesystem::file_size(bad) / 2);
  TileStreamer s(options());
  const glm::dvec3 cam(125.0, 0.0, 125.0);
  settle(s, cam, options().copy_budget_bytes);
  ASSERT_EQ(s.failures().size(), 1u);
  EXPECT_NE(s.failures()[0].message.find("tile_2_2.mveg"), std::string::npos) << s.failures()[0].message;
  const auto resident = s.resident_tiles();
  EXPECT_GT(resident.size(), 8u);
  EXPECT_EQ(std::count(resident.begin(), resident.end(), TileKey{2, 2}), 0);
  settle(s, {140.0, 0.0, 125.0}, options().copy_budget_bytes);  // not retried
  EXPECT_EQ(s.failures().size(), 1u);
}

TEST_F(Streaming, SpreadingCopiesABacklogOverFramesAndKeepsUpWithTheBudget) {
  StreamingOptions o = options();
  o.copy_budget_bytes = 1u << 20;
  o.spread_frames = 8;
  o.spread_min_bytes = 64 * kRuntimeBytesPerInstance;
  TileStreamer s(o);
  std::size_t copying_frames = 0, largest = 0, total = 0;
  for (int frame = 0; frame < 100000; ++frame) {
    const StreamingFrame f = s.update({300.0, 0.0, 300.0});
    copying_frames += f.copied_bytes > 0;
    largest = std::max(largest, f.copied_bytes);
    total += f.copied_bytes;
    if (s.idle()) break;
    if (f.copied_bytes == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ASSERT_TRUE(s.idle());
  // The whole circle would fit one update's budget; spread, no update copies more than an eighth of
  // everything plus the floor, and it takes at least eight updates.
  EXPECT_LT(total, o.copy_budget_bytes);
  EXPECT_GE(copying_frames, 8u);
  EXPECT_LE(largest, total / 8 + o.spread_min_bytes + kRuntimeBytesPerInstance);
  EXPECT_EQ(total, s.world().instance_count() * kRuntimeBytesPerInstance);
}

// Deadline pacing: flying at a steady 1 m per update, every tile within the deadline radius is whole
// on every update, and the copies follow the arrival rate instead of a burst per arrival: the largest
// update copies far less than with the spread share alone.
TEST_F(Streaming, PacingToTheCameraMeetsDeadlinesWithoutBursts) {
  const auto fly = [&](float deadline_radius) {
    StreamingOptions o = options();
    o.copy_budget_bytes = 1u << 20;
    o.spread_frames = 8;
    o.spread_min_bytes = 8 * kRuntimeBytesPerInstance;
    o.deadline_radius = deadline_radius;
    TileStreamer s(o);
    settle(s, {150.0, 0.0, 300.0}, o.copy_budget_bytes);
    std::size_t largest = 0;
    for (int f = 0; f < 300; ++f) {
      const glm::dvec3 cam(150.0 + double(f), 0.0, 300.0);
      const StreamingFrame sf = s.update(cam);
      if (f >= 20) largest = std::max(largest, sf.copied_bytes);
      for (const TileKey& k : s.available()) {
        if (deadline_radius > 0.0f && s.tile_distance(k, cam) <= double(deadline_radius)) {
          EXPECT_TRUE(s.resident(k)) << "update " << f << " tile " << k.x << "," << k.z;
        }
      }
      // Reads finish before the next update: the test is about the copy schedule, not disk speed.
      for (int wait = 0; s.loading() > 0 && wait < 20000; ++wait)
        std::this_thread::sleep_for(std::chrono::microseconds(250));
    }
    return largest;
  };
  const std::size_t paced = fly(70.0f), spread = fly(0.0f);
  EXPECT_GT(paced, 0u);
  EXPECT_LT(double(paced), 0.6 * double(spread)) << "paced " << paced << " spread " << spread;
}

TEST_F(Streaming, TilesDamagedDuringTheFlightAreReportedOnceAndSkipped) {
  TileStreamer s(options());
  settle(s, {75.0, 0.0, 75.0}, options().copy_budget_bytes);
  ASSERT_TRUE(s.failures().empty());
  // While the camera is elsewhere, one tile ahead is cut short and another is overwritten with other
  // bytes of the same length (a copy in progress, a bad disk).
  const auto cut = dir_.path / tile_file_name(9, 9);
  const auto garbage = dir_.path / tile_file_name(10, 9);
  std::filesystem::resize_file(cut, std::filesystem::file_size(cut) / 3);
  {
    std::fstream f(garbage, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    const std::string junk(64, '\x5a');
    f.write(junk.data(), std::streamsize(junk.size()));
  }
  // Fly there and back twice: each damaged tile is reported once, its neighbours stream as usual.
  for (int lap = 0; lap < 2; ++lap) {
    for (double x = 75.0; x <= 525.0; x += 50.0)
      settle(s, {x, 0.0, 75.0 + (x - 75.0)}, options().copy_budget_bytes);
    settle(s, {75.0, 0.0, 75.0}, options().copy_budget_bytes);
  }
  ASSERT_EQ(s.failures().size(), 2u);
  std::set<TileKey> failed;
  for (const TileFailure& f : s.failures()) {
    failed.insert(f.key);
    EXPECT_TRUE(f.message.find("tile_9_9.mveg") != std::string::npos ||
                f.message.find("tile_10_9.mveg") != std::string::npos)
        << f.message;
  }
  EXPECT_EQ(failed, (std::set<TileKey>{{9, 9}, {10, 9}}));
  settle(s, {475.0, 0.0, 475.0}, options().copy_budget_bytes);
  const auto resident = s.resident_tiles();
  EXPECT_GT(resident.size(), 10u);
  EXPECT_EQ(std::count(resident.begin(), resident.end(), TileKey{9, 9}), 0);
  EXPECT_EQ(std::count(resident.begin(), resident.end(), TileKey{10, 9}), 0);
}

TEST_F(Streaming, RenderOriginFollowsTheCameraAndPositionsStayExact) {
  StreamingOptions o = options();
  o.render_origin = {0.0, 0.0, 0.0};
  o.rebase_distance = 150.0;
  TileStreamer s(o);
  int rebases = 0;
  for (double t = 25.0; t <= 575.0; t += 25.0) {
    const glm::dvec3 cam(t, 30.0, 600.0 - t);
    for (int i = 0; i < 20; ++i) {
      const StreamingFrame f = s.update(cam);
      rebases += f.rebased ? 1 : 0;
      const glm::dvec3 d = cam - s.world().render_origin();
      ASSERT_LE(std::hypot(d.x, d.z), 150.0);
      EXPECT_EQ(s.world().render_origin().y, 0.0);
    }
  }
  settle(s, {575.0, 30.0, 25.0}, o.copy_budget_bytes);
  EXPECT_GE(rebases, 3);
  // Every resident instance's translation + origin is its tile-local position + tile origin (in double).
  const glm::dvec3 origin = s.world().render_origin();
  std::size_t checked = 0;
  for (const auto& type : s.world().types())
    for (const auto& seg : type.segments) {
      const Tile tile = read_tile(dir_.path / tile_file_name(seg.tile.x, seg.tile.z));
      const Group& g = tile.groups[seg.group];
      std::uint32_t k = 0;
      for_each_slot(type, seg, [&](std::uint32_t slot) {
        const RuntimeInstance r = type.expand(slot).instance;
        const glm::dvec3 got = origin + glm::dvec3(r.row0.w, r.row1.w, r.row2.w);
        const glm::dvec3 want =
            tile.origin() + glm::dvec3(decode_position(g, g.instances[seg.group_first + k++]));
        ASSERT_LT(glm::length(got - want), 1e-3) << "tile " << seg.tile.x << "," << seg.tile.z;
        ++checked;
      });
    }
  EXPECT_GT(checked, 100u);
}

TEST_F(Streaming, RejectsABudgetBelowOneInstance) {
  StreamingOptions o = options();
  o.copy_budget_bytes = 10;
  EXPECT_THROW(TileStreamer{o}, Error);
}

}  // namespace
}  // namespace myriad::vegetation
