// The level choice kept across frames: after any sequence of readiness changes and camera moves, every
// unit within reach is hidden or shown exactly as the rules give when computed from scratch, while a
// quiet frame chooses nothing and a change or a step chooses again only under the blocks it touches.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "myriad/core/io/error.hpp"
#include "myriad/voxel/stream/level_choice.hpp"

namespace myriad::voxel {
namespace {

std::uint64_t key(glm::ivec2 u) { return (std::uint64_t(std::uint32_t(u.x)) << 32) | std::uint32_t(u.y); }

// Readiness from a fixed hash (about three units in four ready), overridden by flips; records every
// hidden flag set.
class GridSource : public LevelSource {
 public:
  explicit GridSource(int levels) : flipped_(std::size_t(levels) + 1), hidden(std::size_t(levels) + 1) {}

  bool ready(int level, glm::ivec2 u) const override {
    // Unsigned arithmetic: the hash wraps instead of overflowing.
    const std::uint32_t h = (std::uint32_t(u.x) * 73856093u) ^ (std::uint32_t(u.y) * 19349663u) ^
                            (std::uint32_t(level) * 83492791u);
    const bool base = h % 4u != 0u;
    const auto& f = flipped_[std::size_t(level)];
    const auto it = f.find(key(u));
    return it == f.end() ? base : base != it->second;
  }
  void set_hidden(int level, glm::ivec2 u, bool h) override {
    hidden[std::size_t(level)][key(u)] = h;
    ++calls;
  }
  void flip(int level, glm::ivec2 u) {
    bool& f = flipped_[std::size_t(level)][key(u)];
    f = !f;
  }

  std::vector<std::unordered_map<std::uint64_t, bool>> flipped_;
  std::vector<std::unordered_map<std::uint64_t, bool>> hidden;
  std::uint64_t calls = 0;
};

// The rules, from scratch (no answers kept).
struct Reference {
  const GridSource& src;
  int levels;
  bool ready(int l, glm::ivec2 u) const { return l >= 0 && l <= levels && src.ready(l, u); }
  bool covered(int l, glm::ivec2 b) const {
    for (int dz = 0; dz < 2; ++dz)
      for (int dx = 0; dx < 2; ++dx) {
        const glm::ivec2 c = b * 2 + glm::ivec2(dx, dz);
        if (!(l - 1 >= 1 && covered(l - 1, c)) && !ready(l - 1, c)) return false;
      }
    return true;
  }
  bool shown(int l, glm::ivec2 u) const {
    if (l > levels) return false;
    if (shown(l + 1, u >> 1)) return false;
    return ready(l, u) && (l == 0 || !covered(l, u));
  }
};

LevelChoiceOptions options_for(int levels) {
  LevelChoiceOptions o;
  o.levels = levels;
  o.fine_reach = 9;
  o.far_reach = 6;
  o.kept_reach = std::max(o.fine_reach + 1, levels > 0 ? (o.far_reach + 3) << levels : 0);
  return o;
}

int reach(const LevelChoiceOptions& o, int level) { return level == 0 ? o.fine_reach : o.far_reach; }

// Every unit within reach carries the flag the rules give; returns the number of units checked.
int expect_matches(const LevelChoice& choice, const GridSource& src, const LevelChoiceOptions& o,
                   glm::ivec2 camera, const std::string& where) {
  const Reference ref{src, o.levels};
  int checked = 0, mismatched = 0;
  std::uint32_t shown_columns = 0, shown_far = 0;
  for (int l = 0; l <= o.levels; ++l) {
    const glm::ivec2 c = camera >> l;
    const int r = reach(o, l);
    for (int y = c.y - r; y <= c.y + r; ++y)
      for (int x = c.x - r; x <= c.x + r; ++x) {
        const bool shown = ref.shown(l, {x, y});
        (l == 0 ? shown_columns : shown_far) += shown ? 1u : 0u;
        const auto it = src.hidden[std::size_t(l)].find(key({x, y}));
        ++checked;
        if (it == src.hidden[std::size_t(l)].end() || it->second == shown) {
          if (++mismatched <= 3) ADD_FAILURE() << where << ": level " << l << " unit " << x << "," << y;
        }
      }
  }
  EXPECT_EQ(mismatched, 0) << where;
  EXPECT_EQ(choice.shown_columns(), shown_columns) << where;
  EXPECT_EQ(choice.shown_far_blocks(), shown_far) << where;
  // The hole count's question, for columns within the fine reach.
  for (int y = camera.y - o.fine_reach; y <= camera.y + o.fine_reach; ++y)
    for (int x = camera.x - o.fine_reach; x <= camera.x + o.fine_reach; ++x) {
      bool drawn = ref.ready(0, {x, y});
      for (int l = 1; l <= o.levels && !drawn; ++l) drawn = ref.shown(l, glm::ivec2(x, y) >> l);
      EXPECT_EQ(choice.drawn({x, y}, src), drawn) << where << ": column " << x << "," << y;
    }
  return checked;
}

TEST(LevelChoice, KeptAcrossChangesAndMovesItMatchesTheRulesFromScratch) {
  for (const int levels : {0, 1, 2, 3}) {
    const LevelChoiceOptions o = options_for(levels);
    GridSource src(levels);
    LevelChoice choice(o);
    std::mt19937 rng(std::uint32_t(7 + levels));
    glm::ivec2 camera(-3, 5);
    EXPECT_GT(choice.choose(camera, src), 0u);
    expect_matches(choice, src, o, camera, "first choice, levels " + std::to_string(levels));
    for (int frame = 0; frame < 300; ++frame) {
      // A few readiness changes near the camera (some outside every reach), reported as they happen.
      const int changes = int(rng() % 6);
      for (int i = 0; i < changes; ++i) {
        const int l = int(rng() % std::uint32_t(levels + 1));
        const int span = (reach(o, l) + 4) * 2 + 1;
        const glm::ivec2 u = (camera >> l) + glm::ivec2(int(rng() % std::uint32_t(span)) - span / 2,
                                                        int(rng() % std::uint32_t(span)) - span / 2);
        src.flip(l, u);
        choice.changed(l, u);
      }
      // Mostly still or one column on, now and then a few columns, once a jump far away.
      const auto m = std::uint32_t(rng() % 20);
      if (m < 4)
        camera += glm::ivec2(int(rng() % 3) - 1, int(rng() % 3) - 1);
      else if (m == 4)
        camera += glm::ivec2(int(rng() % 9) - 4, int(rng() % 9) - 4);
      else if (frame == 150)
        camera += glm::ivec2(500, -700);
      choice.choose(camera, src);
      expect_matches(choice, src, o, camera,
                     "levels " + std::to_string(levels) + " frame " + std::to_string(frame));
      if (HasFailure()) return;
    }
  }
}

TEST(LevelChoice, AQuietFrameChoosesNothingAndAChangeOnlyUnderItsTopBlock) {
  const LevelChoiceOptions o = options_for(2);
  GridSource src(2);
  LevelChoice choice(o);
  const glm::ivec2 camera(10, -4);
  choice.choose(camera, src);
  const std::uint64_t first = src.calls;
  EXPECT_GT(first, 300u);
  EXPECT_EQ(choice.choose(camera, src), 0u);
  EXPECT_EQ(src.calls, first);
  // A column's change: its level-2 block's 4 x 4 columns, 2 x 2 level-1 blocks and itself.
  src.flip(0, camera + glm::ivec2(1, 1));
  choice.changed(0, camera + glm::ivec2(1, 1));
  EXPECT_EQ(choice.choose(camera, src), 1u);
  EXPECT_EQ(src.calls - first, 16u + 4u + 1u);
  expect_matches(choice, src, o, camera, "after one change");
  // A change outside every reach chooses nothing within reach.
  const std::uint64_t before = src.calls;
  choice.changed(0, camera + glm::ivec2(400, 0));
  EXPECT_EQ(choice.choose(camera, src), 1u);
  EXPECT_EQ(src.calls, before);
}

TEST(LevelChoice, AStepIntoTheNextColumnChoosesOnlyWhatCameWithinReach) {
  const LevelChoiceOptions o = options_for(2);
  GridSource src(2);
  LevelChoice choice(o);
  glm::ivec2 camera(0, 0);
  choice.choose(camera, src);
  const std::uint64_t first = src.calls;
  camera.x += 1;  // level 0's reach gains a row; the coarser levels' centres stay
  const std::uint32_t blocks = choice.choose(camera, src);
  EXPECT_GT(blocks, 0u);
  EXPECT_LE(blocks, std::uint32_t((2 * o.fine_reach + 1) / 4 + 2));
  EXPECT_LT(src.calls - first, first / 4);
  expect_matches(choice, src, o, camera, "after a step");
}

TEST(LevelChoice, RejectsBadOptions) {
  LevelChoiceOptions o = options_for(2);
  o.kept_reach = o.fine_reach - 1;
  EXPECT_THROW(LevelChoice{o}, Error);
  o = options_for(2);
  o.levels = -1;
  EXPECT_THROW(LevelChoice{o}, Error);
  o = options_for(2);
  o.far_reach = -1;
  EXPECT_THROW(LevelChoice{o}, Error);
}

}  // namespace
}  // namespace myriad::voxel
