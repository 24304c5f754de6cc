// Far LOD streaming: blocks meshed around a moving camera equal mesh_far_block's, the update lists match
// the resident geometry, far blocks are evicted with the pool bounded, and save files (and refreshes after
// they change) show in the far meshes.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <unistd.h>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/stream/far_stream.hpp"
#include "myriad/voxel/data/material.hpp"
#include "myriad/voxel/stream/stream_world.hpp"
#include "stream_test_support.hpp"

namespace myriad::voxel {
namespace {

using test_support::same;
using test_support::TempDir;

using Key = std::tuple<int, int, int, int>;  // level, block x, block z, sy

// Updates until idle, keeping `geometry` as the renderer would (sections holding geometry); returns the
// sections any update listed as meshed. `busiest` (optional): the most blocks one update took.
std::set<Key> settle(FarStream& s, glm::dvec3 camera, std::set<Key>& geometry, int* busiest = nullptr) {
  std::set<Key> meshed;
  for (int i = 0; i < 100000; ++i) {
    const FarUpdate& u = s.update(camera);
    if (busiest) *busiest = std::max(*busiest, u.blocks_meshed + u.blocks_evicted);
    for (const FarSection& e : u.evicted) geometry.erase({e.level, e.block.x, e.block.y, e.sy});
    for (const FarSection& m : u.meshed) {
      const SectionMesh* mesh = s.mesh(m.level, m.block, m.sy);
      EXPECT_NE(mesh, nullptr);
      if (!mesh) continue;
      meshed.insert({m.level, m.block.x, m.block.y, m.sy});
      if (mesh->vertices.empty())
        geometry.erase({m.level, m.block.x, m.block.y, m.sy});
      else
        geometry.insert({m.level, m.block.x, m.block.y, m.sy});
    }
    if (s.idle()) return meshed;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ADD_FAILURE() << "the far stream did not settle";
  return meshed;
}

int chebyshev(glm::ivec2 d) { return std::max(std::abs(d.x), std::abs(d.y)); }

// Every needed block is ready, nothing is resident beyond its ring by more than one block, the update lists
// gave exactly the resident geometry, and the pool stays within the rings' keep windows.
void check_rings(const FarStream& s, glm::dvec3 camera, const std::set<Key>& geometry) {
  const FarStreamOptions& o = s.options();
  const glm::ivec2 cc{int(std::floor(camera.x / 16)), int(std::floor(camera.z / 16))};
  std::set<Key> resident;
  std::size_t bound = 0;
  for (int level = 1; level <= o.levels; ++level) {
    const int reach = o.radius[std::size_t(level - 1)];
    const int inner = level == 1 ? 0 : (o.radius[std::size_t(level - 2)] - 1) / 2;
    bound += std::size_t((2 * reach + 3) * (2 * reach + 3));
    const glm::ivec2 blocks = far_blocks(o.world_size, level);
    for (int bz = 0; bz < blocks.y; ++bz)
      for (int bx = 0; bx < blocks.x; ++bx) {
        const glm::ivec2 b{bx, bz};
        const int d = chebyshev(b - (cc >> level));
        const bool needed = d <= reach && d >= inner;
        EXPECT_EQ(s.needed(level, b, cc), needed);
        const bool kept = d <= reach + 1 && d >= inner - 1;
        if (needed || !kept) {
          EXPECT_EQ(s.block_ready(level, b), needed) << level << " " << bx << " " << bz;
        }
        for (int sy = 0; sy < s.sections_y(level); ++sy)
          if (const SectionMesh* m = s.mesh(level, b, sy); m && !m->vertices.empty())
            resident.insert({level, bx, bz, sy});
      }
  }
  EXPECT_EQ(resident, geometry);
  const FarStats st = s.stats();
  // Slots in use at once: the keep windows, and jobs whose block left them while it was meshed.
  EXPECT_LE(st.pool_blocks, bound + std::size_t(4 * o.worker_threads));
  EXPECT_LE(st.resident_blocks, st.pool_blocks);
  EXPECT_EQ(st.jobs_in_flight, 0u);
  EXPECT_GT(st.resident_bytes, 0u);
}

// Two levels over a 256 x 32 x 256 world, level 2 from 1 block out, on two threads.
FarStreamOptions two_levels() {
  FarStreamOptions o;
  o.world_size = {256, 32, 256};
  o.levels = 2;
  o.inner_radius = 6;
  o.radius = {3, 3, 3};
  o.worker_threads = 2;
  return o;
}

TEST(FarStream, StreamsAroundMovingCameraLikeMeshFarBlock) {
  const FarStreamOptions o = two_levels();
  FarStream s(o);
  std::set<Key> geometry;
  const glm::dvec3 start{24.0, 20.0, 40.0};
  settle(s, start, geometry);
  check_rings(s, start, geometry);
  EXPECT_FALSE(geometry.empty());
  // Blocks of both levels equal the free function's bytes.
  FarSource src{o.world_size, o.generator, {}};
  FarScratch scratch;
  for (const auto& [level, block] :
       {std::pair{1, glm::ivec2(1, 2)}, std::pair{2, glm::ivec2(1, 2)}, std::pair{2, glm::ivec2(3, 3)}}) {
    ASSERT_TRUE(s.block_ready(level, block)) << level;
    std::vector<SectionMesh> ref(std::size_t(s.sections_y(level)));
    mesh_far_block(src, level, block, o.mesh, scratch, ref);
    for (int sy = 0; sy < s.sections_y(level); ++sy)
      EXPECT_TRUE(same(*s.mesh(level, block, sy), ref[std::size_t(sy)])) << level << " sy " << sy;
  }
  // Across the world: rings follow, far blocks go, the pool stays bounded.
  std::size_t evicted_blocks = 0;
  for (int step = 1; step <= 3; ++step) {
    const glm::dvec3 camera = start + glm::dvec3(step * 52.0, 0.0, step * 48.0);
    settle(s, camera, geometry);
    check_rings(s, camera, geometry);
  }
  for (int level = 1; level <= 2; ++level)
    for (int bz = 0; bz < 4; ++bz)
      for (int bx = 0; bx < 4; ++bx) evicted_blocks += s.block_ready(level, {bx, bz}) ? 0 : 1;
  EXPECT_GT(evicted_blocks, 0u);
}

// Levels mesh into different section counts (a 128-cell world: 4 at level 1, 2 at level 2), and a slot
// or job that served one level serves another later: every block still equals mesh_far_block's, and the
// meshes set aside between them stay within the pool's bound.
TEST(FarStream, SlotsReusedAcrossLevelsHoldTheirLevelsSections) {
  FarStreamOptions o = two_levels();
  o.world_size = {256, 128, 256};
  ASSERT_NE(far_sections_y(128, 1), far_sections_y(128, 2));
  FarStream s(o);
  std::set<Key> geometry;
  FarSource src{o.world_size, o.generator, {}};
  FarScratch scratch;
  std::size_t compared = 0, most_bytes = 0;
  for (int step = 0; step < 8; ++step) {  // out along a diagonal and back: slots freed and taken again
    const double t = step < 4 ? step : 7 - step;
    const glm::dvec3 camera{24.0 + t * 60.0, 100.0, 40.0 + t * 56.0};
    settle(s, camera, geometry);
    check_rings(s, camera, geometry);
    for (int level = 1; level <= 2; ++level)
      for (int bz = 0; bz < 4; ++bz)
        for (int bx = 0; bx < 4; ++bx) {
          if (!s.block_ready(level, {bx, bz})) continue;
          EXPECT_EQ(s.mesh(level, {bx, bz}, s.sections_y(level)), nullptr);
          std::vector<SectionMesh> ref(std::size_t(s.sections_y(level)));
          mesh_far_block(src, level, {bx, bz}, o.mesh, scratch, ref);
          for (int sy = 0; sy < s.sections_y(level); ++sy) {
            EXPECT_TRUE(same(*s.mesh(level, {bx, bz}, sy), ref[std::size_t(sy)]))
                << "step " << step << " level " << level << " block " << bx << "," << bz << " sy " << sy;
            ++compared;
          }
        }
    if (step < 4) most_bytes = std::max(most_bytes, s.stats().resident_bytes);
  }
  EXPECT_GT(compared, 40u);
  // Back where it started: no more memory than on the way out (set-aside meshes are reused, not added).
  EXPECT_LE(s.stats().resident_bytes, most_bytes * 3 / 2);
}

// The collect step's per-update budget: one finished block per update, the same rings in the end.
TEST(FarStream, ACollectBudgetOfOneTakesOneBlockPerUpdate) {
  FarStreamOptions o = two_levels();
  o.max_collects_per_update = 1;
  FarStream s(o);
  std::set<Key> geometry;
  const glm::dvec3 camera{24.0, 20.0, 40.0};
  int busiest = 0;
  settle(s, camera, geometry, &busiest);
  ASSERT_TRUE(s.idle());
  EXPECT_EQ(busiest, 1);
  check_rings(s, camera, geometry);
}

TEST(FarStream, ReadsSaveFilesAndRefreshesColumns) {
  TempDir dir("myriad_far_save");
  FarStreamOptions o;
  o.world_size = {128, 32, 128};
  o.levels = 2;
  o.inner_radius = 4;
  o.radius = {2, 2, 2};
  o.worker_threads = 1;
  o.save_directory = dir.path;
  const glm::dvec3 camera{40.0, 20.0, 40.0};  // column (2, 2): level-1 block (1, 1), level-2 block (0, 0)
  const glm::ivec2 column{5, 4};              // level-1 block (2, 2), level-2 block (1, 1)
  FarStream s(o);
  std::set<Key> geometry;
  settle(s, camera, geometry);
  ASSERT_TRUE(s.block_ready(1, {2, 2}));
  ASSERT_TRUE(s.block_ready(2, {1, 1}));
  std::vector<SectionMesh> before;
  for (int sy = 0; sy < s.sections_y(1); ++sy) before.push_back(*s.mesh(1, {2, 2}, sy));

  // A tall 4 x 4 pillar in the column, saved as StreamWorld saves an edited column.
  const std::size_t cells = std::size_t(o.world_size.y) * 16 * 16;
  std::vector<std::uint8_t> mats(cells), forms(cells);
  ColumnScratch cs;
  generate_column(o.world_size, column, o.generator, {mats.data(), forms.data(), kSectionCells}, cs);
  for (int y = 0; y < o.world_size.y; ++y)
    for (int z = 4; z < 8; ++z)
      for (int x = 4; x < 8; ++x) {
        const std::size_t i = std::size_t(y >> 4) * kSectionCells + std::size_t(cell_index(x, y & 15, z));
        mats[i] = kClay;
        forms[i] = kFormFull;
      }
  write_column_file(column_save_path(dir.path, column), o.world_size, column, o.generator, mats, forms);
  s.refresh_column(column);
  EXPECT_FALSE(s.idle());
  const std::set<Key> meshed = settle(s, camera, geometry);
  check_rings(s, camera, geometry);
  EXPECT_TRUE(meshed.count({1, 2, 2, 0}) || meshed.count({1, 2, 2, 1}));
  EXPECT_TRUE(meshed.count({2, 1, 1, 0}));
  bool differs = false;
  for (int sy = 0; sy < s.sections_y(1); ++sy)
    differs |= !same(before[std::size_t(sy)], *s.mesh(1, {2, 2}, sy));
  EXPECT_TRUE(differs);

  // The same bytes as the free function reading the save file; and a new stream reads it from the start.
  FarSource src{o.world_size, o.generator, dir.path};
  FarScratch scratch;
  FarStreamOptions one = o;
  one.levels = 1;
  FarStream fresh(one);
  std::set<Key> fresh_geometry;
  settle(fresh, camera, fresh_geometry);
  for (int level = 1; level <= 2; ++level) {
    const glm::ivec2 block = column >> level;
    std::vector<SectionMesh> ref(std::size_t(s.sections_y(level)));
    mesh_far_block(src, level, block, o.mesh, scratch, ref);
    for (int sy = 0; sy < s.sections_y(level); ++sy) {
      EXPECT_TRUE(same(*s.mesh(level, block, sy), ref[std::size_t(sy)])) << level << " sy " << sy;
      if (level == 1) {
        EXPECT_TRUE(same(*fresh.mesh(level, block, sy), ref[std::size_t(sy)])) << " sy " << sy;
      }
    }
  }
  // The pillar reaches the top of the coarse world at level 1: a top face at y 16 of the coarse grid.
  bool top = false;
  for (const TerrainVertex& v : s.mesh(1, {2, 2}, 0)->vertices)
    top |= v.py == 16.0f && v.px >= 10.0f && v.px <= 12.0f && v.pz >= 2.0f && v.pz <= 4.0f;
  EXPECT_TRUE(top);
}

TEST(FarStream, RethrowsJobErrors) {
  TempDir dir("myriad_far_corrupt");
  {
    std::ofstream f(column_save_path(dir.path, {8, 8}), std::ios::binary);
    f << "not a column file";
  }
  FarStreamOptions o;
  o.world_size = {256, 32, 256};
  o.levels = 1;
  o.inner_radius = 2;
  o.radius = {2, 2, 2};
  o.save_directory = dir.path;
  FarStream s(o);
  bool thrown = false;
  for (int i = 0; i < 100000 && !thrown; ++i) {
    try {
      s.update({128.0, 0.0, 128.0});
    } catch (const Error& e) {
      thrown = true;
      EXPECT_NE(std::string(e.what()).find("column_8_8"), std::string::npos) << e.what();
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_TRUE(thrown);
  EXPECT_FALSE(s.block_ready(1, {4, 4}));
}

TEST(FarStream, RejectsBadOptions) {
  FarStreamOptions o;
  o.world_size = {256, 32, 256};
  auto with = [&](auto change) {
    FarStreamOptions c = o;
    change(c);
    return c;
  };
  EXPECT_THROW((void)FarStream(with([](FarStreamOptions& c) { c.levels = 0; })), Error);
  EXPECT_THROW((void)FarStream(with([](FarStreamOptions& c) { c.levels = 4; })), Error);
  EXPECT_THROW((void)FarStream(with([](FarStreamOptions& c) { c.radius[1] = 0; })), Error);
  EXPECT_THROW((void)FarStream(with([](FarStreamOptions& c) { c.world_size = {100, 32, 256}; })), Error);
  EXPECT_THROW((void)FarStream(with([](FarStreamOptions& c) { c.inner_radius = 30; })), Error);
  EXPECT_NO_THROW((void)FarStream(with([](FarStreamOptions&) {})));
}

}  // namespace
}  // namespace myriad::voxel
