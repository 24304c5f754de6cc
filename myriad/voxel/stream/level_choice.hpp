// Which level draws each place of a streamed world with far levels: the finest whose data is complete
// there. A level-L block (L >= 2) is drawn when it is ready and its four children are not all covered by
// finer levels; a level-1 block when it is ready, its parent is not drawn and its 2 x 2 columns are not all
// ready; a fine column when it is ready and no coarser block over it is drawn. So a place whose columns
// stream in keeps its coarse block until all of the block's columns can take over together, and no two
// levels draw the same place.
//
// Every answer about a unit depends only on the units under its top-level block (a block of the coarsest
// level and everything below it), so the choice is kept across frames and made again only under the
// top-level blocks where something changed: a unit whose readiness may have changed (changed()), or a
// unit that came within reach as the camera moved. A quiet frame chooses nothing. Answers are kept in a
// square of units around the camera per level (wrapped by unit coordinate); a unit outside it is computed
// from the source whenever asked.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace myriad::voxel {

struct LevelChoiceOptions {
  int levels = 0;      // far levels above the fine columns (0: columns only)
  int fine_reach = 0;  // fine columns chosen around the camera's column (Chebyshev)
  int far_reach = 0;   // blocks chosen around the camera's block at each far level (Chebyshev)
  // Columns around the camera's whose answers are kept (every place the choice and drawn() ask about:
  // the reaches, and the parents and children of what they hold).
  int kept_reach = 0;

  // Throws myriad::Error naming the first invalid field (the constructor calls it).
  void validate() const;
};

// What the choice reads and sets, per level (0: fine columns, L >= 1: far blocks of level L).
class LevelSource {
 public:
  virtual ~LevelSource() = default;
  // The unit's data is complete and current (a unit outside the world counts as ready: nothing to draw).
  virtual bool ready(int level, glm::ivec2 unit) const = 0;
  // Draws the unit or not; called for units within reach whose choice was made again.
  virtual void set_hidden(int level, glm::ivec2 unit, bool hidden) = 0;
};

class LevelChoice {
 public:
  explicit LevelChoice(const LevelChoiceOptions& options);

  // The unit's readiness may have changed since the last choice.
  void changed(int level, glm::ivec2 unit);
  // Everything may have changed: the next choice is made again for every unit within reach.
  void changed_all();

  // Chooses for a camera in `camera_column`: again under every top-level block with a change or with a
  // unit that came within reach, nowhere else. Returns the number of top-level blocks chosen again.
  std::uint32_t choose(glm::ivec2 camera_column, LevelSource& source);

  // Some level draws this column (its own, or a far block over it), as of the last choice.
  bool drawn(glm::ivec2 column, const LevelSource& source) const;
  // Units drawn within reach after the last choice: fine columns, and far blocks of all levels.
  std::uint32_t shown_columns() const { return shown_columns_; }
  std::uint32_t shown_far_blocks() const { return shown_far_blocks_; }
  const LevelChoiceOptions& options() const { return options_; }

 private:
  enum Answer : std::uint8_t { kReady, kCovered, kShown, kAnswers };
  // One level's kept answers: a square of units starting at `origin`, each at (unit mod size).
  struct Kept {
    glm::ivec2 origin{0};
    int size = 0;
    bool placed = false;
    std::vector<std::int8_t> answers;  // kAnswers per unit: -1 unknown, 0, 1
    std::int8_t* find(glm::ivec2 unit);
    void forget(glm::ivec2 unit);
    void move_to(glm::ivec2 new_origin);  // forgets the units that left and whose cells are reused
  };

  template <class Compute>
  bool kept(int level, Answer answer, glm::ivec2 unit, Compute compute) const;
  bool ready(int level, glm::ivec2 unit, const LevelSource& source) const;
  bool covered(int level, glm::ivec2 block, const LevelSource& source) const;
  bool shown(int level, glm::ivec2 unit, const LevelSource& source) const;
  glm::ivec2 centre(int level, glm::ivec2 camera_column) const;
  int reach(int level) const { return level == 0 ? options_.fine_reach : options_.far_reach; }
  void mark_entered(glm::ivec2 camera_column);
  void choose_under(glm::ivec2 top, LevelSource& source);
  void count_shown(const LevelSource& source);

  LevelChoiceOptions options_;
  mutable std::vector<Kept> kept_;  // [level]
  std::vector<glm::ivec2> dirty_;   // top-level blocks to choose again
  bool all_ = true;                 // choose every unit within reach (the first choice, changed_all)
  glm::ivec2 camera_column_{0};     // of the last choice
  std::uint32_t shown_columns_ = 0, shown_far_blocks_ = 0;
};

}  // namespace myriad::voxel
