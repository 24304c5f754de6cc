#include "myriad/voxel/stream/level_choice.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "myriad/core/io/error.hpp"

namespace myriad::voxel {
namespace {

int wrap(int v, int n) {
  const int m = v % n;
  return m < 0 ? m + n : m;
}

bool inside(glm::ivec2 u, glm::ivec2 lo, int size) {
  return u.x >= lo.x && u.y >= lo.y && u.x < lo.x + size && u.y < lo.y + size;
}

}  // namespace

void LevelChoiceOptions::validate() const {
  if (levels < 0 || levels > 16) throw Error("far levels must be 0 to 16", "LevelChoiceOptions::levels");
  if (fine_reach < 0 || far_reach < 0)
    throw Error("reaches must not be negative", "LevelChoiceOptions::fine_reach / far_reach");
  if (kept_reach < fine_reach || kept_reach > 4096)
    throw Error("the kept reach must hold the fine reach and be at most 4096 columns",
                "LevelChoiceOptions::kept_reach");
}

std::int8_t* LevelChoice::Kept::find(glm::ivec2 unit) {
  if (!placed || !inside(unit, origin, size)) return nullptr;
  const std::size_t cell =
      std::size_t(wrap(unit.x, size)) + std::size_t(size) * std::size_t(wrap(unit.y, size));
  return &answers[cell * kAnswers];
}

void LevelChoice::Kept::forget(glm::ivec2 unit) {
  if (std::int8_t* a = find(unit)) std::fill(a, a + kAnswers, std::int8_t(-1));
}

void LevelChoice::Kept::move_to(glm::ivec2 to) {
  const glm::ivec2 from = origin;
  const bool overlap = placed && std::abs(to.x - from.x) < size && std::abs(to.y - from.y) < size;
  origin = to;
  placed = true;
  if (!overlap) {
    std::fill(answers.begin(), answers.end(), std::int8_t(-1));
    return;
  }
  // The cells of units that came into the square held units that left it: forget those.
  for (int y = to.y; y < to.y + size; ++y) {
    const bool row_new = y < from.y || y >= from.y + size;
    const int x_end = to.x + size;
    for (int x = to.x; x < x_end; ++x) {
      if (!row_new && x >= from.x && x < from.x + size) {
        x = from.x + size - 1;  // the old square's span of this row stands
        continue;
      }
      forget({x, y});
    }
  }
}

LevelChoice::LevelChoice(const LevelChoiceOptions& options) : options_(options) {
  options_.validate();
  kept_.resize(std::size_t(options_.levels) + 1);
  for (int level = 0; level <= options_.levels; ++level) {
    Kept& k = kept_[std::size_t(level)];
    k.size = 2 * ((options_.kept_reach >> level) + 2) + 1;
    k.answers.assign(std::size_t(k.size) * std::size_t(k.size) * kAnswers, std::int8_t(-1));
  }
}

void LevelChoice::changed(int level, glm::ivec2 unit) {
  if (level < 0 || level > options_.levels) return;
  dirty_.push_back(unit >> (options_.levels - level));
}

void LevelChoice::changed_all() { all_ = true; }

template <class Compute>
bool LevelChoice::kept(int level, Answer answer, glm::ivec2 unit, Compute compute) const {
  std::int8_t* a = kept_[std::size_t(level)].find(unit);
  if (!a) return compute();
  if (a[answer] < 0) a[answer] = compute() ? 1 : 0;
  return a[answer] != 0;
}

bool LevelChoice::ready(int level, glm::ivec2 unit, const LevelSource& source) const {
  if (level < 0 || level > options_.levels) return false;
  return kept(level, kReady, unit, [&] { return source.ready(level, unit); });
}

bool LevelChoice::covered(int level, glm::ivec2 block, const LevelSource& source) const {
  return kept(level, kCovered, block, [&] {
    for (int dz = 0; dz < 2; ++dz)
      for (int dx = 0; dx < 2; ++dx) {
        const glm::ivec2 child = block * 2 + glm::ivec2(dx, dz);
        const bool child_covered = level - 1 >= 1 && covered(level - 1, child, source);
        if (!child_covered && !ready(level - 1, child, source)) return false;
      }
    return true;
  });
}

bool LevelChoice::shown(int level, glm::ivec2 unit, const LevelSource& source) const {
  if (level < 0 || level > options_.levels) return false;
  return kept(level, kShown, unit, [&] {
    if (shown(level + 1, unit >> 1, source)) return false;  // a coarser block draws the place
    return ready(level, unit, source) && (level == 0 || !covered(level, unit, source));
  });
}

bool LevelChoice::drawn(glm::ivec2 column, const LevelSource& source) const {
  if (ready(0, column, source)) return true;
  for (int level = 1; level <= options_.levels; ++level)
    if (shown(level, column >> level, source)) return true;
  return false;
}

glm::ivec2 LevelChoice::centre(int level, glm::ivec2 camera_column) const { return camera_column >> level; }

// Units in the new reach that were not in the old one: their top-level blocks are chosen again.
void LevelChoice::mark_entered(glm::ivec2 camera_column) {
  for (int level = 0; level <= options_.levels; ++level) {
    const int r = reach(level);
    const glm::ivec2 from = centre(level, camera_column_) - r, to = centre(level, camera_column) - r;
    if (from == to) continue;
    const int size = 2 * r + 1;
    for (int y = to.y; y < to.y + size; ++y)
      for (int x = to.x; x < to.x + size; ++x)
        if (!inside({x, y}, from, size)) changed(level, {x, y});
  }
}

void LevelChoice::choose_under(glm::ivec2 top, LevelSource& source) {
  const int levels = options_.levels;
  for (int level = 0; level <= levels; ++level) {
    const int span = 1 << (levels - level);
    const glm::ivec2 lo = top * span;
    const int r = reach(level);
    const glm::ivec2 c = centre(level, camera_column_);
    const glm::ivec2 from = glm::max(lo, c - r), to = glm::min(lo + span, c + r + 1);
    for (int y = from.y; y < to.y; ++y)
      for (int x = from.x; x < to.x; ++x) source.set_hidden(level, {x, y}, !shown(level, {x, y}, source));
  }
}

void LevelChoice::count_shown(const LevelSource& source) {
  shown_columns_ = shown_far_blocks_ = 0;
  for (int level = 0; level <= options_.levels; ++level) {
    const int r = reach(level);
    const glm::ivec2 c = centre(level, camera_column_);
    std::uint32_t n = 0;
    for (int y = c.y - r; y <= c.y + r; ++y)
      for (int x = c.x - r; x <= c.x + r; ++x) n += shown(level, {x, y}, source) ? 1u : 0u;
    (level == 0 ? shown_columns_ : shown_far_blocks_) += n;
  }
}

std::uint32_t LevelChoice::choose(glm::ivec2 camera_column, LevelSource& source) {
  const int levels = options_.levels;
  // Before the first choice all_ holds: the squares are placed, nothing is marked.
  const bool moved = all_ || camera_column != camera_column_;
  if (moved && !all_) mark_entered(camera_column);
  camera_column_ = camera_column;
  if (moved)
    for (int level = 0; level <= levels; ++level) {
      Kept& k = kept_[std::size_t(level)];
      k.move_to(centre(level, camera_column) - (k.size - 1) / 2);
    }
  if (all_) {
    // Every top-level block over any level's reach.
    dirty_.clear();
    for (Kept& k : kept_) std::fill(k.answers.begin(), k.answers.end(), std::int8_t(-1));
    glm::ivec2 lo(std::numeric_limits<int>::max()), hi(std::numeric_limits<int>::min());
    for (int level = 0; level <= levels; ++level) {
      const glm::ivec2 c = centre(level, camera_column);
      lo = glm::min(lo, (c - reach(level)) >> (levels - level));
      hi = glm::max(hi, (c + reach(level)) >> (levels - level));
    }
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) dirty_.push_back({x, y});
    all_ = false;
  } else {
    if (dirty_.empty()) return 0;
    std::sort(dirty_.begin(), dirty_.end(),
              [](glm::ivec2 a, glm::ivec2 b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
    dirty_.erase(std::unique(dirty_.begin(), dirty_.end()), dirty_.end());
    // What was known under a changed block is forgotten before anything is asked again.
    for (const glm::ivec2 top : dirty_)
      for (int level = 0; level <= levels; ++level) {
        const int span = 1 << (levels - level);
        for (int y = 0; y < span; ++y)
          for (int x = 0; x < span; ++x) kept_[std::size_t(level)].forget(top * span + glm::ivec2(x, y));
      }
  }
  for (const glm::ivec2 top : dirty_) choose_under(top, source);
  const auto chosen = std::uint32_t(dirty_.size());
  dirty_.clear();
  count_shown(source);
  return chosen;
}

}  // namespace myriad::voxel
